#pragma once
// A kernel's body, written once, as the closure its execution space runs best:
//
//   Kokkos::parallel_for("nbk::x", range(exec, 0, n), NBK_LAMBDA(exec, (Index i) { y(i) = 2 * x(i); }));
//
// Under nvcc, KOKKOS_LAMBDA is an extended __host__ __device__ lambda, and nvcc's host code holds
// such a lambda in a type-erased wrapper (__nv_hdl_wrapper_t) that calls the body through a
// function pointer, element by element: a Serial or OpenMP loop over it can be neither inlined nor
// vectorized (kokkos/kokkos issue 8141). On an H200 machine's 16-core host the CUDA build's CPU rows
// were 1.4-12x slower than a host-only build's, scalar sqrt and expf where the other had vsqrtps
// and libmvec's vectors. NBK_LAMBDA makes two closures of one body, a plain lambda for the host
// spaces and a KOKKOS_LAMBDA for the device spaces, and lambda_for keeps the one that `exec`'s
// space runs; the other is built and dropped at the call (in a build without a device both are
// the same plain lambda). A closure handed to a function that defines an NBK_LAMBDA must not be
// an NBK_LAMBDA (nvcc refuses a lambda type local to a host function as a template argument of
// such a function, even where its extended lambda is dropped): element operations are functors
// (nbk/core/packed.hpp). CI reads the CUDA build's host code for it (tests/CMakeLists.txt,
// "host code of a CUDA build"): no host space instantiates a kernel with nvcc's wrapper, and the
// host loops hold packed instructions and vector math, as a host-only build's do.
#include <Kokkos_Core.hpp>

#include <utility>

#include "nbk/core/compat.hpp"

#define NBK_LAMBDA(exec, ...) ::nbk::lambda_for(exec, [=] __VA_ARGS__, KOKKOS_LAMBDA __VA_ARGS__)

namespace nbk {

template <class Space, class Host, class Device>
auto lambda_for(const Space&, Host&& host, Device&& device) {
  static_assert(Kokkos::is_execution_space<Space>::value, "NBK_LAMBDA's first argument is an execution space");
  if constexpr (is_device_space_v<Space>)
    return std::forward<Device>(device);
  else
    return std::forward<Host>(host);
}

}  // namespace nbk
