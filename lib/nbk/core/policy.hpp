#pragma once
// 64-bit index ranges. The documents' arrays have 2^31 elements, one past INT32_MAX, and
// Kokkos' default index type on CUDA is 32 bits wide: every 1-D kernel here uses these. And the
// team size a host space recommends, for code that splits its work by it.
#include <Kokkos_Core.hpp>

#include <cstdint>

#include "nbk/core/compat.hpp"

namespace nbk {

using Index = std::int64_t;

template <class Space>
using Range = Kokkos::RangePolicy<Space, Kokkos::IndexType<Index>>;

// What a 1-D workload requires of its arguments, checked at compile time.
template <class Space, class View>
constexpr void check_1d_arguments() {
  static_assert(Kokkos::is_execution_space<Space>::value, "the first argument must be an execution space");
  static_assert(Kokkos::is_view<View>::value && View::rank == 1, "the data must be a rank-1 View");
  static_assert(Kokkos::SpaceAccessibility<Space, typename View::memory_space>::accessible,
                "the view's memory is not accessible from this execution space");
}

template <class Space>
Range<Space> range(const Space& exec, Index begin, Index end) {
  return Range<Space>(exec, begin, end);
}

// The team size Kokkos recommends on a host space (one thread, or one per hyperthread of a
// core), at least 1: what Kokkos::AUTO would pick, known before the launch for the code that
// splits its work by it. (A GPU's recommendation depends on the kernel's functor.)
template <class Space>
int host_team_size(const Space& exec) {
  static_assert(!is_device_space_v<Space>, "on a GPU ask with the kernel's functor");
  const int recommended =
      Kokkos::TeamPolicy<Space>(exec, 1, Kokkos::AUTO).team_size_recommended([](const auto&) {}, Kokkos::ParallelForTag());
  return recommended > 1 ? recommended : 1;
}

}  // namespace nbk
