#pragma once
// The vendor's matrix product as the reference for ours, as CUB is for the sum: OpenBLAS's
// sgemm on the host (its own threads, all cores: it is no Kokkos space) and cuBLAS's on a GPU.
// Row-major C = A B; the build defines NBK_HAVE_OPENBLAS and NBK_HAVE_CUBLAS where it found them.
#include <Kokkos_Core.hpp>

#include <stdexcept>
#include <string>

#include "nbk/core/cuda_check.hpp"
#include "nbk/matmul/kernels.hpp"

#if defined(NBK_HAVE_OPENBLAS)
#include <cblas.h>
#endif
#if defined(KOKKOS_ENABLE_CUDA) && defined(NBK_HAVE_CUBLAS)
#include <cublas_v2.h>
#endif

namespace nbk::matmul {

// "host" for OpenBLAS on host memory, or an execution space with the vendor's sgemm.
template <class Space>
inline constexpr bool has_vendor_gemm = false;

template <class Space>
class VendorGemm;

// The vendor's host library's tag: it runs on host memory with threads of its own.
struct Host {};

namespace detail {
// A matrix dimension as the vendors' int, refused past 2^31 rather than truncated.
inline int blas_dimension(std::size_t extent) {
  if (extent > static_cast<std::size_t>(INT32_MAX)) throw std::invalid_argument("BLAS: a dimension above 2^31");
  return static_cast<int>(extent);
}
}  // namespace detail

#if defined(NBK_HAVE_OPENBLAS)
template <>
inline constexpr bool has_vendor_gemm<Host> = true;

template <>
class VendorGemm<Host> {
 public:
  static std::string name() { return "OpenBLAS cblas_sgemm, " + std::to_string(openblas_get_num_threads()) + " threads"; }
  void multiply(const Matrix<Kokkos::HostSpace>& a, const Matrix<Kokkos::HostSpace>& b,
                const Matrix<Kokkos::HostSpace>& c) {
    check_matmul_arguments<Kokkos::DefaultHostExecutionSpace>(a, b, c);
    const int m = detail::blas_dimension(c.extent(0)), n = detail::blas_dimension(a.extent(1)),
              p = detail::blas_dimension(c.extent(1));
    if (m == 0 || p == 0) return;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, p, n, 1.0f, a.data(), n > 0 ? n : 1, b.data(),
                p, 0.0f, c.data(), p);
  }
};
#endif

#if defined(KOKKOS_ENABLE_CUDA) && defined(NBK_HAVE_CUBLAS)
template <>
inline constexpr bool has_vendor_gemm<Kokkos::Cuda> = true;

template <>
class VendorGemm<Kokkos::Cuda> {
 public:
  static std::string name() { return "cuBLAS cublasSgemm"; }
  VendorGemm() {
    if (cublasCreate(&handle_) != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasCreate failed");
  }
  VendorGemm(const VendorGemm&) = delete;
  VendorGemm& operator=(const VendorGemm&) = delete;
  ~VendorGemm() { cublasDestroy(handle_); }
  // cuBLAS is column-major: the row-major C = A B is the column-major C^T = B^T A^T.
  template <class Memory>
  void multiply(const Kokkos::Cuda& exec, const Matrix<Memory>& a, const Matrix<Memory>& b, const Matrix<Memory>& c) {
    check_matmul_arguments<Kokkos::Cuda>(a, b, c);
    const int m = detail::blas_dimension(c.extent(0)), n = detail::blas_dimension(a.extent(1)),
              p = detail::blas_dimension(c.extent(1));
    if (m == 0 || p == 0) return;
    const float one = 1, zero = 0;
    cublasSetStream(handle_, exec.cuda_stream());
    if (cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, p, m, n, &one, b.data(), p, a.data(), n > 0 ? n : 1, &zero,
                    c.data(), p) != CUBLAS_STATUS_SUCCESS)
      throw std::runtime_error("cublasSgemm failed");
  }

 private:
  cublasHandle_t handle_{};
};
#endif

}  // namespace nbk::matmul
