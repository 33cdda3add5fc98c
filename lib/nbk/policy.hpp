#pragma once
// 64-bit index ranges. The documents' arrays have 2^31 elements, one past INT32_MAX, and
// Kokkos' default index type on CUDA is 32 bits wide: every 1-D kernel here uses these.
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace nbk {

using Index = std::int64_t;

template <class ExecSpace>
using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Index>>;

template <class ExecSpace>
Range<ExecSpace> range(const ExecSpace& exec, Index begin, Index end) {
  return Range<ExecSpace>(exec, begin, end);
}

}  // namespace nbk
