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

// Pythagorean triples, whose hypot is an integer: within the scaled form's error bound, not
// bit-equal. large * sqrt(1 + t*t) rounds t = small / large, 1 + t*t (once where the compiler
// contracts it into an FMA, as nvcc does in device code by default, twice where not: the host
// builds' -ffp-contract=off), the sqrt and the product; t <= 1 halves t's error in the sum, the
// sqrt halves the sum's, so the result is within 3.5 units of 2^-24 relative, under 2 eps.
// On the host the triples come out exact, on an H100 5-12-13 gave 13 less one ulp: both hold.
// Signs and zeros take no rounding (fabs, fmin, fmax; t = 2^-13 rounds 1 + t*t to 1 either
// way), so they are exact on every space.
TYPED_TEST(Hypot, TriplesWithinTheBoundSignsAndZerosExact) {
  const auto h = scaled_on<TypeParam, float>({3, 5, 8, 20, 65, 4}, {4, 12, 15, 21, 72, 3});
  const std::vector<double> exact = {5, 13, 17, 29, 97, 5};
  const double eps = std::numeric_limits<float>::epsilon();
  for (std::size_t i = 0; i < h.size(); ++i) EXPECT_NEAR(h[i], exact[i], 2 * eps * exact[i]) << "triple " << i;
  const auto s = scaled_on<TypeParam, float>({3, -3, 3, -3, 4, 0, 0, -0.0f, 0, -5}, {4, 4, -4, -4, 3, 0, 5, 0, -5, 0});
  for (std::size_t i = 1; i < 5; ++i) EXPECT_EQ(s[i], s[0]) << "signs and order of (3, 4), case " << i;
  const std::vector<float> zeros = {0, 5, 0, 5, 5};
  for (std::size_t i = 5; i < s.size(); ++i) EXPECT_EQ(s[i], zeros[i - 5]) << "case " << i;
  EXPECT_FALSE(std::signbit(s[5]));
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
