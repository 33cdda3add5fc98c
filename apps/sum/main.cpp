// Seed 001: the sum of 2^27 - 157 float32 samples of N(0, 1), by one host thread, by
// parallel_reduce, by a hand-written team-scratch tree (finished on the host or on the
// space) and with a double accumulator; each timed and measured against the exact sum.
#include <Kokkos_Core.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <set>

#include "measure.hpp"
#include "nbk/app_options.hpp"
#include "nbk/cli.hpp"
#include "nbk/errors.hpp"
#include "nbk/experiment_main.hpp"
#include "nbk/json_file.hpp"
#include "nbk/random_data.hpp"
#include "nbk/run_context.hpp"
#include "nbk/probe_report.hpp"
#include "nbk/table.hpp"
#include "nbk/traffic.hpp"

namespace {

using nbk::sum_app::Row;

const std::vector<std::string> variant_names = {"host-loop", "builtin", "tree-host", "tree-device", "accurate"};

struct Options : nbk::SampleOptions {
  std::set<std::string> variants;
};

std::string digits_text(double digits) {
  if (std::isinf(digits)) return "exact";
  if (std::isnan(digits)) return "-";
  return fmt::format("{:.1f}", digits);
}

// The host loop runs on one host thread: its bandwidth is compared with the serial probe.
std::string probe_space_of(const Row& row) { return row.space == nbk::sum_app::host_space_label ? "serial" : row.space; }

void print_report(const Options& options, const nbk::sum_app::Reference& reference, const std::vector<Row>& rows,
                  const nbk::Probes& probes) {
  const auto& scale = reference.scale;
  const auto exact = static_cast<double>(reference.value);
  std::cout << fmt::format("sum of {} float32 samples of N(0,1), seed {} ({})\n", options.n, options.seed,
                           nbk::format_bytes(static_cast<std::uint64_t>(options.n) * sizeof(float)));
  std::cout << fmt::format("exact sum (integer fixed-point accumulator on the host): {:.15g}\n", exact);
  std::cout << fmt::format("sum |x| = {:.6g}; largest |prefix sum| = {:.6g}; condition number sum|x| / |sum| = {:.3g}\n\n",
                           scale.sum_abs, scale.max_prefix, exact != 0 ? scale.sum_abs / std::fabs(exact) : INFINITY);

  nbk::print_probe_table(std::cout, probes);

  const nbk::Traffic traffic = nbk::read_traffic<float>(static_cast<std::uint64_t>(options.n));
  nbk::Table table({"variant", "space", "acc", "resident", "GB/s", "% copy", "with upload", "result", "error",
                    "digits", "tolerance", "check"});
  for (const auto& r : rows) {
    if (!r.skipped.empty()) {
      table.add_row({r.variant, r.space, r.accumulator, "skipped"});
      continue;
    }
    const double gbs = traffic.gb_per_s(r.resident.best);
    table.add_row({r.variant, r.space, r.accumulator, nbk::format_seconds(r.resident.best), fmt::format("{:.1f}", gbs),
                   nbk::percent_of_copy(gbs, probes, probe_space_of(r)),
                   r.upload.repetitions > 0 ? nbk::format_seconds(r.upload.best) : "-",
                   fmt::format("{:.{}f}", r.result, r.accumulator == "double" ? 10 : 4),
                   fmt::format("{:+.2e}", static_cast<double>(r.error)), digits_text(r.digits),
                   fmt::format("{:.1e}", r.tolerance),
                   std::string(r.ok ? "ok" : "FAILED") + (r.reproducible ? "" : " (varies)")});
  }
  table.print(std::cout);

  std::cout << fmt::format(
      "\nresident: the reduction alone on data already in the space's memory, best of {} calls after one\n"
      "warm-up (tree-host includes copying the partials to the host and adding them there). with upload:\n"
      "deep_copy of the host array into the space's memory, then the reduction, best of {} (on a CPU space\n"
      "that is a host-to-host copy). GB/s counts 4 bytes per element read once; % copy divides by that\n"
      "space's copy probe (host-loop: by the serial probe). digits = -log10 |error / exact sum|; every\n"
      "result of every call is checked, and the row shows the worst.\n",
      options.repetitions, options.repetitions);
  for (const auto& r : rows)
    if (r.skipped.empty() && r.variant == "tree-host")
      std::cout << fmt::format("tree on {}: {}; each thread adds its share in a register, then the team\n"
                               "halves its scratch array; one partial per team.\n",
                               r.space, r.shape);

  std::cout << fmt::format(
      "\nWhy the digits differ. The samples and the reference are exact; every error is rounding in the\n"
      "accumulator. A float keeps 24 bits (~7.2 digits) of the running partial sum, not of the answer:\n"
      "here the partial sums reach {:.3g} while the answer is {:.4g}, so one addition may be off by up to\n"
      "{:.1e}, and n of them add up like a random walk. Its expected size grows with how large and how\n"
      "many the partial sums are: one thread in order (host-loop, builtin on serial) carries one partial\n"
      "through all n additions; P threads or teams carry P partials each ~sqrt(P) times smaller; a GPU\n"
      "tree's partials stay tiny until its last levels. A single run is one draw of that random error,\n"
      "and the order decides which digits survive, which is why the document's CPU and GPU sums\n"
      "(2670.0366 vs 2670.0002, -6470.3159 vs -6470.2725) disagree in the 4th-5th digit though both\n"
      "added the same numbers. The double accumulator reads the same 4 bytes per element (a float\n"
      "converts to double exactly) and rounds 2^29 times more finely: ~9 more digits, same traffic.\n",
      scale.max_prefix, exact, scale.max_prefix * nbk::unit_roundoff<float>());
  std::cout << "\nSpeed. On a CPU each thread adds one element per floating-point-add latency (~3-4 cycles): without\n"
               "-ffast-math the compiler may not reorder float additions, so these loops run well below the\n"
               "copy bandwidth, and the double accumulator costs nothing extra. A GPU hides that latency with\n"
               "thousands of threads in flight and is bound by memory instead.\n";
  std::cout << fmt::format(
      "\nTolerance. The worst-case bound (n-1) u sum|x| is {:.1e} for a float accumulator here, larger than\n"
      "the sum itself: it proves nothing. The check uses the probabilistic bound 6 u sqrt(n-1) 2 max|prefix|\n"
      "(rounding errors as independent zero-mean variables, Higham & Mary 2019; see nbk/sum_accuracy.hpp),\n"
      "false-alarm probability < 2e-8, with u = 2^-24 for a float and 2^-53 for a double accumulator.\n"
      "For float it still catches a lost or doubled 1% of the data (a sum of ~{:.0f}); for double, almost\n"
      "any single lost element.\n",
      static_cast<double>(options.n - 1) * nbk::unit_roundoff<float>() * scale.sum_abs,
      std::sqrt(static_cast<double>(options.n) / 100.0));
}

nlohmann::json to_json(const Options& options, const nbk::sum_app::Reference& reference, const std::vector<Row>& rows,
                       const nbk::Probes& probes) {
  nlohmann::json doc;
  doc["experiment"] = "sum";
  doc["context"] = nbk::run_context();
  doc["elements"] = options.n;
  doc["element_type"] = "float32";
  doc["distribution"] = "N(0,1), Marsaglia polar method on std::mt19937_64 blocks";
  doc["seed"] = options.seed;
  doc["repetitions"] = options.repetitions;
  doc["exact_sum"] = static_cast<double>(reference.value);
  doc["sum_abs"] = reference.scale.sum_abs;
  doc["max_abs_prefix_sum"] = reference.scale.max_prefix;
  doc["probes"] = nbk::probes_json(probes);
  const nbk::Traffic traffic = nbk::read_traffic<float>(static_cast<std::uint64_t>(options.n));
  doc["results"] = nlohmann::json::array();
  for (const auto& r : rows) {
    nlohmann::json row = {{"variant", r.variant}, {"space", r.space}, {"accumulator", r.accumulator}, {"shape", r.shape}};
    if (!r.skipped.empty()) {
      row["status"] = "skipped";
      row["reason"] = r.skipped;
    } else {
      row["status"] = r.ok ? "verified" : "failed";
      row["resident_best_s"] = r.resident.best;
      row["resident_median_s"] = r.resident.median;
      row["warm_up_s"] = r.resident.warm_up;
      row["bytes_per_call"] = traffic.total();
      row["gb_per_s"] = traffic.gb_per_s(r.resident.best);
      if (r.upload.repetitions > 0) {
        row["with_upload_best_s"] = r.upload.best;
        row["with_upload_median_s"] = r.upload.median;
      }
      row["result"] = r.result;
      row["error"] = static_cast<double>(r.error);
      if (std::isfinite(r.digits)) row["digits"] = r.digits;
      row["tolerance"] = r.tolerance;
      row["reproducible"] = r.reproducible;
    }
    doc["results"].push_back(row);
  }
  return doc;
}

int run(const Options& options) {
  std::cerr << "generating data ...\n";
  const auto host = nbk::standard_normal_floats(options.n, options.seed);
  std::cerr << "exact reference ...\n";
  nbk::sum_app::Reference reference;
  reference.exact = nbk::exact_sum(host.data(), options.n);
  reference.value = reference.exact.value();
  reference.scale = nbk::sum_scale(host.data(), options.n);

  const bool any_space_variant =
      std::any_of(options.variants.begin(), options.variants.end(), [](const auto& v) { return v != "host-loop"; });
  const nbk::Probes probes = nbk::probe_spaces(
      [&](const std::string& name) { return any_space_variant || (name == "serial" && options.variants.count("host-loop")); },
      options.probe_elements);

  std::vector<Row> rows;
  if (options.variants.count("host-loop")) {
    std::cerr << "running host-loop ...\n";
    rows.push_back(nbk::sum_app::run_host_loop(host, reference, options.repetitions));
  }
  nbk::for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    std::cerr << "running on " << nbk::space_name<Space>() << " ...\n";
    for (auto& row : nbk::sum_app::run_space<Space>(host, reference, options.variants, options.repetitions))
      rows.push_back(std::move(row));
  });

  print_report(options, reference, rows, probes);
  if (!options.json_path.empty()) nbk::write_json_file(options.json_path, to_json(options, reference, rows, probes));

  bool all_ok = nbk::all_verified(probes);
  for (const auto& r : rows) all_ok = all_ok && (r.ok || !r.skipped.empty());
  if (!all_ok) std::cerr << "nbk-sum: verification FAILED\n";
  return all_ok ? nbk::exit_ok : nbk::exit_verification_failed;
}

}  // namespace

int main(int argc, char* argv[]) {
  CLI::App app{"Seed 001: sum 2^27-157 float32 samples of N(0,1) with a host loop, parallel_reduce, a team-scratch\n"
               "tree and a double accumulator on every enabled space; time, bandwidth, and error against the exact\n"
               "sum. Kokkos flags (--kokkos-NAME=VALUE) pass through."};
  app.name("nbk-sum");
  std::vector<std::string> variants;
  Options options;
  options.add_to(app, "134217571", "the document's 2^27 - 157");
  app.add_option("--variant", variants, "run only these variants (repeatable)")->check(CLI::IsMember(variant_names));
  if (auto code = nbk::parse_command_line(app, argc, argv)) return *code;

  return nbk::run_experiment(
      app.get_name(), argc, argv,
      [&] {
        options.parse(sizeof(float), "float32");
        options.variants = variants.empty() ? std::set<std::string>(variant_names.begin(), variant_names.end())
                                            : std::set<std::string>(variants.begin(), variants.end());
      },
      [&] { return run(options); });
}
