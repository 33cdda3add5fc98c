// Seed 003's hypot on every enabled space: exact cases, signs and zeros, and the huge and
// tiny inputs where sqrt(x*x + y*y) overflows or underflows and the scaled form does not.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "nbk/hypot/kernels.hpp"
#include "map.hpp"
#include "spaces.hpp"

namespace {

template <class Space, class T>
std::vector<T> scaled_on(const std::vector<T>& x, const std::vector<T>& y) {
  return nbk::test::run_map<Space>([](const auto& space, const auto& a, const auto& b, const auto& out) {
    nbk::hypot::scaled_map(space, a, b, out);
  }, x, y);
}

template <class Space>
class Hypot : public ::testing::Test {};
TYPED_TEST_SUITE(Hypot, nbk::test::SpaceTypes, nbk::test::SpaceNames);

TYPED_TEST(Hypot, ExactCasesSignsAndZeros) {
  const auto h = scaled_on<TypeParam, float>({3, -3, 4, 0, 0, -0.0f, 5}, {4, 4, -3, 0, 5, 0, 12});
  const std::vector<float> expected = {5, 5, 5, 0, 5, 0, 13};
  for (std::size_t i = 0; i < h.size(); ++i) EXPECT_EQ(h[i], expected[i]) << "case " << i;
}

TYPED_TEST(Hypot, HugeAndTinyInputsWhereTheNaiveFormFails) {
  const std::vector<float> x = {1e30f, 1e-30f, 3e38f, 1e-38f}, y = {1e30f, 1e-30f, 1e20f, 1e-44f};
  const auto h = scaled_on<TypeParam, float>(x, y);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double exact = std::hypot(double(x[i]), double(y[i]));
    EXPECT_NEAR(h[i], exact, 4 * std::numeric_limits<float>::epsilon() * exact) << "case " << i;
  }
  const auto h64 = scaled_on<TypeParam, double>({1e300, 1e-300}, {1e300, 1e-300});
  EXPECT_NEAR(h64[0], std::sqrt(2.0) * 1e300, 1e285);
  EXPECT_NEAR(h64[1], std::sqrt(2.0) * 1e-300, 1e-315);
}

TEST(HypotNaive, OverflowsAndUnderflowsWhereTheScaledFormDoesNot) {
  EXPECT_TRUE(std::isinf(nbk::hypot::naive(1e30f, 1e30f)));
  EXPECT_EQ(nbk::hypot::naive(1e-30f, 1e-30f), 0.0f);
  EXPECT_FLOAT_EQ(nbk::hypot::scaled(1e30f, 1e30f), 1.41421356e30f);
  EXPECT_FLOAT_EQ(nbk::hypot::scaled(1e-30f, 1e-30f), 1.41421356e-30f);
  EXPECT_EQ(nbk::hypot::naive(3.0f, 4.0f), 5.0f);  // where both are fine they agree
}

}  // namespace
