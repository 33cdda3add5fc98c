// The GPU code's launch shapes (issue 53): which team, thread and lane takes which elements, as the
// kernels' own pure functions, checked at an H100's and an H200's shapes (132 SMs of 2048 threads;
// teams of 32 to 1024 threads, 32 lanes), every element covered exactly once at sizes in every
// class of the code's branches: suite GpuCodeShapes, no space needed. Then the GPU code itself on
// the host spaces with as many teams as the shapes give and the largest teams a host pool has
// (teams of one thread too, so that teams merge into the same counts at once), and on a GPU:
// suite GpuCode ("serial_gpu_code", "openmp_gpu_code", "cuda"), every value it computes checked.
// A host run alone cannot show a fault that needs a GPU-sized team (a thread mapping right for 2
// threads and wrong for 256); the shapes' tests can. And the GPU code of the element maps and the
// log-sum (an element a thread), which no other test runs on a host space.
// `--gtest_filter='GpuCode*:*_gpu_code.*'` selects every test of GPU code (docs/gpu.md).
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <bitset>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "map.hpp"
#include "nbk/add/kernels.hpp"
#include "nbk/core/exact_sum.hpp"
#include "nbk/core/math_map.hpp"
#include "nbk/core/random_data.hpp"
#include "nbk/core/verify.hpp"
#include "nbk/gaussian/kernels.hpp"
#include "nbk/histogram/kernels.hpp"
#include "nbk/histogram/tuned.hpp"
#include "nbk/polar/kernels.hpp"
#include "nbk/product/kernels.hpp"
#include "nbk/row_sum/kernels.hpp"
#include "nbk/row_sum/tuned.hpp"
#include "nbk/sin_exp/kernels.hpp"
#include "nbk/sum/kernels.hpp"
#include "nbk/sum/tuned.hpp"
#include "spaces.hpp"

namespace {

using nbk::Count;
using nbk::Index;

// ---- the shapes, as pure functions ----

// An H100 SXM's and an H200's: 132 SMs, 2048 resident threads each (both sm_90).
constexpr Index gpu_sms = 132;
constexpr Index gpu_threads_per_sm = 2048;
constexpr Index gpu_threads = gpu_sms * gpu_threads_per_sm;
constexpr int gpu_team_sizes[] = {32, 64, 128, 256, 512, 1024};

// Half-open intervals [first, last) of elements; cover_once says whether they cover [0, n) with
// every element exactly once (empty intervals ignored), and where not, the first element missed
// or taken twice.
using Interval = std::pair<Index, Index>;
::testing::AssertionResult cover_once(std::vector<Interval> parts, Index n) {
  parts.erase(std::remove_if(parts.begin(), parts.end(), [](const Interval& p) { return p.first >= p.second; }),
              parts.end());
  std::sort(parts.begin(), parts.end());
  Index next = 0;
  for (const auto& [first, last] : parts) {
    if (first < next) return ::testing::AssertionFailure() << "element " << first << " taken twice";
    if (first > next) return ::testing::AssertionFailure() << "element " << next << " taken by none";
    next = last;
  }
  if (next != n) return ::testing::AssertionFailure() << "elements from " << next << " of " << n << " taken by none";
  return ::testing::AssertionSuccess();
}

// Element counts of the progressions first, first + step, ... below last (each a thread's share),
// relative to `origin`, over `length` elements: every count must be 1.
struct Counts {
  Index origin;
  std::vector<int> count;
  Counts(Index origin_, Index length) : origin(origin_), count(static_cast<std::size_t>(length), 0) {}
  // false where the progression leaves [origin, origin + length).
  bool take(Index first, Index last, Index step) {
    for (Index i = first; i < last; i += step) {
      if (i < origin || i >= origin + static_cast<Index>(count.size())) return false;
      ++count[static_cast<std::size_t>(i - origin)];
    }
    return true;
  }
  ::testing::AssertionResult once() const {
    for (std::size_t i = 0; i < count.size(); ++i)
      if (count[i] != 1)
        return ::testing::AssertionFailure() << "element " << origin + Index(i) << " taken " << count[i] << " times";
    return ::testing::AssertionSuccess();
  }
};

// The histogram's team kernels (team and private, GPU code): gpu_split's teams at a GPU's shapes
// (as many as it holds at once, at least 8 samples a thread) and team_samples' packs and loose
// samples of each team cover every sample once, with x in packs or not (a misaligned x has
// none), at sizes of every class: fewer samples than a pack, a partial pack, one team (fewer than
// 8 a thread), teams past the data, the GPU full, and past 2^31 samples (a team's first sample
// past int's range).
TEST(GpuCodeShapes, HistogramTeamsCoverEverySampleOnce) {
  constexpr Index width = nbk::pack_width<float>;
  for (const int team : gpu_team_sizes) {
    const Index at_once = gpu_threads / team;
    const Index full = at_once * team * nbk::histogram::min_samples_per_gpu_thread;
    for (const Index n : {Index{0}, Index{1}, Index{3}, Index{4}, Index{5}, Index{team} * 8 - 1, Index{team} * 8 + 5,
                          Index{100003}, full - 3, full, full + 5, Index{10000000}, Index{3} << 30, (Index{3} << 30) + 7}) {
      const auto split = nbk::histogram::gpu_split(n, team, at_once);
      SCOPED_TRACE("team " + std::to_string(team) + ", n " + std::to_string(n) + ", league " +
                   std::to_string(split.league));
      EXPECT_EQ(split.team_size, team);
      EXPECT_LE(split.league, at_once);
      EXPECT_TRUE(split.league <= 1 || n >= Index{split.league} * team * 8);
      EXPECT_EQ(split.slice % width, 0);
      for (const Index packed : {n / width * width, Index{0}}) {
        std::vector<Interval> parts;
        for (Index r = 0; r < split.league; ++r) {
          const auto s = nbk::histogram::team_samples(r, split.slice, n, packed);
          ASSERT_LE(s.pack_begin, s.pack_end);
          if (s.pack_begin < s.pack_end) ASSERT_LE(s.pack_end * width, packed);
          parts.emplace_back(s.pack_begin * width, s.pack_end * width);
          parts.emplace_back(s.loose_begin, s.loose_end);
        }
        EXPECT_TRUE(cover_once(parts, n)) << (packed ? "in packs" : "no packs");
      }
    }
  }
}

// The private GPU kernel's copies: every thread of a team of any GPU size counts into a copy that
// exists, each copy is counted into by as many threads as the next, and a warp uses every copy.
TEST(GpuCodeShapes, HistogramPrivateCopiesOfEveryTeamSize) {
  for (const int count : {1, 16, 100, 1000, 2047, 4096}) {
    const int copies = nbk::histogram::private_copies(count);
    EXPECT_LE(Index{copies} * count * Index{sizeof(int)}, 32 * 1024) << count << " bins";
    for (const int team : gpu_team_sizes) {
      std::vector<int> threads(static_cast<std::size_t>(copies), 0);
      for (int t = 0; t < team; ++t) {
        const int c = nbk::histogram::copy_of(t, copies);
        ASSERT_TRUE(c >= 0 && c < copies) << "thread " << t << " of " << team << ": copy " << c << " of " << copies;
        ++threads[static_cast<std::size_t>(c)];
      }
      for (int c = 0; c < copies; ++c) EXPECT_EQ(threads[static_cast<std::size_t>(c)], team / copies) << "copy " << c;
      std::vector<bool> in_warp(static_cast<std::size_t>(copies), false);
      for (int t = 0; t < 32; ++t) in_warp[static_cast<std::size_t>(nbk::histogram::copy_of(t, copies))] = true;
      EXPECT_EQ(std::count(in_warp.begin(), in_warp.end(), true), copies);
    }
  }
}

// The vector row sums' GPU shape (8 threads a team, a row a thread, 32 lanes) and others: every
// row taken once by one thread, over as many rounds as the league's cap makes (a GPU's 2^20 teams
// of 8 rows: rounds from 8 Mi rows on), rows not a multiple of the team.
TEST(GpuCodeShapes, VectorRowSumsTakeEveryRowOnce) {
  const Index cap = nbk::row_sum::max_league;
  const auto shape = nbk::row_sum::vector_shape(16384, nbk::row_sum::gpu_rows_per_team, nbk::row_sum::gpu_lanes);
  EXPECT_EQ(shape.league, 2048);
  EXPECT_EQ(shape.rows_per_team * shape.lanes, 256);
  for (const int per_team : {1, 2, 3, 8})
    for (const Index rows : {Index{1}, Index{7}, Index{8}, Index{9}, Index{16383}, cap * per_team - 1, cap * per_team,
                             cap * per_team + 1, 3 * cap * per_team + 5}) {
      const auto s = nbk::row_sum::vector_shape(rows, per_team, nbk::row_sum::gpu_lanes);
      SCOPED_TRACE(std::to_string(per_team) + " rows a team, " + std::to_string(rows) + " rows, league " +
                   std::to_string(s.league));
      EXPECT_EQ(s.league, std::min<Index>(cap, (rows + per_team - 1) / per_team));
      std::vector<Interval> parts;
      for (Index r = 0; r < s.league; ++r)
        for (Index first = nbk::row_sum::first_row(r, per_team); first < rows;
             first += nbk::row_sum::row_stride(s.league, per_team))
          parts.emplace_back(first, std::min(first + per_team, rows));  // thread t: row first + t
      EXPECT_TRUE(cover_once(parts, rows));
    }
}

// The tree sum's shares: team r's slice (tree_range), and in it what each thread adds
// (tree_share), GPU code strided with packs or without, host code in chunks, cover every float
// once: every team size a GPU may run (1 to 256, and 512, 1024), the GPU's default shape
// (gpu_tree_shape: 256 threads, up to 2^16 teams) at sizes of every class, leagues with teams
// past the data.
void expect_tree_covers(Index n, Index league, int threads, bool packed, bool strided) {
  constexpr Index width = nbk::pack_width<float>;
  const Index slice = nbk::sum::tree_slice(n, league, packed ? width : 1);
  if (packed) ASSERT_EQ(slice % width, 0);
  std::vector<Interval> ranges;
  for (Index r = 0; r < league; ++r) {
    const auto range = nbk::sum::tree_range(r, slice, n);
    ranges.push_back({range.begin, range.end});
    Counts counts(range.begin, range.end - range.begin);
    for (int t = 0; t < threads; ++t) {
      const auto s = nbk::sum::tree_share(range, t, threads, packed, strided);
      for (Index c = s.pack_first; c < s.pack_end; c += s.step)
        ASSERT_TRUE(counts.take(c * width, (c + 1) * width, 1)) << "pack " << c << " outside team " << r;
      ASSERT_TRUE(counts.take(s.first, s.last, s.step)) << "thread " << t << "'s floats outside team " << r;
    }
    ASSERT_TRUE(counts.once()) << "team " << r << " of " << league << ", " << threads << " threads";
  }
  EXPECT_TRUE(cover_once(ranges, n));
}

TEST(GpuCodeShapes, TreeSumSharesCoverEveryFloatOnce) {
  for (const Index n : {Index{0}, Index{1}, Index{3}, Index{4}, Index{5}, Index{255}, Index{256}, Index{257},
                        Index{1} << 24, (Index{1} << 24) + 5, (Index{1} << 27) - 157}) {
    const auto shape = nbk::sum::gpu_tree_shape(n);
    SCOPED_TRACE("n " + std::to_string(n) + ", league " + std::to_string(shape.league));
    EXPECT_EQ(shape.team_size, 256);
    EXPECT_EQ(shape.league, std::max<Index>(1, std::min<Index>(Index{1} << 16, (n + 255) / 256)));
    expect_tree_covers(n, shape.league, shape.team_size, true, true);
    if (n < (Index{1} << 25)) expect_tree_covers(n, shape.league, shape.team_size, false, true);
  }
  std::vector<int> every_team(257);
  std::iota(every_team.begin(), every_team.end(), 1);
  every_team.insert(every_team.end(), {512, 1024});
  for (const int threads : every_team)
    for (const Index n : {Index{0}, Index{1}, Index{5}, Index{threads} * 4 - 1, Index{threads} * 12 + 7, Index{10007}})
      for (const Index league : {Index{1}, Index{3}, Index{17}, Index{132}}) {
        SCOPED_TRACE(std::to_string(threads) + " threads, n " + std::to_string(n) + ", league " + std::to_string(league));
        expect_tree_covers(n, league, threads, true, true);
        expect_tree_covers(n, league, threads, false, true);
        expect_tree_covers(n, league, threads, false, false);
      }
}

// The tree itself: for every team size up to 1024, each step reads only values no thread of the
// step writes, and the last value holds every thread's value exactly once.
TEST(GpuCodeShapes, TreeSumStepsAddEveryThreadOnce) {
  for (int threads = 1; threads <= 1024; ++threads) {
    std::vector<std::bitset<1024>> scratch(static_cast<std::size_t>(threads));
    for (int t = 0; t < threads; ++t) scratch[static_cast<std::size_t>(t)].set(static_cast<std::size_t>(t));
    for (int width = threads; width > 1;) {
      const int half = nbk::sum::tree_half(width);
      ASSERT_LE(width - half, half) << threads << " threads, width " << width;  // writes below every read
      ASSERT_LT(half, width);
      for (int t = 0; t < width - half; ++t) {
        auto& mine = scratch[static_cast<std::size_t>(t)];
        const auto& other = scratch[static_cast<std::size_t>(t + half)];
        ASSERT_TRUE((mine & other).none()) << threads << " threads: a value added twice";
        mine |= other;
      }
      width = half;
    }
    ASSERT_EQ(scratch[0].count(), static_cast<std::size_t>(threads)) << threads << " threads";
  }
}

// The document's grid-stride add at a GPU's grids: cuda.grid(1) takes every thread of the grid
// to its own first element (a bijection onto [0, threads)), so with the grid's size as stride
// every element is added once, below, at and past one element a thread.
TEST(GpuCodeShapes, GridStrideTakesEveryElementOnce) {
  for (const Index blocks : {Index{1}, Index{30}, gpu_sms, gpu_sms * 8, gpu_sms * 32})
    for (const int team : gpu_team_sizes) {
      const Index size = nbk::add::grid_size(blocks, team);
      SCOPED_TRACE(std::to_string(blocks) + " blocks of " + std::to_string(team));
      ASSERT_EQ(size, blocks * team);
      std::vector<bool> first(static_cast<std::size_t>(size), false);
      for (Index b = 0; b < blocks; ++b)
        for (int t = 0; t < team; ++t) {
          const Index g = nbk::add::grid_index(b, team, t);
          ASSERT_TRUE(g >= 0 && g < size && !first[static_cast<std::size_t>(g)]) << "block " << b << ", thread " << t;
          first[static_cast<std::size_t>(g)] = true;
        }
      if (size > 100000) continue;
      for (const Index n : {Index{1}, size - 1, size, size + 1, 3 * size + 7}) {
        Counts counts(0, n);
        for (Index g = 0; g < size; ++g) ASSERT_TRUE(counts.take(g, n, size));
        ASSERT_TRUE(counts.once()) << "n " << n;
      }
    }
  EXPECT_EQ(nbk::add::shape_run({30, 128}, 1).threads, 1);
  EXPECT_EQ(nbk::add::shape_run({30, 128}, 1024).threads, 128);
}

// ---- the GPU code run: every host space, and a GPU ----

template <class SpaceCode>
class GpuCode : public ::testing::Test {
 protected:
  using Space = typename SpaceCode::space;
  using Code = typename SpaceCode::code;

  // The team sizes to run: a host pool's largest and one thread (whose teams run side by side and
  // merge at once); on a GPU, a warp and the GPU code's own.
  static std::vector<int> team_sizes(int gpu_size) {
    if constexpr (nbk::is_device_space_v<Space>) {
      return {32, gpu_size};
    } else {
      const int most = std::min(gpu_size, Kokkos::TeamPolicy<Space>(Space(), 1, 1).team_size_max(
                                              [](const auto&) {}, Kokkos::ParallelForTag()));
      return most > 1 ? std::vector<int>{1, most} : std::vector<int>{1};
    }
  }
};
TYPED_TEST_SUITE(GpuCode, nbk::test::GpuCodeTypes, nbk::test::SpaceCodeNames);

// x on Space, its first element 16-byte aligned (packs) or 4 bytes past (none): a slice of a
// larger View.
template <class Space, class T>
auto upload(const std::vector<T>& values, bool aligned) {
  const std::size_t offset = aligned ? 0 : 1;
  Kokkos::View<T*, typename Space::memory_space> whole("nbk::test::x", values.size() + offset);
  const auto x = Kokkos::subview(whole, std::make_pair(offset, offset + values.size()));
  Kokkos::deep_copy(x, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(values.data(), values.size()));
  return x;
}

// Samples whose counts are known by construction, not by the binning under test: "hot", in the
// first bin (every team and every thread counts into the same bin, where only atomics keep the
// count) except every 5th, half a bin past the top; or spread, sample i at the centre of bin
// (i mod (count + 2)) - 1, bins -1 and `count` half a bin outside the range; every 97th NaN
// instead. Bin centres are exact in float.
struct Known {
  std::vector<float> samples;
  std::vector<Count> counts;
};
Known known_samples(const nbk::histogram::Bins& bins, Index n, bool hot) {
  Known k{{}, std::vector<Count>(static_cast<std::size_t>(bins.count), 0)};
  const double width = (double(bins.xmax) - double(bins.xmin)) / bins.count;
  for (Index i = 0; i < n; ++i) {
    if (i % 97 == 96) {
      k.samples.push_back(std::numeric_limits<float>::quiet_NaN());
      continue;
    }
    const int bin = hot ? (i % 5 == 4 ? bins.count : 0) : static_cast<int>(i % (bins.count + 2)) - 1;
    k.samples.push_back(static_cast<float>(bins.xmin + (bin + 0.5) * width));
    if (bin >= 0 && bin < bins.count) ++k.counts[static_cast<std::size_t>(bin)];
  }
  return k;
}

// Both team kernels' GPU code, with teams of one thread and of the most a host pool has (on a GPU
// a warp and 256), over the splits of a GPU (gpu_split with an H100's teams at once: up to 2^15
// teams of one thread here), of the space (split_samples: one team for GPU code on a host pool)
// and of teams past the data; x in packs and not; samples in 1 bin, spread over 100 and hot in 4096
// (one private copy: the team's threads count into it together). Every count exact.
TYPED_TEST(GpuCode, HistogramTeamsOfEverySizeCountExactly) {
  using Space = typename TestFixture::Space;
  using Memory = typename Space::memory_space;
  const Space exec;
  for (const int count : {1, 100, 4096}) {
    const nbk::histogram::Bins bins{-4, 4, count};
    for (const Index n : {Index{0}, Index{1}, Index{3}, Index{5}, Index{2047}, Index{4099}, Index{65537},
                          (Index{1} << 18) + 3}) {
      if (count == 4096 && n > 65537) continue;  // 2^15 teams each clearing 4096 bins: slow, nothing new
      const auto known = known_samples(bins, n, count != 100);
      for (const bool aligned : {true, false}) {
        const auto x = upload<Space>(known.samples, aligned);
        for (const int team : TestFixture::team_sizes(nbk::histogram::gpu_team_size)) {
          std::vector<std::pair<std::string, nbk::histogram::Split>> splits{
              {"gpu", nbk::histogram::gpu_split(n, team, gpu_threads / team)},
              {"space", nbk::histogram::split_samples(exec, n, nbk::GpuCode())}};
          auto past = nbk::histogram::gpu_split(n, team, 1);
          past.league = 37;
          past.slice = nbk::histogram::slice_of(n, 37);
          if (n > 0) splits.emplace_back("37 teams", past);
          for (const auto& [name, split] : splits)
            for (const bool private_copies : {false, true}) {
              SCOPED_TRACE(std::to_string(count) + " bins, n " + std::to_string(n) + (aligned ? "" : ", no packs") +
                           ", split " + name + " of " + std::to_string(split.league) + " x " +
                           std::to_string(split.team_size) + (private_copies ? ", private" : ", team"));
              nbk::histogram::Histogram<Memory> counts("counts", count);
              Kokkos::deep_copy(counts, Count(12345));
              if (private_copies)
                nbk::histogram::private_histogram(exec, x, bins, counts, split, nbk::GpuCode());
              else
                nbk::histogram::team_histogram(exec, x, bins, counts, split, nbk::GpuCode());
              const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counts);
              ASSERT_EQ(std::vector<Count>(host.data(), host.data() + count), known.counts);
            }
        }
      }
    }
  }
}

// The vector row sums' GPU code with the GPU's 32 lanes, teams of every size the space runs, and
// leagues capped low, so that teams take several rounds of rows; rows of whole packs and not,
// and no columns. int32 sums are exact in int64: every row compared, and nothing else written.
TYPED_TEST(GpuCode, VectorRowSumsEveryRoundAndTail) {
  using Space = typename TestFixture::Space;
  using Memory = typename Space::memory_space;
  std::mt19937 engine(53);
  for (const auto& [rows, columns] : std::vector<std::pair<Index, Index>>{
           {1, 1}, {1, 4}, {2, 5}, {3, 8}, {17, 33}, {17, 36}, {64, 4}, {1001, 3}, {9, 1024}, {5, 0}}) {
    std::vector<std::int32_t> a(static_cast<std::size_t>(rows * columns));
    for (auto& v : a) v = static_cast<std::int32_t>(engine());
    std::vector<std::int64_t> expected(static_cast<std::size_t>(rows));
    nbk::row_sum::host_row_sums(a.data(), rows, columns, expected.data());
    const nbk::row_sum::Matrix<std::int32_t, Memory> matrix("a", rows, columns);
    Kokkos::deep_copy(matrix, Kokkos::View<const std::int32_t**, Kokkos::LayoutRight, Kokkos::HostSpace,
                                           Kokkos::MemoryUnmanaged>(a.data(), rows, columns));
    for (const int team : TestFixture::team_sizes(nbk::row_sum::gpu_rows_per_team))
      for (const Index cap : {Index{1}, Index{2}, Index{3}, Index{7}, nbk::row_sum::max_league}) {
        const auto shape = nbk::row_sum::vector_shape(rows, team, nbk::row_sum::gpu_lanes, cap);
        SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(columns) + ", " + std::to_string(shape.league) +
                     " teams of " + std::to_string(team));
        Kokkos::View<std::int64_t*, Memory> memory("sums", rows + 2);
        Kokkos::deep_copy(memory, std::int64_t{-7});
        const auto sums = Kokkos::subview(memory, std::make_pair(Index{1}, rows + 1));
        nbk::row_sum::vector_row_sums(Space(), matrix, sums, shape, nbk::GpuCode());
        const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), memory);
        EXPECT_EQ(host(0), -7);
        EXPECT_EQ(host(rows + 1), -7);
        ASSERT_EQ(std::vector<std::int64_t>(host.data() + 1, host.data() + 1 + rows), expected);
      }
  }
}

// The tree sum's GPU code: every partial (each team's sum of its slice) of small integers, exact
// in float, for teams of every size the space runs and leagues from one to past the data; x in
// packs and not.
TYPED_TEST(GpuCode, TreeSumEveryPartialExact) {
  using Space = typename TestFixture::Space;
  for (const Index n : {Index{0}, Index{1}, Index{3}, Index{5}, Index{255}, Index{4099}, Index{1000003}}) {
    std::vector<float> values(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) values[static_cast<std::size_t>(i)] = static_cast<float>(i % 16);
    for (const bool aligned : {true, false}) {
      const auto x = upload<Space>(values, aligned);
      const bool packed = nbk::packs_of<nbk::GpuCode>(x).extent(0) > 0;
      EXPECT_EQ(packed, aligned && n >= 4);
      for (const int team : TestFixture::team_sizes(nbk::sum::gpu_tree_team))
        for (const Index league : {Index{1}, Index{3}, Index{17}, Index{1056}, Index{1} << 16}) {
          SCOPED_TRACE("n " + std::to_string(n) + (aligned ? "" : ", no packs") + ", " + std::to_string(league) +
                       " teams of " + std::to_string(team));
          Kokkos::View<float*, typename Space::memory_space> partials("partials", league);
          Kokkos::deep_copy(partials, -1.0f);
          nbk::sum::tree_partials(Space(), x, partials, team, nbk::GpuCode());
          const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), partials);
          const Index slice = nbk::sum::tree_slice(n, league, packed ? 4 : 1);
          for (Index r = 0; r < league; ++r) {
            const auto range = nbk::sum::tree_range(r, slice, n);
            const float expected =
                std::accumulate(values.begin() + range.begin, values.begin() + range.end, 0.0f);
            ASSERT_EQ(host(r), expected) << "team " << r;
          }
        }
    }
  }
}

// The document's grid-stride add with many blocks (an H100's 8 a SM among them) of the threads
// the space allows: every element written once with its own sum.
TYPED_TEST(GpuCode, GridStrideAddOfManyBlocks) {
  using Space = typename TestFixture::Space;
  for (const int blocks : {1, 7, 1056})
    for (const int threads : TestFixture::team_sizes(256))
      for (const Index n : {Index{0}, Index{1}, Index{blocks} * threads - 1, Index{blocks} * threads + 1, Index{100003}}) {
        SCOPED_TRACE(std::to_string(blocks) + " blocks of " + std::to_string(threads) + ", n " + std::to_string(n));
        std::vector<float> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n));
        for (Index i = 0; i < n; ++i) {
          x[static_cast<std::size_t>(i)] = static_cast<float>(i);
          y[static_cast<std::size_t>(i)] = static_cast<float>(2 * (i % 1000));
        }
        nbk::add::GridShape ran{};
        const auto out = nbk::test::run_map<Space>(
            [&](const auto& space, const auto& a, const auto& b, const auto& c) {
              ran = nbk::add::grid_stride_add(space, a, b, c, nbk::add::GridShape{blocks, threads});
            },
            x, y);
        EXPECT_EQ(ran.blocks, blocks);
        EXPECT_EQ(ran.threads, threads);
        for (Index i = 0; i < n; ++i)
          ASSERT_EQ(out[static_cast<std::size_t>(i)], static_cast<float>(i + 2 * (i % 1000))) << "element " << i;
      }
}

// Relative error of `got` from `exact` in units of T's roundoff.
template <class T>
double in_u(T got, long double exact) {
  const long double u = std::numeric_limits<T>::epsilon() / 2;
  return exact == 0 ? (got == 0 ? 0.0 : 1e300) : static_cast<double>(std::fabs((got - exact) / exact) / u);
}


// The element maps' GPU code (an element a thread, nbk::math's functions; host code maps blocks with
// the host's vector math): every element against a long double reference within the bounds the
// workloads' own tests hold their host code to, at odd sizes, and nothing written for no elements.
TYPED_TEST(GpuCode, ElementMapsEveryElementWithinTheirBounds) {
  using Space = typename TestFixture::Space;
  constexpr long double two_pi = 6.283185307179586476925286766559L;
  for (const std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{1027}}) {
    SCOPED_TRACE(n);
    std::vector<float> x(n), t1(n), t2(n), r1(n), r2(n);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = -3.0f + 6.0f * static_cast<float>(i) / 1024.0f;
      r1[i] = static_cast<float>(i % 7) / 7;
      r2[i] = static_cast<float>(i % 11) / 11;
      t1[i] = static_cast<float>(std::fmod(0.37 * double(i), 6.283185307179586) - 3.141592653589793);
      t2[i] = static_cast<float>(std::fmod(0.53 * double(i), 6.283185307179586) - 3.141592653589793);
    }
    // The gaussian density: 32 u (tests/test_elementwise.cpp).
    const auto p = nbk::test::run_map<Space>(
        [](const auto& space, const auto& in, const auto& out) {
          nbk::gaussian::pdf_map(space, in, 0.0f, 1.0f, out, nbk::GpuCode());
        },
        x);
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_LE(in_u(p[i], std::exp(-0.5L * x[i] * x[i]) / std::sqrt(two_pi)), 32) << "gaussian, x = " << x[i];
    // The polar distance: 16 u of r1 + r2, absolute (tests/test_elementwise.cpp).
    const auto d = nbk::test::run_map<Space>(
        [](const auto& space, const auto& a, const auto& b, const auto& c, const auto& e, const auto& out) {
          nbk::polar::distance_map(space, a, b, c, e, out, nbk::GpuCode());
        },
        r1, t1, r2, t2);
    for (std::size_t i = 0; i < n; ++i) {
      const long double dx = r1[i] * std::cos(static_cast<long double>(t1[i])) - r2[i] * std::cos(static_cast<long double>(t2[i]));
      const long double dy = r1[i] * std::sin(static_cast<long double>(t1[i])) - r2[i] * std::sin(static_cast<long double>(t2[i]));
      ASSERT_NEAR(d[i], static_cast<double>(std::sqrt(dx * dx + dy * dy)),
                  16 * (std::numeric_limits<float>::epsilon() / 2) * (double(r1[i]) + r2[i]))
          << "polar, element " << i;
    }
    // sin(x) exp(y), float and double: 16 u (tests/test_sin_exp.cpp).
    std::vector<double> x64(x.begin(), x.end()), y64(n, 0.3);
    const auto z32 = nbk::test::run_map<Space>(
        [](const auto& space, const auto& a, const auto& b, const auto& out) {
          nbk::sin_exp::sin_exp(space, a, b, out, nbk::GpuCode());
        },
        x, std::vector<float>(n, 0.3f));
    const auto z64 = nbk::test::run_map<Space>(
        [](const auto& space, const auto& a, const auto& b, const auto& out) {
          nbk::sin_exp::sin_exp(space, a, b, out, nbk::GpuCode());
        },
        x64, y64);
    for (std::size_t i = 0; i < n; ++i) {
      const long double ref32 = std::sin(static_cast<long double>(x[i])) * std::exp(static_cast<long double>(0.3f));
      const long double ref64 = std::sin(static_cast<long double>(x64[i])) * std::exp(0.3L);
      if (ref32 != 0) ASSERT_LE(in_u(z32[i], ref32), 16) << "sin_exp float, x = " << x[i];
      if (ref64 != 0) ASSERT_LE(in_u(z64[i], ref64), 16) << "sin_exp double, x = " << x64[i];
    }
    // exp, log, sin, cos of float: 4 ulps (tests/test_math.cpp), here 8 u of the result; log of |x| + 0.5.
    std::vector<float> positive(n);
    for (std::size_t i = 0; i < n; ++i) positive[i] = std::fabs(x[i]) + 0.5f;
    for (const nbk::MathFunction f : nbk::math_functions) {
      const auto& in = f == nbk::MathFunction::log ? positive : x;
      const auto out = nbk::test::run_map<Space>(
          [f](const auto& space, const auto& a, const auto& o) {
            switch (f) {
              case nbk::MathFunction::exp: return nbk::math_map<nbk::MathFunction::exp>(space, a, o, nbk::GpuCode());
              case nbk::MathFunction::log: return nbk::math_map<nbk::MathFunction::log>(space, a, o, nbk::GpuCode());
              case nbk::MathFunction::sin: return nbk::math_map<nbk::MathFunction::sin>(space, a, o, nbk::GpuCode());
              case nbk::MathFunction::cos: return nbk::math_map<nbk::MathFunction::cos>(space, a, o, nbk::GpuCode());
            }
          },
          in);
      for (std::size_t i = 0; i < n; ++i) {
        const long double v = in[i];
        const long double ref = f == nbk::MathFunction::exp   ? std::exp(v)
                                : f == nbk::MathFunction::log ? std::log(v)
                                : f == nbk::MathFunction::sin ? std::sin(v)
                                                              : std::cos(v);
        if (std::fabs(ref) > 1e-6L) ASSERT_LE(in_u(out[i], ref), 8) << nbk::name_of(f) << "(" << in[i] << ")";
      }
    }
  }
  EXPECT_EQ(nbk::test::writes_of_empty_map<Space>([](const auto& space, const auto& in, const auto& out) {
              nbk::gaussian::pdf_map(space, in, 0.0f, 1.0f, out, nbk::GpuCode());
            }),
            0u);
  EXPECT_EQ(nbk::test::writes_of_empty_map<Space>([](const auto& space, const auto& in, const auto& out) {
              nbk::polar::distance_map(space, in, in, in, in, out, nbk::GpuCode());
            }),
            0u);
  EXPECT_EQ(nbk::test::writes_of_empty_map<Space>([](const auto& space, const auto& in, const auto& out) {
              nbk::sin_exp::sin_exp(space, in, in, out, nbk::GpuCode());
            }),
            0u);
}

// The log-sum's GPU code (an element a thread; host code sums chunks with the host's vector log):
// to a relative 1e-12 of the exact sum of the logs (tests/test_product.cpp), and 0 for nothing.
TYPED_TEST(GpuCode, LogSumToRelative1e12) {
  using Space = typename TestFixture::Space;
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{4099}, std::int64_t{250000}}) {
    const auto u = nbk::uniform_doubles(n, 4);
    Kokkos::View<double*, typename Space::memory_space> x("x", static_cast<std::size_t>(n));
    Kokkos::deep_copy(x, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(u.data(), n));
    nbk::ExactSum logs;
    for (std::int64_t i = 0; i < n; ++i) logs.add(std::log(u.data()[i]));
    const double reference = static_cast<double>(logs.value());
    const double got = nbk::product::reduce_log_sum(Space(), x, nbk::GpuCode());
    if (n == 0)
      EXPECT_EQ(got, 0.0);
    else
      EXPECT_TRUE(nbk::close_relative(got, reference, 1e-12)) << n << ": " << got << " vs " << reference;
  }
}

}  // namespace
