#pragma once
// Runs what an Experiment states, the same way for the program, the tests and the
// benchmarks: checks memory, makes the case, times its first call and its steady state
// (and, where the variant has one, the with-transfers timing) with every space fenced
// around each call, records results after each call outside the clock, and asks the case
// for its verdict at the end. One file per job: driver_run.cpp (a variant), driver_sweep.cpp
// (the crossover sweep), driver_estimate.cpp (the work a request asks for), driver_table.cpp
// (the text a program prints) and driver_json.cpp (its JSON).
#include <nlohmann/json.hpp>

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "nbk/core/repeat.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/report/probe_report.hpp"

namespace nbk::exp {

struct Result {
  const Variant* variant = nullptr;
  Size size;
  std::string skipped;            // why it did not run; empty when it did
  RepeatedTiming steady;          // first call, then `repetitions` calls (fewer: see budget_s)
  RepeatedTiming with_transfers;  // repetitions 0: the variant has no such timing
  Verdict verdict;
  Traffic traffic;
  int planned_repetitions = 0;  // the calls asked for after the first
  double budget_s = 0;          // the row's time budget (0: none): see run_variant
  // Whether a signal cut a timing (nbk/core/stop.hpp): the row did not finish, and is no result.
  bool cut() const { return steady.cut || with_transfers.cut; }
  // Whether a timing stopped repeating before planned_repetitions because its budget was spent.
  bool stopped_early() const {
    return (steady.repetitions > 0 && steady.repetitions < planned_repetitions) ||
           (with_transfers.repetitions > 0 && with_transfers.repetitions < planned_repetitions);
  }
};

// The time a row's calls may take when the repetitions are the program's default (--budget):
// like timeit's autorange, a row keeps its first call and at least min_budget_repetitions more,
// then stops repeating once its calls (the first included) have taken the budget; rows of
// short calls make all their repetitions, rows of calls of seconds (one-thread references at the
// documents' sizes) stop after fewer, and the table says so.
inline constexpr double default_budget_s = 1.0;
inline constexpr int min_budget_repetitions = 2;

// Why `variant` cannot run at `size` here (memory), or "" when it can.
std::string shortfall(const Variant& variant, const Size& size);

// The fences a variant's timed calls wait for: every space for a device's, the host spaces for a
// CPU's, as in a build without a device (nbk/core/timer.hpp).
inline Fences fences_of(const Variant& variant) {
  return variant.device ? Fences::every_space : Fences::host_spaces;
}

// A row's Kokkos Profiling region, nbk::<workload>::<variant>@<space>/<size> (docs/profiling.md):
// run_variant runs the row inside it, and its case's making, first call, calls with transfers and
// check in regions of their own inside that one: <row>/setup, <row>/first, <row>/transfers (and
// <row>/transfers/first), <row>/check. The timed calls' kernels are the row's own.
std::string row_region(const Experiment& experiment, const Variant& variant, const Size& size);

// The experiment's Problem of one size, made in a region of its own, nbk::<workload>::problem/<size>
// (its host arrays' fills apart from the rows'): what the program and the sweeps run on.
std::shared_ptr<const Problem> problem_in_region(const Experiment& experiment, const Size& size,
                                                 const Settings& settings);

// Makes the case and times it (see above), in the row's regions. A variant that cannot fit is
// returned skipped.
// With budget_s > 0, each timing stops repeating once its calls have taken budget_s, after at
// least min_budget_repetitions (or `repetitions`, if fewer) timed calls.
Result run_variant(const Experiment& experiment, const Variant& variant, const Problem& problem, const Size& size,
                   int repetitions, double budget_s = 0);

// The variants `names` and `spaces` select (empty: all) that this build can run: among the
// experiment's injected bugs instead of its variants when `injected_bugs` is true.
std::vector<const Variant*> select_variants(const Experiment& experiment, const std::vector<std::string>& names,
                                            const std::vector<std::string>& spaces, bool injected_bugs = false);

// The space whose references judge a variant: "host" code runs on one thread, like serial.
std::string reference_space(const Variant& variant);

// ---- the crossover sweep ----

struct SweepPoint {
  Size size;
  Result host, device, device_with_transfers;  // device ones skipped in a build without one
};

struct SweepResult {
  Sweep plan;
  std::string host_space, device_space;  // device_space empty: no device in this build
  std::vector<SweepPoint> points;
  // The smallest size from which the device is faster at every larger size; nullopt when
  // the host wins at the largest size (or there is no device).
  std::optional<Size> resident_crossover, transfers_crossover;
  bool verified = true;
};

// The sizes a sweep runs up to `max_elements`: all of its own for 0; else those up to it and,
// past its last, further powers of two of the experiment's rank up to it.
std::vector<Size> sweep_sizes(const Experiment& experiment, const Sweep& plan, std::int64_t max_elements);

// The sweep's variant on the best host space, and its device variant (nullptr without a device).
std::pair<const Variant*, const Variant*> sweep_variants(const Experiment& experiment, const Sweep& plan);

// Runs one of the experiment's sweeps up to `max_elements` (see sweep_sizes).
SweepResult run_sweep(const Experiment& experiment, const Sweep& plan, const Settings& settings,
                      std::int64_t max_elements, double budget_s = 0);

// ---- the work a request asks for ----

// The rates the estimate assumes for one call (conservative: one host thread does better; the
// elements' rate only for a call that counts no flops), and the seconds it allows before a
// program refuses to start without --no-limit.
inline constexpr double assumed_bytes_per_s = 1e9, assumed_flops_per_s = 1e9, assumed_elements_per_s = 1e8;
inline constexpr double work_limit_seconds = 3600;
// "1 GB/s or 1 GFLOP/s, whichever is slowest (1e+08 elements/s where no flops are counted)"
std::string assumed_rates_text();

// Seconds the timed calls (first, `repetitions` more, and the with-transfers ones) of `variants`
// at `sizes`, plus the sweeps up to `sweep_max` (nullopt: no sweeps), take at the assumed
// rates, a call costing its bytes, flops or elements, whichever takes longest.
double estimated_seconds(const Experiment& experiment, const std::vector<const Variant*>& variants,
                         const std::vector<Size>& sizes, int repetitions, std::optional<std::int64_t> sweep_max);

// ---- reports ----

// Elements of `size` per second of a call that took `seconds` (0 for no time).
inline double elements_per_s(const Size& size, double seconds) {
  return seconds > 0 ? static_cast<double>(size.elements()) / seconds : 0.0;
}

// Best time of the variant r is compared with (Variant::speedup_against) at r's size over
// r's best time, where both ran; nothing otherwise.
std::optional<double> speedup_of(const Result& r, const std::vector<Result>& all);

// The memory probe that judges a row (% probe): in place, Dot or copy (nbk::fitting_basis).
Basis fitting_basis(const Experiment& experiment, const Result& result);

// Each % of a memory reference above 100% in a row (% copy, % memcpy, % probe), with its
// reason: "226% of memcpy: in place: ...". Empty when none is above 100%.
std::vector<std::string> above_reference(const Experiment& experiment, const Result& result, const Probes& probes);
// The same for one basis: its text where the row passes 100% of it, else nothing.
std::optional<std::string> above_reference(const Experiment& experiment, const Result& result, Basis basis,
                                           const Probes& probes);

// The one figure a row is judged by (issues 49, 58): the time it cannot beat on its space over its
// best time. That bound is the roofline's: its bytes as the memory moves them at the ceiling of its
// kind of traffic at the level its working set fits in (nbk/report/ceilings.hpp), or its flops at
// the FMA probe of their precision, the larger; a call that crosses the link: its bytes at the
// pinned host<->device rates of the same run, one direction after the other, or both at once
// where its copies overlap (its moves say "both ways at once" or "two CUDA streams"). `binds`:
// "memory", "arithmetic", "link", "latency" (a device call under 20 us: launch and fence bound it,
// the fraction is still the roofline's), "none counted" (no bytes or flops that scale) or "-".
// `level`: the memory level of the ceiling ("L2", "DRAM"), "FMA" or "link"; `memory` the verdict
// against the ceilings (its level and kind also where arithmetic binds).
struct Limit {
  std::optional<double> fraction;
  std::string binds;
  std::string roof;  // the bound the fraction divides: "memory", "arithmetic", "chain" or "link"
  std::string level;
  CeilingVerdict memory;
  std::string chain_text;  // where a chain binds: its operations, "f32 adds"
};
// A row's chain limit (Variant::chain): its longest thread's share of the call's links (an
// element each), each taking the space's chain probe's link; none on a device space, for a row
// without a chain, or where the run has no chain probe.
struct ChainBound {
  double link_ns = 0;
  std::uint64_t links_per_thread = 0;
  double seconds() const { return static_cast<double>(links_per_thread) * link_ns * 1e-9; }
};
std::optional<ChainBound> chain_bound_of(const Result& result, const Probes& probes);
std::string chain_text(const Chain& chain);  // "f32 adds", "f64 multiplies"
Limit limit_of(const Experiment& experiment, const Result& result, const Probes& probes);
// "112% of limit (memory): <reason>" where the row passes 100% of its limit, else nothing.
std::optional<std::string> above_limit(const Experiment& experiment, const Result& result, const Probes& probes);

void print_results(std::ostream& out, const Experiment& experiment, const std::vector<Result>& results,
                   const Probes& probes);
void print_sweep(std::ostream& out, const SweepResult& sweep);
nlohmann::json to_json(const Result& result, const Probes& probes);
// With the probe that fits the row and any figure above 100% with its reason.
nlohmann::json to_json(const Experiment& experiment, const Result& result, const Probes& probes);
nlohmann::json to_json(const SweepResult& sweep);

}  // namespace nbk::exp
