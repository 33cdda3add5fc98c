// The ranks of a run (nbk/ranks/) and the verdicts of distributed variants. These tests run
// as one process in every build and, in an MPI build, under mpiexec -n 2 too (tests/mpi.cmake),
// where every rank runs them in the same order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "nbk/core/exact_sum.hpp"
#include "nbk/core/random_data.hpp"
#include "nbk/experiment/across_ranks.hpp"
#include "nbk/experiment/registry.hpp"
#include "nbk/ranks/ranks.hpp"
#include "nbk/sum/accuracy.hpp"

namespace {

using nbk::ranks::slice_of;

TEST(Ranks, SlicesCoverTheRangeInOrderAndDifferByAtMostOne) {
  for (const std::int64_t n : std::initializer_list<std::int64_t>{0, 1, 2, 3, 7, 1000, 1001, (std::int64_t{1} << 31) + 1})
    for (const int count : {1, 2, 3, 8, 64}) {
      SCOPED_TRACE(std::to_string(n) + " over " + std::to_string(count));
      std::int64_t next = 0, smallest = n, largest = 0;
      for (int r = 0; r < count; ++r) {
        const auto s = slice_of(n, r, count);
        EXPECT_EQ(s.begin, next);
        next = s.end;
        smallest = std::min(smallest, s.size());
        largest = std::max(largest, s.size());
      }
      EXPECT_EQ(next, n);
      EXPECT_LE(largest - smallest, 1);
      EXPECT_GE(slice_of(n, 0, count).size(), slice_of(n, count - 1, count).size());  // remainder goes first
    }
}

TEST(Ranks, SplitLikeNumpyArraySplit) {  // np.array_split(np.arange(7), 2): sizes 4, 3
  EXPECT_EQ(slice_of(7, 0, 2).size(), 4);
  EXPECT_EQ(slice_of(7, 1, 2).begin, 4);
}

TEST(Ranks, CollectivesAgreeOnEveryRank) {
  const int n = nbk::ranks::count();
  EXPECT_EQ(nbk::ranks::sum(std::int64_t{1}), n);
  EXPECT_EQ(nbk::ranks::max(static_cast<double>(nbk::ranks::rank())), n - 1);
  EXPECT_EQ(nbk::ranks::min(static_cast<double>(nbk::ranks::rank())), 0);
  EXPECT_EQ(nbk::ranks::sum(0.5f), 0.5f * n);
  EXPECT_TRUE(nbk::ranks::all(true));
  EXPECT_EQ(nbk::ranks::first_with(false), -1);
  EXPECT_EQ(nbk::ranks::first_with(nbk::ranks::rank() == n - 1), n - 1);
  EXPECT_FALSE(nbk::ranks::all(nbk::ranks::rank() != n - 1));  // one rank says no: all hear it
  std::int64_t values[3] = {1, nbk::ranks::rank(), std::int64_t{1} << 40};
  nbk::ranks::sum(values, 3);
  EXPECT_EQ(values[0], n);
  EXPECT_EQ(values[1], std::int64_t{n} * (n - 1) / 2);
  EXPECT_EQ(values[2], n * (std::int64_t{1} << 40));
  const int r = nbk::ranks::rank();
  EXPECT_EQ(nbk::ranks::exclusive_sum(1.0), static_cast<double>(r));                // ranks below this one
  EXPECT_EQ(nbk::ranks::exclusive_sum(static_cast<double>(r)), r * (r - 1) / 2.0);  // 0 on rank 0
}

// The distributed sum's problem: each rank draws only its slice, yet every rank holds the
// whole array's exact sum and scale, as one process computes them from all of it.
TEST(Ranks, SumProblemHoldsTheWholeArraysReferenceOnEveryRank) {
  const auto& experiments = nbk::exp::all_experiments();
  const auto e = std::find_if(experiments.begin(), experiments.end(), [](const auto& x) { return x.name == "sum"; });
  ASSERT_NE(e, experiments.end());
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{2}, std::int64_t{100003}, 3 * nbk::random_block + 1}) {
    SCOPED_TRACE(n);
    const auto facts = e->make_problem(nbk::exp::Size{n}, nbk::exp::Settings{})->to_json();
    const nbk::exp::Settings seeded;
    const auto whole = nbk::standard_normal_floats(n, seeded.seed);
    const auto scale = nbk::sum_scale(whole.data(), n);
    EXPECT_EQ(facts["exact_sum"].get<double>(), static_cast<double>(nbk::exact_sum(whole.data(), n).value()));
    EXPECT_DOUBLE_EQ(facts["sum_abs"].get<double>(), scale.sum_abs);
    EXPECT_NEAR(facts["max_abs_prefix_sum"].get<double>(), scale.max_prefix, 1e-9 * scale.sum_abs);
  }
}

TEST(Ranks, AVerdictFailsOnEveryRankWhenItFailsOnOne) {
  const int n = nbk::ranks::count();
  const bool last = nbk::ranks::rank() == n - 1;
  nbk::exp::Verdict local = nbk::exp::mismatch_verdict(last ? 3 : 0);
  const nbk::exp::Verdict merged = nbk::exp::merged_over_ranks(local);
  EXPECT_FALSE(merged.ok);
  EXPECT_EQ(merged.details["mismatches"].get<std::int64_t>(), 3);
  EXPECT_EQ(merged.details["failing_ranks"].get<std::int64_t>(), 1);
  EXPECT_EQ(merged.summary, "FAILED (3 wrong on 1 of " + std::to_string(n) + " ranks)");
  EXPECT_TRUE(nbk::exp::merged_over_ranks(nbk::exp::mismatch_verdict(0)).ok);
}

}  // namespace
