#pragma once
// CUDA runtime calls made outside Kokkos go through check_cuda: a failed call throws with
// the call's name and the runtime's message instead of being ignored.
#include <Kokkos_Macros.hpp>

#include <stdexcept>
#include <string>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>

namespace nbk {

inline void check_cuda(cudaError_t status, const char* call) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(call) + " failed: " + cudaGetErrorString(status));
}

}  // namespace nbk

#define NBK_CUDA(call) ::nbk::check_cuda((call), #call)
#endif
