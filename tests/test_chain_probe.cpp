// The chain probe that every "% chain" figure divides by (nbk/report/chain_probe.hpp): one chain
// a thread, exact on every host space, nothing on a device space; and the faster of two probes kept.
#include <gtest/gtest.h>

#include "nbk/report/chain_probe.hpp"
#include "spaces.hpp"

namespace {

template <class Space>
class ChainProbe : public ::testing::Test {};
TYPED_TEST_SUITE(ChainProbe, nbk::test::SpaceTypes, nbk::test::SpaceNames);

TYPED_TEST(ChainProbe, EveryChainEndsWhereItMustAndALinkTakesAPlausibleTime) {
  const nbk::ChainLatency c = nbk::probe_chains(TypeParam(), 1 << 16, 3);
  if constexpr (nbk::is_device_space_v<TypeParam>) {
    EXPECT_FALSE(c.measured());  // a device's reductions are trees: no chain ceiling
    return;
  }
  EXPECT_TRUE(c.verified);
  // A floating-point add or multiply takes a few cycles: well above 0.05 ns, well below 1 us on any
  // CPU, even a loaded one.
  for (const double ns : {c.add_f32_ns, c.add_f64_ns, c.multiply_f32_ns, c.multiply_f64_ns}) {
    EXPECT_GT(ns, 0.05);
    EXPECT_LT(ns, 1000.0);
  }
  EXPECT_EQ(c.link_ns(nbk::chain_of<float>(nbk::ChainOp::add)), c.add_f32_ns);
  EXPECT_EQ(c.link_ns(nbk::chain_of<double>(nbk::ChainOp::multiply)), c.multiply_f64_ns);
  EXPECT_EQ(c.link_ns(nbk::Chain{}), 0.0);
}

TEST(ChainLatency, KeepsTheFasterLinkOfEachChainAndNeverAnUnmeasuredOne) {
  nbk::ChainLatency kept{1.0, 2.0, 3.0, 0.0, false};
  keep_fastest(kept, nbk::ChainLatency{0.5, 0.0, 4.0, 1.5, true});
  EXPECT_EQ(kept.add_f32_ns, 0.5);       // faster
  EXPECT_EQ(kept.add_f64_ns, 2.0);       // the fresher one not measured
  EXPECT_EQ(kept.multiply_f32_ns, 3.0);  // slower: kept
  EXPECT_EQ(kept.multiply_f64_ns, 1.5);  // none before
  EXPECT_TRUE(kept.verified);
}

}  // namespace
