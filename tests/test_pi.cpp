// Seed 003's Monte-Carlo pi on every enabled space: both pools within five standard errors at
// a fixed seed, the same counts as the host for the same seed (stream s draws from state s),
// nothing counted from no streams or no points, and the host reference within its bound too.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "nbk/core/compat.hpp"
#include "nbk/pi/kernels.hpp"
#include "spaces.hpp"

namespace {

using nbk::Count;

template <class Space, template <class> class Pool>
Count count_inside(std::uint64_t seed, int streams, nbk::Index samples_per_stream) {
  Pool<Space> pool;
  pool.init(seed, streams > 0 ? streams : 1);
  Kokkos::View<Count, typename Space::memory_space> inside("inside");
  nbk::pi::count_inside(Space(), pool, streams, samples_per_stream, inside);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), inside);
  return host();
}

double estimate(Count inside, std::int64_t samples) { return 4.0 * static_cast<double>(inside) / samples; }

template <class Space>
class Pi : public ::testing::Test {};
TYPED_TEST_SUITE(Pi, nbk::test::SpaceTypes, nbk::test::SpaceNames);

TYPED_TEST(Pi, BothPoolsWithinFiveStandardErrors) {
  const int streams = 1536;
  const nbk::Index per_stream = 1000;
  const double bound = 5 * nbk::pi::standard_error(streams * per_stream);
  for (const std::uint64_t seed : {1, 2, 12345}) {
    const auto short64 = count_inside<TypeParam, nbk::pi::XorShift64>(seed, streams, per_stream);
    const auto long1024 = count_inside<TypeParam, nbk::pi::XorShift1024>(seed, streams, per_stream);
    EXPECT_NEAR(estimate(short64, streams * per_stream), M_PI, bound) << "XorShift64, seed " << seed;
    EXPECT_NEAR(estimate(long1024, streams * per_stream), M_PI, bound) << "XorShift1024, seed " << seed;
  }
}

TYPED_TEST(Pi, SameCountsAsTheHostForTheSameSeed) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  // A GPU may fuse x * x + y * y into one multiply-add, which can move a point lying on the
  // circle to its other side; the host's operations are the kernel's, in order.
  const double slack = nbk::is_device_space_v<TypeParam> ? 3 : 0;
  for (const int streams : {1, 7, 1536}) {
    const auto short64 = count_inside<TypeParam, nbk::pi::XorShift64>(7, streams, 1001);
    const auto long1024 = count_inside<TypeParam, nbk::pi::XorShift1024>(7, streams, 1001);
    EXPECT_NEAR(short64, (count_inside<Host, nbk::pi::XorShift64>(7, streams, 1001)), slack) << streams;
    EXPECT_NEAR(long1024, (count_inside<Host, nbk::pi::XorShift1024>(7, streams, 1001)), slack) << streams;
  }
}

TYPED_TEST(Pi, NoStreamsOrNoPointsCountNothing) {
  EXPECT_EQ((count_inside<TypeParam, nbk::pi::XorShift64>(1, 0, 100)), 0);
  EXPECT_EQ((count_inside<TypeParam, nbk::pi::XorShift64>(1, 5, 0)), 0);
  EXPECT_EQ((count_inside<TypeParam, nbk::pi::XorShift1024>(1, 0, 100)), 0);
}

TYPED_TEST(Pi, OnePointPerStreamCountsAtMostTheStreams) {
  const Count inside = count_inside<TypeParam, nbk::pi::XorShift64>(3, 1000, 1);
  EXPECT_GE(inside, 0);
  EXPECT_LE(inside, 1000);
}

TEST(PiReference, HostGeneratorWithinFiveStandardErrors) {
  std::mt19937_64 engine(1);
  const std::int64_t samples = 2000000;
  EXPECT_NEAR(estimate(nbk::pi::host_count_inside(engine, samples), samples), M_PI,
              5 * nbk::pi::standard_error(samples));
}

TEST(PiReference, StandardError) {
  const double p = M_PI / 4;
  EXPECT_DOUBLE_EQ(nbk::pi::standard_error(1), 4 * std::sqrt(p * (1 - p)));
  EXPECT_DOUBLE_EQ(nbk::pi::standard_error(100), 0.4 * std::sqrt(p * (1 - p)));
  EXPECT_EQ(nbk::pi::standard_error(0), 0.0);
}

}  // namespace
