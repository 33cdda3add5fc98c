#pragma once
// Seed 000's workload: add one to every element of an array, in place.
#include <Kokkos_Core.hpp>

#include <cstdint>

#include "nbk/core/fill.hpp"
#include "nbk/core/packed.hpp"
#include "nbk/core/policy.hpp"
#include "nbk/core/reduce.hpp"

namespace nbk {

// The document's convert_to_one as Kokkos' documentation writes it: a RangePolicy (64-bit
// indices), one element a call, the body in place; increment below takes four int32 a GPU thread.
template <class Space, class View>
void plain_increment(const Space& exec, const View& v) {
  const std::int64_t n = v.extent(0);
  Kokkos::parallel_for("nbk::add_one::plain", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                       KOKKOS_LAMBDA(const std::int64_t i) { v(i) += 1; });
}

struct PlusOne {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(T x) const {
    return T(x + 1);
  }
};

// v[i] += 1 for every i: the document's convert_to_one kernel (labelled nbk::add_one), four
// int32 to a GPU thread in 16-byte accesses (nbk/core/packed.hpp says why).
template <class Space, class View, class Code = CodeFor<Space>>
void increment(const Space& exec, const View& v, Code code = {}) {
  update_each("nbk::add_one", exec, v, PlusOne{}, code);
}

template <class View>
struct SumElements {
  View v;
  KOKKOS_INLINE_FUNCTION void operator()(Index i, std::int64_t& partial) const { partial += v(i); }
};

// Sum of all elements in 64 bits, run by `exec`: reads every element once. The managed
// variant uses it on the host as "the host reads the result", which migrates the pages back.
template <class Space, class View>
std::int64_t sum_elements(const Space& exec, const View& v) {
  check_1d_arguments<Space, View>();
  return reduce_into_host<Kokkos::Sum, std::int64_t>(
      "nbk::sum_elements", range(exec, 0, static_cast<Index>(v.extent(0))),
      SumElements<View>{v});
}

}  // namespace nbk
