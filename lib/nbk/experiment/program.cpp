#include "nbk/experiment/program.hpp"

#include <Kokkos_Core.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <optional>
#include <set>
#include <thread>

#include "nbk/core/cli.hpp"
#include "nbk/core/errors.hpp"
#include "nbk/core/memory.hpp"
#include "nbk/experiment/driver.hpp"
#include "nbk/experiment/notes.hpp"
#include "notes_outline.hpp"  // generated from legend.md (lib/CMakeLists.txt)
#include "nbk/ranks/ranks.hpp"
#include "nbk/report/app_options.hpp"
#include "nbk/report/hardware.hpp"
#include "nbk/report/json_file.hpp"
#include "nbk/report/run_context.hpp"

namespace nbk::exp {

namespace {

struct Options {
  std::vector<std::string> size_texts, variants, spaces;
  std::string repetitions_text, seed_text = "1", probe_text, json_path, sweep_to_text, probes_path, budget_text;
  bool no_sweep = false, verbose = false, inject_bug = false, no_limit = false;
  // parsed
  std::vector<Size> sizes;
  int repetitions = 0;
  std::int64_t probe_elements = 0, sweep_max = 0;
  double budget_s = 0;  // 0: every repetition (--repetitions given)
  ProbeFile probe_file;
  Settings settings;
};

std::vector<std::string> variant_names(const Experiment& e) {
  std::vector<std::string> names;
  for (const auto* list : {&e.variants, &e.injected_bugs})
    for (const auto& v : *list)
      if (std::find(names.begin(), names.end(), v.name) == names.end()) names.push_back(v.name);
  return names;
}

std::string sizes_text(const std::vector<Size>& sizes) {
  std::string text;
  for (const auto& s : sizes) text += (text.empty() ? "" : ", ") + s.text();
  return text;
}

// The variants the options select. Under more than one MPI rank, only those split across the
// ranks: any other would run whole on every rank at once, each timing the others' load.
std::vector<const Variant*> selection(const Experiment& e, const Options& o) {
  auto selected = select_variants(e, o.variants, o.spaces, o.inject_bug);
  if (ranks::count() > 1)
    selected.erase(std::remove_if(selected.begin(), selected.end(), [](const Variant* v) { return !v->distributed; }),
                   selected.end());
  return selected;
}

// Everything is checked before Kokkos starts or anything is allocated: bad input is one
// line and exit 2, never a failed allocation.
void check(const Experiment& e, Options& o) {
  for (const auto& text : o.size_texts) o.sizes.push_back(parse_size(text, e.rank, "--size"));
  if (o.sizes.empty()) o.sizes = e.sizes;
  o.repetitions = o.repetitions_text.empty() ? e.repetitions : parse_repetitions(o.repetitions_text);
  // A budget shortens the default repetitions; repetitions asked for are made, all of them.
  if (!o.budget_text.empty())
    o.budget_s = static_cast<double>(parse_count(o.budget_text, "--budget"));
  else if (o.repetitions_text.empty())
    o.budget_s = default_budget_s;
  if (o.budget_s > work_limit_seconds)
    throw InputError(fmt::format("--budget '{}' is too large (at most {:g} s)", o.budget_text, work_limit_seconds));
  o.settings.seed = parse_seed(o.seed_text, "--seed");
  o.settings.verbose = o.verbose;
  o.probe_elements = parse_probe_size(o.probe_text);
  if (!o.sweep_to_text.empty()) o.sweep_max = parse_count(o.sweep_to_text, "--sweep-to");
  if (ranks::leader()) require_writable_json(o.json_path);  // rank 0 writes it
  if (ranks::leader()) o.probe_file = open_probe_file(o.probes_path);
  const auto selected = selection(e, o);
  if (ranks::count() > 1 && !e.variants.empty() && selected.empty())
    throw InputError(fmt::format("{} ranks: no variant of this build that matches the --variant and --space given is "
                                 "split across ranks (the ranks-* variants); run other variants as one process",
                                 ranks::count()));
  if (!e.variants.empty() && selected.empty())
    throw InputError(o.inject_bug ? "no injected bug of this build matches the --variant and --space given"
                                  : "no variant of this build matches the --variant and --space given"
                                    " (the injected bugs run only with --inject-bug)");
  // The work bound comes before the memory check: it is computed in doubles, so sizes whose
  // bytes would overflow 64 bits are refused here.
  const bool sweeps = !o.no_sweep && ranks::count() == 1 && !e.sweeps.empty();
  const std::optional<std::int64_t> sweep_max = sweeps ? std::optional(o.sweep_max) : std::nullopt;
  const double seconds = estimated_seconds(e, selected, o.sizes, o.repetitions, sweep_max);
  if (seconds > work_limit_seconds && !o.no_limit) {
    const std::string sweep = !sweeps ? "" : o.sweep_to_text.empty() ? ", the sweeps" : ", sweeps to " + o.sweep_to_text;
    throw InputError(fmt::format("the work asked for (--size {}, {} repetitions, {} variants{}) is estimated at {:.3g} s, "
                                 "past the limit of {:g} s (every timed call at {}); add --no-limit to run it anyway",
                                 sizes_text(o.sizes), o.repetitions, selected.size(), sweep, seconds,
                                 work_limit_seconds, assumed_rates_text()));
  }
  auto check_memory = [&](const Size& size, const std::string& what) {
    // The host holds the problem and, one at a time, each host variant's data.
    std::uint64_t host = e.problem_bytes ? e.problem_bytes(size) : 0, largest = 0;
    for (const Variant* v : selected)
      if (v->footprint) largest = std::max(largest, v->footprint(size).host_bytes);
    if (e.refuse)
      if (const std::string why = e.refuse(size); !why.empty()) throw InputError(what + ": " + why);
    if (host + largest < host) throw InputError(what + " is too large");
    require_host_memory(host + largest, what);
  };
  for (const auto& size : o.sizes) check_memory(size, "--size " + size.text());
  if (sweeps)
    for (const Sweep& plan : e.sweeps)
      for (const Size& size : sweep_sizes(e, plan, o.sweep_max)) check_memory(size, "sweep size " + size.text());
}

// Under several ranks every rank probes its own space at the same time, and a distributed
// row, whose bytes are the whole array's, is judged by the sum of their figures. Collective.
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
    if (ranks::all(p.link.has_value()) && p.link)
      for (double* rate : {&p.link->h2d_pageable, &p.link->h2d_pinned, &p.link->d2h_pageable, &p.link->d2h_pinned})
        *rate = ranks::sum(*rate);
    else
      p.link.reset();
  }
}

int run(const Experiment& e, Options& o, bool kokkos_up) {
  o.settings.kokkos_initialized = kokkos_up;
  const auto selected = selection(e, o);
  if (o.inject_bug)
    std::cerr << program_name(e) << ": --inject-bug: these variants write out of bounds on purpose: the debug "
                 "preset's bounds checks abort at the first write, compute-sanitizer reports it on a GPU, and any "
                 "other build corrupts memory\n";
  std::set<std::string> spaces;
  for (const Variant* v : selected) spaces.insert(reference_space(*v));
  std::string layout;
  if (ranks::enabled) {
    layout = ranks::describe_layout(cuda_device_count());
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
  }
  ranks::barrier();
  // The references: from the run's probe file where it holds them (one process only: under
  // several ranks every rank probes at once, and their sum judges the rows), the rest probed here.
  Probes probes;
  std::vector<std::string> probed_again;
  if (kokkos_up && ranks::count() == 1) probes = probes_from_file(o.probe_file, spaces, o.probe_elements, probed_again);
  if (kokkos_up) {
    std::set<std::string> missing;
    for (const std::string& space : spaces)
      if (!probes.count(space)) missing.insert(space);
    Probes probed = probe_spaces(missing, o.probe_elements, program_name(e));
    if (ranks::count() == 1) save_probe_file(o.probe_file, probed);
    probes.merge(probed);
  }
  if (!o.probe_file.path.empty() && ranks::count() > 1)
    std::cout << "--probes " << o.probe_file.path << ": not read under " << ranks::count()
              << " ranks (every rank probes its space at the same time)\n";
  for (const std::string& line : probed_again) std::cerr << "probe file " << o.probe_file.path << ": " << line << "\n";
  sum_over_ranks(probes, spaces);

  nlohmann::json doc = {{"experiment", e.name}, {"title", e.title}, {"document", e.document}};
  if (kokkos_up) doc["context"] = run_context();
  if (ranks::enabled) doc["ranks"] = {{"count", ranks::count()}, {"layout", layout}};
  doc["repetitions"] = o.repetitions;
  doc["budget_s"] = o.budget_s > 0 ? nlohmann::json(o.budget_s) : nlohmann::json(nullptr);
  if (e.seeded) doc["seed"] = o.settings.seed;
  doc["probes"] = probes_json(probes);
  doc["results"] = nlohmann::json::array();

  bool ok = all_verified(probes);
  std::vector<Result> results;
  std::shared_ptr<const Problem> last_problem;
  for (const Size& size : o.sizes) {
    if (e.rank > 0) std::cerr << "preparing " << e.name << " at " << size.text() << " ...\n";
    auto problem = e.make_problem(size, o.settings);
    problem->describe(std::cout);
    nlohmann::json problem_json = problem->to_json();
    if (e.rank > 0) {
      problem_json["size"] = size.text();
      problem_json["elements"] = size.elements();
      doc["problems"].push_back(problem_json);
    } else {
      doc.update(problem_json);  // one problem and no size: its facts are the document
    }
    for (const Variant* v : selected) {
      std::cerr << "running " << v->name << " on " << v->space << " ...\n";
      results.push_back(run_variant(e, *v, *problem, size, o.repetitions, o.budget_s));
      const Result& r = results.back();
      ok = ok && (!r.skipped.empty() || r.verdict.ok);
      doc["results"].push_back(to_json(e, r, probes));
    }
    last_problem = std::move(problem);
  }
  for (std::size_t i = 0; i < results.size(); ++i)
    if (const auto speedup = speedup_of(results[i], results)) {
      doc["results"][i]["speedup"] = *speedup;
      doc["results"][i]["speedup_against"] = results[i].variant->speedup_against.name();
    }
  if (!selected.empty()) {
    std::cout << '\n';
    print_probe_table(std::cout, probes);
    print_results(std::cout, e, results, probes);
  }
  if (e.explain && last_problem) e.explain(std::cout, *last_problem);
  if (last_problem) std::cout << e.notes;

  if (!o.no_sweep && ranks::count() == 1)
    for (const Sweep& plan : e.sweeps) {
      const SweepResult sweep = run_sweep(e, plan, o.settings, o.sweep_max, o.budget_s);
      print_sweep(std::cout, sweep);
      doc["sweeps"].push_back(to_json(sweep));
      ok = ok && sweep.verified;
    }

  ok = ranks::all(ok);
  if (!o.json_path.empty() && ranks::leader()) write_json_file(o.json_path, doc);
  if (!ok) std::cerr << "nbk-" << e.name << ": verification FAILED\n";
  return ok ? exit_ok : exit_verification_failed;
}

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

int run_program(const Experiment& e, int argc, char* argv[]) {
  // Under mpiexec every rank runs this; rank 0 alone prints (ranks::Session).
  ranks::Session session(argc, argv);
  CLI::App app{e.document + ": " + e.title + ".\n" + legend().paragraph(NBK_HEADING("## Help"))};
  app.name(program_name(e));
  Options o;
  if (e.rank > 0) {
    const std::string form = e.rank == 1 ? "N or 2^K" : "N (a cube), or " + std::string(e.rank == 3 ? "AxBxC" : "AxB");
    app.add_option("--size", o.size_texts,
                   fmt::format("problem size ({}; repeatable); default: {}. {}", form, sizes_text(e.sizes), e.size_help));
  }
  if (!e.variants.empty()) {
    app.add_option("--variant", o.variants, "run only these variants (repeatable)")
        ->check(one_of(variant_names(e)));
    app.add_option("--space", o.spaces, "run only on these spaces (repeatable)")
        ->check(one_of({"host", "serial", "openmp", "cuda"}));
    app.add_option("--repetitions", o.repetitions_text,
                   fmt::format("timed calls after the first (default {})", e.repetitions));
    add_probe_size_option(app, o.probe_text);
    app.add_option("--probes", o.probes_path,
                   fmt::format("a probe file (*.json) the run shares: its references for this machine, younger than "
                               "{:g} s, are read instead of probed; the others are probed and written into it",
                               probe_file_valid_s));
    app.add_option("--budget", o.budget_text,
                   fmt::format("seconds a row's calls may take before it stops repeating, after at least {} timed "
                               "calls (default {:g}; --repetitions given: every repetition is made)",
                               min_budget_repetitions, default_budget_s));
    app.add_flag("--no-limit", o.no_limit,
                 fmt::format("run work estimated past {:g} s too (every timed call at {})", work_limit_seconds,
                             assumed_rates_text()));
  }
  if (!e.injected_bugs.empty())
    app.add_flag("--inject-bug", o.inject_bug,
                 "run only the variants that are wrong on purpose (the documents' bugs), for a bounds check or "
                 "compute-sanitizer to catch");
  if (e.seeded) app.add_option("--seed", o.seed_text, "seed of the input data")->capture_default_str();
  if (!e.sweeps.empty()) {
    app.add_flag("--no-sweep", o.no_sweep, "skip the crossover sweeps");
    app.add_option("--sweep-to", o.sweep_to_text, "largest sweep size in elements (default: all)");
  }
  app.add_flag("--verbose", o.verbose, "more detail (device-info: Kokkos' verbose configuration)");
  app.add_option("--json", o.json_path, "also write the results as JSON to this file");
  if (auto code = parse_command_line(app, argc, argv)) return *code;

  // Every rank checks its input; if any rank finds it bad, every rank exits 2 and the lowest
  // such rank says why, in one line.
  std::string bad_input;
  try {
    check(e, o);
    if (e.needs_device) require_usable_device();
  } catch (const InputError& error) {
    bad_input = error.what();
  }
  if (const int reporter = ranks::first_with(!bad_input.empty()); reporter >= 0) {
    if (reporter == ranks::rank()) ranks::error_stream() << app.get_name() << ": error: " << bad_input << std::endl;
    return exit_bad_input;
  }

  const bool usable = device_usable();
  std::string device_argument;
  std::vector<char*> args = kokkos_arguments(argc, argv, device_argument);
  int kokkos_argc = static_cast<int>(args.size()) - 1;
  std::optional<Kokkos::ScopeGuard> kokkos;
  // (void): Kokkos 4's ScopeGuard is [[nodiscard]], and nvcc warns of emplace's reference to it.
  if (usable) (void)kokkos.emplace(kokkos_argc, args.data());
  try {
    return run(e, o, usable);
  } catch (const InputError& error) {
    if (ranks::count() == 1) return report_input_error(app.get_name(), error.what());
    ranks::error_stream() << app.get_name() << ": error: " << error.what() << std::endl;
    ranks::abort_job(exit_bad_input);  // the other ranks may be waiting in a collective
  } catch (const std::exception& error) {
    if (ranks::count() == 1) throw;
    ranks::error_stream() << app.get_name() << ": rank " << ranks::rank() << ": " << error.what() << std::endl;
    ranks::abort_job(exit_verification_failed);
  }
}

}  // namespace nbk::exp
