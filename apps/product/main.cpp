// Seed 004: the product of 4,000,000 float64 uniforms on [0, 1) with Kokkos' product
// reducer on every enabled space, checked against the host; and the sum of their logarithms,
// the quantity that survives when the product underflows, checked to a relative 1e-12.
#include <Kokkos_Core.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>

#include "nbk/app_options.hpp"
#include "nbk/cli.hpp"
#include "nbk/errors.hpp"
#include "nbk/experiment_main.hpp"
#include "nbk/exact_sum.hpp"
#include "nbk/json_file.hpp"
#include "nbk/memory.hpp"
#include "nbk/product.hpp"
#include "nbk/random_data.hpp"
#include "nbk/repeat.hpp"
#include "nbk/run_context.hpp"
#include "nbk/spaces.hpp"
#include "nbk/probe_report.hpp"
#include "nbk/table.hpp"
#include "nbk/traffic.hpp"
#include "nbk/verify.hpp"

namespace {

using HostData = Kokkos::View<const double*, Kokkos::HostSpace>;

inline constexpr double log_sum_tolerance = 1e-12;  // relative, as the issue asks

using Options = nbk::SampleOptions;

struct Reference {
  nbk::product::HostProduct product;  // in index order, in double
  double log_sum = 0;                 // exact sum of the host's std::log values, rounded once
  bool underflows = false;            // the exact product rounds to zero in double
};

struct Row {
  std::string space;
  std::string skipped;
  double product = 0, log_sum = 0;
  nbk::RepeatedTiming product_time, log_time;
  bool product_ok = false, log_ok = false;
  double log_relative_error = 0;
};

template <class Space>
Row run_space(const HostData& host, const Reference& reference, int repetitions) {
  Row row;
  row.space = std::string(nbk::space_name<Space>());
  const auto n = static_cast<std::int64_t>(host.extent(0));
  if constexpr (nbk::is_device_space_v<Space>) {
    if (auto why = nbk::device_shortfall(static_cast<std::uint64_t>(n) * sizeof(double)); !why.empty()) {
      row.skipped = why;
      return row;
    }
  }
  Space exec;
  Kokkos::View<double*, typename Space::memory_space> x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::product::data"), n);
  Kokkos::deep_copy(exec, x, host);
  nbk::fence(exec, "nbk::product upload");

  // Every call's result is checked, not only the last.
  const double tolerance = nbk::product::product_tolerance(reference.product.value, n);
  bool product_ok = true, log_ok = true;
  double worst_log_error = 0;
  row.product_time = nbk::time_repeated("product " + row.space, repetitions, [&] {
    row.product = nbk::product::reduce_product(exec, x);
    const bool ok = reference.underflows ? row.product == 0.0
                                         : std::fabs(row.product - reference.product.value) <= tolerance;
    product_ok = product_ok && ok;
  });
  row.log_time = nbk::time_repeated("log-sum " + row.space, repetitions, [&] {
    row.log_sum = nbk::product::reduce_log_sum(exec, x);
    const double error = reference.log_sum != 0 ? std::fabs(row.log_sum - reference.log_sum) / std::fabs(reference.log_sum)
                                                 : std::fabs(row.log_sum);
    worst_log_error = std::max(worst_log_error, std::isnan(error) ? INFINITY : error);
    log_ok = log_ok && nbk::close_relative(row.log_sum, reference.log_sum, log_sum_tolerance);
  });
  row.product_ok = product_ok;
  row.log_ok = log_ok;
  row.log_relative_error = worst_log_error;
  return row;
}

void print_report(const Options& options, const Reference& reference, const std::vector<Row>& rows,
                  const nbk::Probes& probes) {
  std::cout << fmt::format("product of {} float64 samples of U[0,1), seed {} ({})\n", options.n, options.seed,
                           nbk::format_bytes(static_cast<std::uint64_t>(options.n) * sizeof(double)));
  const double log10_product = reference.log_sum / std::log(10.0);
  std::cout << fmt::format("sum of log x_i (host std::log, summed exactly) = {:.15g}, so the product is about 10^{:.0f}\n",
                           reference.log_sum, std::floor(log10_product));
  if (reference.underflows) {
    std::cout << fmt::format(
        "The product UNDERFLOWS: its logarithm is far below log(2^-1074) = {:.2f}, the smallest positive double,\n"
        "so the correctly rounded product is 0.0 and every product below must be exactly 0.0. Each factor\n"
        "contributes log x ~ -1 on average (E[log U] = -1), so the running product on the host reached 0.0 at\n"
        "element {} of {}; everything after that multiplied zeros.\n\n",
        nbk::product::log_smallest_double(), reference.product.zero_at, options.n);
  } else {
    std::cout << fmt::format("The product is representable: host product = {:.17g}.\n\n", reference.product.value);
  }

  nbk::print_probe_table(std::cout, probes);
  const nbk::Traffic traffic = nbk::read_traffic<double>(static_cast<std::uint64_t>(options.n));
  nbk::Table table({"space", "product", "check", "time", "GB/s", "% copy", "sum of logs", "rel. error", "check",
                    "time", "GB/s"});
  for (const auto& r : rows) {
    if (!r.skipped.empty()) {
      table.add_row({r.space, "skipped"});
      continue;
    }
    const double gbs = traffic.gb_per_s(r.product_time.best);
    table.add_row({r.space, r.product == 0.0 ? std::string("0 (underflow)") : fmt::format("{:.6g}", r.product), r.product_ok ? "ok" : "FAILED",
                   nbk::format_seconds(r.product_time.best), fmt::format("{:.1f}", gbs),
                   nbk::percent_of_copy(gbs, probes, r.space),
                   fmt::format("{:.15g}", r.log_sum), fmt::format("{:.1e}", r.log_relative_error),
                   r.log_ok ? "ok" : "FAILED", nbk::format_seconds(r.log_time.best),
                   fmt::format("{:.1f}", traffic.gb_per_s(r.log_time.best))});
  }
  table.print(std::cout);

  std::cout << fmt::format(
      "\nTimes: best of {} calls after one warm-up, data already in the space's memory; GB/s counts 8 bytes\n"
      "per element read once.\n",
      options.repetitions);
  if (reference.underflows)
    std::cout << "Product check: exactly 0.0, because the sum of logarithms puts the exact product below 2^-1075.\n";
  else
    std::cout << "Product check: within 2 gamma_{n-1} |p| + n 2^-1074 of the host's product (each of the two\n"
                 "is within half that of the exact product: every factor rounds by at most u = 2^-53).\n";
  std::cout << fmt::format(
      "Sum of logs: parallel_reduce of log x_i in double, within a relative {:.0e} of the exact sum of the\n"
      "host's std::log values (a device's log may differ from the host's in the last bit, and the order\n"
      "of the additions changes their rounding, by ~1e-14 relative here).\n",
      log_sum_tolerance);
  std::cout << "\nThe document compared np.prod with cuda.reduce using np.allclose, whose absolute tolerance\n"
               "(1e-8) accepts any two numbers smaller than that: it passed comparing 0.0 with 0.0, a check\n"
               "that could not fail. Comparing the sums of logarithms can.\n";
}

nlohmann::json to_json(const Options& options, const Reference& reference, const std::vector<Row>& rows,
                       const nbk::Probes& probes) {
  nlohmann::json doc;
  doc["experiment"] = "product";
  doc["context"] = nbk::run_context();
  doc["elements"] = options.n;
  doc["element_type"] = "float64";
  doc["distribution"] = "U[0,1), 53 random bits from std::mt19937_64 blocks";
  doc["seed"] = options.seed;
  doc["repetitions"] = options.repetitions;
  doc["host_product"] = reference.product.value;
  doc["host_product_zero_at"] = reference.product.zero_at;
  doc["log_sum_reference"] = reference.log_sum;
  doc["underflows"] = reference.underflows;
  doc["log_sum_tolerance"] = log_sum_tolerance;
  doc["probes"] = nbk::probes_json(probes);
  const nbk::Traffic traffic = nbk::read_traffic<double>(static_cast<std::uint64_t>(options.n));
  doc["results"] = nlohmann::json::array();
  for (const auto& r : rows) {
    nlohmann::json row = {{"space", r.space}};
    if (!r.skipped.empty()) {
      row["status"] = "skipped";
      row["reason"] = r.skipped;
    } else {
      row["status"] = r.product_ok && r.log_ok ? "verified" : "failed";
      row["product"] = r.product;
      row["product_ok"] = r.product_ok;
      row["product_best_s"] = r.product_time.best;
      row["product_median_s"] = r.product_time.median;
      row["product_gb_per_s"] = traffic.gb_per_s(r.product_time.best);
      row["log_sum"] = r.log_sum;
      row["log_sum_relative_error"] = r.log_relative_error;
      row["log_sum_ok"] = r.log_ok;
      row["log_sum_best_s"] = r.log_time.best;
      row["log_sum_median_s"] = r.log_time.median;
      row["bytes_per_call"] = traffic.total();
    }
    doc["results"].push_back(row);
  }
  return doc;
}

int run(const Options& options) {
  const auto host = nbk::uniform_doubles(options.n, options.seed);
  Reference reference;
  reference.product = nbk::product::host_product(host.data(), options.n);
  nbk::ExactSum logs;
  for (std::int64_t i = 0; i < options.n; ++i) logs.add(std::log(host(i)));
  reference.log_sum = static_cast<double>(logs.value());
  reference.underflows = nbk::product::product_underflows(reference.log_sum);

  const nbk::Probes probes = nbk::probe_spaces([](const std::string&) { return true; }, options.probe_elements);
  std::vector<Row> rows;
  nbk::for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    std::cerr << "running on " << nbk::space_name<Space>() << " ...\n";
    rows.push_back(run_space<Space>(host, reference, options.repetitions));
  });

  print_report(options, reference, rows, probes);
  if (!options.json_path.empty()) nbk::write_json_file(options.json_path, to_json(options, reference, rows, probes));

  bool all_ok = nbk::all_verified(probes);
  for (const auto& r : rows) all_ok = all_ok && (!r.skipped.empty() || (r.product_ok && r.log_ok));
  // The host's own product must agree with what its logarithm predicts.
  if (reference.underflows && reference.product.value != 0.0) all_ok = false;
  if (!all_ok) std::cerr << "nbk-product: verification FAILED\n";
  return all_ok ? nbk::exit_ok : nbk::exit_verification_failed;
}

}  // namespace

int main(int argc, char* argv[]) {
  CLI::App app{"Seed 004: the product of float64 uniforms with Kokkos::Prod on every enabled space, and the sum\n"
               "of their logarithms. Kokkos flags (--kokkos-NAME=VALUE) pass through."};
  app.name("nbk-product");
  Options options;
  options.add_to(app, "4000000", "the document's 4,000,000");
  if (auto code = nbk::parse_command_line(app, argc, argv)) return *code;

  return nbk::run_experiment(
      app.get_name(), argc, argv,
      [&] { options.parse(sizeof(double), "float64"); },
      [&] { return run(options); });
}
