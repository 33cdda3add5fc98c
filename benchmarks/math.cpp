// The kernels' math functions one by one: exp, log, sin and cos in float and double over 2^20
// elements, as the kernels call them on every space (`math/<fn>-<f32|f64>/<space>/<n>`: nbk::math
// in a parallel_for, vector calls on a host space where the build has them) and as one host
// thread calling scalar libm per element (`math/<fn>-<f32|f64>-libm/host/<n>`), with Gelem/s
// (items_per_second) and bytes_per_second. Each result is checked against the libm loop's, to 8 ulp.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "nbk/core/math_map.hpp"
#include "nbk/core/spaces.hpp"
#include "nbk/core/timer.hpp"
#include "registrar.hpp"

namespace nbk::bench {
namespace {

constexpr std::int64_t elements = std::int64_t{1} << 20;

// Inputs where each function does its full work: exp over its finite range, log over several
// decades, sin and cos over many periods.
template <class T>
std::vector<T> inputs(MathFunction f) {
  const double lo = f == MathFunction::log ? 1e-3 : f == MathFunction::exp ? -80 : -100;
  const double hi = f == MathFunction::log ? 1e3 : f == MathFunction::exp ? 80 : 100;
  std::vector<T> x(elements);
  for (std::int64_t i = 0; i < elements; ++i)
    x[i] = static_cast<T>(lo + (hi - lo) * static_cast<double>((i * 7919) % elements) / elements);
  return x;
}

// Scalar libm, called through a pointer so that no compiler can vectorize it: the baseline.
template <class T>
T (*scalar_libm(MathFunction f))(T) {
  switch (f) {
    case MathFunction::exp: return [](T x) { return std::exp(x); };
    case MathFunction::log: return [](T x) { return std::log(x); };
    case MathFunction::sin: return [](T x) { return std::sin(x); };
    case MathFunction::cos: return [](T x) { return std::cos(x); };
  }
  return nullptr;
}

template <class T>
std::vector<T> libm_loop(MathFunction f, const std::vector<T>& x) {
  T (*volatile fn)(T) = scalar_libm<T>(f);
  std::vector<T> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = fn(x[i]);
  return y;
}

template <class T>
void report(benchmark::State& state) {
  const auto iterations = static_cast<double>(state.iterations());
  state.SetItemsProcessed(static_cast<std::int64_t>(elements * iterations));
  state.SetBytesProcessed(static_cast<std::int64_t>(2 * sizeof(T) * elements * iterations));
}

template <class T>
void bm_libm(benchmark::State& state, MathFunction f) {
  const std::vector<T> x = inputs<T>(f);
  std::vector<T> y;
  for (auto _ : state) state.SetIterationTime(time_fenced("math libm", [&] { y = libm_loop(f, x); }, Fences::host_spaces));
  report<T>(state);
}

template <class Space, class T>
void bm_space(benchmark::State& state, MathFunction f) {
  const std::vector<T> x = inputs<T>(f);
  Kokkos::View<T*, typename Space::memory_space> in("nbk::bench::math in", elements), out("nbk::bench::math out", elements);
  auto host = Kokkos::create_mirror_view(in);
  for (std::int64_t i = 0; i < elements; ++i) host(i) = x[i];
  Kokkos::deep_copy(in, host);
  const Space exec;
  auto call = [&] { math_map(f, exec, in, out); };
  time_fenced("math first call", call, fences_for<Space>);
  for (auto _ : state) state.SetIterationTime(time_fenced("math", call, fences_for<Space>));
  Kokkos::deep_copy(host, out);
  const std::vector<T> expected = libm_loop(f, x);
  const double eps = std::numeric_limits<T>::epsilon();
  for (std::int64_t i = 0; i < elements; ++i)
    if (!(std::fabs(host(i) - expected[i]) <= 8 * eps * std::fabs(expected[i]) + std::numeric_limits<T>::min())) {
      state.SkipWithError(("result does not verify at " + std::to_string(x[i])).c_str());
      return;
    }
  report<T>(state);
}

template <class T>
void register_precision(const char* suffix) {
  for (MathFunction f : math_functions) {
    const std::string family = std::string("math/") + name_of(f) + "-" + suffix;
    benchmark::RegisterBenchmark((family + "-libm/host/" + std::to_string(elements)).c_str(), bm_libm<T>, f)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    for_each_enabled_space([&](auto tag) {
      using Space = typename decltype(tag)::type;
      benchmark::RegisterBenchmark((family + "/" + std::string(space_name<Space>()) + "/" + std::to_string(elements)).c_str(),
                                   bm_space<Space, T>, f)
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    });
  }
}

}  // namespace

void register_math() {
  register_precision<float>("f32");
  register_precision<double>("f64");
}

}  // namespace nbk::bench
