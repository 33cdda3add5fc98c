#pragma once
// v[i] = value, run by the space that will use v. On a CPU the thread that first writes a
// page decides which NUMA node holds it, so data is first touched with the same space and
// policy as the kernels that read it.
#include <Kokkos_Core.hpp>

#include "nbk/core/policy.hpp"

namespace nbk {

template <class View>
struct Fill {
  View v;
  typename View::const_value_type value;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const { v(i) = value; }
};

template <class Space, class View>
void fill(const Space& exec, const View& v, typename View::const_value_type value) {
  check_1d_arguments<Space, View>();
  Kokkos::parallel_for("nbk::fill", range(exec, 0, static_cast<Index>(v.extent(0))), Fill<View>{v, value});
}

}  // namespace nbk
