// Seed 003's hypot on every enabled space: exact cases, signs and zeros, and the huge and
// tiny inputs where sqrt(x*x + y*y) overflows or underflows and the scaled form does not.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>
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

// C's rules for the special values, and the ends of the range, in float and double. The pairs
// repeat over 4096 elements at shifting offsets, so that the vectorized body of a host loop
// meets each of them in every lane, not only the scalar loop that finishes it.
template <class Space, class T>
void special_values_as_std_hypot() {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  const T max = std::numeric_limits<T>::max(), min = std::numeric_limits<T>::min();
  const T tiny = std::numeric_limits<T>::denorm_min();
  const std::vector<std::pair<T, T>> pairs = {
      {inf, 0},     {0, -inf},   {inf, nan},  {nan, -inf}, {inf, inf},   {-inf, max},  {nan, 0},
      {3, nan},     {nan, nan},  {max, 0},    {max, max},  {max, 1},     {-max, max / 2}, {min, min},
      {tiny, 0},    {tiny, tiny}, {-tiny, 3 * tiny}, {min, tiny}, {0, 0}, {-0.0, -0.0}, {1, tiny},
      {max, tiny},  {T(3), T(4)}, {T(1e-3), T(1e3)}};
  std::vector<T> x, y;
  for (int i = 0; x.size() < 4096; ++i) {
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      const auto& p = pairs[(k + i) % pairs.size()];
      x.push_back(i % 2 ? p.second : p.first);  // both orders
      y.push_back(i % 2 ? p.first : p.second);
    }
    x.push_back(T(1 + i));  // one pair more: the next round starts at another lane
    y.push_back(T(2));
  }
  const auto h = scaled_on<Space, T>(x, y);
  for (std::size_t i = 0; i < h.size(); ++i) {
    const T expected = std::hypot(x[i], y[i]);
    if (std::isnan(expected) || std::isinf(expected)) {
      EXPECT_EQ(std::isnan(h[i]), std::isnan(expected)) << "hypot(" << x[i] << ", " << y[i] << ") = " << h[i] << ", element " << i;
      EXPECT_EQ(std::isinf(h[i]), std::isinf(expected)) << "hypot(" << x[i] << ", " << y[i] << ") = " << h[i] << ", element " << i;
      EXPECT_FALSE(std::signbit(h[i])) << "element " << i;
    } else {
      // 3 ulp of the result (the document's form rounds five times); a subnormal result is
      // rounded at the subnormals' fixed spacing, which the bound includes.
      EXPECT_NEAR(h[i], expected, 2 * std::numeric_limits<T>::epsilon() * expected + 2 * tiny)
          << "hypot(" << x[i] << ", " << y[i] << "), element " << i;
      EXPECT_FALSE(std::signbit(h[i])) << "element " << i;
    }
  }
}

TYPED_TEST(Hypot, SpecialValuesAndTheEndsOfTheRangeAsStdHypot) {
  special_values_as_std_hypot<TypeParam, float>();
  special_values_as_std_hypot<TypeParam, double>();
}

TEST(HypotNaive, OverflowsAndUnderflowsWhereTheScaledFormDoesNot) {
  EXPECT_TRUE(std::isinf(nbk::hypot::naive(1e30f, 1e30f)));
  EXPECT_EQ(nbk::hypot::naive(1e-30f, 1e-30f), 0.0f);
  EXPECT_FLOAT_EQ(nbk::hypot::scaled(1e30f, 1e30f), 1.41421356e30f);
  EXPECT_FLOAT_EQ(nbk::hypot::scaled(1e-30f, 1e-30f), 1.41421356e-30f);
  EXPECT_EQ(nbk::hypot::naive(3.0f, 4.0f), 5.0f);  // where both are fine they agree
}

}  // namespace
