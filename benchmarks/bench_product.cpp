// Seed 004's product reducer and log-sum per execution space at the document's size,
// 4,000,000 float64 uniforms. Each iteration is one fenced reduction on resident data; the
// product must be exactly 0 (it underflows) and the log-sum within a relative 1e-12 of the
// exact sum of the host's logarithms.
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "nbk/exact_sum.hpp"
#include "nbk/memory.hpp"
#include "nbk/product.hpp"
#include "nbk/random_data.hpp"
#include "nbk/spaces.hpp"
#include "nbk/timer.hpp"
#include "nbk/verify.hpp"
#include "registry.hpp"

namespace nbk::bench {
namespace {

constexpr std::int64_t kProductSize = 4000000;
constexpr std::uint64_t kProductSeed = 1;

struct ProductData {
  std::vector<double> host;  // outlives Kokkos::finalize, unlike a View
  double host_product = 1.0;
  double log_sum = 0.0;
};
ProductData& product_data(std::int64_t n) {
  static ProductData data;
  if (static_cast<std::int64_t>(data.host.size()) != n) {
    data.host.assign(static_cast<std::size_t>(n), 0.0);
    fill_uniform(data.host.data(), n, kProductSeed);
    data.host_product = product::host_product(data.host.data(), n).value;
    ExactSum logs;
    for (double v : data.host) logs.add(std::log(v));
    data.log_sum = static_cast<double>(logs.value());
  }
  return data;
}

enum class Kernel { prod, log_sum };

template <class Space>
void bm_product(benchmark::State& state, Kernel kernel) {
  const std::int64_t n = state.range(0);
  if (auto why = is_device_space_v<Space> ? device_shortfall(checked_bytes(n, sizeof(double), "product")) : std::string();
      !why.empty()) {
    state.SkipWithError(why.c_str());
    return;
  }
  const ProductData& data = product_data(n);
  const Space exec;
  Kokkos::View<double*, typename Space::memory_space> x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::bench::product"), n);
  Kokkos::deep_copy(exec, x, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(data.host.data(), n));
  nbk::fence(exec, "nbk::bench::product upload");
  auto reduce = [&] { return kernel == Kernel::prod ? product::reduce_product(exec, x) : product::reduce_log_sum(exec, x); };
  const bool underflows = product::product_underflows(data.log_sum);
  auto ok = [&](double r) {
    if (kernel == Kernel::log_sum) return close_relative(r, data.log_sum, 1e-12);
    return underflows ? r == 0.0 : std::fabs(r - data.host_product) <= product::product_tolerance(data.host_product, n);
  };
  bool all_ok = ok(reduce());  // untimed first call
  for (auto _ : state) {
    double result = 0;
    state.SetIterationTime(time_fenced("bench product", [&] { result = reduce(); }));
    all_ok = all_ok && ok(result);
  }
  if (!all_ok) {
    state.SkipWithError("result does not verify");
    return;
  }
  report_traffic(state, read_traffic<double>(static_cast<std::uint64_t>(n)));
}

}  // namespace

void register_product() {
  for_each_enabled_space([](auto tag) {
    using Space = typename decltype(tag)::type;
    const std::string space(space_name<Space>());
    for (auto [name, kernel] : {std::pair{"prod", Kernel::prod}, std::pair{"log-sum", Kernel::log_sum}})
      benchmark::RegisterBenchmark(("product/" + std::string(name) + "/" + space).c_str(), &bm_product<Space>, kernel)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond)
          ->Arg(kProductSize);
  });
}

}  // namespace nbk::bench
