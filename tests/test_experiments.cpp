// Every variant of every experiment in experiments.txt, derived from its statement: at each
// of the experiment's test sizes (empty, tiny, odd, not a multiple of any tile) it runs
// through the driver as the program runs it (first call, repeated calls, the with-transfers
// timing where it has one) and must verify. Variants of spaces this build lacks do not exist
// here; a variant whose data cannot fit is skipped with the reason.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "nbk/experiment/arrays.hpp"
#include "nbk/experiment/driver.hpp"
#include "nbk/experiment/notes.hpp"
#include "nbk/experiment/elementwise.hpp"
#include "nbk/experiment/registry.hpp"
#include "nbk/experiment/reduction.hpp"

// docs/design.md's examples, one a shape, compiled from the page itself (tests/CMakeLists.txt
// extracts them in the page's order).
namespace nbk::twice {
#include "design_example_1.inc"
}  // namespace nbk::twice
namespace nbk::sevens {
#include "design_example_2.inc"
}  // namespace nbk::sevens
namespace nbk::scan {
#include "design_example_3.inc"
}  // namespace nbk::scan

namespace {

using nbk::exp::Experiment;
using nbk::exp::Variant;

struct Param {
  const Experiment* experiment;
  const Variant* variant;
};

std::vector<Param> every_variant() {
  std::vector<Param> params;
  for (const auto& e : nbk::exp::all_experiments())
    for (const auto& v : e.variants) params.push_back({&e, &v});
  return params;
}

std::string name_of(const ::testing::TestParamInfo<Param>& info) {
  std::string name = info.param.experiment->name + "_" + info.param.variant->name + "_" + info.param.variant->space;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

class EveryVariant : public ::testing::TestWithParam<Param> {};

TEST_P(EveryVariant, VerifiesAtEveryTestSize) {
  const Experiment& e = *GetParam().experiment;
  const Variant& v = *GetParam().variant;
  for (const auto& size : e.test_sizes) {
    SCOPED_TRACE("size " + size.text());
    const auto problem = e.make_problem(size, nbk::exp::Settings{});
    const auto result = nbk::exp::run_variant(e, v, *problem, size, 2);
    if (!result.skipped.empty()) GTEST_SKIP() << result.skipped;
    EXPECT_TRUE(result.verdict.ok) << result.verdict.summary;
    EXPECT_EQ(result.steady.repetitions, 2);
    EXPECT_EQ(result.with_transfers.repetitions, v.timed_with_transfers ? 2 : 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Experiments, EveryVariant, ::testing::ValuesIn(every_variant()), name_of);

// What the statements promise the program, the tests and the benchmarks.
TEST(Statements, AreComplete) {
  for (const auto& e : nbk::exp::all_experiments()) {
    SCOPED_TRACE(e.name);
    EXPECT_FALSE(e.title.empty());
    EXPECT_FALSE(e.sizes.empty());
    EXPECT_FALSE(e.test_sizes.empty());
    EXPECT_TRUE(e.make_problem);
    for (const auto& size : e.sizes) EXPECT_EQ(size.rank(), e.rank);
    for (const auto& size : e.test_sizes) EXPECT_EQ(size.rank(), e.rank);
    for (const auto& v : e.variants) {
      EXPECT_TRUE(v.make) << v.name;
      EXPECT_TRUE(e.traffic) << v.name;
      EXPECT_FALSE(v.space.empty()) << v.name;
      int twins = 0;
      for (const auto& w : e.variants) twins += w.name == v.name && w.space == v.space;
      EXPECT_EQ(twins, 1) << v.name << " on " << v.space << " is stated twice";
    }
    for (const auto& sweep : e.sweeps) EXPECT_FALSE(sweep.sizes.empty());
  }
}

// The design page's examples are workloads like the others: on every enabled space each
// verifies, empty and odd sizes included, through the driver the programs use.
TEST(DesignPage, ExamplesVerifyOnEverySpace) {
  using Statement = Experiment (*)(const nbk::exp::Notes&);
  const std::pair<const char*, Statement> examples[] = {
      {"twice", &nbk::twice::experiment}, {"sevens", &nbk::sevens::experiment}, {"scan", &nbk::scan::experiment}};
  for (const auto& [name, statement] : examples) {
    const std::string text = std::string("# ") + name + "\nTitle: an example\nDocument: docs/design.md\n";
    const nbk::exp::Notes notes{name, text};  // views of the text, which outlives them
    const Experiment e = nbk::exp::build(notes, statement);
    EXPECT_EQ(e.name, name);
    ASSERT_GE(e.variants.size(), 2u) << name;
    for (const auto& size : e.test_sizes) {
      const auto problem = e.make_problem(size, nbk::exp::Settings{});
      for (const auto& v : e.variants) {
        SCOPED_TRACE(std::string(name) + ": " + v.name + " on " + v.space + " at " + size.text());
        const auto result = nbk::exp::run_variant(e, v, *problem, size, 2);
        EXPECT_TRUE(result.skipped.empty()) << result.skipped;
        EXPECT_TRUE(result.verdict.ok) << result.verdict.summary;
      }
    }
  }
}

}  // namespace
