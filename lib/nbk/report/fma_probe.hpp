#pragma once
// The arithmetic limit of a space, measured in the same run as the kernels it judges, as the
// copy probe measures the memory limit: every work item runs independent chains of fused
// multiply-adds x = x * a + b, enough of them to hide the FMA latency (a dozen vector registers
// on a CPU, eight chains per thread on a GPU), with no memory traffic inside the loop.
// With a = b = 1, passed at run time so the compiler cannot fold them, each chain counts its
// iterations exactly (x stays an integer below 2^24), so the result is checked exactly.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "nbk/core/compat.hpp"
#include "nbk/core/multiply_add.hpp"
#include "nbk/core/policy.hpp"
#include "nbk/core/timer.hpp"

namespace nbk {

namespace fma_detail {
// Chains per work item: vector registers' worth on a CPU (12 registers of the widest vector
// the host code targets, below the 16 of AVX2 so none spills), a few per thread on a GPU.
template <class Space, class T>
constexpr int chains() {
  if constexpr (is_device_space_v<Space>) return 8;
#if defined(__AVX512F__)
  constexpr int vector_bytes = 64;
#elif defined(__AVX__)
  constexpr int vector_bytes = 32;
#else
  constexpr int vector_bytes = 16;
#endif
  return 12 * vector_bytes / static_cast<int>(sizeof(T));
}
// Chain j of item i starts at this integer (exact in float for the sizes used here).
KOKKOS_INLINE_FUNCTION std::int64_t start(std::int64_t item, int chain) { return (item % 64) * 256 + chain; }
}  // namespace fma_detail

struct FmaThroughput {
  double gflop_per_s = 0;  // best of the timed runs, 2 flops per FMA
  std::uint64_t flops = 0;  // per run
  bool verified = false;
};

// Each work item of the probe: its chains, `iterations` FMAs each, summed into sums(i).
template <class Space, class T>
struct FmaChains {
  static constexpr int chains = fma_detail::chains<Space, T>();
  Kokkos::View<double*, typename Space::memory_space> sums;
  int iterations;
  T a, b;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const {
    T x[chains];
    for (int j = 0; j < chains; ++j) x[j] = T(fma_detail::start(i, j));
    for (int r = 0; r < iterations; ++r)
      for (int j = 0; j < chains; ++j) x[j] = multiply_add(x[j], a, b);
    double total = 0;
    for (int j = 0; j < chains; ++j) total += double(x[j]);
    sums(i) = total;
  }
};

template <class Space, class T>
void fma_chains(const Space& exec, const Kokkos::View<double*, typename Space::memory_space>& sums,
                int iterations, T a, T b) {
  Kokkos::parallel_for("nbk::probe::fma", range(exec, 0, static_cast<Index>(sums.extent(0))),
                       FmaChains<Space, T>{sums, iterations, a, b});
}

// One probe of T on Space: `items` work items, `iterations` FMAs per chain; best of
// `repetitions` after an untimed first run.
template <class Space, class T>
FmaThroughput probe_fma(const Space& exec, std::int64_t items, int iterations, int repetitions) {
  static_assert(std::is_floating_point_v<T>, "FMA throughput of float or double");
  constexpr int chains = fma_detail::chains<Space, T>();
  Kokkos::View<double*, typename Space::memory_space> sums("nbk::probe::fma_sums", items);
  // Run-time values the compiler cannot see through: the multiply must happen.
  volatile T one = T(1);
  const T a = one, b = one;
  FmaThroughput result;
  result.flops = 2 * static_cast<std::uint64_t>(items) * chains * static_cast<std::uint64_t>(iterations);
  double best = 1e300;
  for (int rep = 0; rep <= repetitions; ++rep) {
    const double t = time_fenced(
        "probe fma", [&] { fma_chains(exec, sums, iterations, a, b); }, fences_for<Space>);
    if (rep > 0) best = std::min(best, t);
  }
  result.gflop_per_s = static_cast<double>(result.flops) / best * 1e-9;

  // Every chain ends at its start plus the iterations: compared in integers, exactly.
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sums);
  std::int64_t bad = 0;
  for (std::int64_t i = 0; i < items; ++i) {
    std::int64_t expected = 0;
    for (int j = 0; j < chains; ++j) expected += fma_detail::start(i, j) + iterations;
    bad += host(i) != static_cast<double>(expected);
  }
  result.verified = bad == 0;
  return result;
}

// About 2^32 flops a run on a CPU (some 10 ms at a few hundred GFLOP/s), 2^38 on a GPU (a few
// ms at tens of TFLOP/s).
template <class Space>
constexpr std::uint64_t default_fma_flops() {
  return is_device_space_v<Space> ? std::uint64_t{1} << 38 : std::uint64_t{1} << 32;
}

// About `target` flops a run, with several work items per thread, at least 16 iterations each.
template <class Space, class T>
FmaThroughput probe_fma(const Space& exec, std::uint64_t target, int repetitions) {
  constexpr int chains = fma_detail::chains<Space, T>();
  const std::int64_t items = is_device_space_v<Space>
                                 ? std::int64_t{1} << 20
                                 : std::max<std::int64_t>(64, 8 * static_cast<std::int64_t>(exec.concurrency()));
  const std::uint64_t per_iteration = 2 * static_cast<std::uint64_t>(chains) * static_cast<std::uint64_t>(items);
  // Below 2^23 iterations the counts stay exact in float (starts < 2^14 + chains).
  const int iterations = static_cast<int>(std::clamp<std::uint64_t>(target / per_iteration, 16, std::uint64_t{1} << 22));
  return probe_fma<Space, T>(exec, items, iterations, repetitions);
}

}  // namespace nbk
