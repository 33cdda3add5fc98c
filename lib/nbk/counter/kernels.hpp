#pragma once
// Seed 003's atomics lesson: many threads add one to the same counter. Without an atomic,
// each thread's read, add and write can interleave with another's, and updates are lost.
#include <Kokkos_Core.hpp>

#include <cstdint>

#include "nbk/core/compat.hpp"
#include "nbk/core/policy.hpp"

namespace nbk::counter {

template <class Memory>
using Counter = Kokkos::View<Count, Memory>;

template <class Space, class C>
constexpr void check_arguments() {
  static_assert(Kokkos::is_execution_space<Space>::value);
  static_assert(C::rank == 0, "the counter is a rank-0 View");
  static_assert(Kokkos::SpaceAccessibility<Space, typename C::memory_space>::accessible,
                "the counter's memory is not accessible from this execution space");
}

// The document's thread_counter_safe as Kokkos' documentation writes it: a RangePolicy (64-bit
// indices), a KOKKOS_LAMBDA adding 1 to the counter with Kokkos::atomic_add, one increment a call;
// the tuned forms below are functors.
template <class Space, class C>
void plain_increments(const Space& exec, const C& counter, const std::int64_t n) {
  Kokkos::parallel_for("nbk::counter::plain", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                       KOKKOS_LAMBDA(const std::int64_t) { Kokkos::atomic_add(&counter(), Count{1}); });
}

// The document's broken kernel: a plain read-modify-write per index. Through a volatile
// pointer, so that a host compiler keeps one load and one store per increment (as every GPU
// thread does) instead of folding a thread's whole chunk into a single add.
template <class C>
struct RacyIncrement {
  C counter;
  KOKKOS_INLINE_FUNCTION void operator()(Index) const {
    volatile Count* value = counter.data();
    *value = *value + 1;
  }
};

template <class Space, class C>
void racy_increments(const Space& exec, const C& counter, Index increments) {
  check_arguments<Space, C>();
  Kokkos::parallel_for("nbk::counter::racy", range(exec, 0, increments), RacyIncrement<C>{counter});
}

template <class C>
struct AtomicIncrement {
  C counter;
  KOKKOS_INLINE_FUNCTION void operator()(Index) const { Kokkos::atomic_add(counter.data(), Count{1}); }
};

template <class Space, class C>
void atomic_increments(const Space& exec, const C& counter, Index increments) {
  check_arguments<Space, C>();
  Kokkos::parallel_for("nbk::counter::atomic", range(exec, 0, increments), AtomicIncrement<C>{counter});
}

}  // namespace nbk::counter
