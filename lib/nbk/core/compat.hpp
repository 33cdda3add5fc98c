#pragma once
// The one place that knows which Kokkos we were built against: 3.4.01 (Debian's) and 4.6.01
// (the release), 4.x with or without its deprecated code (Kokkos_ENABLE_DEPRECATED_CODE_4), and
// what Kokkos 5 deprecates (docs/kokkos.md). Nothing outside this header tests KOKKOS_VERSION or
// calls what scripts/kokkos5_api.py refuses elsewhere.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "nbk/core/cuda_check.hpp"
#include "nbk/core/host_vector_math.hpp"

namespace nbk {

// fence(label) arrived in 3.5; labels show up in Kokkos Tools.
inline void fence(const std::string& label) {
#if KOKKOS_VERSION >= 30500
  Kokkos::fence(label);
#else
  (void)label;
  Kokkos::fence();
#endif
}

template <class Space>
void fence(const Space& exec, const std::string& label) {
#if KOKKOS_VERSION >= 30500
  exec.fence(label);
#else
  (void)label;
  exec.fence();
#endif
}

// Every host execution space this Kokkos has, and no device: a CPU row's work is done when they are.
inline void fence_host_spaces(const std::string& label) {
#if defined(KOKKOS_ENABLE_SERIAL)
  fence(Kokkos::Serial(), label);
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  fence(Kokkos::OpenMP(), label);
#endif
}

// The one integer type the suite counts in (counter, histogram, pi): 64 bits, unsigned, and a
// type that Kokkos::atomic_add adds on CUDA with one native instruction (PTX atom/red .add.u64)
// rather than a compare-and-swap loop, which serialises every thread on a contended counter
// (10^6 increments of one counter: 31.6 s a call on an H100, against 0.7 ms native). Which
// 64-bit type that is depends on the Kokkos: 3.4 maps only unsigned long long to CUDA's
// atomicAdd (every other 64-bit integer goes through atomicCAS); 4.x's desul has inline PTX for
// std::uint64_t and std::int64_t (unsigned long and long on LP64) on sm_70 and newer, and takes
// the CAS loop for unsigned long long. scripts/ptx_atomics.py checks the PTX of both builds.
#if KOKKOS_VERSION >= 40000
using Count = std::uint64_t;
#else
using Count = unsigned long long;
#endif
static_assert(sizeof(Count) == 8 && std::is_unsigned_v<Count>);

// Memory both host and device address, migrated page by page on demand: what Numba does
// implicitly when a kernel is handed a NumPy array. SharedSpace exists from 4.0; 3.4 calls
// it CudaUVMSpace. Without a device it is plain host memory.
// Page-locked host memory, needed for copies that overlap kernels.
#if defined(KOKKOS_ENABLE_CUDA)
#if KOKKOS_VERSION >= 40000
using SharedSpace = Kokkos::SharedSpace;
#else
using SharedSpace = Kokkos::CudaUVMSpace;
#endif
using PinnedHostSpace = Kokkos::CudaHostPinnedSpace;
#else
using SharedSpace = Kokkos::HostSpace;
using PinnedHostSpace = Kokkos::HostSpace;
#endif

// True when Space runs on a GPU (its memory is not the host's).
template <class Space>
inline constexpr bool is_device_space_v =
    !Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                typename Space::memory_space>::accessible;

// A mirror of `view` in `space`, not initialized (argument order changed in 3.6).
template <class Space, class View>
auto create_mirror_view_uninit(const Space& space, const View& view) {
#if KOKKOS_VERSION >= 30600
  return Kokkos::create_mirror_view(Kokkos::WithoutInitializing, space, view);
#else
  return Kokkos::create_mirror_view(space, view, Kokkos::WithoutInitializing);
#endif
}

// The type of create_mirror_view_uninit(HostSpace(), view): `view`'s own type where it lives in
// host memory, else a HostSpace copy's. (View::HostMirror, deprecated in Kokkos 5.0, kokkos#8232,
// is the mirror in the view's host_mirror_space instead, which for managed memory is that memory.)
template <class View>
using HostMirrorOf = decltype(create_mirror_view_uninit(Kokkos::HostSpace(), std::declval<const View&>()));

// A random pool (Kokkos::Random_XorShift64_Pool or 1024) of `states` streams seeded with `seed`.
// From 4.7 a constructor takes both, and 5.0 deprecates init (kokkos#8082); 3.4 and 4.6 have no
// such constructor, only a default-constructed pool's init.
template <class Pool>
Pool random_pool(std::uint64_t seed, int states) {
  if constexpr (std::is_constructible_v<Pool, std::uint64_t, std::uint64_t>) {
    return Pool(seed, static_cast<std::uint64_t>(states));
  } else {
    Pool pool;
    pool.init(seed, states);
    return pool;
  }
}

// Ask the driver to migrate managed pages to the device ahead of the kernel that reads
// them (no-op on host spaces). CUDA 13 takes a cudaMemLocation and a flags argument.
template <class Space>
void prefetch_to_device(const Space& exec, const void* ptr, std::size_t bytes) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
    if (bytes == 0) return;
#if CUDART_VERSION >= 13000
    cudaMemLocation location{};
    location.type = cudaMemLocationTypeDevice;
    location.id = exec.cuda_device();
    NBK_CUDA(cudaMemPrefetchAsync(ptr, bytes, location, 0, exec.cuda_stream()));
#else
    NBK_CUDA(cudaMemPrefetchAsync(ptr, bytes, exec.cuda_device(), exec.cuda_stream()));
#endif
    return;
  }
#endif
  (void)exec, (void)ptr, (void)bytes;
}

// `count` independent instances of Space: CUDA streams on a GPU, so that copies on one
// overlap kernels on another; copies of the default instance elsewhere (3.4 has no
// partition_space, and a host space gains nothing from it here).
template <class Space>
class Instances {
 public:
  explicit Instances(int count) {
#if defined(KOKKOS_ENABLE_CUDA)
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
      for (int i = 0; i < count; ++i) {
        cudaStream_t stream{};
        NBK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        streams_.push_back(stream);
        instances_.emplace_back(stream);
      }
      return;
    }
#endif
    instances_.assign(count, Space());
  }
  Instances(const Instances&) = delete;
  Instances& operator=(const Instances&) = delete;
  ~Instances() {
    for (auto& exec : instances_) exec.fence();
    instances_.clear();
#if defined(KOKKOS_ENABLE_CUDA)
    for (auto stream : streams_) cudaStreamDestroy(stream);  // a destructor must not throw
#endif
  }
  const Space& operator[](int i) const { return instances_[i]; }
  int size() const { return static_cast<int>(instances_.size()); }

 private:
  std::vector<Space> instances_;
#if defined(KOKKOS_ENABLE_CUDA)
  std::vector<cudaStream_t> streams_;
#endif
};

// Math functions moved from Kokkos::Experimental to Kokkos in 3.7. exp, log, sin and cos
// come from host_vector_math.hpp where the build vectorizes them on the host.
namespace math {
#if KOKKOS_VERSION >= 30700
namespace kokkos_math = Kokkos;
#else
namespace kokkos_math = Kokkos::Experimental;
#endif
using kokkos_math::fabs;
using kokkos_math::fmax;
using kokkos_math::fmin;
using kokkos_math::sqrt;
#if defined(NBK_HOST_VECTOR_MATH) && defined(KOKKOS_ENABLE_CUDA)
// One inline function, compiled for the host and for the device: each takes its own library.
#if defined(__CUDA_ARCH__)
#define NBK_HOST_OR_DEVICE(name, x) return kokkos_math::name(x)
#else
#define NBK_HOST_OR_DEVICE(name, x) return host_math::name(x)
#endif
KOKKOS_INLINE_FUNCTION float exp(float x) { NBK_HOST_OR_DEVICE(exp, x); }
KOKKOS_INLINE_FUNCTION float log(float x) { NBK_HOST_OR_DEVICE(log, x); }
KOKKOS_INLINE_FUNCTION float sin(float x) { NBK_HOST_OR_DEVICE(sin, x); }
KOKKOS_INLINE_FUNCTION float cos(float x) { NBK_HOST_OR_DEVICE(cos, x); }
KOKKOS_INLINE_FUNCTION double exp(double x) { NBK_HOST_OR_DEVICE(exp, x); }
KOKKOS_INLINE_FUNCTION double log(double x) { NBK_HOST_OR_DEVICE(log, x); }
KOKKOS_INLINE_FUNCTION double sin(double x) { NBK_HOST_OR_DEVICE(sin, x); }
KOKKOS_INLINE_FUNCTION double cos(double x) { NBK_HOST_OR_DEVICE(cos, x); }
#undef NBK_HOST_OR_DEVICE
#elif defined(NBK_HOST_VECTOR_MATH)
using host_math::cos;
using host_math::exp;
using host_math::log;
using host_math::sin;
#else
using kokkos_math::cos;
using kokkos_math::exp;
using kokkos_math::log;
using kokkos_math::sin;
#endif
}  // namespace math

}  // namespace nbk
