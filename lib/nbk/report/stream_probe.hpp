#pragma once
// What bandwidth a space can actually reach, measured in the same run as the kernels it
// judges: BabelStream's copy (c = a) and triad (a = b + s*c) written in Kokkos, and a copy
// that shares no code with Kokkos (cudaMemcpy device-to-device on a GPU; std::memcpy, one
// chunk per OpenMP thread, on a CPU), so that a defect in Kokkos' launch cannot hide in
// the denominator. On a GPU also the host<->device link, from pageable and pinned memory:
// the bound of every variant whose calls include transfers.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "nbk/core/compat.hpp"
#include "nbk/core/cuda_check.hpp"
#include "nbk/core/fill.hpp"
#include "nbk/core/policy.hpp"
#include "nbk/core/timer.hpp"
#include "nbk/core/traffic.hpp"
#include "nbk/core/verify.hpp"
#include "nbk/report/fma_probe.hpp"

#if defined(KOKKOS_ENABLE_OPENMP)
#include <omp.h>
#endif

namespace nbk {

// Host <-> device copies of one buffer, decimal GB/s (bytes moved once).
struct LinkBandwidth {
  std::uint64_t bytes = 0;
  double h2d_pageable = 0, h2d_pinned = 0, d2h_pageable = 0, d2h_pinned = 0;
};

struct ProbeResult {
  std::int64_t elements = 0;  // doubles per array
  int repetitions = 0;
  double copy_gb_per_s = 0;    // Kokkos copy, best run
  double triad_gb_per_s = 0;   // Kokkos triad, best run
  double memcpy_gb_per_s = 0;  // the copy outside Kokkos, best run
  std::string memcpy_name;     // what that copy is
  std::optional<LinkBandwidth> link;  // device spaces only
  FmaThroughput fma_f32, fma_f64;     // the arithmetic limit beside the memory one
  bool verified = false;
};

// Arrays big enough to defeat any cache: 256 MiB each on a CPU, 1 GiB on a GPU.
template <class ExecSpace>
constexpr std::int64_t default_probe_elements() {
  return is_device_space_v<ExecSpace> ? (std::int64_t{1} << 27) : (std::int64_t{1} << 25);
}

template <class ExecSpace>
std::string vendor_copy_name(const ExecSpace& exec) {
  if constexpr (is_device_space_v<ExecSpace>) {
    return "cudaMemcpy device-to-device";
  } else {
#if defined(KOKKOS_ENABLE_OPENMP)
    if constexpr (std::is_same_v<ExecSpace, Kokkos::OpenMP>)
      return "std::memcpy, one chunk per OpenMP thread (" + std::to_string(exec.concurrency()) + ")";
#endif
    (void)exec;
    return "std::memcpy, one thread";
  }
}

// dst[0, bytes) = src[0, bytes) in ExecSpace's memory, without Kokkos.
template <class ExecSpace>
void vendor_copy(const ExecSpace& exec, void* dst, const void* src, std::size_t bytes) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
    NBK_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, exec.cuda_stream()));
    return;
  }
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::OpenMP>) {
    const int threads = exec.concurrency();
    auto* out = static_cast<char*>(dst);
    const auto* in = static_cast<const char*>(src);
#pragma omp parallel num_threads(threads)
    {
      const std::size_t t = static_cast<std::size_t>(omp_get_thread_num());
      const std::size_t p = static_cast<std::size_t>(omp_get_num_threads());
      const std::size_t first = bytes / p * t + std::min(t, bytes % p);
      const std::size_t count = bytes / p + (t < bytes % p ? 1 : 0);
      std::memcpy(out + first, in + first, count);
    }
    return;
  }
#endif
  (void)exec;
  std::memcpy(dst, src, bytes);
}

namespace probe_detail {
inline constexpr double scalar = 0.4;
inline constexpr double a0 = 0.1, b0 = 0.2, c0 = 0.0;
}  // namespace probe_detail

// Three arrays of doubles in ExecSpace's memory and the kernels that stream through them.
// Each kernel has an invariant its result must satisfy, checked on the host afterwards.
template <class ExecSpace>
class StreamProbe {
 public:
  using View = Kokkos::View<double*, typename ExecSpace::memory_space>;

  StreamProbe(const ExecSpace& exec, std::int64_t n)
      : exec_(exec),
        a_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::probe::a"), n),
        b_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::probe::b"), n),
        c_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::probe::c"), n) {
    fill(exec_, a_, probe_detail::a0);
    fill(exec_, b_, probe_detail::b0);
    fill(exec_, c_, probe_detail::c0);
    nbk::fence(exec_, "nbk::probe first touch");
  }

  std::int64_t size() const { return static_cast<std::int64_t>(a_.extent(0)); }

  void copy() {
    const View a = a_, c = c_;
    Kokkos::parallel_for(
        "nbk::probe::copy", range(exec_, 0, size()), KOKKOS_LAMBDA(Index i) { c(i) = a(i); });
  }
  void triad() {
    const View a = a_, b = b_, c = c_;
    const double s = probe_detail::scalar;
    Kokkos::parallel_for(
        "nbk::probe::triad", range(exec_, 0, size()), KOKKOS_LAMBDA(Index i) { a(i) = b(i) + s * c(i); });
  }
  void memcpy_copy() { vendor_copy(exec_, c_.data(), a_.data(), static_cast<std::size_t>(size()) * sizeof(double)); }

  // Elements where c != a (after a copy) or a != b + s c (after a triad: within 1e-15,
  // since a GPU may fuse the multiply-add). A kernel that did not run fails: the arrays
  // start as a = 0.1, b = 0.2, c = 0.
  std::int64_t copy_errors() const {
    auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a_);
    auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c_);
    std::int64_t bad = 0;
    for (std::int64_t i = 0; i < size(); ++i) bad += c(i) != a(i);
    return bad;
  }
  std::int64_t triad_errors() const {
    auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a_);
    auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b_);
    auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c_);
    std::int64_t bad = 0;
    for (std::int64_t i = 0; i < size(); ++i)
      bad += !close_relative(a(i), b(i) + probe_detail::scalar * c(i), 1e-15) || a(i) == probe_detail::a0;
    return bad;
  }

  const ExecSpace& space() const { return exec_; }
  const View& source() const { return a_; }

 private:
  ExecSpace exec_;
  View a_, b_, c_;
};

// Best host<->device copy of `view` from pageable and from pinned host memory.
template <class ExecSpace, class View>
LinkBandwidth measure_link(const ExecSpace& exec, const View& view, int repetitions) {
  LinkBandwidth link;
  link.bytes = static_cast<std::uint64_t>(view.extent(0)) * sizeof(typename View::value_type);
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
    std::vector<char> pageable(link.bytes, 1);  // touched: its pages exist before timing
    void* pinned = nullptr;
    NBK_CUDA(cudaMallocHost(&pinned, link.bytes));
    std::memset(pinned, 1, link.bytes);
    void* device = view.data();
    auto best = [&](const char* label, void* dst, const void* src, cudaMemcpyKind kind) {
      double seconds = 1e300;
      for (int rep = 0; rep <= repetitions; ++rep) {
        const double t = time_fenced(label, [&] {
          NBK_CUDA(cudaMemcpyAsync(dst, src, link.bytes, kind, exec.cuda_stream()));
        });
        if (rep > 0) seconds = std::min(seconds, t);
      }
      return Traffic{link.bytes, 0}.gb_per_s(seconds);
    };
    link.h2d_pageable = best("link h2d pageable", device, pageable.data(), cudaMemcpyHostToDevice);
    link.h2d_pinned = best("link h2d pinned", device, pinned, cudaMemcpyHostToDevice);
    link.d2h_pageable = best("link d2h pageable", pageable.data(), device, cudaMemcpyDeviceToHost);
    link.d2h_pinned = best("link d2h pinned", pinned, device, cudaMemcpyDeviceToHost);
    NBK_CUDA(cudaFreeHost(pinned));
  }
#endif
  (void)exec, (void)repetitions;
  return link;
}

// Every reference of one space, best of `repetitions` after one untimed round (page faults,
// thread start-up and module load stay out of the figures), each result checked.
template <class ExecSpace>
ProbeResult probe_bandwidth(const ExecSpace& exec, std::int64_t n = default_probe_elements<ExecSpace>(),
                            int repetitions = 10) {
  StreamProbe<ExecSpace> probe(exec, n);
  double best_copy = 1e300, best_triad = 1e300, best_memcpy = 1e300;
  std::int64_t errors = 0;
  for (int rep = 0; rep <= repetitions; ++rep) {
    const double t_memcpy = time_fenced("probe memcpy", [&] { probe.memcpy_copy(); });
    if (rep == repetitions) errors += probe.copy_errors();
    const double t_copy = time_fenced("probe copy", [&] { probe.copy(); });
    if (rep == repetitions) errors += probe.copy_errors();
    const double t_triad = time_fenced("probe triad", [&] { probe.triad(); });
    if (rep == repetitions) errors += probe.triad_errors();
    if (rep == 0) continue;
    best_copy = std::min(best_copy, t_copy);
    best_triad = std::min(best_triad, t_triad);
    best_memcpy = std::min(best_memcpy, t_memcpy);
  }

  ProbeResult result;
  result.elements = n;
  result.repetitions = repetitions;
  result.copy_gb_per_s = copy_traffic<double>(n).gb_per_s(best_copy);
  result.triad_gb_per_s = triad_traffic<double>(n).gb_per_s(best_triad);
  result.memcpy_gb_per_s = copy_traffic<double>(n).gb_per_s(best_memcpy);
  result.memcpy_name = vendor_copy_name(exec);
  if constexpr (is_device_space_v<ExecSpace>) result.link = measure_link(exec, probe.source(), repetitions);
  result.verified = (errors == 0);
  return result;
}

}  // namespace nbk
