// A tuned kernel written as a KOKKOS_LAMBDA, run on a host space: in a CUDA build nvcc wraps its host
// side (__nv_hdl_wrapper_t), which scripts/lambda_wrappers.py must report (ctest
// cuda.lambda_wrappers_shown). Compiled in CUDA builds only, linked into nothing.
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace nbk::fixture {

template <class Space, class View>
void tuned_twice(const Space& exec, const View& y) {
  const std::int64_t n = y.extent(0);
  Kokkos::parallel_for("nbk::fixture::tuned_twice", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                       KOKKOS_LAMBDA(const std::int64_t i) { y(i) *= 2; });
}

template void tuned_twice(const Kokkos::Serial&, const Kokkos::View<float*, Kokkos::HostSpace>&);

}  // namespace nbk::fixture
