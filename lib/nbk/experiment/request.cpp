#include "nbk/experiment/request.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "nbk/core/cli.hpp"
#include "nbk/core/errors.hpp"
#include "nbk/core/memory.hpp"
#include "nbk/experiment/driver.hpp"
#include "nbk/ranks/ranks.hpp"
#include "nbk/report/app_options.hpp"
#include "nbk/report/json_file.hpp"

namespace nbk::exp {

namespace {

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

// ---- options ----

void add_size_option(CLI::App& app, const Experiment& e, Options& o) {
  if (e.rank == 0) return;
  const std::string form = e.rank == 1 ? "N or 2^K" : "N (a cube), or " + std::string(e.rank == 3 ? "AxBxC" : "AxB");
  app.add_option("--size", o.size_texts,
                 fmt::format("problem size ({}; repeatable); default: {}. {}", form, sizes_text(e.sizes), e.size_help));
}

// What to run and how often: for an experiment with variants (device-info has none).
void add_variant_options(CLI::App& app, const Experiment& e, Options& o) {
  if (e.variants.empty()) return;
  app.add_option("--variant", o.variants, "run only these variants (repeatable)")->check(one_of(variant_names(e)));
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

}  // namespace

void add_options(CLI::App& app, const Experiment& e, Options& o) {
  add_size_option(app, e, o);
  add_variant_options(app, e, o);
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
}

namespace {

// ---- the request ----

// The variants the options select. Under more than one MPI rank, only those split across the
// ranks: any other would run whole on every rank at once, each timing the others' load.
std::vector<const Variant*> selection(const Experiment& e, const Options& o) {
  auto selected = select_variants(e, o.variants, o.spaces, o.inject_bug);
  if (ranks::count() > 1)
    selected.erase(std::remove_if(selected.begin(), selected.end(), [](const Variant* v) { return !v->distributed; }),
                   selected.end());
  return selected;
}

// The options' numbers parsed: sizes (the experiment's own where none is given), repetitions,
// the budget, the seed, the probes' and the sweeps' sizes.
Request parsed(const Experiment& e, const Options& o) {
  Request r;
  for (const auto& text : o.size_texts) r.sizes.push_back(parse_size(text, e.rank, "--size"));
  if (r.sizes.empty()) r.sizes = e.sizes;
  r.repetitions = o.repetitions_text.empty() ? e.repetitions : parse_repetitions(o.repetitions_text);
  // A budget shortens the default repetitions; repetitions asked for are made, all of them.
  if (!o.budget_text.empty())
    r.budget_s = static_cast<double>(parse_count(o.budget_text, "--budget"));
  else if (o.repetitions_text.empty())
    r.budget_s = default_budget_s;
  if (r.budget_s > work_limit_seconds)
    throw InputError(fmt::format("--budget '{}' is too large (at most {:g} s)", o.budget_text, work_limit_seconds));
  r.settings.seed = parse_seed(o.seed_text, "--seed");
  r.settings.verbose = o.verbose;
  r.probe_elements = parse_probe_size(o.probe_text);
  if (!o.sweep_to_text.empty()) r.sweep_max = parse_count(o.sweep_to_text, "--sweep-to");
  r.sweeps = !o.no_sweep && ranks::count() == 1 && !e.sweeps.empty();
  r.inject_bug = o.inject_bug;
  r.json_path = o.json_path;
  return r;
}

void require_variants(const Experiment& e, const Request& r) {
  if (ranks::count() > 1 && !e.variants.empty() && r.variants.empty())
    throw InputError(fmt::format("{} ranks: no variant of this build that matches the --variant and --space given is "
                                 "split across ranks (the ranks-* variants); run other variants as one process",
                                 ranks::count()));
  if (!e.variants.empty() && r.variants.empty())
    throw InputError(r.inject_bug ? "no injected bug of this build matches the --variant and --space given"
                                  : "no variant of this build matches the --variant and --space given"
                                    " (the injected bugs run only with --inject-bug)");
}

// The work bound comes before the memory check: it is computed in doubles, so sizes whose
// bytes would overflow 64 bits are refused here.
void require_work_within_limit(const Experiment& e, const Options& o, const Request& r) {
  const std::optional<std::int64_t> sweep_max = r.sweeps ? std::optional(r.sweep_max) : std::nullopt;
  const double seconds = estimated_seconds(e, r.variants, r.sizes, r.repetitions, sweep_max);
  if (seconds <= work_limit_seconds || o.no_limit) return;
  const std::string sweep = !r.sweeps ? "" : o.sweep_to_text.empty() ? ", the sweeps" : ", sweeps to " + o.sweep_to_text;
  throw InputError(fmt::format("the work asked for (--size {}, {} repetitions, {} variants{}) is estimated at {:.3g} s, "
                               "past the limit of {:g} s (every timed call at {}); add --no-limit to run it anyway",
                               sizes_text(r.sizes), r.repetitions, r.variants.size(), sweep, seconds,
                               work_limit_seconds, assumed_rates_text()));
}

// The host holds the problem and, one at a time, each host variant's data.
void require_memory_for(const Experiment& e, const Request& r, const Size& size, const std::string& what) {
  std::uint64_t host = e.problem_bytes ? e.problem_bytes(size) : 0, largest = 0;
  for (const Variant* v : r.variants)
    if (v->footprint) largest = std::max(largest, v->footprint(size).host_bytes);
  if (e.refuse)
    if (const std::string why = e.refuse(size); !why.empty()) throw InputError(what + ": " + why);
  if (host + largest < host) throw InputError(what + " is too large");
  require_host_memory(host + largest, what);
}

void require_memory(const Experiment& e, const Request& r) {
  for (const auto& size : r.sizes) require_memory_for(e, r, size, "--size " + size.text());
  if (r.sweeps)
    for (const Sweep& plan : e.sweeps)
      for (const Size& size : sweep_sizes(e, plan, r.sweep_max))
        require_memory_for(e, r, size, "sweep size " + size.text());
}

// Everything is checked before Kokkos starts or anything is allocated: bad input is one
// line and exit 2, never a failed allocation.
Request request_from(const Experiment& e, const Options& o) {
  Request r = parsed(e, o);
  if (ranks::leader()) require_writable_json(r.json_path);  // rank 0 writes it
  if (ranks::leader()) r.probe_file = open_probe_file(o.probes_path);
  r.variants = selection(e, o);
  require_variants(e, r);
  require_work_within_limit(e, o, r);
  require_memory(e, r);
  return r;
}

}  // namespace

std::optional<Request> request_on_every_rank(const Experiment& e, const Options& o, const std::string& program) {
  std::optional<Request> request;
  std::string bad_input;
  try {
    request = request_from(e, o);
    if (e.needs_device) require_usable_device();
  } catch (const InputError& error) {
    bad_input = error.what();
  }
  if (const int reporter = ranks::first_with(!bad_input.empty()); reporter >= 0) {
    if (reporter == ranks::rank()) ranks::error_stream() << program << ": error: " << bad_input << std::endl;
    return std::nullopt;
  }
  return request;
}

}  // namespace nbk::exp
