#include "catalog.hpp"


namespace nbk::add_one {

namespace {

[[maybe_unused]] const char* const no_serial = "Serial is not enabled in this Kokkos";
[[maybe_unused]] const char* const no_openmp = "OpenMP is not enabled in this build (openmp or cuda preset)";
[[maybe_unused]] const char* const no_cuda = "CUDA is not enabled in this build (cuda preset, on a machine with a GPU)";

}  // namespace

std::vector<CatalogEntry> catalog() {
  std::vector<CatalogEntry> entries;
  CatalogEntry serial{"serial", "serial", "none (host memory)", "nothing: pages were first-touched before timing",
                      "njit, 1 CPU: 4.62 s / 629 ms", "", {}};
#if defined(KOKKOS_ENABLE_SERIAL)
  serial.make = [] { return std::make_unique<Resident<Kokkos::Serial>>(); };
#else
  serial.unavailable = no_serial;
#endif
  entries.push_back(serial);

  CatalogEntry openmp{"openmp", "openmp", "none (host memory)",
                      "nothing: pages were first-touched by the same threads before timing", "-", "", {}};
#if defined(KOKKOS_ENABLE_OPENMP)
  openmp.make = [] { return std::make_unique<Resident<Kokkos::OpenMP>>(); };
#else
  openmp.unavailable = no_openmp;
#endif
  entries.push_back(openmp);

  std::vector<CatalogEntry> device = {
      {"cuda-managed", "cuda", "implicit: managed pages migrate to the GPU on fault, back on the host's read",
       "lazy module load / PTX JIT of the kernel", "cuda.jit implicit, 1 GPU: 6.22 s / 2.86 s", "", {}},
      {"cuda-managed-prefetch", "cuda", "implicit, with cudaMemPrefetchAsync to the GPU before the kernel",
       "as cuda-managed", "-", "", {}},
      {"cuda-explicit", "cuda", "explicit: deep_copy in, kernel, deep_copy out (pageable host memory)",
       "lazy module load / PTX JIT of the kernel", "-", "", {}},
      {"cuda-resident", "cuda", "none: data stays on the GPU (the floor for the others)",
       "lazy module load / PTX JIT of the kernel", "-", "", {}},
      {"cuda-split-streams", "cuda",
       "explicit, two halves on two CUDA streams, pinned host memory, copies overlap kernels",
       "lazy module load / PTX JIT of the kernel", "cuda.jit explicit, 2 GPUs: 3.6 s / 3.15 s", "", {}},
  };
#if defined(KOKKOS_ENABLE_CUDA)
  device[0].make = [] { return std::make_unique<Managed<Kokkos::Cuda>>(false); };
  device[1].make = [] { return std::make_unique<Managed<Kokkos::Cuda>>(true); };
  device[2].make = [] { return std::make_unique<Explicit<Kokkos::Cuda>>(); };
  device[3].make = [] { return std::make_unique<Resident<Kokkos::Cuda>>(); };
  device[4].make = [] { return std::make_unique<SplitStreams<Kokkos::Cuda>>(); };
#else
  for (auto& entry : device) entry.unavailable = no_cuda;
#endif
  entries.insert(entries.end(), device.begin(), device.end());
  return entries;
}

}  // namespace nbk::add_one
