// Google Benchmark entry point that puts the Kokkos configuration, the enabled spaces and
// the OpenMP binding into the JSON "context", so results from different backends and
// machines can be told apart (the pattern of Kokkos' own perf tests).
#include <Kokkos_Core.hpp>
#include <benchmark/benchmark.h>

#include "nbk/report/app_options.hpp"
#include "nbk/core/cli.hpp"
#include "nbk/core/errors.hpp"
#include "nbk/report/run_context.hpp"
#include "registrar.hpp"

int main(int argc, char* argv[]) {
  try {
    nbk::require_usable_device();
  } catch (const nbk::InputError& e) {
    return nbk::report_input_error("nbk_bench", e.what());
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

  const nlohmann::json context = nbk::run_context();  // must outlive the loop over items()
  for (const auto& [key, value] : context.items())
    benchmark::AddCustomContext(key, value.is_string() ? value.get<std::string>() : value.dump());

  nbk::bench::register_all();
  nbk::bench::register_math();
  nbk::bench::register_bounds();
  benchmark::RunSpecifiedBenchmarks();
  nbk::bench::release_problems();
  benchmark::Shutdown();
  return 0;
}
