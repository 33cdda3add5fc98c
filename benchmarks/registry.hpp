#pragma once
// Each bench_*.cpp registers its families here; main() calls every registrar after Kokkos
// is up, so that registration can loop over the enabled execution spaces.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "nbk/traffic.hpp"

namespace nbk::bench {

void register_add_one();
void register_sum();
void register_product();

// Bytes processed (Google Benchmark's own bytes_per_second) and a decimal GB/s counter,
// both from the kernel's minimum traffic per iteration.
inline void report_traffic(benchmark::State& state, const Traffic& per_iteration) {
  const auto bytes = static_cast<double>(per_iteration.total()) * static_cast<double>(state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
  state.counters["GB/s"] = benchmark::Counter(bytes * 1e-9, benchmark::Counter::kIsRate);
}

}  // namespace nbk::bench
