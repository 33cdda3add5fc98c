// The bandwidth probe that every "% of achievable" figure divides by.
#include <gtest/gtest.h>

#include "nbk/report/stream_probe.hpp"
#include "spaces.hpp"

namespace {

template <class Space>
class StreamProbe : public ::testing::Test {};
TYPED_TEST_SUITE(StreamProbe, nbk::test::SpaceTypes, nbk::test::SpaceNames);

TYPED_TEST(StreamProbe, VerifiesAndReportsPositiveBandwidth) {
  for (std::int64_t n : {1, 7, 100003}) {
    const auto result = nbk::probe_bandwidth(TypeParam(), n, 3);
    EXPECT_TRUE(result.verified) << "n = " << n;
    EXPECT_GT(result.copy_gb_per_s, 0.0);
    EXPECT_GT(result.triad_gb_per_s, 0.0);
    EXPECT_GT(result.in_place_gb_per_s, 0.0);  // issue 43: the probes that fit in-place and read-only kernels
    EXPECT_GT(result.dot_gb_per_s, 0.0);
    EXPECT_GE(result.spread.copy, 0.0);  // median over best, minus 1
    EXPECT_GE(result.spread.dot, 0.0);
    EXPECT_GE(result.spread.largest(), result.spread.in_place);
    EXPECT_GT(result.concurrency, 0);
    EXPECT_EQ(result.elements, n);
  }
}

// A probe that did not run (or ran wrong) fails its check: b must grow by one a call, Dot must
// be the sum of a * c.
TYPED_TEST(StreamProbe, InPlaceAndDotAreChecked) {
  nbk::StreamProbe<TypeParam> probe(TypeParam(), 1000);
  probe.copy();
  probe.triad();
  EXPECT_EQ(probe.in_place_errors(), 0);  // no call yet: b as filled
  probe.in_place();
  probe.in_place();
  EXPECT_EQ(probe.in_place_errors(), 0);
  const double dot = probe.dot();
  EXPECT_TRUE(probe.dot_agrees(dot)) << dot;
  EXPECT_FALSE(probe.dot_agrees(dot * (1 + 1e-9)));
  EXPECT_FALSE(probe.dot_agrees(0.0));
}

}  // namespace
