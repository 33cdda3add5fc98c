// The PTX check's own counter-example (tests/ptx_atomics.sh): a kernel that atomically adds to
// a long long, which Kokkos 3.4 (atomicCAS for every 64-bit integer but unsigned long long)
// and 4.6 (desul's PTX covers int64_t and uint64_t, i.e. long, not long long) both compile to
// a compare-and-swap loop on CUDA. scripts/ptx_atomics.py must reject this PTX.
#include <Kokkos_Core.hpp>

namespace nbk::ptx_fixture {

void add_to_long_long(const Kokkos::View<long long, Kokkos::CudaSpace>& total, int n) {
  Kokkos::parallel_for(
      "nbk::ptx_fixture::cas_loop", Kokkos::RangePolicy<Kokkos::Cuda>(0, n),
      KOKKOS_LAMBDA(int) { Kokkos::atomic_add(total.data(), 1LL); });
}

}  // namespace nbk::ptx_fixture
