#pragma once
// Seed 003's atomics lesson: many threads add one to the same counter. Without an atomic,
// each thread's read, add and write can interleave with another's, and updates are lost.
#include <Kokkos_Core.hpp>

#include <cstdint>

#include "nbk/core/compat.hpp"
#include "nbk/core/lambda.hpp"
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

// The document's broken kernel: a plain read-modify-write per index. Through a volatile
// pointer, so that a host compiler keeps one load and one store per increment (as every GPU
// thread does) instead of folding a thread's whole chunk into a single add.
template <class Space, class C>
void racy_increments(const Space& exec, const C& counter, Index increments) {
  check_arguments<Space, C>();
  Kokkos::parallel_for(
      "nbk::counter::racy", range(exec, 0, increments), NBK_LAMBDA(exec, (Index) {
        volatile Count* value = counter.data();
        *value = *value + 1;
      }));
}

template <class Space, class C>
void atomic_increments(const Space& exec, const C& counter, Index increments) {
  check_arguments<Space, C>();
  Kokkos::parallel_for(
      "nbk::counter::atomic", range(exec, 0, increments),
      NBK_LAMBDA(exec, (Index) { Kokkos::atomic_add(counter.data(), Count{1}); }));
}

}  // namespace nbk::counter
