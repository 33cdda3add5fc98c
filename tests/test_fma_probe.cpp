// The FMA-throughput probe that every "% FMA" figure divides by: exact on every space.
#include <gtest/gtest.h>

#include "nbk/report/fma_probe.hpp"
#include "spaces.hpp"

namespace {

template <class Space>
class FmaProbe : public ::testing::Test {};
TYPED_TEST_SUITE(FmaProbe, nbk::test::SpaceTypes, nbk::test::SpaceNames);

template <class Space, class T>
void expect_exact_counts() {
  constexpr int chains = nbk::fma_detail::chains<Space, T>();
  for (std::int64_t items : {1, 3, 65})
    for (int iterations : {1, 1000}) {
      const auto result = nbk::probe_fma<Space, T>(Space(), items, iterations, 2);
      EXPECT_TRUE(result.verified) << "items " << items << ", iterations " << iterations;
      EXPECT_GT(result.gflop_per_s, 0.0);
      EXPECT_EQ(result.flops, 2u * static_cast<std::uint64_t>(items * chains) * static_cast<std::uint64_t>(iterations));
    }
}

TYPED_TEST(FmaProbe, FloatChainsCountTheirIterationsExactly) { expect_exact_counts<TypeParam, float>(); }
TYPED_TEST(FmaProbe, DoubleChainsCountTheirIterationsExactly) { expect_exact_counts<TypeParam, double>(); }

TEST(MultiplyAdd, RoundsOnceWhereTheTargetFuses) {
  // (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24: a fused multiply-add keeps the 2^-24, a multiply then
  // an add in float rounds it away.
  const float x = 1.0f + 0x1p-12f;
  const float fused = nbk::multiply_add(x, x, -1.0f);
#if defined(__FMA__)
  EXPECT_EQ(fused, 0x1p-11f + 0x1p-24f);
#else
  EXPECT_EQ(fused, 0x1p-11f);
#endif
}

}  // namespace
