#pragma once
// What bandwidth a space can actually reach, measured in the same run as the kernels it
// judges: BabelStream's copy (c = a) and triad (a = b + s*c) written in Kokkos; an update in
// place (b = b + 1: read and write the same array, as add-one does) and STREAM's Dot (sum of
// a*c: read-only, as a reduction does), so that each kernel is judged by a probe that moves its
// kind of traffic (a copy also reads its destination before writing it on a CPU: three streams
// moved for two counted); and a copy
// that shares no code with Kokkos (cudaMemcpy device-to-device on a GPU; std::memcpy, one
// chunk per OpenMP thread, on a CPU), so that a defect in Kokkos' launch cannot hide in
// the denominator. On a GPU also the host<->device link, from pageable and pinned memory:
// the bound of every variant whose calls include transfers.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <utility>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "nbk/core/allocate.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/cuda_check.hpp"
#include "nbk/core/fill.hpp"
#include "nbk/core/policy.hpp"
#include "nbk/core/timer.hpp"
#include "nbk/core/traffic.hpp"
#include "nbk/core/verify.hpp"
#include "nbk/report/ceilings.hpp"
#include "nbk/report/chain_probe.hpp"
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

// How far a probe's timed runs scatter: median time / best time - 1 (0.03: the median run
// took 3% longer than the best). The best is the reference; the spread says how still it held.
struct ProbeSpread {
  double copy = 0, triad = 0, memcpy = 0, in_place = 0, dot = 0;
  double largest() const { return std::max({copy, triad, memcpy, in_place, dot}); }
};

struct ProbeResult {
  std::int64_t elements = 0;  // doubles per array
  int repetitions = 0;
  double copy_gb_per_s = 0;    // Kokkos copy, best run
  double triad_gb_per_s = 0;   // Kokkos triad, best run
  double memcpy_gb_per_s = 0;  // the copy outside Kokkos, best run
  double in_place_gb_per_s = 0;  // Kokkos b = b + 1 (one array read and written), best run; 0: not measured
  double dot_gb_per_s = 0;       // Kokkos dot of two arrays (read-only), best run; 0: not measured
  ProbeSpread spread;
  std::string memcpy_name;     // what that copy is
  std::optional<LinkBandwidth> link;  // device spaces only
  FmaThroughput fma_f32, fma_f64;     // the arithmetic limit beside the memory one
  ChainLatency chains;                // an in-order reduction's limit (host spaces; zeros: not measured)
  Ceilings ceilings;                  // what judges the rows: a bandwidth per memory level and kind of traffic
  bool verified = false;
  int concurrency = 0;  // threads (CPU) or the space's concurrency when probed
  // Where the figures come from: probed_by the program that measured them, at probed_at_utc
  // (probed_at_epoch_s); from_file empty when this program probed them itself, else the probe
  // file (--probes) they were read from.
  std::string probed_by, probed_at_utc, from_file;
  double probed_at_epoch_s = 0;
};

// Arrays big enough to defeat any cache: 256 MiB each on a CPU, 1 GiB on a GPU.
template <class Space>
constexpr std::int64_t default_probe_elements() {
  return is_device_space_v<Space> ? (std::int64_t{1} << 27) : (std::int64_t{1} << 25);
}

template <class Space>
std::string vendor_copy_name(const Space& exec) {
  if constexpr (is_device_space_v<Space>) {
    return "cudaMemcpy device-to-device";
  } else {
#if defined(KOKKOS_ENABLE_OPENMP)
    if constexpr (std::is_same_v<Space, Kokkos::OpenMP>)
      return "std::memcpy, one chunk per OpenMP thread (" + std::to_string(exec.concurrency()) + ")";
#endif
    (void)exec;
    return "std::memcpy, one thread";
  }
}

// dst[0, bytes) = src[0, bytes) in Space's memory, without Kokkos.
template <class Space>
void vendor_copy(const Space& exec, void* dst, const void* src, std::size_t bytes) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
    NBK_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, exec.cuda_stream()));
    return;
  }
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  if constexpr (std::is_same_v<Space, Kokkos::OpenMP>) {
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

// StreamProbe's kernels, an element a call.
template <class View>
struct Copy {
  View a, c;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const { c(i) = a(i); }
};
template <class View>
struct Triad {
  View a, b, c;
  double s;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const { a(i) = b(i) + s * c(i); }
};
template <class View>
struct InPlace {
  View b;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const { b(i) = b(i) + 1.0; }
};
template <class View>
struct Dot {
  View a, c;
  KOKKOS_INLINE_FUNCTION void operator()(Index i, double& s) const { s += a(i) * c(i); }
};
}  // namespace probe_detail

// Three arrays of doubles in Space's memory and the kernels that stream through them.
// Each kernel has an invariant its result must satisfy, checked on the host afterwards.
template <class Space>
class StreamProbe {
 public:
  using View = Kokkos::View<double*, typename Space::memory_space>;

  StreamProbe(const Space& exec, std::int64_t n)
      : exec_(exec),
        a_(allocate<View>("nbk::probe::a", n)),
        b_(allocate<View>("nbk::probe::b", n)),
        c_(allocate<View>("nbk::probe::c", n)) {
    fill(exec_, a_, probe_detail::a0);
    fill(exec_, b_, probe_detail::b0);
    fill(exec_, c_, probe_detail::c0);
    nbk::fence(exec_, "nbk::probe first touch");
  }

  std::int64_t size() const { return static_cast<std::int64_t>(a_.extent(0)); }

  void copy() { Kokkos::parallel_for("nbk::probe::copy", range(exec_, 0, size()), probe_detail::Copy<View>{a_, c_}); }
  void triad() {
    Kokkos::parallel_for("nbk::probe::triad", range(exec_, 0, size()),
                         probe_detail::Triad<View>{a_, b_, c_, probe_detail::scalar});
  }
  // An update in place: one array read and written (two streams, no write-allocate).
  void in_place() {
    Kokkos::parallel_for("nbk::probe::in_place", range(exec_, 0, size()), probe_detail::InPlace<View>{b_});
    ++in_place_calls_;
  }
  // STREAM's Dot: two arrays read, nothing written that scales with them.
  double dot() {
    double sum = 0;
    Kokkos::parallel_reduce("nbk::probe::dot", range(exec_, 0, size()), probe_detail::Dot<View>{a_, c_}, sum);
    return sum;
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

  // Elements of b that are not b0 plus one per in_place() call (exact: small integers added).
  std::int64_t in_place_errors() const {
    auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b_);
    double expected = probe_detail::b0;
    for (int k = 0; k < in_place_calls_; ++k) expected += 1.0;
    std::int64_t bad = 0;
    for (std::int64_t i = 0; i < size(); ++i) bad += b(i) != expected;
    return bad;
  }
  // Whether `sum` is the dot product of a and c, within the rounding of any order of summation.
  bool dot_agrees(double sum) const {
    auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a_);
    auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c_);
    double exact = 0, magnitude = 0;
    for (std::int64_t i = 0; i < size(); ++i) {
      exact += a(i) * c(i);
      magnitude += std::abs(a(i) * c(i));
    }
    const double bound = 2.0 * static_cast<double>(size() + 1) * 1.2e-16 * magnitude;
    return std::abs(sum - exact) <= bound && magnitude > 0;
  }

  const Space& space() const { return exec_; }
  const View& source() const { return a_; }

 private:
  Space exec_;
  View a_, b_, c_;
  int in_place_calls_ = 0;
};

namespace probe_detail {
// The best of `seconds` and how far their median lies above it (median / best - 1).
inline std::pair<double, double> best_and_spread(std::vector<double> seconds) {
  if (seconds.empty()) return {0, 0};
  std::sort(seconds.begin(), seconds.end());
  const std::size_t mid = seconds.size() / 2;
  const double median = seconds.size() % 2 ? seconds[mid] : 0.5 * (seconds[mid - 1] + seconds[mid]);
  return {seconds.front(), seconds.front() > 0 ? median / seconds.front() - 1 : 0};
}
}  // namespace probe_detail

// Best host<->device copy of `view` from pageable and from pinned host memory.
template <class Space, class View>
LinkBandwidth measure_link(const Space& exec, const View& view, int repetitions) {
  LinkBandwidth link;
  link.bytes = static_cast<std::uint64_t>(view.extent(0)) * sizeof(typename View::value_type);
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
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
// thread start-up and module load stay out of the figures), each result checked, with the
// spread of each probe's timed runs.
template <class Space>
ProbeResult probe_bandwidth(const Space& exec, std::int64_t n = default_probe_elements<Space>(),
                            int repetitions = 10) {
  StreamProbe<Space> probe(exec, n);
  constexpr Fences fences = fences_for<Space>;  // as the rows it is set beside are timed
  std::vector<double> copy, triad, memcpy_times, in_place, dot;
  std::int64_t errors = 0;
  for (int rep = 0; rep <= repetitions; ++rep) {
    const bool last = rep == repetitions;
    const double t_memcpy = time_fenced("probe memcpy", [&] { probe.memcpy_copy(); }, fences);
    if (last) errors += probe.copy_errors();
    const double t_copy = time_fenced("probe copy", [&] { probe.copy(); }, fences);
    if (last) errors += probe.copy_errors();
    const double t_triad = time_fenced("probe triad", [&] { probe.triad(); }, fences);
    if (last) errors += probe.triad_errors();
    const double t_in_place = time_fenced("probe in place", [&] { probe.in_place(); }, fences);
    if (last) errors += probe.in_place_errors();
    double sum = 0;
    const double t_dot = time_fenced("probe dot", [&] { sum = probe.dot(); }, fences);
    if (last) errors += !probe.dot_agrees(sum);
    if (rep == 0) continue;
    copy.push_back(t_copy);
    triad.push_back(t_triad);
    memcpy_times.push_back(t_memcpy);
    in_place.push_back(t_in_place);
    dot.push_back(t_dot);
  }

  ProbeResult result;
  result.elements = n;
  result.repetitions = repetitions;
  const auto [best_copy, spread_copy] = probe_detail::best_and_spread(copy);
  const auto [best_triad, spread_triad] = probe_detail::best_and_spread(triad);
  const auto [best_memcpy, spread_memcpy] = probe_detail::best_and_spread(memcpy_times);
  const auto [best_in_place, spread_in_place] = probe_detail::best_and_spread(in_place);
  const auto [best_dot, spread_dot] = probe_detail::best_and_spread(dot);
  result.copy_gb_per_s = copy_traffic<double>(n).gb_per_s(best_copy);
  result.triad_gb_per_s = triad_traffic<double>(n).gb_per_s(best_triad);
  result.memcpy_gb_per_s = copy_traffic<double>(n).gb_per_s(best_memcpy);
  result.in_place_gb_per_s = read_modify_write_traffic<double>(n).gb_per_s(best_in_place);
  result.dot_gb_per_s = Traffic{2 * static_cast<std::uint64_t>(n) * sizeof(double), 0}.gb_per_s(best_dot);
  result.spread = {spread_copy, spread_triad, spread_memcpy, spread_in_place, spread_dot};
  result.memcpy_name = vendor_copy_name(exec);
  result.concurrency = exec.concurrency();
  if constexpr (is_device_space_v<Space>) result.link = measure_link(exec, probe.source(), repetitions);
  result.verified = (errors == 0);
  return result;
}

}  // namespace nbk
