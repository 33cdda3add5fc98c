#include "nbk/experiment/driver.hpp"
#include "nbk/experiment/notes.hpp"
#include "notes_outline.hpp"  // generated from legend.md (lib/CMakeLists.txt)

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <set>

#include "nbk/core/errors.hpp"
#include "nbk/core/memory.hpp"
#include "nbk/ranks/ranks.hpp"
#include "nbk/report/table.hpp"

namespace nbk::exp {

std::string shortfall(const Variant& variant, const Size& size) {
  const Footprint footprint = variant.footprint ? variant.footprint(size) : Footprint{};
  std::string why = host_shortfall(footprint.host_bytes);
  if (why.empty() && variant.device) why = device_shortfall(footprint.device_bytes);
  return why;
}

Result run_variant(const Experiment& experiment, const Variant& variant, const Problem& problem, const Size& size,
                   int repetitions) {
  Result result;
  result.variant = &variant;
  result.size = size;
  result.traffic = traffic_of(experiment, variant, size);
  result.skipped = shortfall(variant, size);
  // The ranks of a distributed variant run it together or not at all.
  if (variant.distributed && ranks::first_with(!result.skipped.empty()) >= 0 && result.skipped.empty())
    result.skipped = "another rank lacks the memory for its slice";
  if (!result.skipped.empty()) return result;

  const std::unique_ptr<Case> instance = variant.make(problem, size);
  const std::string label = experiment.name + " " + variant.name + " " + variant.space + " " + size.text();
  const Clock clock = variant.distributed ? Clock::slowest_rank : Clock::this_process;
  auto record = [&] { instance->record(); };
  result.steady = time_repeated(label, repetitions, [&] { instance->run(); }, record, clock);
  if (variant.timed_with_transfers)
    result.with_transfers = time_repeated(
        label + " with transfers", repetitions,
        [&] {
          instance->upload();
          instance->run();
          instance->download();
        },
        record, clock);
  result.verdict = instance->verdict();
  return result;
}

std::vector<const Variant*> select_variants(const Experiment& experiment, const std::vector<std::string>& names,
                                            const std::vector<std::string>& spaces, bool injected_bugs) {
  auto wanted = [](const std::vector<std::string>& list, const std::string& value) {
    return list.empty() || std::find(list.begin(), list.end(), value) != list.end();
  };
  std::vector<const Variant*> selected;
  for (const auto& v : injected_bugs ? experiment.injected_bugs : experiment.variants)
    if (wanted(names, v.name) && wanted(spaces, v.space)) selected.push_back(&v);
  return selected;
}

std::string reference_space(const Variant& variant) {
  if (!variant.judged_on.empty()) return variant.judged_on;
  return variant.space == "host" ? "serial" : variant.space;
}

// ---- sweep ----

namespace {

const Variant* find_variant(const Experiment& experiment, const std::string& name, const std::string& space) {
  for (const auto& v : experiment.variants)
    if (v.name == name && v.space == space) return &v;
  return nullptr;
}

// The sweep's variant on the best host space, and its device variant (nullptr without a device).
std::pair<const Variant*, const Variant*> sweep_variants(const Experiment& experiment, const Sweep& plan) {
  const Variant* host = find_variant(experiment, plan.host_variant.name(), has_openmp ? "openmp" : "serial");
  if (!host) throw std::logic_error("sweep: no variant " + plan.host_variant.name() + " on a host space");
  return {host, has_cuda ? find_variant(experiment, plan.device_variant.name(), "cuda") : nullptr};
}

double transfers_best(const Result& r) { return r.with_transfers.best; }
double steady_best(const Result& r) { return r.steady.best; }

// The smallest size from which `device` beats `host` at every larger size.
template <class Time>
std::optional<Size> crossover(const std::vector<SweepPoint>& points, bool with_transfers, Time device_time) {
  std::optional<Size> from;
  for (const auto& p : points) {
    const Result& d = with_transfers ? p.device_with_transfers : p.device;
    const bool wins = d.skipped.empty() && p.host.skipped.empty() && device_time(d) < p.host.steady.best;
    if (!wins)
      from.reset();
    else if (!from)
      from = p.size;
  }
  return from;
}

}  // namespace

std::vector<Size> sweep_sizes(const Experiment& experiment, const Sweep& plan, std::int64_t max_elements) {
  std::vector<Size> sizes;
  for (const Size& size : plan.sizes)
    if (max_elements == 0 || size.elements() <= max_elements) sizes.push_back(size);
  if (max_elements == 0 || plan.sizes.empty()) return sizes;
  int k = 0;
  while (k < 62 && (std::int64_t{1} << k) <= plan.sizes.back().elements()) ++k;
  for (; k <= 62 && (std::int64_t{1} << k) <= max_elements; ++k) sizes.push_back(power_of_two_size(k, experiment.rank));
  return sizes;
}

SweepResult run_sweep(const Experiment& experiment, const Sweep& plan, const Settings& settings,
                      std::int64_t max_elements) {
  SweepResult sweep;
  sweep.plan = plan;
  const auto [host, device] = sweep_variants(experiment, plan);
  sweep.host_space = host->space;
  if (device) sweep.device_space = "cuda";

  for (const Size& size : sweep_sizes(experiment, plan, max_elements)) {
    std::cerr << "sweep " << experiment.name << " " << plan.host_variant.name() << " " << size.text() << " ...\n";
    const auto problem = experiment.make_problem(size, settings);
    SweepPoint point;
    point.size = size;
    point.host = run_variant(experiment, *host, *problem, size, plan.repetitions);
    if (device) {
      // One case gives both device series: its steady state is resident, and its
      // with-transfers timing adds the copies in and out.
      point.device = run_variant(experiment, *device, *problem, size, plan.repetitions);
      point.device_with_transfers = point.device;
    } else {
      point.device.skipped = point.device_with_transfers.skipped = "no device in this build";
    }
    for (const Result* r : {&point.host, &point.device})
      if (r->skipped.empty() && !r->verdict.ok) sweep.verified = false;
    sweep.points.push_back(std::move(point));
  }
  if (device) {
    sweep.resident_crossover = crossover(sweep.points, false, steady_best);
    sweep.transfers_crossover = crossover(sweep.points, true, transfers_best);
  }
  return sweep;
}

// ---- the work a request asks for ----

namespace {

double seconds_of_calls(const Experiment& experiment, const Variant& variant, const Size& size, int repetitions) {
  const Traffic t = traffic_of(experiment, variant, size);
  const double call = std::max({static_cast<double>(t.total()) / assumed_bytes_per_s,
                                static_cast<double>(t.flops) / assumed_flops_per_s,
                                static_cast<double>(size.elements()) / assumed_elements_per_s});
  return call * (repetitions + 1) * (variant.timed_with_transfers ? 2 : 1);
}

}  // namespace

std::string assumed_rates_text() {
  return fmt::format("{:g} GB/s, {:g} GFLOP/s or {:g} elements/s, whichever is slowest", assumed_bytes_per_s * 1e-9,
                     assumed_flops_per_s * 1e-9, assumed_elements_per_s);
}

double estimated_seconds(const Experiment& experiment, const std::vector<const Variant*>& variants,
                         const std::vector<Size>& sizes, int repetitions, std::optional<std::int64_t> sweep_max) {
  double seconds = 0;
  for (const Size& size : sizes)
    for (const Variant* v : variants) seconds += seconds_of_calls(experiment, *v, size, repetitions);
  if (sweep_max)
    for (const Sweep& plan : experiment.sweeps) {
      const auto [host, device] = sweep_variants(experiment, plan);
      for (const Size& size : sweep_sizes(experiment, plan, *sweep_max))
        for (const Variant* v : {host, device})
          if (v) seconds += seconds_of_calls(experiment, *v, size, plan.repetitions);
    }
  return seconds;
}

// ---- reports ----

namespace {

double elements_per_s(const Size& size, double seconds) {
  return seconds > 0 ? static_cast<double>(size.elements()) / seconds : 0.0;
}

std::string rate_text(const Traffic& traffic, double seconds) {
  if (seconds <= 0) return "-";
  if (traffic.total() == 0 && traffic.flops > 0) return fmt::format("{:.1f} GF/s", traffic.gflop_per_s(seconds));
  return fmt::format("{:.1f}", traffic.gb_per_s(seconds));
}

// Per-call time for calls too short for milliseconds to say anything.
std::string time_text(double seconds) { return seconds > 0 ? format_seconds(seconds) : "-"; }

// The bytes one call moves at the first size, or "see bytes_per_call" where variants differ.
std::string bytes_text(const std::vector<Result>& results) {
  if (results.empty()) return "-";
  const Result& first = results.front();
  for (const Result& r : results)
    if (r.size.text() == first.size.text() && r.traffic.total() != first.traffic.total())
      return "a number per variant: bytes_per_call in the JSON";
  return format_bytes(first.traffic.total()) + " per call at " + first.size.text();
}

// A device call this short is bound by launch and fence latency, not by memory.
constexpr double latency_bound_seconds = 20e-6;

// Every device row, data resident, below 90% of the device's memcpy, and why.
void print_below_memcpy(std::ostream& out, const std::vector<Result>& results, const Probes& probes) {
  bool header = false;
  for (const auto& r : results) {
    const Variant& v = *r.variant;
    if (!v.device || v.call_crosses_link || !r.skipped.empty()) continue;
    const double best = r.steady.best > 0 ? r.steady.best : r.steady.first;
    const auto fraction = fraction_of(Basis::vendor_copy, r.traffic, best, probes, reference_space(v));
    if (!fraction || *fraction >= 0.9) continue;
    if (!header) out << "\nBelow 90% of memcpy on the device, and why:\n";
    header = true;
    std::string why = v.below_memcpy_because;
    if (best < latency_bound_seconds)
      why = fmt::format("{} per call: launch and fence latency, not memory, bound a call this small", time_text(best));
    else if (why.empty())
      why = "not established: profile it (ncu --set full) before trusting this row";
    out << fmt::format("  {:<16} {:<7} {:<8} {:.0f}%: {}\n", v.name, v.space, r.size.text(), 100.0 * *fraction, why);
  }
}

}  // namespace

std::optional<double> speedup_of(const Result& r, const std::vector<Result>& all) {
  const std::string& against = r.variant->speedup_against.name();
  if (against.empty() || !r.skipped.empty() || r.steady.best <= 0) return std::nullopt;
  for (const Result& base : all)
    if (base.variant->name == against && base.size.text() == r.size.text() && base.skipped.empty() &&
        base.steady.best > 0)
      return base.steady.best / r.steady.best;
  return std::nullopt;
}

void print_results(std::ostream& out, const Experiment& experiment, const std::vector<Result>& results,
                   const Probes& probes) {
  std::set<std::string> sizes;
  bool any_transfers = false, any_flops = false, any_speedup = false;
  std::vector<std::string> cell_names;
  int repetitions = 0;
  for (const auto& r : results) {
    sizes.insert(r.size.text());
    any_transfers = any_transfers || r.with_transfers.repetitions > 0;
    any_flops = any_flops || r.traffic.flops > 0;
    any_speedup = any_speedup || !r.variant->speedup_against.empty();
    repetitions = std::max(repetitions, r.steady.repetitions);
    for (const auto& [name, value] : r.verdict.cells)
      if (std::find(cell_names.begin(), cell_names.end(), name) == cell_names.end()) cell_names.push_back(name);
  }
  const bool show_size = sizes.size() > 1;

  std::vector<std::string> headers = {"variant", "space"};
  if (show_size) headers.push_back("size");
  for (const char* h : {"first", "best", "median", "GB/s", "% copy", "% memcpy"}) headers.push_back(h);
  if (any_flops)
    for (const char* h : {"GFLOP/s", "% FMA"}) headers.push_back(h);
  if (experiment.rate_in_elements) headers.push_back("Gelem/s");
  if (any_speedup) headers.push_back("speed-up");
  if (any_transfers)
    for (const char* h : {"with transfers", "GB/s", "% link"}) headers.push_back(h);
  headers.push_back("check");
  headers.insert(headers.end(), cell_names.begin(), cell_names.end());
  headers.push_back("document");
  Table table(headers);

  for (const auto& r : results) {
    const Variant& v = *r.variant;
    std::vector<std::string> row = {v.name, v.space};
    if (show_size) row.push_back(r.size.text());
    if (!r.skipped.empty()) {
      row.push_back("skipped");
      table.add_row(row);
      continue;
    }
    const std::string space = reference_space(v);
    const double best = r.steady.best > 0 ? r.steady.best : r.steady.first;
    // A call that moves its data over the link is judged by the link, not by device memory.
    const bool over_link = v.device && v.call_crosses_link;
    row.push_back(time_text(r.steady.first));
    row.push_back(time_text(r.steady.best));
    row.push_back(time_text(r.steady.median));
    row.push_back(r.traffic.total() ? rate_text(r.traffic, best) : "-");
    row.push_back(over_link ? "-" : percent_of(Basis::kokkos_copy, r.traffic, best, probes, space));
    row.push_back(over_link ? percent_of(Basis::link, r.traffic, best, probes, space) + " link"
                            : percent_of(Basis::vendor_copy, r.traffic, best, probes, space));
    if (any_flops) {
      row.push_back(r.traffic.flops ? fmt::format("{:.1f}", r.traffic.gflop_per_s(best)) : "-");
      row.push_back(percent_of(Basis::fma_peak, r.traffic, best, probes, space));
    }
    if (experiment.rate_in_elements) row.push_back(fmt::format("{:.3f}", elements_per_s(r.size, best) * 1e-9));
    if (any_speedup) {
      const auto speedup = speedup_of(r, results);
      row.push_back(speedup ? fmt::format("{:.2f}x", *speedup) : "-");
    }
    if (any_transfers) {
      const bool timed = r.with_transfers.repetitions > 0;
      row.push_back(timed ? time_text(r.with_transfers.best) : "-");
      row.push_back(timed ? rate_text(r.traffic, r.with_transfers.best) : "-");
      row.push_back(timed && v.device ? percent_of(Basis::link, r.traffic, r.with_transfers.best, probes, space) : "-");
    }
    row.push_back(r.verdict.summary.empty() ? (r.verdict.ok ? "ok" : "FAILED") : r.verdict.summary);
    for (const auto& name : cell_names) {
      auto cell = std::find_if(r.verdict.cells.begin(), r.verdict.cells.end(),
                               [&](const auto& c) { return c.first == name; });
      row.push_back(cell == r.verdict.cells.end() ? "" : cell->second);
    }
    row.push_back(v.document.empty() ? "-" : v.document);
    table.add_row(row);
  }
  table.print(out);

  out << '\n' << fmt::format(fmt::runtime(legend().paragraph(NBK_HEADING("## Timings"))), repetitions, bytes_text(results));
  if (any_flops) out << legend().paragraph(NBK_HEADING("## GFLOP/s"));
  if (experiment.rate_in_elements) out << " Gelem/s: elements per second of the best call, in 10^9.";
  if (any_speedup)
    out << legend().paragraph(NBK_HEADING("## Speed-up"));
  if (any_transfers)
    out << legend().paragraph(NBK_HEADING("## With transfers"));
  out << "\n";

  out << "\nWhat one call of each variant moves, and what its first call pays:\n";
  std::set<std::string> seen;
  for (const auto& r : results) {
    const Variant& v = *r.variant;
    if (!seen.insert(v.name + "/" + v.space).second) continue;
    if (!r.skipped.empty()) {
      out << fmt::format("  {:<16} {:<7} skipped: {}\n", v.name, v.space, r.skipped);
      continue;
    }
    out << fmt::format("  {:<16} {:<7} {}{}\n", v.name, v.space, v.moves.empty() ? "-" : v.moves,
                       v.first_call.empty() ? "" : "; first call: " + v.first_call);
  }
  print_below_memcpy(out, results, probes);
}

void print_sweep(std::ostream& out, const SweepResult& sweep) {
  out << fmt::format("\nCrossover sweep: {} on {} (host) against {} on the device, best of {} calls per point\n",
                     sweep.plan.host_variant.name(), sweep.host_space, sweep.plan.device_variant.name(), sweep.plan.repetitions);
  Table table({"size", "elements", "host", "device resident", "device with transfers", "faster", "check"});
  for (const auto& p : sweep.points) {
    auto t = [](const Result& r, bool transfers) -> std::string {
      if (!r.skipped.empty()) return "-";
      return format_seconds(transfers ? r.with_transfers.best : r.steady.best);
    };
    std::string faster = "host";
    if (p.device.skipped.empty() && p.device.steady.best < p.host.steady.best) faster = "device resident";
    if (p.device.skipped.empty() && p.device.with_transfers.best < p.host.steady.best) faster = "device (both)";
    const bool ok = p.host.verdict.ok && (!p.device.skipped.empty() || p.device.verdict.ok);
    table.add_row({p.size.text(), std::to_string(p.size.elements()), t(p.host, false), t(p.device, false),
                   t(p.device_with_transfers, true), faster, ok ? "ok" : "FAILED"});
  }
  table.print(out);
  if (sweep.device_space.empty()) {
    out << "The host wins at every size: this build has no device to compare it with.\n";
    return;
  }
  auto say = [&](const std::optional<Size>& from, const char* what) {
    if (from)
      out << fmt::format("Device {} faster than the host from {} ({} elements) up.\n", what, from->text(),
                         from->elements());
    else
      out << fmt::format("Device {}: the host wins at the largest size measured.\n", what);
  };
  say(sweep.resident_crossover, "with data resident:");
  say(sweep.transfers_crossover, "with transfers in every call:");
}

namespace {
nlohmann::json or_null(const std::optional<double>& value) { return value ? nlohmann::json(*value) : nullptr; }
}  // namespace

nlohmann::json to_json(const Result& r, const Probes& probes) {
  const Variant& v = *r.variant;
  nlohmann::json row = {{"variant", v.name},   {"space", v.space},       {"size", r.size.text()},
                        {"elements", r.size.elements()}, {"moves", v.moves}, {"document", v.document}};
  if (!r.skipped.empty()) {
    row["status"] = "skipped";
    row["reason"] = r.skipped;
    return row;
  }
  const std::string space = reference_space(v);
  row["judged_on"] = space;  // whose probes the fractions divide by
  row["status"] = r.verdict.ok ? "verified" : "failed";
  row["check"] = r.verdict.summary;
  row["first_s"] = r.steady.first;
  row["best_s"] = r.steady.best;
  row["median_s"] = r.steady.median;
  row["repetitions"] = r.steady.repetitions;
  row["first_call_includes"] = v.first_call;
  row["bytes_per_call"] = r.traffic.total();
  row["gb_per_s"] = r.traffic.gb_per_s(r.steady.best);
  if (v.device && v.call_crosses_link) {  // judged by the link, as in the table
    row["fraction_of_kokkos_copy"] = nullptr;
    row["fraction_of_memcpy"] = nullptr;
    row["fraction_of_link"] = or_null(fraction_of(Basis::link, r.traffic, r.steady.best, probes, space));
  } else {
    row["fraction_of_kokkos_copy"] = or_null(fraction_of(Basis::kokkos_copy, r.traffic, r.steady.best, probes, space));
    row["fraction_of_memcpy"] = or_null(fraction_of(Basis::vendor_copy, r.traffic, r.steady.best, probes, space));
  }
  row["elements_per_s"] = elements_per_s(r.size, r.steady.best);
  if (r.traffic.flops) {
    row["flops_per_call"] = r.traffic.flops;
    row["gflop_per_s"] = r.traffic.gflop_per_s(r.steady.best);
    row["flop_precision"] = r.traffic.flop_bytes == sizeof(double) ? "f64" : "f32";
    row["fraction_of_fma_peak"] = or_null(fraction_of(Basis::fma_peak, r.traffic, r.steady.best, probes, space));
  }
  if (r.with_transfers.repetitions > 0)
    row["with_transfers"] = {{"first_s", r.with_transfers.first},
                             {"best_s", r.with_transfers.best},
                             {"median_s", r.with_transfers.median},
                             {"gb_per_s", r.traffic.gb_per_s(r.with_transfers.best)},
                             {"fraction_of_link", or_null(fraction_of(Basis::link, r.traffic, r.with_transfers.best, probes, space))}};
  for (const auto& [key, value] : r.verdict.details.items()) row[key] = value;
  return row;
}

nlohmann::json to_json(const SweepResult& sweep) {
  nlohmann::json doc = {{"host_variant", sweep.plan.host_variant.name()},
                        {"device_variant", sweep.plan.device_variant.name()},
                        {"host_space", sweep.host_space},
                        {"device_space", sweep.device_space}};
  auto time_or_null = [](const Result& r, bool transfers) -> nlohmann::json {
    if (!r.skipped.empty()) return nullptr;
    return transfers ? r.with_transfers.best : r.steady.best;
  };
  for (const auto& p : sweep.points)
    doc["points"].push_back({{"size", p.size.text()},
                             {"elements", p.size.elements()},
                             {"host_s", time_or_null(p.host, false)},
                             {"device_resident_s", time_or_null(p.device, false)},
                             {"device_with_transfers_s", time_or_null(p.device_with_transfers, true)}});
  auto crossover_json = [](const std::optional<Size>& s) -> nlohmann::json {
    if (!s) return nullptr;
    return {{"size", s->text()}, {"elements", s->elements()}};
  };
  doc["device_wins_from_resident"] = crossover_json(sweep.resident_crossover);
  doc["device_wins_from_with_transfers"] = crossover_json(sweep.transfers_crossover);
  doc["note"] = sweep.device_space.empty() ? "the host wins at every size: no device in this build"
                                           : "null: the host wins at the largest size";
  doc["verified"] = sweep.verified;
  return doc;
}

}  // namespace nbk::exp
