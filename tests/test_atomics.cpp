// Seed 003's atomics on every enabled space: the counter exact with atomics (and, on one
// thread, without), the histogram's bin formula at its edges against the document's, and
// every way of sharing the counts (private copies included) exact for one bin, few bins and
// many, empty input included.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "nbk/counter/kernels.hpp"
#include "nbk/histogram/kernels.hpp"
#include "map.hpp"
#include "spaces.hpp"

namespace {

using nbk::histogram::Bins;
using nbk::Count;

template <class Space>
class Atomics : public ::testing::Test {};
TYPED_TEST_SUITE(Atomics, nbk::test::SpaceTypes, nbk::test::SpaceNames);

TYPED_TEST(Atomics, AtomicCounterIsExact) {
  for (const nbk::Index n : {0, 1, 1000, 100003}) {
    nbk::counter::Counter<typename TypeParam::memory_space> counter("counter");
    nbk::counter::atomic_increments(TypeParam(), counter, n);
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counter);
    EXPECT_EQ(host(), static_cast<Count>(n));
  }
}

// The count is 64 bits wide on every space: increments carry past 2^32 (a 32-bit add, or a
// CAS on the low word, would wrap to 3).
TYPED_TEST(Atomics, AtomicCounterCarriesPastTwoToThe32) {
  nbk::counter::Counter<typename TypeParam::memory_space> counter("counter");
  const Count start = (Count{1} << 32) - 2;
  Kokkos::deep_copy(counter, start);
  nbk::counter::atomic_increments(TypeParam(), counter, 5);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counter);
  EXPECT_EQ(host(), start + 5);
}

TYPED_TEST(Atomics, RacyCounterNeverGainsAndLosesNothingAlone) {
  nbk::counter::Counter<typename TypeParam::memory_space> counter("counter");
  const nbk::Index n = 100003;
  nbk::counter::racy_increments(TypeParam(), counter, n);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counter);
  EXPECT_GE(host(), Count{1});
  EXPECT_LE(host(), static_cast<Count>(n));
  if (TypeParam().concurrency() == 1) EXPECT_EQ(host(), static_cast<Count>(n));
}

TEST(HistogramBins, EdgesRangeAndNaN) {
  const Bins sixteen{-4, 4, 16};  // width 0.5: every edge exact in float
  EXPECT_EQ(nbk::histogram::bin_of(-4.0f, sixteen), 0);
  EXPECT_EQ(nbk::histogram::bin_of(std::nextafter(-3.5f, -4.0f), sixteen), 0);
  EXPECT_EQ(nbk::histogram::bin_of(-3.5f, sixteen), 1);
  EXPECT_EQ(nbk::histogram::bin_of(0.0f, sixteen), 8);
  EXPECT_EQ(nbk::histogram::bin_of(std::nextafter(4.0f, 0.0f), sixteen), 15);
  EXPECT_EQ(nbk::histogram::bin_of(4.0f, sixteen), -1);
  EXPECT_EQ(nbk::histogram::bin_of(std::nextafter(-4.0f, -5.0f), sixteen), -1);
  EXPECT_EQ(nbk::histogram::bin_of(std::numeric_limits<float>::quiet_NaN(), sixteen), -1);
  EXPECT_EQ(nbk::histogram::bin_of(std::numeric_limits<float>::infinity(), sixteen), -1);
  const Bins one{-4, 4, 1};
  EXPECT_EQ(nbk::histogram::bin_of(std::nextafter(4.0f, 0.0f), one), 0);
}

TEST(HistogramBins, TheDocumentsFormulaLandsInTheWrongBins) {
  const Bins hundred{-4, 4, 100};
  EXPECT_EQ(nbk::histogram::bin_of(0.0f, hundred), 50);
  EXPECT_EQ(nbk::histogram::document_bin_of(0.0f, hundred), -1);  // dropped
  EXPECT_EQ(nbk::histogram::bin_of(-3.0f, hundred), 12);
  EXPECT_EQ(nbk::histogram::document_bin_of(-3.0f, hundred), -1);  // dropped
  EXPECT_EQ(nbk::histogram::bin_of(3.95f, hundred), 99);
  EXPECT_EQ(nbk::histogram::document_bin_of(3.95f, hundred), 0);  // the top bin's samples land in bin 0
}

// The private kernel's branch-free bin: bin_of's bin inside the range, the spare bin
// `count` for everything bin_of drops, at the edges and on a sweep through the range.
TEST(HistogramBins, SlotIsTheBinOrTheSpare) {
  for (const int count : {1, 16, 100, 4096}) {
    const Bins bins{-4, 4, count};
    const auto slots = nbk::histogram::slots_of(bins);
    const auto slot = [&](float x) { return nbk::histogram::slot_of(x, slots); };
    const auto expected = [&](float x) {
      const int bin = nbk::histogram::bin_of(x, bins);
      return bin >= 0 ? bin : count;
    };
    for (const float x : {-4.0f, std::nextafter(-4.0f, -5.0f), std::nextafter(4.0f, 0.0f), 4.0f, 0.0f, -1e30f, 1e30f,
                          std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity()})
      EXPECT_EQ(slot(x), expected(x)) << x << " in " << count << " bins";
    for (float x = -4.5f; x < 4.5f; x = std::nextafter(x + 1e-4f, 5.0f)) ASSERT_EQ(slot(x), expected(x)) << x;
  }
  EXPECT_EQ(nbk::histogram::private_copies(100), 8);
  EXPECT_EQ(nbk::histogram::private_copies(4096), 1);
}

// The team kernels' split: slices of whole 16-byte packs that cover every sample once. On a GPU,
// 256-thread teams, no more than the GPU holds at once and none with fewer than 8 samples a thread
// (10^7 samples: the 153 teams of one per 2^16 samples left an H100's SMs an eighth full); on a CPU
// a team per 2^16 samples.
TYPED_TEST(Atomics, TeamSplitCoversTheSamplesInWholePacks) {
  const TypeParam exec;
  for (const nbk::Index n : {0, 1, 5, 4097, 65537, 200003, 10000000}) {
    SCOPED_TRACE(n);
    const auto s = nbk::histogram::split_samples(exec, n);
    if (n == 0) {
      EXPECT_EQ(s.league, 0);
      continue;
    }
    ASSERT_GE(s.league, 1);
    EXPECT_EQ(s.slice % 4, 0);
    EXPECT_GE(s.league * s.slice, n);             // every sample in a slice
    EXPECT_LT((s.league - 1) * s.slice, n);       // no team without samples
    if constexpr (nbk::is_device_space_v<TypeParam>) {
      EXPECT_EQ(s.team_size, 256);
      EXPECT_LE(s.league * s.team_size, exec.concurrency());
      EXPECT_TRUE(s.league == 1 || n >= nbk::Index{s.league} * s.team_size * 8);
      if (n == 10000000) EXPECT_EQ(s.league, exec.concurrency() / 256);
    } else {
      EXPECT_GE(s.team_size, 1);
      EXPECT_EQ(s.league, (n + 65535) / 65536);
    }
  }
}

template <class Space>
std::vector<Count> histogram_on(int sharing, const std::vector<float>& samples, const Bins& bins) {
  using Memory = typename Space::memory_space;
  const auto x = nbk::test::to_space<Space>(samples);
  nbk::histogram::Histogram<Memory> counts("counts", bins.count);
  Kokkos::deep_copy(counts, Count(12345));  // every kernel must start from zero itself
  if (sharing == 0) nbk::histogram::atomic_histogram(Space(), x, bins, counts);
  if (sharing == 1) {
    nbk::histogram::Scatter<Space> scatter(counts);
    nbk::histogram::scatter_histogram(Space(), x, bins, counts, scatter);
  }
  if (sharing == 2) nbk::histogram::team_histogram(Space(), x, bins, counts);
  if (sharing == 3) nbk::histogram::private_histogram(Space(), x, bins, counts);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counts);
  return std::vector<Count>(host.data(), host.data() + bins.count);
}

TYPED_TEST(Atomics, EveryWayOfSharingCountsExactly) {
  // Edges, values outside the range and NaN, then enough samples for several teams.
  std::vector<float> x = {-4.0f, -3.5f, 0.0f, 3.5f, std::nextafter(4.0f, 0.0f), 4.0f, -4.5f, 100.0f,
                          std::numeric_limits<float>::quiet_NaN()};
  for (int i = 0; i < 200003; ++i) x.push_back(-4.5f + 9.0f * static_cast<float>(i % 1009) / 1009.0f);
  for (const int count : {1, 16, 100, 4096}) {
    const Bins bins{-4, 4, count};
    std::vector<Count> expected(static_cast<std::size_t>(count));
    nbk::histogram::host_histogram(x.data(), static_cast<std::int64_t>(x.size()), bins, expected.data());
    for (int sharing = 0; sharing < 4; ++sharing) {
      SCOPED_TRACE(std::to_string(count) + " bins, sharing " + std::to_string(sharing));
      EXPECT_EQ(histogram_on<TypeParam>(sharing, x, bins), expected);
      EXPECT_EQ(histogram_on<TypeParam>(sharing, {}, bins), std::vector<Count>(static_cast<std::size_t>(count), 0));
    }
  }
  // The known counts of the edge values alone, 16 bins.
  const auto edges = histogram_on<TypeParam>(0, {-4.0f, -3.5f, 0.0f, 3.5f, std::nextafter(4.0f, 0.0f), 4.0f},
                                               Bins{-4, 4, 16});
  std::vector<Count> known(16, 0);
  known[0] = known[1] = known[8] = 1;
  known[15] = 2;
  EXPECT_EQ(edges, known);
}

}  // namespace
