// Seed 000's methods per execution space, plus the copy/triad probe they are compared with.
// Each iteration is one fenced call (manual time); the first call is made before the
// timed loop, so these are steady-state figures. Results are checked after the loop.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "nbk/add_one_variants.hpp"
#include "nbk/memory.hpp"
#include "nbk/spaces.hpp"
#include "nbk/stream_probe.hpp"
#include "registry.hpp"

namespace nbk::bench {
namespace {

// 4 MiB (cache-sized on most CPUs) and 256 MiB (memory-bound everywhere) of int32.
const std::int64_t kAddOneSizes[] = {std::int64_t{1} << 20, std::int64_t{1} << 26};

template <class Variant, class... Args>
void bm_add_one(benchmark::State& state, Args... args) {
  const std::int64_t n = state.range(0);
  Variant variant(args...);
  if (auto why = host_shortfall(variant.host_bytes(n)) + device_shortfall(variant.device_bytes(n)); !why.empty()) {
    state.SkipWithError(why.c_str());
    return;
  }
  variant.prepare(n);
  variant.call();  // first call: kept out of the steady-state figure
  for (auto _ : state) state.SetIterationTime(variant.call());
  if (variant.mismatches() != 0) {
    state.SkipWithError("result does not verify");
    return;
  }
  report_traffic(state, variant.traffic());
}

enum class StreamKernel { copy, triad };

template <class Space>
void bm_probe(benchmark::State& state, StreamKernel kernel) {
  const std::int64_t n = state.range(0);
  using View = Kokkos::View<double*, typename Space::memory_space>;
  const Space exec;
  View a("a", n), b("b", n), c("c", n);
  fill(exec, a, 1.0);
  fill(exec, b, 2.0);
  for (auto _ : state) {
    state.SetIterationTime(time_fenced("probe", [&] {
      if (kernel == StreamKernel::copy)
        stream_copy<Space>(exec, a, c);
      else
        stream_triad<Space>(exec, a, b, c);
    }));
  }
  report_traffic(state, kernel == StreamKernel::copy ? copy_traffic<double>(n) : triad_traffic<double>(n));
}

template <class F>
void add(const std::string& name, F&& f) {
  auto* b = benchmark::RegisterBenchmark(name.c_str(), std::forward<F>(f));
  b->UseManualTime()->Unit(benchmark::kMillisecond);
  for (auto n : kAddOneSizes) b->Arg(n);
}

}  // namespace

void register_add_one() {
  for_each_enabled_space([](auto tag) {
    using Space = typename decltype(tag)::type;
    const std::string space(space_name<Space>());
    add("add_one/resident/" + space, [](benchmark::State& s) { bm_add_one<add_one::Resident<Space>>(s); });
    if constexpr (is_device_space_v<Space>) {
      add("add_one/managed/" + space, [](benchmark::State& s) { bm_add_one<add_one::Managed<Space>>(s, false); });
      add("add_one/managed_prefetch/" + space,
          [](benchmark::State& s) { bm_add_one<add_one::Managed<Space>>(s, true); });
      add("add_one/explicit/" + space, [](benchmark::State& s) { bm_add_one<add_one::Explicit<Space>>(s); });
      add("add_one/split_streams/" + space,
          [](benchmark::State& s) { bm_add_one<add_one::SplitStreams<Space>>(s); });
    }
    const std::int64_t probe_n = default_probe_elements<Space>();
    benchmark::RegisterBenchmark(("probe/copy/" + space).c_str(),
                                 [](benchmark::State& s) { bm_probe<Space>(s, StreamKernel::copy); })
        ->UseManualTime()->Unit(benchmark::kMillisecond)->Arg(probe_n);
    benchmark::RegisterBenchmark(("probe/triad/" + space).c_str(),
                                 [](benchmark::State& s) { bm_probe<Space>(s, StreamKernel::triad); })
        ->UseManualTime()->Unit(benchmark::kMillisecond)->Arg(probe_n);
  });
}

}  // namespace nbk::bench
