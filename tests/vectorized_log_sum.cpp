// Compiled on its own with GCC's vectorizer report (tests/CMakeLists.txt, math.vectorized.product):
// the report must say that the product's sum of logarithms, on a host space, runs as vector code.
// Its log is inline (lib/nbk/core/host_log.hpp), so no libmvec import can show that.
#include <Kokkos_Core.hpp>

#include "nbk/product/kernels.hpp"

template double nbk::product::reduce_log_sum<Kokkos::DefaultHostExecutionSpace, Kokkos::View<double*, Kokkos::HostSpace>>(
    const Kokkos::DefaultHostExecutionSpace&, const Kokkos::View<double*, Kokkos::HostSpace>&);
