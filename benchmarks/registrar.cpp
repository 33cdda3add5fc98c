// Every experiment of experiments.txt as Google Benchmark families, derived from its
// statement: `experiment/variant/space/size` for each variant at each benchmark size, and
// `experiment/variant+transfers/space/size` where the variant has a with-transfers timing;
// plus the references `probe/{copy,triad,memcpy}/space/elements`. Each iteration is one call
// timed with the spaces it runs on fenced around it (manual time: every space for a device's
// call, the host spaces for a CPU's, as nbk/core/timer.hpp says why); the first call is made before the
// timed loop, results are recorded after each iteration outside the clock, and a benchmark
// whose result does not verify reports an error instead of a time.
#include "registrar.hpp"

#include <memory>
#include <string>

#include "nbk/core/timer.hpp"
#include "nbk/experiment/driver.hpp"
#include "nbk/experiment/registry.hpp"
#include "nbk/report/stream_probe.hpp"

namespace nbk::bench {
namespace {

using exp::Experiment;
using exp::Size;
using exp::Variant;

// The kernel's minimum traffic as Google Benchmark's own rates, over the manual (fenced) time:
// bytes_per_second (SetBytesProcessed; decimal bytes a second in the JSON, printed in binary
// units), items_per_second (elements) and, where flops are counted, flops_per_second, a rate
// counter named like those two. No counter named with its unit ("GB/s" as a rate printed
// "GB/s=3.81k/s"): tools/nbk-compare reads bytes_per_second.
void report_traffic(benchmark::State& state, const Traffic& per_iteration, std::int64_t elements) {
  const auto iterations = static_cast<double>(state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(static_cast<double>(per_iteration.total()) * iterations));
  state.SetItemsProcessed(static_cast<std::int64_t>(static_cast<double>(elements) * iterations));
  if (per_iteration.flops)
    state.counters["flops_per_second"] =
        benchmark::Counter(static_cast<double>(per_iteration.flops) * iterations, benchmark::Counter::kIsRate);
}

// The problem of the benchmark that ran last: consecutive benchmarks of one experiment and
// size share their input and reference instead of making them again. It holds Views, so it
// is released before Kokkos finalizes (release_problems).
struct LastProblem {
  std::string key;
  std::shared_ptr<const exp::Problem> problem;
};
LastProblem& last_problem() {
  static LastProblem last;
  return last;
}

std::shared_ptr<const exp::Problem> problem_for(const Experiment& e, const Size& size) {
  LastProblem& last = last_problem();
  const std::string wanted = e.name + "/" + size.text();
  if (last.key != wanted) {
    last.problem.reset();  // free the last one before making the next
    last.problem = e.make_problem(size, exp::Settings{});
    last.key = wanted;
  }
  return last.problem;
}

void bm_variant(benchmark::State& state, const Experiment& e, const Variant& v, const Size& size, bool transfers) {
  if (const std::string why = exp::shortfall(v, size); !why.empty()) {
    state.SkipWithError(why.c_str());
    return;
  }
  const auto problem = problem_for(e, size);
  const std::unique_ptr<exp::Case> instance = v.make(*problem, size);
  auto call = [&] {
    if (transfers) instance->upload();
    instance->run();
    if (transfers) instance->download();
  };
  const Fences fences = exp::fences_of(v);
  time_fenced("bench first call", call, fences);  // kept out of the steady-state figure
  instance->record();
  for (auto _ : state) {
    state.SetIterationTime(time_fenced("bench", call, fences));
    instance->record();
  }
  if (const exp::Verdict verdict = instance->verdict(); !verdict.ok) {
    state.SkipWithError(("result does not verify: " + verdict.summary).c_str());
    return;
  }
  report_traffic(state, exp::traffic_of(e, v, size), size.elements());
  // Tells tools/nbk-compare that the bound of this call is the host-device link, so its
  // GB/s is not judged against the space's memory copy.
  if (v.device && (transfers || v.call_crosses_link)) state.counters["crosses_link"] = 1;
}

enum class ProbeKernel { copy, triad, memcpy };

template <class Space>
void bm_probe(benchmark::State& state, ProbeKernel kernel) {
  const std::int64_t n = state.range(0);
  if (is_device_space_v<Space>)
    if (const std::string why = device_shortfall(3 * sizeof(double) * static_cast<std::uint64_t>(n)); !why.empty()) {
      state.SkipWithError(why.c_str());
      return;
    }
  StreamProbe<Space> probe(Space(), n);
  auto call = [&] {
    switch (kernel) {
      case ProbeKernel::copy: probe.copy(); break;
      case ProbeKernel::triad: probe.triad(); break;
      case ProbeKernel::memcpy: probe.memcpy_copy(); break;
    }
  };
  time_fenced("probe first call", call, fences_for<Space>);
  for (auto _ : state) state.SetIterationTime(time_fenced("probe", call, fences_for<Space>));
  if ((kernel == ProbeKernel::triad ? probe.triad_errors() : probe.copy_errors()) != 0) {
    state.SkipWithError("result does not verify");
    return;
  }
  report_traffic(state, kernel == ProbeKernel::triad ? triad_traffic<double>(n) : copy_traffic<double>(n), n);
}

}  // namespace

void release_problems() { last_problem() = LastProblem{}; }

void register_all() {
  for (const Experiment& e : exp::all_experiments()) {
    const auto& sizes = e.bench_sizes.empty() ? e.sizes : e.bench_sizes;
    for (const Variant& v : e.variants) {
      // One process: the ranks-* variants of an MPI build are measured by the programs under
      // mpiexec (docs/mpi.md, "More than one device").
      if (v.distributed) continue;
      for (const Size& size : sizes)
        for (const bool transfers : {false, true}) {
          if (transfers && !v.timed_with_transfers) continue;
          const std::string name =
              e.name + "/" + v.name + (transfers ? "+transfers/" : "/") + v.space + "/" + size.text();
          benchmark::RegisterBenchmark(name.c_str(), [&e, &v, size, transfers](benchmark::State& state) {
            bm_variant(state, e, v, size, transfers);
          })->UseManualTime()->Unit(benchmark::kMillisecond);
        }
    }
  }
  for_each_enabled_space([](auto tag) {
    using Space = typename decltype(tag)::type;
    const std::string space(space_name<Space>());
    for (auto [name, kernel] : {std::pair{"copy", ProbeKernel::copy}, std::pair{"triad", ProbeKernel::triad},
                                std::pair{"memcpy", ProbeKernel::memcpy}})
      benchmark::RegisterBenchmark(("probe/" + std::string(name) + "/" + space).c_str(), &bm_probe<Space>, kernel)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond)
          ->Arg(default_probe_elements<Space>());
  });
}

}  // namespace nbk::bench
