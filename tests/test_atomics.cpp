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
#include "nbk/histogram/tuned.hpp"
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

// A split covers every sample once in slices of whole 16-byte packs, and no team is empty.
void expect_covers(const nbk::histogram::Split& s, nbk::Index n) {
  if (n == 0) {
    EXPECT_EQ(s.league, 0);
    return;
  }
  ASSERT_GE(s.league, 1);
  EXPECT_EQ(s.slice % 4, 0);
  EXPECT_GE(nbk::Index{s.league} * s.slice, n);        // every sample in a slice
  EXPECT_LT(nbk::Index{s.league - 1} * s.slice, n);    // no team without samples
}

// GPU code's split as arithmetic, on the host: 256-thread teams, no more than the GPU holds at
// once and none with fewer than 8 samples a thread (10^7 samples on an H100, 132 SMs x 2048
// threads: 1,056 teams, one wave; the 153 teams of one per 2^16 samples left its SMs an eighth
// full). Host code: a team per 2^16 samples.
TEST(HistogramSplit, GpuSplitFillsTheGpuInWholePacks) {
  const nbk::Index h100 = 132 * 2048 / 256;
  for (const nbk::Index n : {0, 1, 5, 4097, 65537, 200003, 10000000, 1000000007}) {
    SCOPED_TRACE(n);
    const auto s = nbk::histogram::gpu_split(n, 256, h100);
    expect_covers(s, n);
    if (n == 0) continue;
    EXPECT_EQ(s.team_size, 256);
    EXPECT_LE(s.league, h100);
    EXPECT_TRUE(s.league == 1 || n >= nbk::Index{s.league} * 256 * 8);
  }
  EXPECT_EQ(nbk::histogram::gpu_split(10000000, 256, h100).league, 1056);
  EXPECT_EQ(nbk::histogram::gpu_split(4097, 256, h100).league, 2);
  for (const nbk::Index n : {0, 1, 65536, 65537, 10000000}) {
    const auto s = nbk::histogram::host_split(n, 1);
    expect_covers(s, n);
    EXPECT_EQ(s.league, (n + 65535) / 65536);
  }
}

// The GPU code's tests (split_samples with GpuCode, the team kernels' GPU branch) are in the twin
// suite AtomicsGpuCode, on the host spaces (a GPU runs them here, as its own code).
template <class SpaceCode>
class AtomicsGpuCode : public ::testing::Test {};
TYPED_TEST_SUITE(AtomicsGpuCode, nbk::test::HostGpuCodeTypes, nbk::test::SpaceCodeNames);

template <class Space, class Code>
void expect_split_covers(Code code) {
  const Space exec;
  for (const nbk::Index n : {0, 1, 5, 4097, 65537, 200003, 10000000}) {
    SCOPED_TRACE(std::to_string(n) + ", " + nbk::test::code_name(code));
    const auto s = nbk::histogram::split_samples(exec, n, code);
    expect_covers(s, n);
    if (n > 0 && nbk::is_device_space_v<Space> && n == 10000000) EXPECT_EQ(s.league, exec.concurrency() / 256);
  }
}

TYPED_TEST(Atomics, TeamSplitCoversTheSamplesInWholePacks) { expect_split_covers<TypeParam>(nbk::CodeFor<TypeParam>()); }
TYPED_TEST(AtomicsGpuCode, TeamSplitCoversTheSamplesInWholePacks) {
  expect_split_covers<typename TypeParam::space>(nbk::GpuCode());
}

// The sharing ways: atomic, scatter, team and private; team and private also as GPU code on
// every space, over the split the space gives them and over a split of many teams (some past the
// data, a tail that is not a whole pack).
enum class Way { atomic, scatter, team, private_copies };

template <class Space, class Code = nbk::CodeFor<Space>>
std::vector<Count> histogram_on(Way way, const std::vector<float>& samples, const Bins& bins, Code code = {},
                                int league = 0, int team_size = 0) {
  using Memory = typename Space::memory_space;
  const auto x = nbk::test::to_space<Space>(samples);
  const auto n = static_cast<nbk::Index>(samples.size());
  auto split = nbk::histogram::split_samples(Space(), n, code);
  if (league > 0 && n > 0) {  // `league` teams of whole packs, the last ones past the data
    split.league = league;
    split.slice = nbk::histogram::slice_of(n, league);
  }
  if (team_size > 0) split.team_size = team_size;
  nbk::histogram::Histogram<Memory> counts("counts", bins.count);
  Kokkos::deep_copy(counts, Count(12345));  // every kernel must start from zero itself
  if (way == Way::atomic) nbk::histogram::atomic_histogram(Space(), x, bins, counts);
  if (way == Way::scatter) {
    nbk::histogram::Scatter<Space> scatter(counts);
    nbk::histogram::scatter_histogram(Space(), x, bins, counts, scatter);
  }
  if (way == Way::team) nbk::histogram::team_histogram(Space(), x, bins, counts, split, code);
  if (way == Way::private_copies) nbk::histogram::private_histogram(Space(), x, bins, counts, split, code);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counts);
  return std::vector<Count>(host.data(), host.data() + bins.count);
}

// Samples whose counts are known by construction, not by the binning under test: sample i sits
// at the centre of bin (i mod (count + 2)) - 1, where bin -1 and bin `count` are half a bin
// outside the range; every 97th sample is NaN instead. The centres are exact in float for
// these ranges, and far from every edge.
struct Known {
  std::vector<float> samples;
  std::vector<Count> counts;
};
Known known_samples(const Bins& bins, nbk::Index n) {
  Known k{{}, std::vector<Count>(static_cast<std::size_t>(bins.count), 0)};
  const double width = (double(bins.xmax) - double(bins.xmin)) / bins.count;
  for (nbk::Index i = 0; i < n; ++i) {
    if (i % 97 == 96) {
      k.samples.push_back(std::numeric_limits<float>::quiet_NaN());
      continue;
    }
    const int bin = static_cast<int>(i % (bins.count + 2)) - 1;
    k.samples.push_back(static_cast<float>(bins.xmin + (bin + 0.5) * width));
    if (bin >= 0 && bin < bins.count) ++k.counts[static_cast<std::size_t>(bin)];
  }
  return k;
}

// More than two of the private host kernel's chunks of 2^18 samples, an odd tail.
const nbk::Index sharing_samples = 2 * (nbk::Index{1} << 18) + 4099;

TYPED_TEST(Atomics, EveryWayOfSharingCountsExactly) {
  for (const int count : {1, 16, 100, 4096}) {
    const Bins bins{-4, 4, count};
    const auto known = known_samples(bins, sharing_samples);
    const std::vector<Count> zeros(static_cast<std::size_t>(count), 0);
    for (const Way way : {Way::atomic, Way::scatter, Way::team, Way::private_copies}) {
      SCOPED_TRACE(std::to_string(count) + " bins, way " + std::to_string(int(way)));
      EXPECT_EQ(histogram_on<TypeParam>(way, known.samples, bins), known.counts);
      EXPECT_EQ(histogram_on<TypeParam>(way, {}, bins), zeros);
    }
  }
  // The known counts of the edge values alone, 16 bins.
  const auto edges = histogram_on<TypeParam>(Way::atomic, {-4.0f, -3.5f, 0.0f, 3.5f, std::nextafter(4.0f, 0.0f), 4.0f},
                                             Bins{-4, 4, 16});
  std::vector<Count> known(16, 0);
  known[0] = known[1] = known[8] = 1;
  known[15] = 2;
  EXPECT_EQ(edges, known);
}

// Every merge of private counts into the one histogram is atomic: tens of thousands of teams (or
// chunks) of four samples, all in one bin, merge into it from every thread at once (GPU code in
// teams of one thread: a team as wide as the pool would merge alone). Each of the three merges made
// a plain add in turn lost 3-24% of the counts here (2 threads of the development VM, issue 59).
TYPED_TEST(Atomics, EveryMergeIsAtomicUnderContention) {
  if (TypeParam().concurrency() < 2) GTEST_SKIP() << "one thread: no merge can race";
  const Bins one{-4, 4, 1};
  const nbk::Index n = nbk::Index{1} << 17;
  const std::vector<float> samples(static_cast<std::size_t>(n), 0.0f);
  const std::vector<Count> all{static_cast<Count>(n)};
  const int league = static_cast<int>(n / 4);
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(histogram_on<TypeParam>(Way::team, samples, one, nbk::CodeFor<TypeParam>(), league), all);
    EXPECT_EQ(histogram_on<TypeParam>(Way::team, samples, one, nbk::GpuCode(), league, 1), all);
    EXPECT_EQ(histogram_on<TypeParam>(Way::private_copies, samples, one, nbk::GpuCode(), league, 1), all);
    if constexpr (!nbk::is_device_space_v<TypeParam>) {  // a host space's own kernel
      const auto x = nbk::test::to_space<TypeParam>(samples);
      nbk::histogram::Histogram<typename TypeParam::memory_space> counts("counts", 1);
      nbk::histogram::private_histogram_host(TypeParam(), x, one, counts, 4);
      auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counts);
      EXPECT_EQ(host(0), static_cast<Count>(n)) << "the private host kernel's merge";
    }
  }
}

// The team kernels' GPU code on a host space: the space's split, and 37 teams of which the last
// has no samples (tests/test_gpu_code.cpp runs them at a GPU's splits).
TYPED_TEST(AtomicsGpuCode, EveryWayOfSharingCountsExactly) {
  using Space = typename TypeParam::space;
  for (const int count : {1, 16, 100, 4096}) {
    const Bins bins{-4, 4, count};
    const auto known = known_samples(bins, sharing_samples);
    const std::vector<Count> zeros(static_cast<std::size_t>(count), 0);
    for (const Way way : {Way::team, Way::private_copies}) {
      SCOPED_TRACE(std::to_string(count) + " bins, GPU code, way " + std::to_string(int(way)));
      EXPECT_EQ(histogram_on<Space>(way, known.samples, bins, nbk::GpuCode()), known.counts);
      const std::vector<float> few(known.samples.begin(), known.samples.begin() + 141);
      const auto few_known = known_samples(bins, 141);
      EXPECT_EQ(histogram_on<Space>(way, few, bins, nbk::GpuCode(), 37), few_known.counts);
      EXPECT_EQ(histogram_on<Space>(way, {}, bins, nbk::GpuCode()), zeros);
    }
  }
}

}  // namespace
