// The experiment model's prose and references: notes.md read as the statements read it, and a
// reference to a variant the experiment lacks refused when the experiment is built.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string_view>

#include "nbk/experiment/notes.hpp"
#include "nbk/experiment/registry.hpp"

namespace {

using nbk::exp::Experiment;
using nbk::exp::Notes;
using nbk::exp::Variant;

// The outline the build would generate from `text` (lib/CMakeLists.txt, nbk_outline).
constexpr nbk::exp::Section notes_sections[] = {
    {"## Figures", 0}, {"## Notes", 0}, {"## Notes under MPI", 0}, {"## Counted", 2}, {"## Wrapped", 0}, {"", 0}};

constexpr const char* text =
    "# demo\nTitle: a title\nDocument: seed 9\nSizes: The document's 10.\n\n## Figures\n- host: 1 ms\n"
    "- tiled on a device: 2 us\n- tiled: 3 s\n- one on serial: 4 s\n\n## Notes\nFirst line.\n\nSecond paragraph.\n\n## Notes under MPI\nranks\n"
    "\n## Counted\n{1} of {0:.1f}\n\n## Wrapped\none sentence\nwrapped\n";

TEST(Notes, FieldsFiguresAndSections) {
  const Notes notes{"demo", text};
  EXPECT_EQ(notes.field("Title"), "a title");
  EXPECT_EQ(notes.field("Document"), "seed 9");
  EXPECT_EQ(notes.field("Missing"), "");
  Variant host{"host"}, tiled{"tiled"};
  host.space = "host";
  tiled.space = "openmp";
  EXPECT_EQ(notes.figure(host), "1 ms");
  EXPECT_EQ(notes.figure(tiled), "3 s");  // no "on a host" line: the plain one
  tiled.space = "cuda";
  tiled.device = true;
  EXPECT_EQ(notes.figure(tiled), "2 us");
  Variant one{"one"};
  one.space = "serial";
  EXPECT_EQ(notes.figure(one), "4 s");  // a figure of one space only
  one.space = "openmp";
  EXPECT_EQ(notes.figure(one), "");
  EXPECT_EQ(notes.body(), "\nFirst line.\n\nSecond paragraph.\n");
  EXPECT_EQ(notes.section(NBK_HEADING("## Notes under MPI")), "ranks\n");
  EXPECT_EQ(notes.paragraph(NBK_HEADING("## Notes under MPI")), "ranks");
  EXPECT_EQ(notes.line(NBK_HEADING("## Wrapped")), "one sentence wrapped");
  const Experiment e = nbk::exp::stated(notes);
  EXPECT_EQ(e.name, "demo");
  EXPECT_EQ(e.size_help, "The document's 10.");
}

// A section that formats the run's figures, read as the statements read it: the build counted its
// fields (here the outline above says 2), and the call gives that many.
TEST(Notes, ProseFormatsItsFigures) {
  const Notes notes{"demo", text};
  EXPECT_EQ(NBK_PROSE(notes.section, "## Counted")(2.5, 7), "7 of 2.5\n");
  EXPECT_EQ(NBK_PROSE(notes.paragraph, "## Counted")(10.0, 1), "1 of 10.0");
  EXPECT_EQ(notes.section(NBK_HEADING("## Notes under MPI")), "ranks\n");
}

TEST(Notes, ReferencesAreCheckedWhenBuilt) {
  Experiment e;
  e.name = "demo";
  Variant host{"host"}, other{"other"};
  e.variants = {host, Variant{"device"}};
  e.variants[1].speedup_against = host;
  EXPECT_NO_THROW(nbk::exp::check_references(e));
  e.variants[1].speedup_against = other;  // never added to the experiment
  EXPECT_THROW(nbk::exp::check_references(e), std::logic_error);
  e.variants[1].speedup_against = {};
  e.sweeps = {{{}, host, other}};
  EXPECT_THROW(nbk::exp::check_references(e), std::logic_error);
}

// A reason below memcpy in the notes reaches every variant its heading names, and a heading
// that names no variant is refused when the experiment is built.
Experiment two_rows(const Notes&) {
  Experiment e;
  e.name = "demo";
  e.variants = {Variant{"naive"}, Variant{"tiled"}, Variant{"blas"}};
  return e;
}

TEST(Notes, ReasonsBelowMemcpyComeFromTheNotes) {
  const Notes notes{"demo", "# demo\n\n## Below memcpy: naive, tiled and blas\nbound by\narithmetic\n"};
  const Experiment e = nbk::exp::build(notes, two_rows);
  for (const auto& v : e.variants) EXPECT_EQ(v.below_memcpy_because, "bound by arithmetic") << v.name;
  const Notes one{"demo", "# demo\n\n## Below memcpy: tiled\nsmall tiles\n\n## Notes\nx\n"};
  EXPECT_EQ(nbk::exp::build(one, two_rows).variants[1].below_memcpy_because, "small tiles");
  EXPECT_EQ(nbk::exp::build(one, two_rows).variants[0].below_memcpy_because, "");
  const Notes typo{"demo", "# demo\n\n## Below memcpy: tilde\nsmall tiles\n"};
  EXPECT_THROW(nbk::exp::build(typo, two_rows), std::logic_error);
}

// Every registered experiment has a title and a document from its notes, and prose after its table.
TEST(Notes, EveryExperimentHasItsNotes) {
  for (const auto& e : nbk::exp::all_experiments()) {
    EXPECT_FALSE(e.title.empty()) << e.name;
    EXPECT_FALSE(e.document.empty()) << e.name;
    if (e.name != "device_info") EXPECT_TRUE(!e.notes.empty() || e.explain) << e.name;
  }
}

}  // namespace
