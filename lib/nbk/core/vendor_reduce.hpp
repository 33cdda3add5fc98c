#pragma once
// The vendor's reductions, outside Kokkos, as references in the same table: CUB's
// DeviceReduce (shipped with the CUDA toolkit) on a GPU. Other spaces have none
// (has_vendor_reduction is false and the variants are not offered there).
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <stdexcept>
#include <type_traits>

#include "nbk/core/compat.hpp"
#include "nbk/core/cuda_check.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cub/device/device_reduce.cuh>
#endif

namespace nbk {

template <class Space>
inline constexpr bool has_vendor_reduction = false;

// Sum and product of a 1-D View on Space by the vendor's library, with its scratch
// allocated once (by the first call) so that timed calls allocate nothing.
template <class Space>
class VendorReduce {
 public:
  template <class View>
  typename View::non_const_value_type sum(const View&) {
    throw std::logic_error("no vendor reduction on this space");
  }
  template <class View>
  typename View::non_const_value_type product(const View&) {
    throw std::logic_error("no vendor reduction on this space");
  }
};

#if defined(KOKKOS_ENABLE_CUDA)
template <>
inline constexpr bool has_vendor_reduction<Kokkos::Cuda> = true;

namespace vendor_detail {
struct Multiply {
  template <class T>
  __host__ __device__ T operator()(const T& a, const T& b) const {
    return a * b;
  }
};
}  // namespace vendor_detail

template <>
class VendorReduce<Kokkos::Cuda> {
 public:
  template <class View>
  typename View::non_const_value_type sum(const View& x) {
    using T = typename View::non_const_value_type;
    return reduce<T>(x, [&](void* scratch, std::size_t& bytes, T* out) {
      return cub::DeviceReduce::Sum(scratch, bytes, x.data(), out, count(x), exec_.cuda_stream());
    });
  }
  template <class View>
  typename View::non_const_value_type product(const View& x) {
    using T = typename View::non_const_value_type;
    return reduce<T>(x, [&](void* scratch, std::size_t& bytes, T* out) {
      return cub::DeviceReduce::Reduce(scratch, bytes, x.data(), out, count(x), vendor_detail::Multiply{}, T(1),
                                       exec_.cuda_stream());
    });
  }

 private:
  template <class View>
  static std::int64_t count(const View& x) {
    return static_cast<std::int64_t>(x.extent(0));
  }
  // Asks CUB for its scratch size, grows the scratch once, reduces into device memory and
  // copies the one value back.
  template <class T, class View, class Call>
  T reduce(const View&, Call&& call) {
    if (result_.extent(0) < sizeof(T)) result_ = Bytes("nbk::vendor::result", sizeof(T));
    std::size_t bytes = 0;
    NBK_CUDA(call(nullptr, bytes, reinterpret_cast<T*>(result_.data())));
    if (scratch_.extent(0) < bytes) scratch_ = Bytes("nbk::vendor::scratch", bytes);
    NBK_CUDA(call(scratch_.data(), bytes, reinterpret_cast<T*>(result_.data())));
    T value{};
    NBK_CUDA(cudaMemcpyAsync(&value, result_.data(), sizeof(T), cudaMemcpyDeviceToHost, exec_.cuda_stream()));
    nbk::fence(exec_, "nbk::vendor reduce");
    return value;
  }
  using Bytes = Kokkos::View<char*, Kokkos::CudaSpace>;
  Kokkos::Cuda exec_;
  Bytes scratch_, result_;
};
#endif

}  // namespace nbk
