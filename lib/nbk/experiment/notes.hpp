#pragma once
// A workload's prose, kept beside its code in lib/nbk/<workload>/notes.md and embedded at build
// time (lib/CMakeLists.txt generates a source holding it). Its form:
//
//   # <workload>
//   Title: what the program runs, in one line
//   Document: the document it comes from ("seed 002")
//   Sizes: what --help says of the default sizes
//
//   ## Figures
//   - <variant>: what the documents call it and their figure
//   - <variant> on a device: ... (or "on a host": where the two differ; "on <space>": one space only)
//
//   ## Notes
//   what the figures mean and where the documents go wrong, printed after the table as it stands.
//
//   ## <any heading>
//   a section a statement prints in some runs only, or formats with the run's figures: asked for
//   as notes.section(NBK_HEADING("## <any heading>")), which fails to compile where notes.md
//   lacks the heading (nbk/experiment/outline.hpp); one that formats the run's figures, as
//   NBK_PROSE(notes.section, "## <any heading>")(figures...), which fails to compile where the
//   call gives another number of figures than the section's fields ask for. Title and Document
//   are required likewise. A sentence printed on one line is read as notes.line(NBK_HEADING("## ...")).
//
//   ## Below memcpy: <variant>[, <variant>... and <variant>]
//   why those variants' device rows cannot reach the device's memcpy bandwidth, as far as it is
//   established; exp::build gives it to every variant it names, and refuses a name that is no
//   variant of the experiment.
//
//   ## Tuned forms
//   each tuned form of the folder (tuned.hpp) against the plain row, measured, with the machine: read
//   by scripts/tuned_forms.py (ctest lint.tuned_forms), not printed.
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/outline.hpp"

namespace nbk::exp {

struct Notes {
  std::string_view name;  // the workload, as experiments.txt names it
  std::string_view text;  // its notes.md

  // The value of a "Key: value" line before the first section ("" if none).
  std::string field(std::string_view key) const;
  // The documents' words for `variant` in section Figures ("" if none).
  std::string figure(const Variant& variant) const;
  // Every "## Below memcpy: a, b and c" section: the variants it names, and its text as one line.
  std::vector<std::pair<std::vector<std::string>, std::string>> below_memcpy() const;
  // Section Notes, with the blank line that separates it from the table before it.
  std::string body() const;
  // The text of the section under `heading` (NBK_HEADING("## Notes under MPI"): one the build
  // found in notes.md), "" where the section is empty: what a statement prints only in some
  // runs, or formats with the run's figures.
  std::string section(Heading heading) const;
  // The same without its last line end: text to continue on the same line.
  std::string paragraph(Heading heading) const;
  // The same as one line, its lines joined by spaces: a sentence the program prints on a line
  // of its own (a variant's reason below memcpy), wrapped in notes.md as any other prose.
  std::string line(Heading heading) const;
};

// The experiment model's own prose: the legend under the tables and the help's last line
// (lib/nbk/experiment/legend.md).
Notes legend();

// An experiment with the name, title, document and size help its notes give.
Experiment stated(const Notes& notes);

// The same over the workload's Problem, made from a size and the run's seed by the first of its
// constructors that fits: Problem(n, seed, notes) (prose formatted with its figures),
// Problem(size, seed) (a matrix's m n p), Problem(n, seed), Problem(n) (no random input: no
// --seed); a call moving `traffic`, the Problem holding as much. The shapes' defaults
// (scalar_experiment, arrays_experiment) are this; a statement may still set any of it.
template <class ProblemType>
Experiment stated_over(const Notes& notes, Traffic (*traffic)(const Size&)) {
  using P = ProblemType;
  Experiment e = stated(notes);
  e.seeded = !std::is_constructible_v<P, std::int64_t>;
  e.traffic = traffic;
  e.problem_bytes = [traffic](const Size& s) { return traffic(s).total(); };
  e.make_problem = [notes](const Size& s, const Settings& settings) {
    if constexpr (std::is_constructible_v<P, std::int64_t, std::uint64_t, const Notes&>)
      return std::make_shared<P>(s.elements(), settings.seed, notes);
    else if constexpr (std::is_constructible_v<P, const Size&, std::uint64_t>)
      return std::make_shared<P>(s, settings.seed);
    else if constexpr (std::is_constructible_v<P, std::int64_t, std::uint64_t>)
      return std::make_shared<P>(s.elements(), settings.seed);
    else
      return std::make_shared<P>(s.elements());
  };
  return e;
}

// Throws std::logic_error when a speed-up baseline or a sweep's variant names no variant of
// the experiment: references are checked when the experiment is built, not when it runs.
void check_references(const Experiment& experiment);

// The experiment a statement builds from its notes, with each variant's document from the
// notes where the statement set none, its reasons below memcpy from the notes (a name there
// that is no variant is refused), and its references checked.
Experiment build(const Notes& notes, Experiment (*statement)(const Notes&));

}  // namespace nbk::exp
