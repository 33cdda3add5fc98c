// Seed 003's Monte-Carlo pi on every enabled space: both pools within five standard errors at
// a fixed seed, and exactly the count of an independent host loop over the same streams
// (stream s draws from state s), no streams and no points included; the host reference within
// its bound too.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "nbk/core/compat.hpp"
#include "nbk/core/code.hpp"
#include "nbk/pi/kernels.hpp"
#include "spaces.hpp"

namespace {

using nbk::Count;

template <class Space, template <class> class Pool, class Code = nbk::CodeFor<Space>>
Count count_inside(std::uint64_t seed, int streams, nbk::Index samples_per_stream, Code code = {}) {
  const auto pool = nbk::random_pool<Pool<Space>>(seed, streams > 0 ? streams : 1);
  Kokkos::View<Count, typename Space::memory_space> inside("inside");
  nbk::pi::count_inside(Space(), pool, streams, samples_per_stream, inside, code);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), inside);
  return host();
}

// The exact count, independent of how the kernels spread the streams over threads: one host
// thread draws stream after stream from a Serial pool seeded alike (a pool seeds its states on
// the host, the same way for every space), taking each point by the rule the program states
// (x from the top 24 bits, y from the next 24, inside where x^2 + y^2 <= 1 in float).
template <template <class> class Pool>
Count reference_count(std::uint64_t seed, int streams, nbk::Index samples_per_stream) {
  const auto pool = nbk::random_pool<Pool<Kokkos::Serial>>(seed, streams > 0 ? streams : 1);
  Count inside = 0;
  for (int s = 0; s < streams; ++s) {
    auto generator = pool.get_state(s);
    for (nbk::Index k = 0; k < samples_per_stream; ++k) {
      const std::uint64_t bits = generator.urand64();
      const float x = static_cast<float>(bits >> 40) / 16777216.0f;
      const float y = static_cast<float>((bits >> 16) & 0xffffffu) / 16777216.0f;
      inside += x * x + y * y <= 1.0f;
    }
    pool.free_state(generator);
  }
  return inside;
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

// Exactly the reference's count on a host space, with host code (two streams a thread: suite Pi)
// and GPU code (one: its twin PiGpuCode, on the host spaces): a stream dropped, drawn twice or
// drawn from the wrong state changes the count.
template <class Space, class Code>
void expect_reference_counts(Code code) {
  // A GPU may fuse x * x + y * y into one multiply-add, which can move a point lying on the
  // circle to its other side; a host's operations are the rule's, in order.
  const double slack = nbk::is_device_space_v<Space> ? 3 : 0;
  for (const int streams : {0, 1, 2, 7, 1536})
    for (const nbk::Index per_stream : {nbk::Index{0}, nbk::Index{1}, nbk::Index{1001}}) {
      SCOPED_TRACE(std::to_string(streams) + " streams of " + std::to_string(per_stream) + ", " +
                   nbk::test::code_name(code));
      EXPECT_NEAR((count_inside<Space, nbk::pi::XorShift64>(7, streams, per_stream, code)),
                  (reference_count<nbk::pi::XorShift64>(7, streams, per_stream)), slack);
      EXPECT_NEAR((count_inside<Space, nbk::pi::XorShift1024>(7, streams, per_stream, code)),
                  (reference_count<nbk::pi::XorShift1024>(7, streams, per_stream)), slack);
    }
}

template <class SpaceCode>
class PiGpuCode : public ::testing::Test {};
TYPED_TEST_SUITE(PiGpuCode, nbk::test::HostGpuCodeTypes, nbk::test::SpaceCodeNames);

TYPED_TEST(Pi, ExactlyTheReferenceCount) { expect_reference_counts<TypeParam>(nbk::CodeFor<TypeParam>()); }
TYPED_TEST(PiGpuCode, ExactlyTheReferenceCount) { expect_reference_counts<typename TypeParam::space>(nbk::GpuCode()); }

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
