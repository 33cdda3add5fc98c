#pragma once
// The product's problem (its statement: experiment.cpp): float64 uniforms on [0, 1) for a seed,
// their product on the host in index order and the exact sum of their logarithms.
#include <fmt/format.h>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <ostream>
#include <string>

#include "nbk/core/exact_sum.hpp"
#include "nbk/core/memory.hpp"
#include "nbk/core/random_data.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/notes.hpp"
#include "notes_outline.hpp"  // generated from notes.md (lib/CMakeLists.txt)
#include "nbk/product/kernels.hpp"

namespace nbk::product {

inline constexpr double log_sum_tolerance = 1e-12;  // relative

struct Problem final : exp::Problem {
  Problem(std::int64_t n, std::uint64_t seed_, const exp::Notes& notes)
      : seed(seed_), host(uniform_doubles(n, seed)), product(product::host_product(host.data(), n)) {
    ExactSum logs;
    for (std::int64_t i = 0; i < n; ++i) logs.add(std::log(host(i)));
    log_sum = static_cast<double>(logs.value());
    underflows = product::product_underflows(log_sum);
    if (underflows)
      underflow_text = NBK_PROSE(notes.section, "## When the product underflows")(product::log_smallest_double(),
                                                                                    product.zero_at, n);
  }
  std::uint64_t seed;
  Kokkos::View<double*, Kokkos::HostSpace> host;
  product::HostProduct product;  // in index order, in double
  double log_sum = 0;            // exact sum of the host's std::log values, rounded once
  bool underflows = false;       // the exact product rounds to zero in double
  std::string underflow_text;    // notes.md, section "## When the product underflows", with the figures

  std::int64_t size() const { return static_cast<std::int64_t>(host.extent(0)); }
  void describe(std::ostream& out) const override {
    out << fmt::format("product of {} float64 samples of U[0,1), seed {} ({})\n", size(), seed,
                       format_bytes(static_cast<std::uint64_t>(size()) * sizeof(double)));
    out << fmt::format("sum of log x_i (host std::log, summed exactly) = {:.15g}, so the product is about 10^{:.0f}\n",
                       log_sum, std::floor(log_sum / std::log(10.0)));
    if (underflows)
      out << underflow_text;
    else
      out << fmt::format("The product is representable: host product = {:.17g}.\n", product.value);
  }
  nlohmann::json to_json() const override {
    return {{"element_type", "float64"},
            {"distribution", "U[0,1), 53 random bits from std::mt19937_64 blocks"},
            {"seed", seed},
            {"host_product", product.value},
            {"host_product_zero_at", product.zero_at},
            {"log_sum_reference", log_sum},
            {"underflows", underflows},
            {"log_sum_tolerance", log_sum_tolerance}};
  }
};

}  // namespace nbk::product
