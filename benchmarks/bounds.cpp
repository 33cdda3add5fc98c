// What binds the rows that no memory ceiling explains (issue 58, item 6), measured on one host
// thread with the data in L1: the latency of one dependent floating-point operation, the chain
// an in-order reduction makes. Kokkos::Prod's product is one multiply chain a thread
// (`bound/multiply-chain-f64`: nbk-product's prod row), the document's float sum and the float
// row sums one add chain (`bound/add-chain-f32`: nbk-sum's host-loop, nbk-row-sum's float32
// rows); no compiler may reorder them without -ffast-math. And the throughput of the square
// root in vector lanes (`bound/sqrt-f64`, `-f32`: nbk-l2-norm's blocked row). items_per_second
// is operations a second: a row bound by one takes 1 / that an operation (docs/measured.md).
// Each result is checked exactly (factors and addends of 1, square roots of squares).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "registrar.hpp"

namespace nbk::bench {
namespace {

constexpr std::int64_t elements = 4096;  // 32 KiB of doubles: in any L1 data cache
constexpr std::int64_t passes = 256;     // links a timed iteration: elements x passes

template <class T, class Op>
void bm_chain(benchmark::State& state, Op op, T start, T expected) {
  const std::vector<T> x(elements, T(1));
  T result = start;
  for (auto _ : state) {
    T chain = start;
    for (std::int64_t p = 0; p < passes; ++p) {
      const T* data = x.data();
      benchmark::DoNotOptimize(data);  // a fresh pointer a pass: no pass is folded into another
      for (std::int64_t i = 0; i < elements; ++i) chain = op(chain, data[i]);
    }
    benchmark::DoNotOptimize(chain);
    result = chain;
  }
  if (result != expected) {
    state.SkipWithError(("the chain ended at " + std::to_string(result) + ", not " + std::to_string(expected)).c_str());
    return;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * elements * passes);
}

// y = sqrt(x) over L1-resident arrays, as the compiler vectorizes it (-fno-math-errno): the
// throughput of the square root, which binds the row norms (nbk-l2-norm's blocked row).
template <class T>
void bm_sqrt(benchmark::State& state) {
  std::vector<T> x(elements), y(elements);
  for (std::int64_t i = 0; i < elements; ++i) x[i] = static_cast<T>((i + 1) * (i + 1));
  for (auto _ : state) {
    for (std::int64_t p = 0; p < passes; ++p) {
      const T* __restrict__ in = x.data();
      T* __restrict__ out = y.data();
      benchmark::DoNotOptimize(in);
      for (std::int64_t i = 0; i < elements; ++i) out[i] = std::sqrt(in[i]);
      benchmark::ClobberMemory();
    }
  }
  for (std::int64_t i = 0; i < elements; ++i)
    if (y[i] != static_cast<T>(i + 1)) {
      state.SkipWithError(("sqrt(" + std::to_string(x[i]) + ") gave " + std::to_string(y[i])).c_str());
      return;
    }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * elements * passes);
}

}  // namespace

void register_bounds() {
  const std::string size = "/host/" + std::to_string(elements * passes);
  benchmark::RegisterBenchmark(("bound/multiply-chain-f64" + size).c_str(), [](benchmark::State& state) {
    bm_chain<double>(state, [](double p, double x) { return p * x; }, 1.0, 1.0);
  })->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark(("bound/add-chain-f32" + size).c_str(), [](benchmark::State& state) {
    bm_chain<float>(state, [](float s, float x) { return s + x; }, 0.0f, static_cast<float>(elements * passes));
  })->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark(("bound/add-chain-f64" + size).c_str(), [](benchmark::State& state) {
    bm_chain<double>(state, [](double s, double x) { return s + x; }, 0.0, static_cast<double>(elements * passes));
  })->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark(("bound/sqrt-f64" + size).c_str(), bm_sqrt<double>)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark(("bound/sqrt-f32" + size).c_str(), bm_sqrt<float>)->Unit(benchmark::kMicrosecond);
}

}  // namespace nbk::bench
