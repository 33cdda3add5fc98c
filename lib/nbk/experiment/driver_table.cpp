// The driver, printing a run: the table, its legend, what each call moves, the sweeps (driver.hpp).
#include "nbk/experiment/driver.hpp"
#include "nbk/experiment/notes.hpp"
#include "notes_outline.hpp"  // generated from legend.md (lib/CMakeLists.txt)

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <set>

#include "nbk/core/memory.hpp"
#include "nbk/report/table.hpp"

namespace nbk::exp {

namespace {

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

// The host's last-level cache in bytes (sysfs; 0 where it does not say).
std::uint64_t host_last_level_cache_bytes() {
  std::uint64_t largest = 0;
  int level_of_largest = 0;
  for (int index = 0; index < 8; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    std::ifstream level_file(dir + "level"), size_file(dir + "size"), type_file(dir + "type");
    int level = 0;
    std::string size, type;
    if (!(level_file >> level) || !(size_file >> size)) continue;
    type_file >> type;
    if (type == "Instruction" || size.empty()) continue;
    std::uint64_t bytes = std::strtoull(size.c_str(), nullptr, 10);
    if (size.back() == 'K') bytes <<= 10;
    if (size.back() == 'M') bytes <<= 20;
    if (level > level_of_largest) level_of_largest = level, largest = bytes;
  }
  return largest;
}

// Why a row reaches `fraction` (> 1) of `basis`, in words.
std::string why_above(const Experiment& experiment, const Result& r, Basis basis, double fraction,
                      const Probes& probes) {
  const Variant& v = *r.variant;
  const Basis fits = fitting_basis(experiment, r);
  if (!v.device) {
    static const std::uint64_t cache = host_last_level_cache_bytes();
    if (cache > 0 && r.traffic.total() <= cache)
      return fmt::format("its {} a call fit in the {} last-level cache: cache bandwidth, not memory's",
                         format_bytes(r.traffic.total()), format_bytes(cache));
  }
  if (basis != fits && fits == Basis::in_place)
    return "in place: one array read and written, where a copy also reads its destination before writing it "
           "(three streams moved for two counted); % probe judges it by the in-place probe";
  if (basis != fits && fits == Basis::dot)
    return "read-only: it stores nothing that scales, where a copy writes (and first reads) its destination; "
           "% probe judges it by the Dot probe";
  const auto probe = probes.find(reference_space(v));
  const double spread = probe == probes.end() ? 0.0 : probe->second.spread.largest();
  if (fraction <= 1.0 + spread)
    return fmt::format("within the probe's own spread ({:.0f}%: its median run against its best)", 100.0 * spread);
  return "not established: faster than the probe that should bound it (profile it before trusting either)";
}

}  // namespace

Basis fitting_basis(const Experiment& experiment, const Result& result) {
  return nbk::fitting_basis(result.traffic, experiment.in_place);
}

std::optional<std::string> above_reference(const Experiment& experiment, const Result& r, Basis basis,
                                           const Probes& probes) {
  const Variant& v = *r.variant;
  if (!r.skipped.empty() || (v.device && v.call_crosses_link)) return std::nullopt;
  const double best = r.steady.best > 0 ? r.steady.best : r.steady.first;
  const auto fraction = fraction_of(basis, r.traffic, best, probes, reference_space(v));
  if (!fraction || *fraction <= 1.0) return std::nullopt;
  const std::string of = basis == Basis::vendor_copy ? "memcpy" : basis_name(basis) + " probe";
  return fmt::format("{:.0f}% of {}: {}", 100.0 * *fraction, of, why_above(experiment, r, basis, *fraction, probes));
}

std::vector<std::string> above_reference(const Experiment& experiment, const Result& r, const Probes& probes) {
  std::vector<std::string> reasons;
  const Basis fits = fitting_basis(experiment, r);
  std::vector<Basis> bases = {Basis::kokkos_copy, Basis::vendor_copy};
  if (fits != Basis::kokkos_copy) bases.push_back(fits);
  for (const Basis basis : bases)
    if (auto reason = above_reference(experiment, r, basis, probes)) reasons.push_back(std::move(*reason));
  return reasons;
}

namespace {
// The copies of a call that crosses the link overlap both ways (pipelined, split-streams).
bool copies_both_ways(const Variant& v) {
  return v.moves.find("both ways at once") != std::string::npos ||
         v.moves.find("two CUDA streams") != std::string::npos;
}

// The row's traffic as its experiment states it (an experiment in place marks every row's).
Traffic stated_traffic(const Experiment& experiment, const Result& r) {
  Traffic t = r.traffic;
  t.in_place = t.in_place || experiment.in_place;
  return t;
}
}  // namespace

std::optional<ChainBound> chain_bound_of(const Result& r, const Probes& probes) {
  const Variant& v = *r.variant;
  if (v.device || v.chain.empty() || !r.skipped.empty()) return std::nullopt;
  const auto probe = probes.find(reference_space(v));
  if (probe == probes.end() || probe->second.chains.link_ns(v.chain) <= 0) return std::nullopt;
  const std::uint64_t threads = v.space == "host" ? 1 : static_cast<std::uint64_t>(std::max(1, probe->second.concurrency));
  const std::uint64_t links = r.size.elements();
  return ChainBound{probe->second.chains.link_ns(v.chain), (links + threads - 1) / threads};
}

std::string chain_text(const Chain& chain) {
  return fmt::format("f{} {}", 8 * chain.bytes, chain.op == ChainOp::add ? "adds" : "multiplies");
}

Limit limit_of(const Experiment& experiment, const Result& r, const Probes& probes) {
  const Variant& v = *r.variant;
  const double best = r.steady.best > 0 ? r.steady.best : r.steady.first;
  const std::string space = reference_space(v);
  if (!r.skipped.empty() || best <= 0) return {std::nullopt, "-", "", "", {}};
  const auto probe = probes.find(space);
  if (v.device && v.call_crosses_link) {
    if (probe == probes.end() || !probe->second.link || probe->second.link->h2d_pinned <= 0 ||
        probe->second.link->d2h_pinned <= 0)
      return {std::nullopt, "link", "link", "link", {}};
    const double up = static_cast<double>(r.traffic.bytes_read) * 1e-9 / probe->second.link->h2d_pinned;
    const double down = static_cast<double>(r.traffic.bytes_written) * 1e-9 / probe->second.link->d2h_pinned;
    return {(copies_both_ways(v) ? std::max(up, down) : up + down) / best, "link", "link", "link", {}};
  }
  CeilingVerdict memory;
  // A "host" row is plain code (or a vendor library) outside Kokkos: no launch of a space bounds it.
  if (probe != probes.end())
    memory = judge(probe->second.ceilings, stated_traffic(experiment, r), best, v.space != "host");
  const auto arithmetic = fraction_of(Basis::fma_peak, r.traffic, best, probes, space);
  // An in-order reduction's chain binds where its links take longer than the bytes and the flops.
  if (const auto chain = chain_bound_of(r, probes);
      chain && chain->seconds() / best > std::max(memory.fraction.value_or(0), arithmetic.value_or(0)))
    return {chain->seconds() / best, "chain", "chain", "chain", memory, chain_text(v.chain)};
  if (!memory.fraction && !arithmetic)
    return {std::nullopt, r.traffic.total() || r.traffic.flops ? "-" : "none counted", "", "", memory};
  const bool flops_bind = arithmetic.value_or(0) > memory.fraction.value_or(0);
  const std::string roof = flops_bind ? "arithmetic" : "memory";
  // Latency: the call's floor takes longer than its bytes at the ceiling, or a device call this short.
  const bool latency = (!flops_bind && memory.floor_binds) || (v.device && best < latency_bound_seconds);
  return {std::max(memory.fraction.value_or(0), arithmetic.value_or(0)), latency ? "latency" : roof, roof,
          flops_bind ? "FMA" : memory.level, memory};
}

std::optional<std::string> above_limit(const Experiment& experiment, const Result& r, const Probes& probes) {
  const Limit limit = limit_of(experiment, r, probes);
  if (!limit.fraction || *limit.fraction <= 1.0) return std::nullopt;
  std::string why;
  if (limit.roof == "link")
    why = "faster than the pinned link rates the probe measured: a bug in the row's bytes or the probe";
  else if (limit.roof == "chain")
    why = fmt::format("faster than one chain of {} a thread allows: its operations are not such a chain (a row "
                      "that declares one wrongly), or the chain probe is short of the space's latency",
                      limit.chain_text);
  else if (limit.roof == "arithmetic")
    why = "more flops a second than the FMA probe: the weights of lib/nbk/core/flop_count.hpp may overstate "
          "this kernel's work, or the probe is short of the space's peak";
  else
    why = fmt::format("faster than the {} ceiling of its traffic ({}, {} a call, working set {}): a bug in the "
                      "row's bytes or in the probe",
                      limit.level, limit.memory.kind_text, format_bytes(limit.memory.moved),
                      format_bytes(limit.memory.working_set));
  return fmt::format("{:.0f}% of limit ({}): {}", 100.0 * *limit.fraction, limit.level, why);
}

std::optional<double> speedup_of(const Result& r, const std::vector<Result>& all) {
  const std::string& against = r.variant->speedup_against.name();
  if (against.empty() || !r.skipped.empty() || r.steady.best <= 0) return std::nullopt;
  for (const Result& base : all)
    if (base.variant->name == against && base.size.text() == r.size.text() && base.skipped.empty() &&
        base.steady.best > 0)
      return base.steady.best / r.steady.best;
  return std::nullopt;
}

namespace {

// What a table of results shows beyond its fixed columns, from all of its rows.
struct TableShape {
  bool sizes = false, early = false, flops = false, elements = false, speedup = false, transfers = false;
  std::vector<std::string> cell_names;  // the verdicts' own cells, in the order rows first give them
  int repetitions = 0;
};

TableShape shape_of(const Experiment& experiment, const std::vector<Result>& results) {
  TableShape shape;
  std::set<std::string> sizes;
  for (const auto& r : results) {
    sizes.insert(r.size.text());
    shape.early = shape.early || (r.skipped.empty() && r.stopped_early());
    shape.flops = shape.flops || r.traffic.flops > 0;
    shape.speedup = shape.speedup || !r.variant->speedup_against.empty();
    shape.transfers = shape.transfers || r.with_transfers.repetitions > 0;
    shape.repetitions = std::max(shape.repetitions, r.steady.repetitions);
    for (const auto& [name, value] : r.verdict.cells)
      if (std::find(shape.cell_names.begin(), shape.cell_names.end(), name) == shape.cell_names.end())
        shape.cell_names.push_back(name);
  }
  shape.sizes = sizes.size() > 1;
  shape.elements = experiment.rate_in_elements;
  return shape;
}

// What the cells of one row of the table are computed from.
struct RowFacts {
  const Result& r;
  const std::vector<Result>& all;
  const Experiment& experiment;
  const Probes& probes;
  double best;  // the best steady call, or the first where there was no other

  RowFacts(const Result& result, const std::vector<Result>& results, const Experiment& e, const Probes& p)
      : r(result), all(results), experiment(e), probes(p),
        best(result.steady.best > 0 ? result.steady.best : result.steady.first) {}

  // The row's % of limit; a figure above 100% is marked, its reason printed under the table.
  std::string of_limit() const {
    const Limit limit = limit_of(experiment, r, probes);
    if (!limit.fraction) return limit.memory.missing.empty() ? "-" : "no ceiling";
    const double percent = 100.0 * *limit.fraction;  // one decimal under 10%, as the report's
    return (percent < 10 ? fmt::format("{:.1f}%", percent) : fmt::format("{:.0f}%", percent)) +
           (*limit.fraction > 1.0 ? "*" : "") + (limit.level.empty() ? "" : " " + limit.level);
  }
  // A cell of the with-transfers columns: "-" where no call with transfers was timed.
  std::string with_transfers(std::string (*cell)(const RowFacts&)) const {
    return r.with_transfers.repetitions > 0 ? cell(*this) : "-";
  }
};

// What binds a row, and for memory its kind of traffic: "memory, 2 reads 1 write".
std::string bound_text(const Limit& limit) {
  if (limit.roof == "memory" && !limit.memory.kind_text.empty()) return limit.binds + ", " + limit.memory.kind_text;
  if (limit.roof == "chain") return "chain, " + limit.chain_text;
  return limit.binds;
}

// "2 of 5, budget"; "5 of 5 (3 with transfers), budget" where only the with-transfers calls stopped.
std::string calls_text(const Result& r) {
  if (!r.stopped_early()) return std::to_string(r.steady.repetitions);
  const int transfers = r.with_transfers.repetitions;
  const bool transfers_early = transfers > 0 && transfers < r.planned_repetitions;
  return fmt::format("{} of {}{}, budget", r.steady.repetitions, r.planned_repetitions,
                     transfers_early ? fmt::format(" ({} with transfers)", transfers) : std::string());
}

// One column of the results table: its header, which tables have it (null: every one), and
// its cell in a row. A skipped row has the cells that name it, then "skipped".
struct Column {
  std::string header;
  bool (*shown)(const TableShape&);
  std::function<std::string(const RowFacts&)> cell;
  bool names_the_row = false;
};

// The table's columns up to the check, in order: the verdicts' own cells and the document follow.
const Column measured_columns[] = {
  {"variant", nullptr, [](const RowFacts& f) { return f.r.variant->name; }, true},
  {"space", nullptr, [](const RowFacts& f) { return f.r.variant->space; }, true},
  {"size", [](const TableShape& s) { return s.sizes; }, [](const RowFacts& f) { return f.r.size.text(); }, true},
  {"first", nullptr, [](const RowFacts& f) { return time_text(f.r.steady.first); }},
  {"best", nullptr, [](const RowFacts& f) { return time_text(f.r.steady.best); }},
  {"median", nullptr, [](const RowFacts& f) { return time_text(f.r.steady.median); }},
  {"calls", [](const TableShape& s) { return s.early; }, [](const RowFacts& f) { return calls_text(f.r); }},
  {"GB/s", nullptr, [](const RowFacts& f) { return f.r.traffic.total() ? rate_text(f.r.traffic, f.best) : "-"; }},
  {"GFLOP/s", [](const TableShape& s) { return s.flops; }, [](const RowFacts& f) {
     return f.r.traffic.flops ? fmt::format("{:.1f}", f.r.traffic.gflop_per_s(f.best)) : "-";
   }},
  {"% of limit", nullptr, [](const RowFacts& f) { return f.of_limit(); }},
  {"bound by", nullptr, [](const RowFacts& f) { return bound_text(limit_of(f.experiment, f.r, f.probes)); }},
  {"Gelem/s", [](const TableShape& s) { return s.elements; },
   [](const RowFacts& f) { return fmt::format("{:.3f}", elements_per_s(f.r.size, f.best) * 1e-9); }},
  {"speed-up", [](const TableShape& s) { return s.speedup; }, [](const RowFacts& f) {
     const auto speedup = speedup_of(f.r, f.all);
     return speedup ? fmt::format("{:.2f}x", *speedup) : "-";
   }},
  {"with transfers", [](const TableShape& s) { return s.transfers; }, [](const RowFacts& f) {
     return f.with_transfers([](const RowFacts& g) { return time_text(g.r.with_transfers.best); });
   }},
  {"GB/s", [](const TableShape& s) { return s.transfers; }, [](const RowFacts& f) {
     return f.with_transfers([](const RowFacts& g) { return rate_text(g.r.traffic, g.r.with_transfers.best); });
   }},
  {"check", nullptr, [](const RowFacts& f) {
     return f.r.verdict.summary.empty() ? (f.r.verdict.ok ? "ok" : "FAILED") : f.r.verdict.summary;
   }},
};

const Column document_column = {"document", nullptr, [](const RowFacts& f) {
                                   return f.r.variant->document.empty() ? "-" : f.r.variant->document;
                                 }};

// The verdict's cell `name` in a row ("" where its verdict has none).
std::string verdict_cell(const Result& r, const std::string& name) {
  const auto& cells = r.verdict.cells;
  auto cell = std::find_if(cells.begin(), cells.end(), [&](const auto& c) { return c.first == name; });
  return cell == cells.end() ? std::string() : cell->second;
}

// The measured columns this table has, then each of the verdicts' own cells, then the document's figure.
std::vector<Column> columns_of(const TableShape& shape) {
  std::vector<Column> columns;
  for (const Column& c : measured_columns)
    if (!c.shown || c.shown(shape)) columns.push_back(c);
  for (const std::string& name : shape.cell_names)
    columns.push_back({name, nullptr, [name](const RowFacts& f) { return verdict_cell(f.r, name); }});
  columns.push_back(document_column);
  return columns;
}

void print_table(std::ostream& out, const Experiment& experiment, const std::vector<Result>& results,
                 const Probes& probes, const TableShape& shape) {
  const std::vector<Column> columns = columns_of(shape);
  std::vector<std::string> headers;
  for (const Column& c : columns) headers.push_back(c.header);
  Table table(headers);
  for (const auto& r : results) {
    const RowFacts facts(r, results, experiment, probes);
    std::vector<std::string> row;
    for (const Column& c : columns) {
      if (!r.skipped.empty() && !c.names_the_row) {
        row.push_back("skipped");
        break;
      }
      row.push_back(c.cell(facts));
    }
    table.add_row(row);
  }
  table.print(out);
}

// The legend of the columns this table has.
void print_legend(std::ostream& out, const std::vector<Result>& results, const TableShape& shape) {
  out << '\n' << NBK_PROSE(legend().paragraph, "## Timings")(shape.repetitions, bytes_text(results));
  out << legend().paragraph(NBK_HEADING("## Limit"));
  if (shape.early) {
    double budget = 0;
    for (const auto& r : results) budget = std::max(budget, r.budget_s);
    out << NBK_PROSE(legend().paragraph, "## Budget")(format_seconds(budget), min_budget_repetitions);
  }
  if (shape.flops) out << legend().paragraph(NBK_HEADING("## GFLOP/s"));
  if (shape.elements) out << " Gelem/s: elements per second of the best call, in 10^9.";
  if (shape.speedup) out << legend().paragraph(NBK_HEADING("## Speed-up"));
  if (shape.transfers) out << legend().paragraph(NBK_HEADING("## With transfers"));
  out << "\n";
}

// What one call of each variant moves, and what its first call pays, once a variant and space.
void print_moves(std::ostream& out, const std::vector<Result>& results) {
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
}

// Every % of limit above 100% (marked * in the table), with its reason.
void print_above_limits(std::ostream& out, const Experiment& experiment, const std::vector<Result>& results,
                        const Probes& probes) {
  bool header = false;
  for (const auto& r : results)
    if (const auto reason = above_limit(experiment, r, probes)) {
      if (!header) out << "\nAbove 100% of its limit (* in the table), and why:\n";
      header = true;
      out << fmt::format("  {:<16} {:<7} {:<8} {}\n", r.variant->name, r.variant->space, r.size.text(), *reason);
    }
}

}  // namespace

void print_results(std::ostream& out, const Experiment& experiment, const std::vector<Result>& results,
                   const Probes& probes) {
  const TableShape shape = shape_of(experiment, results);
  print_table(out, experiment, results, probes, shape);
  print_legend(out, results, shape);
  print_moves(out, results);
  print_below_memcpy(out, results, probes);
  print_above_limits(out, experiment, results, probes);
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

}  // namespace nbk::exp
