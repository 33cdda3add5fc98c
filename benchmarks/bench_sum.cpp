// Seed 001's sum variants per execution space at the document's size, 2^27 - 157 float32
// samples of N(0,1). Each iteration is one fenced reduction on data already in the space's
// memory (manual time); one untimed call comes first. Every result is checked against the
// exact sum with the same tolerance as nbk-sum, and the worst error is reported as a counter.
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

#include "nbk/exact_sum.hpp"
#include "nbk/memory.hpp"
#include "nbk/random_data.hpp"
#include "nbk/spaces.hpp"
#include "nbk/sum.hpp"
#include "nbk/sum_accuracy.hpp"
#include "nbk/timer.hpp"
#include "registry.hpp"

namespace nbk::bench {
namespace {

constexpr std::int64_t kSumSize = (std::int64_t{1} << 27) - 157;
constexpr std::uint64_t kSumSeed = 1;

// The host data and its exact sum, made once per size (the benchmarks all use one size).
// A std::vector, not a View: it outlives Kokkos::finalize.
struct SumData {
  std::vector<float> host;
  ExactSum exact;
  SumScale scale;
};
SumData& sum_data(std::int64_t n) {
  static SumData data;
  if (static_cast<std::int64_t>(data.host.size()) != n) {
    data.host.assign(static_cast<std::size_t>(n), 0.0f);
    fill_standard_normal(data.host.data(), n, kSumSeed);
    data.exact = exact_sum(data.host.data(), n);
    data.scale = sum_scale(data.host.data(), n);
  }
  return data;
}

enum class Variant { host_loop, builtin, tree_host, tree_device, accurate };

template <class Space>
void bm_sum(benchmark::State& state, Variant variant) {
  const std::int64_t n = state.range(0);
  const bool device = is_device_space_v<Space>;
  if (auto why = host_shortfall(checked_bytes(n, 2 * sizeof(float), "sum")) +
                 (device ? device_shortfall(checked_bytes(n, sizeof(float), "sum")) : std::string());
      !why.empty()) {
    state.SkipWithError(why.c_str());
    return;
  }
  SumData& data = sum_data(n);
  const Space exec;
  Kokkos::View<float*, typename Space::memory_space> x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::bench::sum"), n);
  Kokkos::deep_copy(exec, x, Kokkos::View<const float*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(data.host.data(), n));
  nbk::fence(exec, "nbk::bench::sum upload");
  sum::TreeSum<Space> tree(exec, sum::default_tree_shape(exec, n));
  auto reduce = [&]() -> double {
    switch (variant) {
      case Variant::host_loop: return sum::host_loop(data.host.data(), n);
      case Variant::builtin: return sum::builtin_sum(exec, x);
      case Variant::tree_host: return tree.finish_on_host(x);
      case Variant::tree_device: return tree.finish_on_device(x);
      case Variant::accurate: return sum::accurate_sum(exec, x);
    }
    return 0.0;
  };
  const double u = variant == Variant::accurate ? unit_roundoff<double>() : unit_roundoff<float>();
  const double tolerance = sum_tolerance(data.scale, u);
  double worst = std::fabs(static_cast<double>(data.exact.error_of(reduce())));  // untimed first call
  for (auto _ : state) {
    double result = 0;
    state.SetIterationTime(time_fenced("bench sum", [&] { result = reduce(); }));
    worst = std::max(worst, std::fabs(static_cast<double>(data.exact.error_of(result))));
  }
  state.counters["abs_error"] = worst;
  state.counters["tolerance"] = tolerance;
  if (!(worst <= tolerance)) {
    state.SkipWithError("sum outside its tolerance of the exact sum");
    return;
  }
  report_traffic(state, read_traffic<float>(static_cast<std::uint64_t>(n)));
}

void add(const std::string& name, void (*f)(benchmark::State&, Variant), Variant variant) {
  benchmark::RegisterBenchmark(name.c_str(), f, variant)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond)
      ->Arg(kSumSize);
}

}  // namespace

void register_sum() {
  // The document's CPU line: one host thread on the host array (registered once).
  bool host_loop_added = false;
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    const std::string space(space_name<Space>());
    if (!host_loop_added && !is_device_space_v<Space>) {
      add("sum/host-loop/host", &bm_sum<Space>, Variant::host_loop);
      host_loop_added = true;
    }
    add("sum/builtin/" + space, &bm_sum<Space>, Variant::builtin);
    add("sum/tree-host/" + space, &bm_sum<Space>, Variant::tree_host);
    add("sum/tree-device/" + space, &bm_sum<Space>, Variant::tree_device);
    add("sum/accurate/" + space, &bm_sum<Space>, Variant::accurate);
  });
}

}  // namespace nbk::bench
