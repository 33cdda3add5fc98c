#pragma once
// A program's command line, checked into a Request before Kokkos starts or anything is allocated:
// bad input is one line and exit 2, never a failed allocation (program.cpp runs the Request).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nbk/experiment/experiment.hpp"
#include "nbk/report/probe_report.hpp"

namespace CLI {
class App;
}

namespace nbk::exp {

// What the command line gave, as typed: nothing in it is checked yet.
struct Options {
  std::vector<std::string> size_texts, variants, spaces;
  std::string repetitions_text, seed_text = "1", probe_text, json_path, sweep_to_text, probes_path, budget_text;
  bool no_sweep = false, verbose = false, inject_bug = false, no_limit = false;
};

// What the program runs, checked: every size, variant, count and path in it is valid.
struct Request {
  std::vector<Size> sizes;
  std::vector<const Variant*> variants;  // those the options select
  int repetitions = 0;
  double budget_s = 0;  // 0: every repetition (--repetitions given)
  std::int64_t probe_elements = 0, sweep_max = 0;
  bool sweeps = false;  // whether the experiment's crossover sweeps run
  bool inject_bug = false;
  std::string json_path;
  ProbeFile probe_file;
  Settings settings;
};

// The options of `experiment`'s program, declared on `app` to fill `options`.
void add_options(CLI::App& app, const Experiment& experiment, Options& options);

// The request the options make, checked on every rank. Where any rank finds the input bad,
// every rank gets nothing (exit 2) and the lowest such rank says why, in one line, as `program`.
std::optional<Request> request_on_every_rank(const Experiment& experiment, const Options& options,
                                             const std::string& program);

}  // namespace nbk::exp
