// The sums of seed 001 on every enabled space: cases whose exact answer is known, edge sizes
// for the team tree, and float32 data against the exact host reference.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "nbk/core/exact_sum.hpp"
#include "nbk/core/random_data.hpp"
#include "nbk/sum/kernels.hpp"
#include "nbk/sum/accuracy.hpp"
#include "nbk/sum/tuned.hpp"
#include "spaces.hpp"

namespace {

using nbk::Index;

// ---- host-only pieces: the exact reference, the bounds, the data ----

TEST(ExactSum, CancellationIsExact) {
  const float x[] = {1e30f, 1.0f, -1e30f, 0.5f};
  EXPECT_EQ(nbk::exact_sum(x, 4).value(), 1.5L);
}

TEST(ExactSum, SubnormalsAndHugeValuesTogether) {
  nbk::ExactSum sum;
  const double tiny = std::numeric_limits<double>::denorm_min();
  const double huge = std::numeric_limits<double>::max();
  for (int i = 0; i < 1000; ++i) sum.add(tiny);
  sum.add(huge);
  sum.add(huge);  // 2 * DBL_MAX does not overflow the accumulator...
  sum.add(-huge);
  sum.add(-huge);  // ...and cancels exactly, leaving the subnormals
  EXPECT_EQ(sum.value(), 1000.0L * tiny);
  EXPECT_EQ(sum.error_of(0.0), -1000.0L * tiny);
}

TEST(ExactSum, NegativeTotalsAndErrors) {
  const float x[] = {-3.0f, -0.25f, 1.0f};
  const auto sum = nbk::exact_sum(x, 3);
  EXPECT_EQ(sum.value(), -2.25L);
  EXPECT_EQ(sum.error_of(-2.0), 0.25L);
  EXPECT_EQ(sum.error_of(-2.25), 0.0L);
}

TEST(ExactSum, CarriesPropagateAcrossLimbs) {
  // Carry propagation every 3 additions; values whose digits straddle limb boundaries.
  nbk::ExactSum every3(3), never;
  const double values[] = {4294967295.0, 1.0, 0x1.fffffffffffffp+30, -0x1.0p-20, 0.75, -4294967296.0, 1e300, -1e300};
  for (int round = 0; round < 1000; ++round)
    for (double v : values) {
      every3.add(v);
      never.add(v);
    }
  const long double expected = 1000.0L * (0x1.fffffffffffffp+30L - 0x1.0p-20L + 0.75L);
  EXPECT_EQ(every3.value(), expected);
  EXPECT_EQ(never.value(), expected);
}

TEST(ExactSum, NonFiniteInputs) {
  nbk::ExactSum sum;
  sum.add(1.0);
  sum.add(std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isinf(sum.value()));
  sum.add(-std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(sum.value()));
}

// What MPI ranks do with their accumulators: the states of the parts, added limb by limb,
// are the state of the whole, down to the last bit and through infinities and NaN.
TEST(ExactSum, StatesOfPartsAddUpToTheWhole) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<std::vector<double>> cases = {
      {1e30, 1.0, 0x1.0p-1074, -1e30, 0.5, -3.0, 4294967296.0, 0x1.fffffffffffffp+30},
      {-1e300, -1e300, 2.5e-310, 7.0, -7.0},
      {1.0, inf, 2.0},
      {inf, 1.0, -inf},
      {std::numeric_limits<double>::quiet_NaN(), 1.0},
      {}};
  for (const auto& values : cases)
    for (std::size_t cut1 = 0; cut1 <= values.size(); ++cut1)
      for (std::size_t cut2 = cut1; cut2 <= values.size(); ++cut2) {
        nbk::ExactSum whole, parts[3];
        for (std::size_t i = 0; i < values.size(); ++i) {
          whole.add(values[i]);
          parts[i < cut1 ? 0 : i < cut2 ? 1 : 2].add(values[i]);
        }
        nbk::ExactSum::State added;
        for (const auto& part : parts) {
          const auto state = part.state();
          for (int k = 0; k < nbk::ExactSum::limb_count; ++k) added.limbs[k] += state.limbs[k];
          added.nonfinite += state.nonfinite;
          added.has_nonfinite = added.has_nonfinite || state.has_nonfinite;
        }
        const auto combined = nbk::ExactSum::from_state(added);
        if (std::isnan(whole.value())) {
          EXPECT_TRUE(std::isnan(combined.value()));
        } else {
          EXPECT_EQ(combined.value(), whole.value());
          EXPECT_EQ(combined.error_of(0.5), whole.error_of(0.5));  // every bit, not only the top 64
        }
      }
}

TEST(SumAccuracy, WorstCaseBoundIsVacuousForLongFloatSums) {
  nbk::SumScale scale{(std::int64_t{1} << 27) - 157, 1e8, 1e4};
  EXPECT_TRUE(std::isinf(nbk::worst_case_bound(scale, nbk::unit_roundoff<float>())));
  EXPECT_TRUE(std::isfinite(nbk::worst_case_bound(scale, nbk::unit_roundoff<double>())));
  const double tolerance = nbk::sum_tolerance(scale, nbk::unit_roundoff<float>());
  EXPECT_GT(tolerance, 0.0);
  EXPECT_LT(tolerance, 1e3);
  EXPECT_EQ(nbk::sum_tolerance(nbk::SumScale{1, 5.0, 5.0}, nbk::unit_roundoff<float>()), 0.0);
}

TEST(SumAccuracy, CorrectDigits) {
  EXPECT_NEAR(nbk::correct_digits(1e-3L, 10.0L), 4.0, 1e-12);
  EXPECT_TRUE(std::isinf(nbk::correct_digits(0.0L, 10.0L)));
  EXPECT_TRUE(std::isnan(nbk::correct_digits(1.0L, 0.0L)));
}

TEST(RandomData, SameSeedSameData_LongerArraysExtendShorterOnes) {
  const auto a = nbk::standard_normal_floats(100, 7);
  const auto b = nbk::standard_normal_floats(3 * nbk::random_block + 11, 7);
  const auto c = nbk::standard_normal_floats(100, 8);
  bool same = true, different = false;
  for (int i = 0; i < 100; ++i) {
    same = same && a(i) == b(i);
    different = different || a(i) != c(i);
  }
  EXPECT_TRUE(same);
  EXPECT_TRUE(different);
}

// An MPI rank draws only its slice: the same numbers as the whole array holds there, for
// slices that start and end inside blocks, on block edges, and empty ones.
TEST(RandomData, SlicesHoldTheWholeArraysNumbers) {
  const Index block = nbk::random_block, n = 3 * block + 11;
  const auto whole = nbk::standard_normal_floats(n, 7);
  const std::pair<Index, Index> slices[] = {{0, n},         {1, block + 3},     {block - 1, 2 * block + 5},
                                            {block, 2 * block}, {2 * block, 2 * block}, {n - 1, n},
                                            {block + 7, n}, {5, 4}};
  for (const auto& [first, last] : slices) {
    SCOPED_TRACE(std::to_string(first) + " to " + std::to_string(last));
    const auto slice = nbk::standard_normal_floats(first, last, 7);
    ASSERT_EQ(static_cast<Index>(slice.extent(0)), std::max<Index>(last - first, 0));
    Index wrong = 0;
    for (Index i = first; i < last; ++i) wrong += slice(i - first) != whole(i);
    EXPECT_EQ(wrong, 0);
  }
}

TEST(RandomData, NormalMoments) {
  const Index n = Index{1} << 20;
  const auto x = nbk::standard_normal_floats(n, 3);
  double mean = 0, square = 0;
  for (Index i = 0; i < n; ++i) {
    mean += x(i);
    square += static_cast<double>(x(i)) * x(i);
  }
  mean /= static_cast<double>(n);
  square /= static_cast<double>(n);
  EXPECT_LT(std::fabs(mean), 6.0 / std::sqrt(static_cast<double>(n)));
  EXPECT_NEAR(square, 1.0, 0.01);
}

TEST(RandomData, UniformRange) {
  const Index n = 100000;
  const auto u = nbk::uniform_doubles(n, 5);
  double lo = 1, hi = 0, mean = 0;
  for (Index i = 0; i < n; ++i) {
    lo = std::min(lo, u(i));
    hi = std::max(hi, u(i));
    mean += u(i);
  }
  EXPECT_GE(lo, 0.0);
  EXPECT_LT(hi, 1.0);
  EXPECT_NEAR(mean / static_cast<double>(n), 0.5, 0.01);
}

TEST(HostLoop, FloatAccumulatorLosesSmallAddends) {
  // 2^24 + 1 rounds back to 2^24: in order, in float, the ones vanish.
  std::vector<float> x = {16777216.0f};
  x.insert(x.end(), 1000, 1.0f);
  x.push_back(-16777216.0f);
  EXPECT_EQ(nbk::sum::host_loop(x.data(), static_cast<Index>(x.size())), 0.0f);
}

// ---- the built-in sum's GPU launch (launch_for), as arithmetic ----

// An H100's and an H200's attributes (both: 132 SMs, 2048 resident threads and 228 KiB of shared
// memory an SM), and shapes that make the launch's every part small: few teams, a team of one
// thread, a block that is not a power of two, a team an SM because shared memory holds one.
constexpr nbk::sum::DeviceShape hopper{132, 2048, 228 * 1024};
constexpr nbk::sum::DeviceShape small_shapes[] = {{3, 256, 228 * 1024}, {1, 1, 228 * 1024}, {7, 96, 228 * 1024},
                                                  {2, 2048, 4096}};

// Counts how often SumLaunch::walk hands each float of [0, n) to some thread, and whether a
// round's four items are `threads` apart (a warp's loads consecutive).
struct CountVisits {
  int* floats;
  Index n, width, threads;
  Index outside = 0, scattered = 0;
  KOKKOS_INLINE_FUNCTION void round(Index a, Index b, Index c, Index d) {
    scattered += b != a + threads || c != b + threads || d != c + threads;
    one(a), one(b), one(c), one(d);
  }
  KOKKOS_INLINE_FUNCTION void one(Index i) {
    for (Index k = 0; k < width; ++k) tail(i * width + k);
  }
  KOKKOS_INLINE_FUNCTION void tail(Index j) {
    if (j < 0 || j >= n)
      ++outside;
    else
      ++floats[j];
  }
};

// Every float of n covered exactly once by the launch's threads, in rounds of `threads`-apart items.
void expect_every_float_once(const nbk::sum::DeviceShape& shape, Index n, int width) {
  SCOPED_TRACE("shape " + std::to_string(shape.sms) + " x " + std::to_string(shape.threads_per_sm) + ", n " +
               std::to_string(n) + ", width " + std::to_string(width));
  const auto l = nbk::sum::launch_for(shape, n, width);
  std::vector<int> counts(static_cast<std::size_t>(n));
  CountVisits visit{counts.data(), n, l.width, l.threads};
  for (Index g = 0; g < l.threads; ++g) l.walk(g, visit);
  EXPECT_EQ(visit.outside, 0);
  EXPECT_EQ(visit.scattered, 0);
  Index wrong = 0;
  for (int c : counts) wrong += c != 1;
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(l.grid == 0, n == 0);
}

// The floats of n, in units of one thread's round: sizes at and around each stride.
std::vector<Index> sizes_around_strides(const nbk::sum::DeviceShape& shape, Index largest) {
  std::vector<Index> sizes = {0, 1, 2, 3, 4, 5, 7, 8, 255, 257, 1023, 1025, 4099};
  const auto full = nbk::sum::launch_for(shape, Index{1} << 40);  // the grid the device holds
  for (Index unit : {Index{4} * full.block, full.stride * 4, full.threads * 4})
    for (Index n : {unit - 1, unit, unit + 1, unit + 3, 2 * unit + 4 * 37 + 3, 3 * unit + 5})
      if (n > 0 && n <= largest) sizes.push_back(n);
  return sizes;
}

TEST(SumLaunch, FillsAnH100OrH200Once) {
  const Index n = (Index{1} << 27) - 157;  // the document's size
  const auto l = nbk::sum::launch_for(hopper, n);
  EXPECT_EQ(l.block, 256);
  EXPECT_EQ(l.grid, 132 * 8);  // 2048 / 256 teams on every SM
  EXPECT_EQ(l.threads, 132 * 2048);
  EXPECT_EQ(l.stride, 4 * l.threads);
  EXPECT_EQ(l.items, n / 4);
  EXPECT_EQ(l.extra, 3);
  EXPECT_EQ(l.rounds, (n / 4) / (4 * 132 * 2048));
  EXPECT_GE(l.rounds, 30);  // a thread's loop runs long: the four loads of a round stay in flight
}

TEST(SumLaunch, SmallDataGetsFewTeams) {
  EXPECT_EQ(nbk::sum::launch_for(hopper, 0).grid, 0);
  EXPECT_EQ(nbk::sum::launch_for(hopper, 1).grid, 1);
  EXPECT_EQ(nbk::sum::launch_for(hopper, 3).grid, 1);
  EXPECT_EQ(nbk::sum::launch_for(hopper, 4 * 4 * 256).grid, 1);
  EXPECT_EQ(nbk::sum::launch_for(hopper, 4 * 4 * 256 + 4).grid, 2);
  EXPECT_EQ(nbk::sum::launch_for({2, 2048, 4096}, Index{1} << 30).grid, 2);  // shared memory: a team an SM
  EXPECT_EQ(nbk::sum::launch_for({1, 1, 4096}, 100).block, 1);
}

TEST(SumLaunch, EveryFloatOnceOnAnH100OrH200) {
  for (Index n : sizes_around_strides(hopper, Index{1} << 24))
    for (int width : {4, 1}) expect_every_float_once(hopper, n, width);
}

TEST(SumLaunch, EveryFloatOnceOnSmallShapes) {
  for (const auto& shape : small_shapes)
    for (Index n : sizes_around_strides(shape, Index{1} << 22))
      for (int width : {4, 1}) expect_every_float_once(shape, n, width);
}

#if defined(KOKKOS_ENABLE_CUDA)
// On a GPU the launch reads the device: every SM and its resident threads.
TEST(SumLaunch, ReadsTheDevicesShape) {
  const auto shape = nbk::sum::device_shape(Kokkos::Cuda());
  EXPECT_GE(shape.sms, 1);
  EXPECT_GE(shape.threads_per_sm, 256);
  EXPECT_GE(shape.shared_bytes_per_sm, 16 * 1024);
  const auto l = nbk::sum::launch_for(shape, Index{1} << 27);
  EXPECT_EQ(l.threads, static_cast<Index>(shape.sms) * (shape.threads_per_sm / 256 * 256));
}
#endif

// Arrays of more than 2^31 floats, as arithmetic only: the products checked in 128 bits.
TEST(SumLaunch, LargeArraysWithoutOverflow) {
  using Wide = __int128;
  const Index big[] = {(Index{1} << 31) - 1, Index{1} << 31, (Index{1} << 31) + 3, (Index{1} << 33) + 7,
                       (Index{1} << 40) + 5, (Index{1} << 62) + 3};
  for (const auto& shape : {hopper, small_shapes[0], small_shapes[1], small_shapes[3],
                            nbk::sum::DeviceShape{std::numeric_limits<int>::max(), std::numeric_limits<int>::max(),
                                                  std::numeric_limits<std::int64_t>::max()}})
    for (Index n : big)
      for (int width : {4, 1}) {
        SCOPED_TRACE("shape " + std::to_string(shape.sms) + ", n " + std::to_string(n) + ", width " +
                     std::to_string(width));
        const auto l = nbk::sum::launch_for(shape, n, width);
        EXPECT_EQ(Wide{l.items} * l.width + l.extra, Wide{n});
        EXPECT_GE(l.extra, 0);
        EXPECT_LT(l.extra, l.width);
        EXPECT_GE(l.grid, 1);
        EXPECT_EQ(Wide{l.threads}, Wide{l.grid} * l.block);
        EXPECT_LE(Wide{l.threads}, Wide{std::numeric_limits<int>::max()});  // Kokkos' league is an int
        EXPECT_LE(Wide{l.grid}, Wide{shape.sms} * std::max(1, shape.threads_per_sm / l.block));
        EXPECT_EQ(Wide{l.stride}, Wide{l.threads} * nbk::sum::SumLaunch::loads);
        EXPECT_EQ(l.rounds, l.items / l.stride);
        // The rounds end inside the items, and what they leave is less than one round: at most
        // `loads` items a thread, each below items (walk's second loop stops there).
        EXPECT_LE(Wide{l.rounds} * l.stride, Wide{l.items});
        EXPECT_LT(Wide{l.items} - Wide{l.rounds} * l.stride, Wide{l.stride});
        // The largest index walk computes is below n + threads (a loop's last step past its
        // end): within Index.
        EXPECT_LE(Wide{n} + l.threads, Wide{std::numeric_limits<Index>::max()});
      }
}

// ---- every variant on every space ----

// TypeParam: a space and the code its kernels take (tests/spaces.hpp), so the GPU code's 16-byte
// packs and strided slices run on the host spaces too.
template <class SpaceCode>
class Sum : public ::testing::Test {
 protected:
  using Space = typename SpaceCode::space;
  using Code = typename SpaceCode::code;

  struct Results {
    float builtin, tree_host, tree_device;
    double accurate, blocked;
  };

  static Kokkos::View<float*, typename Space::memory_space> upload(const std::vector<float>& values) {
    Kokkos::View<float*, typename Space::memory_space> x("nbk::test::sum", values.size());
    Kokkos::View<const float*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host(values.data(), values.size());
    Kokkos::deep_copy(x, host);
    return x;
  }

  // A team size this space can run: `wanted`, clipped to what the tree may use here.
  static int team_size(int wanted) { return std::max(1, std::min(wanted, nbk::sum::max_team_size(Space()))); }

  static Results all(const std::vector<float>& values, nbk::sum::TreeShape shape) {
    const auto x = upload(values);
    nbk::sum::TreeSum<Space, Code> tree(Space(), shape);
    return {nbk::sum::builtin_sum(Space(), x, Code()), tree.finish_on_host(x), tree.finish_on_device(x),
            nbk::sum::accurate_sum(Space(), x), nbk::sum::blocked_sum(Space(), x)};
  }

  static Results all(const std::vector<float>& values) {
    return all(values, nbk::sum::default_tree_shape(Space(), static_cast<Index>(values.size())));
  }

  // Small integers: every partial sum in any order is an integer below 2^24, so exact in float.
  static std::vector<float> small_integers(Index n) {
    std::vector<float> v(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>(i % 16);
    return v;
  }
  static double integer_total(Index n) {
    std::int64_t total = 0;
    for (Index i = 0; i < n; ++i) total += i % 16;
    return static_cast<double>(total);
  }

  static void expect_all_equal(const Results& r, double expected) {
    EXPECT_EQ(r.builtin, static_cast<float>(expected));
    EXPECT_EQ(r.tree_host, static_cast<float>(expected));
    EXPECT_EQ(r.tree_device, static_cast<float>(expected));
    EXPECT_EQ(r.accurate, expected);
    EXPECT_EQ(r.blocked, expected);
  }
};
TYPED_TEST_SUITE(Sum, nbk::test::SpaceCodeTypes, nbk::test::SpaceCodeNames);

TYPED_TEST(Sum, IntegersSumExactly) {
  const Index n = 1000003;
  ASSERT_LT(TestFixture::integer_total(n), 16777216.0);
  TestFixture::expect_all_equal(TestFixture::all(TestFixture::small_integers(n)), TestFixture::integer_total(n));
}

TYPED_TEST(Sum, EmptyInput) { TestFixture::expect_all_equal(TestFixture::all({}), 0.0); }

TYPED_TEST(Sum, OneElement) { TestFixture::expect_all_equal(TestFixture::all({3.25f}), 3.25); }

TYPED_TEST(Sum, SizesThatAreNotMultiplesOfTheTeamSize) {
  for (int wanted : {1, 2, 3, 32, 100, 256}) {
    const int team = TestFixture::team_size(wanted);
    for (Index n : {Index{1}, Index{team - 1}, Index{team + 1}, Index{7 * team + 3}, Index{4099}, Index{65537}}) {
      if (n < 1) continue;
      for (int league : {1, 3, 16}) {
        SCOPED_TRACE("team " + std::to_string(team) + ", league " + std::to_string(league) + ", n " + std::to_string(n));
        TestFixture::expect_all_equal(TestFixture::all(TestFixture::small_integers(n), {team, league}),
                                      TestFixture::integer_total(n));
      }
    }
  }
}

TYPED_TEST(Sum, MoreTeamsThanData) {
  const int team = TestFixture::team_size(64);
  TestFixture::expect_all_equal(TestFixture::all({1.0f, 2.0f, 3.0f, 4.0f, 5.0f}, {team, 64}), 15.0);
  TestFixture::expect_all_equal(TestFixture::all({}, {team, 8}), 0.0);
}

TYPED_TEST(Sum, DefaultShapeNeverExceedsTheData) {
  for (Index n : {Index{0}, Index{1}, Index{1000}, Index{1} << 27}) {
    const auto shape = nbk::sum::default_tree_shape(typename TestFixture::Space(), n);
    EXPECT_GE(shape.league, 1);
    EXPECT_GE(shape.team_size, 1);
    if (n > 0) EXPECT_LE(static_cast<Index>(shape.league - 1) * shape.team_size, n);
  }
}

// Block partials of 1..blocked::block + 1 elements: every lane and tail combination.
TYPED_TEST(Sum, BlockedSumAtEveryTailLength) {
  for (Index n = 0; n <= nbk::sum::blocked::block + 1; ++n) {
    const auto r = TestFixture::all(TestFixture::small_integers(n));
    EXPECT_EQ(r.blocked, TestFixture::integer_total(n)) << "n = " << n;
  }
  const Index several = 5 * nbk::sum::blocked::block + 17;
  EXPECT_EQ(TestFixture::all(TestFixture::small_integers(several)).blocked, TestFixture::integer_total(several));
}

TYPED_TEST(Sum, DoubleAccumulatorKeepsWhatFloatLoses) {
  // 2^24, a thousand ones, -2^24: the double accumulator is exact in any order.
  std::vector<float> x = {16777216.0f};
  x.insert(x.end(), 1000, 1.0f);
  x.push_back(-16777216.0f);
  EXPECT_EQ(TestFixture::all(x).accurate, 1000.0);
}

TYPED_TEST(Sum, NormalDataWithinTheToleranceOfTheExactSum) {
  const Index n = (Index{1} << 20) + 13;
  const auto host = nbk::standard_normal_floats(n, 11);
  const std::vector<float> values(host.data(), host.data() + n);
  const auto exact = nbk::exact_sum(values.data(), n);
  const auto scale = nbk::sum_scale(values.data(), n);
  const auto r = TestFixture::all(values);
  const double float_tolerance = nbk::sum_tolerance(scale, nbk::unit_roundoff<float>());
  const double double_tolerance = nbk::sum_tolerance(scale, nbk::unit_roundoff<double>());
  EXPECT_LE(std::fabs(exact.error_of(r.builtin)), float_tolerance);
  EXPECT_LE(std::fabs(exact.error_of(r.tree_host)), float_tolerance);
  EXPECT_LE(std::fabs(exact.error_of(r.tree_device)), float_tolerance);
  EXPECT_LE(std::fabs(exact.error_of(r.accurate)), double_tolerance);
  EXPECT_LE(std::fabs(exact.error_of(r.blocked)), float_tolerance);
  // And the double accumulator is far closer than any float one could be.
  EXPECT_LT(double_tolerance, 1e-6 * float_tolerance);
}

// The built-in sum's GPU launch (on a host space: GPU code, teams of one thread as many as the
// GPU's threads) for GPU shapes at sizes around every stride of the launch, and on an array
// without 16-byte packs (a slice that starts one float in). Integers i % m: every partial sum
// in any order is exact in float, and no run of four consecutive values is all zero.
TYPED_TEST(Sum, BuiltinOnGpuShapesAtEverySize) {
  using Space = typename TestFixture::Space;
  const auto check = [](const nbk::sum::DeviceShape& shape, Index largest) {
    for (Index n : sizes_around_strides(shape, largest)) {
      SCOPED_TRACE("shape " + std::to_string(shape.sms) + " x " + std::to_string(shape.threads_per_sm) + ", n " +
                   std::to_string(n));
      const Index m = n <= (Index{1} << 20) ? 16 : 4;
      // The floats at 1..n of `padded`; its first one is not theirs.
      std::vector<float> padded(static_cast<std::size_t>(n) + 1, 1000.0f);
      std::int64_t total = 0;
      for (Index i = 0; i < n; ++i) {
        padded[static_cast<std::size_t>(i) + 1] = static_cast<float>(i % m);
        total += i % m;
      }
      ASSERT_LT(total, std::int64_t{1} << 24);
      const auto x = TestFixture::upload(std::vector<float>(padded.begin() + 1, padded.end()));
      EXPECT_EQ(nbk::sum::builtin_sum(Space(), x, typename TestFixture::Code(), shape), static_cast<float>(total));
      // The same floats one place into an array: no 16-byte packs, one float an item.
      const auto shifted = Kokkos::subview(TestFixture::upload(padded), std::make_pair(Index{1}, n + 1));
      EXPECT_EQ(nbk::sum::builtin_sum(Space(), shifted, typename TestFixture::Code(), shape), static_cast<float>(total));
    }
  };
  for (const auto& shape : small_shapes) check(shape, Index{1} << 20);
  check(hopper, Index{1} << 23);  // one full round of an H100's threads (4.3 M floats) and more
}

// One launch shape, one result, bit for bit; and within the tolerance of the exact sum.
TYPED_TEST(Sum, BuiltinOnAGpuShapeIsDeterministicAndAccurate) {
  using Space = typename TestFixture::Space;
  const Index n = (Index{1} << 22) + 4099;
  const auto host = nbk::standard_normal_floats(n, 13);
  const std::vector<float> values(host.data(), host.data() + n);
  const auto x = TestFixture::upload(values);
  const auto exact = nbk::exact_sum(values.data(), n);
  const double tolerance = nbk::sum_tolerance(nbk::sum_scale(values.data(), n), nbk::unit_roundoff<float>());
  for (const auto& shape : {hopper, small_shapes[0], small_shapes[2]}) {
    const float once = nbk::sum::builtin_sum(Space(), x, typename TestFixture::Code(), shape);
    const float again = nbk::sum::builtin_sum(Space(), x, typename TestFixture::Code(), shape);
    EXPECT_EQ(std::memcmp(&once, &again, sizeof(float)), 0);
    EXPECT_LE(std::fabs(exact.error_of(once)), tolerance);
  }
}

}  // namespace
