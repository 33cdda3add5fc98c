#pragma once
// The experiment model, in five names defined here (docs/design.md, "The vocabulary"):
//   Experiment  what one program runs: sizes, traffic, its Problem's maker, variants, sweeps;
//   Problem     the host input of one size and the reference it is checked against;
//   Variant     one way of computing it on one space (on<Space>): a name, what one call moves,
//               what the documents call it, and the maker of its Case (maker<Problem>);
//   Case        a variant at one size: it owns the variant's data; run() is one timed call;
//   Verdict     what the checks of a case found.
// A workload states them, once, in its own folder (lib/nbk/<workload>/), with its kernels
// (free function templates on the execution space), its sizes and the prose of its notes.md;
// by convention its Data<Space> is what a variant's calls work on, and variant_on<Space>(...)
// makes one of its variants on Space.
// From that statement alone, nbk/experiment/program.cpp makes the program nbk-<name>,
// benchmarks/registrar.cpp its Google Benchmark families and tests/test_experiments.cpp its
// verification tests on every enabled space. The list of experiments is experiments.txt.
#include <Kokkos_Core.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "nbk/core/compat.hpp"
#include "nbk/core/spaces.hpp"
#include "nbk/core/traffic.hpp"
#include "nbk/experiment/size.hpp"

namespace nbk::exp {

// What the checks of a case found, over every call it made.
struct Verdict {
  bool ok = false;
  std::string summary;  // the table's check column: "ok", "FAILED (12 wrong)"
  std::vector<std::pair<std::string, std::string>> cells;  // workload columns: {"error", "+1.2e-03"}
  nlohmann::json details = nlohmann::json::object();      // workload keys in the JSON row
};

// One variant at one size. It owns its data, allocated and initialized when it is made
// (never timed); the driver times calls of run() with every space fenced around them.
class Case {
 public:
  virtual ~Case() = default;
  // One call, as the variant's row times it.
  virtual void run() = 0;
  // The with-transfers timing is upload(), run(), download(): the inputs from host memory
  // into the space's, and the outputs back.
  virtual void upload() {}
  virtual void download() {}
  // After every call, outside the clock: look at what the call produced.
  virtual void record() {}
  // After all calls: does everything the calls produced agree with the host reference?
  virtual Verdict verdict() = 0;
};

// The host side of one size: the input data and the reference result, made once, outside
// any timing, and read (never written) by every case of that size.
class Problem {
 public:
  virtual ~Problem() = default;
  // Lines printed above the table: what is computed, and the reference.
  virtual void describe(std::ostream&) const {}
  virtual nlohmann::json to_json() const { return nlohmann::json::object(); }
};

struct Footprint {
  std::uint64_t host_bytes = 0;    // besides the Problem's own
  std::uint64_t device_bytes = 0;  // on the GPU, for a device space
};

struct Settings {
  std::uint64_t seed = 1;
  bool verbose = false;
  bool kokkos_initialized = true;  // false only where a CUDA build found no GPU (needs_device false)
};

using CaseMaker = std::function<std::unique_ptr<Case>(const Problem&, const Size&)>;

struct Variant;

// A variant another one refers to (a speed-up's baseline, a sweep's host or device variant): made
// from the variant itself, never from its name typed again; check_references(experiment) finds
// any that names no variant of the experiment when the experiment is built.
class VariantRef {
 public:
  VariantRef() = default;
  VariantRef(const Variant& variant);  // NOLINT: implicit, `v.speedup_against = host;`
  const std::string& name() const { return name_; }
  bool empty() const { return name_.empty(); }

 private:
  std::string name_;
};

struct Variant {
  std::string name;        // on the command line, in tables, JSON and benchmark names
  std::string space;       // "serial", "openmp", "cuda"; "host": plain C++ on one host thread
  // The space whose probes judge it (the % columns) where that is not its own ("host": serial's):
  // a vendor library that runs on every core outside Kokkos is judged by the all-core probe.
  std::string judged_on;
  bool device = false;     // the space's memory is not the host's
  std::string moves;       // what one call moves between host and space, in words
  std::string first_call;  // what the first call pays that later calls do not ("" if nothing special)
  std::string document;    // the documents' name for it and their figure ("" if none)
  bool timed_with_transfers = false;  // also time upload + run + download
  bool call_crosses_link = false;     // run() itself moves the data host<->device: judged by the link
  // Why this variant cannot reach the device's memcpy bandwidth, where that is known; the
  // program prints it under any device row below 90% of memcpy ("" = not established).
  std::string below_memcpy_because;
  std::function<Footprint(const Size&)> footprint;
  CaseMaker make;
  // Where variants of one experiment move different bytes (float32 and float64 ones): this
  // variant's traffic per call, instead of the experiment's.
  std::function<Traffic(const Size&)> traffic;
  // Where its operations on a host space are one dependent chain a thread, an element a link
  // (nbk/core/traffic.hpp): judged also by the chain probe's latency (none on a device space).
  Chain chain;
  // The variant whose best time at the same size this one's speed-up is taken against (the
  // documents' speed-up tables); empty for none.
  VariantRef speedup_against;
  // Split across the MPI ranks (exp::across_ranks, nbk/experiment/across_ranks.hpp): every rank
  // makes and runs its case together, and the timings are the slowest rank's. Under more
  // than one rank a program runs only these.
  bool distributed = false;
};

// A size sweep that finds where the device starts to beat the host: the crossover the
// documents argue about without measuring it.
struct Sweep {
  std::vector<Size> sizes;    // increasing
  VariantRef host_variant;    // run on the best host space (openmp, else serial)
  VariantRef device_variant;  // run on the device, resident and with transfers
  int repetitions = 5;
};

struct Experiment {
  std::string name;      // "sum": the program nbk-sum, JSON "experiment", benchmark prefix
  std::string title;     // what it runs, in one line
  std::string document;  // "seed 001"
  int rank = 1;          // extents per size (0: the experiment has no size)
  std::vector<Size> sizes;        // the documents' sizes: what the program runs by default
  std::string size_help;          // --help text for --size
  std::vector<Size> test_sizes;   // what the tests run: empty, tiny, odd, not a multiple of any tile
  std::vector<Size> bench_sizes;  // what the benchmarks run (empty: `sizes`)
  // Why a size the parser accepts cannot run ("" where it can): limits of the workload itself,
  // checked with the memory before anything starts.
  std::function<std::string(const Size&)> refuse;
  int repetitions = 5;            // timed calls after the first, unless --repetitions says otherwise
  bool seeded = false;            // takes --seed
  // Special-function kernels (exp, sin, sqrt per element): their cost is arithmetic as much as
  // bytes, so the table adds elements per second (Gelem/s) beside GB/s.
  bool rate_in_elements = false;
  bool needs_device = true;       // false: runs (without Kokkos) where a CUDA build finds no GPU
  // Its kernels update their array in place (add-one's a[i] += 1): judged by the in-place probe
  // (one array read and written), not by a copy's, which also reads its destination before
  // writing it. Read-only kernels (writes that do not scale with the reads) are judged by the
  // Dot probe without saying so here (nbk::fitting_basis).
  bool in_place = false;
  std::function<Traffic(const Size&)> traffic;             // minimum bytes (and flops) of one call
  std::function<std::uint64_t(const Size&)> problem_bytes;  // host bytes of the Problem
  std::function<std::shared_ptr<const Problem>(const Size&, const Settings&)> make_problem;
  std::vector<Variant> variants;
  // Variants that are wrong on purpose (the documents' bugs, for a debugger or a bounds check
  // to catch): never in tests or benchmarks; the program runs them, and only them, when given
  // --inject-bug.
  std::vector<Variant> injected_bugs;
  std::vector<Sweep> sweeps;  // run in this order after the table (one per precision, say)
  // What the table cannot say by itself, after it: figures of the last Problem (most have none).
  std::function<void(std::ostream&, const Problem&)> explain;
  // Prose after the table: what the figures mean, and where the documents go wrong (the
  // workload's notes.md, section Notes).
  std::string notes;
};

inline VariantRef::VariantRef(const Variant& variant) : name_(variant.name) {}

// The minimum traffic of one call of `variant` at `size`.
inline Traffic traffic_of(const Experiment& experiment, const Variant& variant, const Size& size) {
  return variant.traffic ? variant.traffic(size) : experiment.traffic(size);
}

// ---- helpers for writing statements ----

// The sizes 2^first to 2^last elements of `rank` extents each (power_of_two_size), for a sweep.
inline std::vector<Size> powers_of_two(int first, int last, int rank = 1) {
  std::vector<Size> sizes;
  for (int k = first; k <= last; ++k) sizes.push_back(power_of_two_size(k, rank));
  return sizes;
}

// `variant` run by Space: its space name and whether that is a device.
template <class Space>
Variant on(Variant variant) {
  variant.space = std::string(space_name<Space>());
  variant.device = is_device_space_v<Space>;
  return variant;
}

// A CaseMaker from a function of the workload's own Problem type.
template <class ProblemType, class F>
CaseMaker maker(F make) {
  return [make](const Problem& problem, const Size& size) -> std::unique_ptr<Case> {
    return make(static_cast<const ProblemType&>(problem), size);
  };
}

// The footprint of `in_space` arrays of T, one element per point of the size, in Space's
// memory, plus `on_host` more such arrays on the host.
template <class Space, class T>
std::function<Footprint(const Size&)> arrays_of(int in_space, int on_host = 0) {
  return [in_space, on_host](const Size& s) {
    const auto array = static_cast<std::uint64_t>(s.elements()) * sizeof(T);
    return is_device_space_v<Space> ? Footprint{on_host * array, in_space * array}
                                    : Footprint{(in_space + on_host) * array, 0};
  };
}

// Host checks of this many elements or more run on every OpenMP thread (where the build has
// OpenMP): a reference in long double takes ~150 ns an element, seconds at 2^24 on one thread.
// Plain OpenMP, not Kokkos, so the check shares no code with the kernels it judges.
inline constexpr std::int64_t host_check_parallel_from = std::int64_t{1} << 15;

// The verdict of a check to `tolerance_in_u` unit roundoffs `u` of each reference (plus an
// absolute `floor`): |got(i) - reference(i)| <= tolerance_in_u * u * |reference(i)| + floor for
// i < n, with the largest relative error as a cell and in the JSON.
template <class Got, class Reference>
Verdict relative_error_verdict(std::int64_t n, Got got, Reference reference, double tolerance_in_u, double u,
                               double floor = 0) {
  std::int64_t wrong = 0;
  double worst = 0;  // largest |got - reference| / |reference| where reference != 0
#pragma omp parallel for reduction(+ : wrong) reduction(max : worst) if (n >= host_check_parallel_from)
  for (std::int64_t i = 0; i < n; ++i) {
    const double ref = reference(i);
    const double error = std::abs(static_cast<double>(got(i)) - ref);
    if (!(error <= tolerance_in_u * u * std::abs(ref) + floor)) ++wrong;
    if (ref != 0) worst = std::max(worst, error / std::abs(ref));
  }
  Verdict v;
  v.ok = wrong == 0;
  v.summary = v.ok ? "ok" : fmt::format("FAILED ({} beyond {:g} u)", wrong, tolerance_in_u);
  v.cells = {{"max rel. error", fmt::format("{:.1e}", worst)}};
  v.details = {{"mismatches", wrong}, {"max_relative_error", worst}, {"tolerance_in_u", tolerance_in_u}};
  return v;
}

// The verdict of an exact check: "ok", or how many elements were wrong.
inline Verdict mismatch_verdict(std::int64_t wrong) {
  Verdict v;
  v.ok = wrong == 0;
  v.summary = v.ok ? "ok" : "FAILED (" + std::to_string(wrong) + " wrong)";
  v.details = {{"mismatches", wrong}};
  return v;
}

}  // namespace nbk::exp
