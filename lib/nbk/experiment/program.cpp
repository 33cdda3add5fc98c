// The program flows one way: the command line's Options, checked into a Request (request.hpp: the
// one place the sizes and the selected variants are held) before Kokkos starts, then the run
// (probes, every variant at every size, the sweeps), then the table, the prose and the JSON.
// A signal (SIGINT, SIGTERM, SIGHUP: nbk/core/stop.hpp) starts no new row: the row in flight ends
// its call and is not reported, the finished rows are printed and written, the JSON says what was
// not run, and the exit code is 128 + the signal's number.
#include "nbk/experiment/program.hpp"

#include <Kokkos_Core.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <optional>
#include <set>
#include <thread>

#include "nbk/core/cli.hpp"
#include "nbk/core/errors.hpp"
#include "nbk/core/stop.hpp"
#include "nbk/experiment/driver.hpp"
#include "nbk/experiment/main.hpp"
#include "nbk/experiment/notes.hpp"
#include "nbk/experiment/request.hpp"
#include "notes_outline.hpp"  // generated from legend.md (lib/CMakeLists.txt)
#include "nbk/ranks/ranks.hpp"
#include "nbk/report/app_options.hpp"
#include "nbk/report/hardware.hpp"
#include "nbk/report/json_file.hpp"
#include "nbk/report/run_context.hpp"

namespace nbk::exp {

namespace {

// Under MPI: the ranks' layout, printed, and whether their threads compete for the cores.
std::string announce_ranks(bool kokkos_up) {
  if (!ranks::enabled) return "";
  const std::string layout = ranks::describe_layout(cuda_device_count());
  std::cout << "MPI: " << layout << '\n';
  if (ranks::count() > 1)
    std::cout << "Every rank probes its space at the same time; the % columns divide by the sum of the ranks' "
                 "figures.\n";
  const int threads = kokkos_up ? Kokkos::DefaultHostExecutionSpace().concurrency() : 1;
  const auto cores = static_cast<int>(std::thread::hardware_concurrency());
  if (cores > 0 && threads * ranks::local_count() > cores)
    std::cout << fmt::format("Note: {} ranks x {} host threads on {} cores here: the ranks' threads compete for "
                             "cores (set OMP_NUM_THREADS to cores / ranks).\n",
                             ranks::local_count(), threads, cores);
  return layout;
}

// Under several ranks every rank probes its own space at the same time, and a distributed
// row, whose bytes are the whole array's, is judged by the sum of their figures. Collective.
// The ranks' ceilings as one: each level holds and moves the sum of theirs (a distributed row's
// working set and bytes are the whole), where every rank probed the same levels and kinds; no floor
// (the ranks' calls overlap), none at all where their levels differ.
void sum_ceilings_over_ranks(Ceilings& c) {
  const auto levels = static_cast<double>(c.levels.size());
  if (!ranks::all(ranks::sum(levels) == levels * ranks::count())) {
    c.levels.clear();
    return;
  }
  for (LevelCeilings& level : c.levels) {
    level.level.capacity = static_cast<std::uint64_t>(ranks::sum(static_cast<double>(level.level.capacity)));
    for (const TrafficKind kind : traffic_kinds) {
      const auto found = level.kinds.find(kind);
      const double rate = found == level.kinds.end() ? 0.0 : found->second.gb_per_s;
      const bool everywhere = ranks::all(rate > 0);
      const double total = ranks::sum(rate);
      if (everywhere) level.kinds[kind].gb_per_s = total;
      else level.kinds.erase(kind);
    }
  }
  c.floor_s.clear();
  c.verified = ranks::all(c.verified);
}

void sum_over_ranks(Probes& probes, const std::set<std::string>& spaces) {
  if (ranks::count() == 1) return;
  for (const std::string& space : spaces) {
    const auto found = probes.find(space);
    if (ranks::first_with(found == probes.end()) >= 0) {
      if (found != probes.end()) probes.erase(found);
      continue;
    }
    ProbeResult& p = found->second;
    p.copy_gb_per_s = ranks::sum(p.copy_gb_per_s);
    p.triad_gb_per_s = ranks::sum(p.triad_gb_per_s);
    p.memcpy_gb_per_s = ranks::sum(p.memcpy_gb_per_s);
    p.fma_f32.gflop_per_s = ranks::sum(p.fma_f32.gflop_per_s);
    p.fma_f64.gflop_per_s = ranks::sum(p.fma_f64.gflop_per_s);
    p.verified = ranks::all(p.verified);
    sum_ceilings_over_ranks(p.ceilings);
    if (ranks::all(p.link.has_value()) && p.link)
      for (double* rate : {&p.link->h2d_pageable, &p.link->h2d_pinned, &p.link->d2h_pageable, &p.link->d2h_pinned})
        *rate = ranks::sum(*rate);
    else
      p.link.reset();
  }
}

// The references of the selected variants' spaces: from the run's probe file where it holds
// them (one process only: under several ranks every rank probes at once, and their sum judges
// the rows), the rest probed here; the file's ceilings measured again where they are older than a
// minute (nbk::ceilings_fresh_s).
Probes reference_probes(const Experiment& e, Request& r, bool kokkos_up) {
  std::set<std::string> spaces;
  for (const Variant* v : r.variants) spaces.insert(reference_space(*v));
  Probes probes;
  std::vector<std::string> probed_again;
  if (kokkos_up && ranks::count() == 1) probes = probes_from_file(r.probe_file, spaces, r.probe_elements, probed_again);
  if (kokkos_up) {
    std::set<std::string> missing;
    for (const std::string& space : spaces)
      if (!probes.count(space)) missing.insert(space);
    Probes probed = probe_spaces(missing, r.probe_elements, program_name(e));
    if (ranks::count() == 1) save_probe_file(r.probe_file, probed);
    probes.merge(probed);
    if (ranks::count() == 1) refresh_ceilings(probes, r.probe_file, r.probe_elements);  // the file's, if stale
  }
  if (!r.probe_file.path.empty() && ranks::count() > 1)
    std::cout << "--probes " << r.probe_file.path << ": not read under " << ranks::count()
              << " ranks (every rank probes its space at the same time)\n";
  for (const std::string& line : probed_again) std::cerr << "probe file " << r.probe_file.path << ": " << line << "\n";
  sum_over_ranks(probes, spaces);
  return probes;
}

// Whether the run was asked to stop by a signal: under several ranks, whether any rank was (collective).
bool stopping() { return ranks::first_with(stop_requested()) >= 0; }

// The signal that stopped the run (0: none), the same on every rank (collective).
int stop_signal_of_run() { return static_cast<int>(ranks::max(static_cast<double>(stop_signal()))); }

// The JSON document's head: what ran, where, how often and against which references.
nlohmann::json json_head(const Experiment& e, const Request& r, const Probes& probes, const std::string& layout,
                         bool kokkos_up) {
  nlohmann::json doc = {{"experiment", e.name}, {"title", e.title}, {"document", e.document}};
  if (kokkos_up) doc["context"] = run_context();
  if (ranks::enabled) doc["ranks"] = {{"count", ranks::count()}, {"layout", layout}};
  doc["repetitions"] = r.repetitions;
  doc["budget_s"] = r.budget_s > 0 ? nlohmann::json(r.budget_s) : nlohmann::json(nullptr);
  if (e.seeded) doc["seed"] = r.settings.seed;
  doc["probes"] = probes_json(probes);
  doc["results"] = nlohmann::json::array();
  doc["interrupted"] = nullptr;  // or what a signal left unfinished (Stop)
  return doc;
}

// The problem of one size, described, its facts in the JSON: the document's own where the
// experiment has one problem and no size, else one of its "problems".
std::shared_ptr<const Problem> problem_at(const Experiment& e, const Request& r, const Size& size,
                                          nlohmann::json& doc) {
  if (e.rank > 0) std::cerr << "preparing " << e.name << " at " << size.text() << " ...\n";
  auto problem = problem_in_region(e, size, r.settings);
  problem->describe(std::cout);
  nlohmann::json problem_json = problem->to_json();
  if (e.rank > 0) {
    problem_json["size"] = size.text();
    problem_json["elements"] = size.elements();
    doc["problems"].push_back(problem_json);
  } else {
    doc.update(problem_json);
  }
  return problem;
}

// What a signal left unfinished: the row or sweep in progress (its calls cut, so no result), and
// the rows and sweeps never started.
struct Stop {
  nlohmann::json in_progress;                    // {variant, space, size} or {sweep: {...}}; null: none
  nlohmann::json not_run = nlohmann::json::array();         // {variant, space, size} each
  nlohmann::json sweeps_not_run = nlohmann::json::array();  // {host_variant, device_variant} each
};

nlohmann::json row_key(const Variant& v, const Size& size) {
  return {{"variant", v.name}, {"space", v.space}, {"size", size.text()}};
}

nlohmann::json sweep_key(const Sweep& plan) {
  return {{"host_variant", plan.host_variant.name()}, {"device_variant", plan.device_variant.name()}};
}

// How often a space's ceilings are measured again, right after a row of it that is above them, and
// with how many timed calls a form at memory (as many as a row's): the row ran in a faster moment
// than every probe so far (on the development VM the same serial read-only ceiling measured 12.9 and
// 22.0 GB/s minutes apart; add-one's openmp row moved 40.6 GB/s where three rounds of probes after
// all four of its rows reached 37.8, and later programs' 41.0), or it is a bug in its bytes or the
// probe, which the row's "% of limit" above 100 then shows (tools/nbk-check-ceilings fails).
constexpr int ceilings_after_breach = 2;
constexpr int memory_calls_after_breach = 5;

// Whether a row is above its memory or FMA ceiling (a link's rates are probed once).
bool above_ceiling(const Experiment& e, const Result& result, const Probes& probes) {
  const Limit limit = limit_of(e, result, probes);
  return limit.fraction && *limit.fraction > 1.0 && limit.roof != "link";
}

void ceilings_after_breach_of(const Experiment& e, Request& r, const Result& result, Probes& probes) {
  if (ranks::count() > 1 || probes.empty()) return;
  const std::string space = reference_space(*result.variant);
  for (int again = 0; again < ceilings_after_breach && above_ceiling(e, result, probes); ++again) {
    std::cerr << result.variant->name << " on " << space << " is above its ceiling: measuring them again ...\n";
    refresh_ceilings(probes, r.probe_file, r.probe_elements, {0, {space}, memory_calls_after_breach});
  }
}

// Every selected variant at every size, in the JSON as they run.
struct Runs {
  std::vector<Result> results;
  std::shared_ptr<const Problem> last_problem;  // the prose after the table explains the last size
  bool ok = true;                               // every row that ran verified
  std::optional<Stop> stop;                     // where a signal stopped the run
};

Runs run_every_size(const Experiment& e, Request& r, Probes& probes, nlohmann::json& doc) {
  Runs runs;
  for (const Size& size : r.sizes) {
    if (!runs.stop && stopping()) runs.stop.emplace();
    std::shared_ptr<const Problem> problem;
    if (!runs.stop) problem = problem_at(e, r, size, doc);
    for (const Variant* v : r.variants) {
      if (!runs.stop && stopping()) runs.stop.emplace();
      if (runs.stop) {
        runs.stop->not_run.push_back(row_key(*v, size));
        continue;
      }
      std::cerr << "running " << v->name << " on " << v->space << " ...\n";
      Result row = run_variant(e, *v, *problem, size, r.repetitions, r.budget_s);
      if (row.cut()) {  // never a half-measured row as a result
        runs.stop.emplace().in_progress = row_key(*v, size);
        continue;
      }
      runs.results.push_back(std::move(row));
      const Result& result = runs.results.back();
      ceilings_after_breach_of(e, r, result, probes);  // measured while the machine is as the row found it
      runs.ok = runs.ok && (!result.skipped.empty() || result.verdict.ok);
    }
    if (problem) runs.last_problem = std::move(problem);
  }
  return runs;
}

// The rows in the JSON, judged by `probes` (those after the rows: issue 58), with their speed-ups.
void rows_json(const Experiment& e, const Runs& runs, const Probes& probes, nlohmann::json& doc) {
  for (const Result& result : runs.results) doc["results"].push_back(to_json(e, result, probes));
  for (std::size_t i = 0; i < runs.results.size(); ++i)
    if (const auto speedup = speedup_of(runs.results[i], runs.results)) {
      doc["results"][i]["speedup"] = *speedup;
      doc["results"][i]["speedup_against"] = runs.results[i].variant->speedup_against.name();
    }
}

// The ceilings measured again after rows that took longer than this, the fastest of before and
// after judging them: a shared machine's bandwidth moves within minutes (issue 58), and a ceiling
// measured in a slow moment before the rows bounds no row run in a fast one.
constexpr double ceilings_after_rows_s = 10;

void ceilings_after_rows(Request& r, Probes& probes, double rows_s) {
  if (rows_s < ceilings_after_rows_s || ranks::count() > 1 || probes.empty()) return;
  refresh_ceilings(probes, r.probe_file, r.probe_elements, {0});
}

// The probes, the results table with its legend, and the experiment's prose.
void print_runs(const Experiment& e, const Request& r, const Runs& runs, const Probes& probes) {
  if (!r.variants.empty()) {
    std::cout << '\n';
    print_probe_table(std::cout, probes);
    print_results(std::cout, e, runs.results, probes);
  }
  if (e.explain && runs.last_problem) e.explain(std::cout, *runs.last_problem);
  if (runs.last_problem) std::cout << e.notes;
}

// The crossover sweeps, printed and in the JSON; whether every point verified. After a signal no
// sweep starts, and the one it cut is neither printed nor written (`stop` says which).
bool run_sweeps(const Experiment& e, const Request& r, nlohmann::json& doc, std::optional<Stop>& stop) {
  bool ok = true;
  if (!r.sweeps) return ok;
  for (const Sweep& plan : e.sweeps) {
    if (!stop && stopping()) stop.emplace();
    if (stop) {
      stop->sweeps_not_run.push_back(sweep_key(plan));
      continue;
    }
    const SweepResult sweep = run_sweep(e, plan, r.settings, r.sweep_max, r.budget_s);
    const auto cut = [](const SweepPoint& p) {
      return p.host.cut() || p.device.cut() || p.device_with_transfers.cut();
    };
    if (std::any_of(sweep.points.begin(), sweep.points.end(), cut)) {
      stop.emplace().in_progress = {{"sweep", sweep_key(plan)}};
      continue;
    }
    print_sweep(std::cout, sweep);
    doc["sweeps"].push_back(to_json(sweep));
    ok = ok && sweep.verified;
  }
  return ok;
}

// What a signal left unfinished, one line each, after the table: the JSON's "interrupted".
nlohmann::json report_stop(const Experiment& e, const Stop& stop, std::size_t finished) {
  const int signal = stop_signal_of_run();
  auto row_text = [](const nlohmann::json& row) {
    if (row.contains("sweep"))
      return fmt::format("the sweep {} against {}", row["sweep"]["host_variant"].get<std::string>(),
                         row["sweep"]["device_variant"].get<std::string>());
    return fmt::format("{} on {} at {}", row["variant"].get<std::string>(), row["space"].get<std::string>(),
                       row["size"].get<std::string>());
  };
  const bool complete = stop.in_progress.is_null() && stop.not_run.empty() && stop.sweeps_not_run.empty();
  std::cout << fmt::format("\nStopped by {}: {} rows finished (above); {}.\n", signal_name(signal), finished,
                           complete ? "nothing was left to run" : "no row started after the signal");
  if (!stop.in_progress.is_null())
    std::cout << "in progress, not finished (no result): " << row_text(stop.in_progress) << '\n';
  for (const auto& row : stop.not_run) std::cout << "not run: " << row_text(row) << '\n';
  for (const auto& sweep : stop.sweeps_not_run) std::cout << "not run: " << row_text({{"sweep", sweep}}) << '\n';
  std::cerr << program_name(e) << ": stopped by " << signal_name(signal) << " (exit " << 128 + signal << ")\n";
  return {{"signal", signal_name(signal)},
          {"signal_number", signal},
          {"in_progress", stop.in_progress},
          {"not_run", stop.not_run},
          {"sweeps_not_run", stop.sweeps_not_run}};
}

int run(const Experiment& e, Request& r, bool kokkos_up) {
  r.settings.kokkos_initialized = kokkos_up;
  if (r.inject_bug)
    std::cerr << program_name(e) << ": --inject-bug: these variants write out of bounds on purpose: the debug "
                 "preset's bounds checks abort at the first write, compute-sanitizer reports it on a GPU, and any "
                 "other build corrupts memory\n";
  const std::string layout = announce_ranks(kokkos_up);
  ranks::barrier();
  Probes probes = stopping() ? Probes{} : reference_probes(e, r, kokkos_up);
  nlohmann::json doc = json_head(e, r, probes, layout, kokkos_up);
  const auto rows_start = std::chrono::steady_clock::now();
  Runs runs = run_every_size(e, r, probes, doc);
  if (!runs.stop && kokkos_up)
    ceilings_after_rows(r, probes, std::chrono::duration<double>(std::chrono::steady_clock::now() - rows_start).count());
  doc["probes"] = probes_json(probes);
  rows_json(e, runs, probes, doc);
  print_runs(e, r, runs, probes);
  const bool sweeps_ok = run_sweeps(e, r, doc, runs.stop);
  if (!runs.stop && stopping()) runs.stop.emplace();  // after the last row: nothing is missing
  if (runs.stop) doc["interrupted"] = report_stop(e, *runs.stop, runs.results.size());
  const bool ok = ranks::all(all_verified(probes) && runs.ok && sweeps_ok);
  if (!r.json_path.empty() && ranks::leader()) write_json_file(r.json_path, doc);
  if (!ok) std::cerr << "nbk-" << e.name << ": verification FAILED\n";
  if (runs.stop) return 128 + stop_signal_of_run();
  return ok ? exit_ok : exit_verification_failed;
}

// Kokkos started (where a device is usable), the request run, and an error in the run turned
// into an exit code: under several ranks one rank's error ends the job.
int run_with_kokkos(const Experiment& e, Request& r, int argc, char* argv[], const std::string& program);

}  // namespace

std::string program_name(const Experiment& experiment) {
  std::string name = "nbk-" + experiment.name;
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

// argv for Kokkos::initialize: under MPI on a machine with GPUs, each rank takes the GPU of its
// local rank (modulo the GPUs there), unless the command line already chose one.
std::vector<char*> kokkos_arguments(int argc, char* argv[], std::string& device_argument) {
  std::vector<char*> args(argv, argv + argc);
  const int devices = cuda_device_count();
  const bool chosen = std::any_of(args.begin(), args.end(), [](const char* a) {
    const std::string arg(a);
    return arg.rfind("--kokkos-device-id", 0) == 0 || arg.rfind("--kokkos-num-devices", 0) == 0;
  });
  if (ranks::enabled && devices > 0 && !chosen) {
    device_argument = "--kokkos-device-id=" + std::to_string(ranks::local_rank() % devices);
    args.push_back(device_argument.data());
  }
  args.push_back(nullptr);
  return args;
}

int run_program(Experiment (*statement)(), int argc, char* argv[]) { return run_program(statement(), argc, argv); }

int run_program(const Experiment& e, int argc, char* argv[]) {
  // Under mpiexec every rank runs this; rank 0 alone prints (ranks::Session).
  ranks::Session session(argc, argv);
  CLI::App app{e.document + ": " + e.title + ".\n" + legend().paragraph(NBK_HEADING("## Help"))};
  app.name(program_name(e));
  Options o;
  add_options(app, e, o);
  if (auto code = parse_command_line(app, argc, argv)) return *code;
  std::optional<Request> request = request_on_every_rank(e, o, app.get_name());
  if (!request) return exit_bad_input;
  stop_on_signals();
  return run_with_kokkos(e, *request, argc, argv, app.get_name());
}

namespace {

int run_with_kokkos(const Experiment& e, Request& r, int argc, char* argv[], const std::string& program) {
  const bool usable = device_usable();
  std::string device_argument;
  std::vector<char*> args = kokkos_arguments(argc, argv, device_argument);
  int kokkos_argc = static_cast<int>(args.size()) - 1;
  std::optional<Kokkos::ScopeGuard> kokkos;
  // (void): Kokkos 4's ScopeGuard is [[nodiscard]], and nvcc warns of emplace's reference to it.
  if (usable) (void)kokkos.emplace(kokkos_argc, args.data());
  try {
    return run(e, r, usable);
  } catch (const InputError& error) {
    if (ranks::count() == 1) return report_input_error(program, error.what());
    ranks::error_stream() << program << ": error: " << error.what() << std::endl;
    ranks::abort_job(exit_bad_input);  // the other ranks may be waiting in a collective
  } catch (const std::exception& error) {
    if (ranks::count() == 1) throw;
    ranks::error_stream() << program << ": rank " << ranks::rank() << ": " << error.what() << std::endl;
    ranks::abort_job(exit_verification_failed);
  }
}

}  // namespace

}  // namespace nbk::exp
