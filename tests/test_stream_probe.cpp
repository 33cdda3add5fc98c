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
    EXPECT_EQ(result.elements, n);
  }
}

}  // namespace
