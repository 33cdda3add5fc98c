// Seed 000: add one to every element of a 2^31-element int32 array, on one CPU thread, on
// every CPU thread, and on the GPU with implicit, explicit and overlapped transfers. Each
// method is timed on its first and second call, as the document does, and every element is
// checked on the host after both calls.
#include <Kokkos_Core.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <set>

#include "catalog.hpp"
#include "nbk/app_options.hpp"
#include "nbk/cli.hpp"
#include "nbk/errors.hpp"
#include "nbk/experiment_main.hpp"
#include "nbk/json_file.hpp"
#include "nbk/memory.hpp"
#include "nbk/run_context.hpp"
#include "nbk/spaces.hpp"
#include "nbk/probe_report.hpp"
#include "nbk/table.hpp"

namespace {

using nbk::add_one::CatalogEntry;

struct Options {
  std::int64_t n = 0;
  std::vector<std::string> variants;  // empty: all
  std::string json_path;
  std::int64_t probe_elements = 0;  // 0: the probe's default for each space
};

struct Outcome {
  const CatalogEntry* entry;
  std::string skipped;  // reason, empty when it ran
  double first = 0, second = 0;
  std::int64_t mismatches = 0;
  nbk::Traffic traffic;
};

Outcome run_variant(const CatalogEntry& entry, std::int64_t n) {
  Outcome outcome{&entry, entry.unavailable};
  if (!outcome.skipped.empty()) return outcome;
  auto variant = entry.make();
  if (auto why = nbk::host_shortfall(variant->host_bytes(n)); !why.empty()) {
    outcome.skipped = why;
    return outcome;
  }
  if (auto why = nbk::device_shortfall(variant->device_bytes(n)); !why.empty()) {
    outcome.skipped = why;
    return outcome;
  }
  std::cerr << "running " << entry.name << " ...\n";
  variant->prepare(n);
  outcome.first = variant->call();
  outcome.second = variant->call();
  outcome.mismatches = variant->mismatches();
  outcome.traffic = variant->traffic();
  return outcome;
}

void print_report(const Options& options, const std::vector<Outcome>& outcomes,
                  const nbk::Probes& probes) {
  const auto bytes = nbk::add_one::array_bytes(options.n);
  std::cout << fmt::format("add one to {} int32 elements ({}); every element checked after two calls\n\n",
                           options.n, nbk::format_bytes(bytes));

  nbk::print_probe_table(std::cout, probes);

  nbk::Table table({"method", "first", "second", "GB/s (2nd)", "% of copy", "check", "document (first / second)"});
  for (const auto& o : outcomes) {
    if (!o.skipped.empty()) {
      table.add_row({o.entry->name, "skipped", "", "", "", "", o.entry->document});
      continue;
    }
    const double gbs = o.traffic.gb_per_s(o.second);
    table.add_row({o.entry->name, nbk::format_seconds(o.first), nbk::format_seconds(o.second),
                   fmt::format("{:.1f}", gbs), nbk::percent_of_copy(gbs, probes, o.entry->space),
                   o.mismatches == 0 ? "ok" : fmt::format("FAILED ({} wrong)", o.mismatches), o.entry->document});
  }
  table.print(std::cout);

  std::cout << "\nGB/s counts 8 bytes per element and call (read + write of the int32), whatever the\n"
               "transfers move; % of copy divides by the copy probe of the space that runs the kernel\n"
               "(for the transfer methods the bound is the host-device link, not that figure). On a CPU\n"
               "the copy probe's stores first read the destination line (write-allocate): 24 bytes move\n"
               "per 16 counted, so an in-place kernel like this one can pass 100%.\n";
  std::cout << "\nWhat each method moves, and what its first call pays that the second does not:\n";
  for (const auto& o : outcomes) {
    if (!o.skipped.empty())
      std::cout << fmt::format("  {:<22} skipped: {}\n", o.entry->name, o.skipped);
    else
      std::cout << fmt::format("  {:<22} {}; first call: {}\n", o.entry->name, o.entry->transfers,
                               o.entry->first_call);
  }
  std::cout << "\nThe document's figures (Numba on an i5-7500, 4 cores, and 2 x GTX 1080 Ti): njit 1 CPU\n"
               "4.62 s / 629 ms; implicit 1 GPU 6.22 s / 2.86 s; implicit 2 GPUs 4.87 s / 1.72 s; explicit\n"
               "2 GPUs 3.6 s / 3.15 s, whose second call printed [1 1 1 ...]: it copied the untouched input\n"
               "again. Here the second call reads the first call's result, and every element must be 2.\n";
}

nlohmann::json to_json(const Options& options, const std::vector<Outcome>& outcomes,
                       const nbk::Probes& probes) {
  nlohmann::json doc;
  doc["experiment"] = "add_one";
  doc["context"] = nbk::run_context();
  doc["elements"] = options.n;
  doc["element_bytes"] = sizeof(nbk::add_one::Element);
  doc["probes"] = nbk::probes_json(probes);
  for (const auto& o : outcomes) {
    nlohmann::json row = {{"method", o.entry->name}, {"space", o.entry->space}, {"transfers", o.entry->transfers},
                          {"document", o.entry->document}};
    if (!o.skipped.empty()) {
      row["status"] = "skipped";
      row["reason"] = o.skipped;
    } else {
      row["status"] = o.mismatches == 0 ? "verified" : "failed";
      row["first_s"] = o.first;
      row["second_s"] = o.second;
      row["bytes_per_call"] = o.traffic.total();
      row["gb_per_s_second"] = o.traffic.gb_per_s(o.second);
      row["mismatches"] = o.mismatches;
      row["first_call_includes"] = o.entry->first_call;
    }
    doc["results"].push_back(row);
  }
  return doc;
}

int run(const Options& options) {
  std::vector<CatalogEntry> entries = nbk::add_one::catalog();
  std::vector<const CatalogEntry*> selected;
  for (const auto& entry : entries)
    if (options.variants.empty() ||
        std::find(options.variants.begin(), options.variants.end(), entry.name) != options.variants.end())
      selected.push_back(&entry);

  std::set<std::string> spaces;
  for (const auto* entry : selected)
    if (entry->unavailable.empty()) spaces.insert(entry->space);
  const auto probes =
      nbk::probe_spaces([&](const std::string& space) { return spaces.count(space) > 0; }, options.probe_elements);

  std::vector<Outcome> outcomes;
  for (const auto* entry : selected) outcomes.push_back(run_variant(*entry, options.n));

  print_report(options, outcomes, probes);
  if (!options.json_path.empty()) nbk::write_json_file(options.json_path, to_json(options, outcomes, probes));

  bool all_ok = nbk::all_verified(probes);
  for (const auto& o : outcomes) all_ok = all_ok && o.mismatches == 0;
  if (!all_ok) std::cerr << "nbk-add-one: verification FAILED\n";
  return all_ok ? nbk::exit_ok : nbk::exit_verification_failed;
}

std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const auto& entry : nbk::add_one::catalog()) names.push_back(entry.name);
  return names;
}

}  // namespace

int main(int argc, char* argv[]) {
  CLI::App app{"Seed 000: add one to every element of an int32 array on CPU and GPU, first and second call,\n"
               "with implicit, explicit and overlapped transfers. Kokkos flags (--kokkos-NAME=VALUE) pass through."};
  app.name("nbk-add-one");
  std::string size_text = "2^31";
  Options options;
  app.add_option("--size", size_text, "elements (digits or 2^K); the document's 2*2^20*2^10")
      ->capture_default_str();
  app.add_option("--variant", options.variants, "run only these methods (repeatable)")
      ->check(CLI::IsMember(variant_names()));
  app.add_option("--json", options.json_path, "also write the results as JSON to this file");
  std::string probe_text;
  nbk::add_probe_size_option(app, probe_text);
  if (auto code = nbk::parse_command_line(app, argc, argv)) return *code;

  return nbk::run_experiment(
      app.get_name(), argc, argv,
      [&] {
        options.n = nbk::parse_count(size_text, "--size");
        // Every method keeps at least one copy of the array on the host.
        const auto bytes = nbk::checked_bytes(options.n, sizeof(nbk::add_one::Element), "--size " + size_text);
        nbk::require_host_memory(bytes, "--size " + size_text + " (int32)");
        options.probe_elements = nbk::parse_probe_size(probe_text);
        nbk::require_writable(options.json_path);
      },
      [&] { return run(options); });
}
