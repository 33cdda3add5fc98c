// Seed 004's product reducer and log-sum on every enabled space: exact products, an
// underflow that must give exactly zero, a representable product of uniforms (so the check
// is not vacuous), and the sum of logarithms to a relative 1e-12.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "nbk/core/exact_sum.hpp"
#include "nbk/product/kernels.hpp"
#include "nbk/core/random_data.hpp"
#include "nbk/core/verify.hpp"
#include "spaces.hpp"

namespace {

TEST(ProductHost, UnderflowIsPredictedAndLocated) {
  const std::vector<double> halves(1100, 0.5);
  const auto p = nbk::product::host_product(halves.data(), static_cast<std::int64_t>(halves.size()));
  EXPECT_EQ(p.value, 0.0);
  EXPECT_EQ(p.zero_at, 1074);  // 2^-1074 is the smallest double; 2^-1075 rounds to 0
  EXPECT_TRUE(nbk::product::product_underflows(1100 * std::log(0.5)));
  EXPECT_FALSE(nbk::product::product_underflows(1000 * std::log(0.5)));
  EXPECT_NEAR(nbk::product::log_smallest_double(), -744.44, 0.01);
}

TEST(ProductHost, ToleranceCoversRoundingOnly) {
  EXPECT_EQ(nbk::product::product_tolerance(1.0, 1), 2.0 * std::numeric_limits<double>::denorm_min());
  const double t = nbk::product::product_tolerance(1.0, 1001);
  EXPECT_GT(t, 1000 * std::numeric_limits<double>::epsilon() / 2);
  EXPECT_LT(t, 1e-12);
}

template <class Space>
class Product : public ::testing::Test {
 protected:
  static Kokkos::View<double*, typename Space::memory_space> upload(const std::vector<double>& values) {
    Kokkos::View<double*, typename Space::memory_space> x("nbk::test::product", values.size());
    Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host(values.data(), values.size());
    Kokkos::deep_copy(x, host);
    return x;
  }
  static double product(const std::vector<double>& values) { return nbk::product::reduce_product(Space(), upload(values)); }
  static double log_sum(const std::vector<double>& values) { return nbk::product::reduce_log_sum(Space(), upload(values)); }
};
TYPED_TEST_SUITE(Product, nbk::test::SpaceTypes, nbk::test::SpaceNames);

TYPED_TEST(Product, EmptyInput) {
  EXPECT_EQ(TestFixture::product({}), 1.0);
  EXPECT_EQ(TestFixture::log_sum({}), 0.0);
}

TYPED_TEST(Product, ProductOfOnes) {
  EXPECT_EQ(TestFixture::product(std::vector<double>(100003, 1.0)), 1.0);
  EXPECT_EQ(TestFixture::log_sum(std::vector<double>(100003, 1.0)), 0.0);
}

TYPED_TEST(Product, PowersOfTwoAreExactInAnyOrder) {
  EXPECT_EQ(TestFixture::product(std::vector<double>(1000, 0.5)), std::ldexp(1.0, -1000));
  EXPECT_EQ(TestFixture::product({2.0, 3.0, 4.0}), 24.0);
}

TYPED_TEST(Product, UnderflowGivesExactlyZero) {
  // 2^-1100: below half the smallest double, in every order of multiplication.
  EXPECT_EQ(TestFixture::product(std::vector<double>(1100, 0.5)), 0.0);
  EXPECT_NEAR(TestFixture::log_sum(std::vector<double>(1100, 0.5)), 1100 * std::log(0.5), 1e-9);
}

TYPED_TEST(Product, RepresentableProductOfUniformsMatchesTheHost) {
  const std::int64_t n = 300;  // log product ~ -300: representable, so this check can fail
  const auto u = nbk::uniform_doubles(n, 21);
  const std::vector<double> values(u.data(), u.data() + n);
  const auto host = nbk::product::host_product(values.data(), n);
  ASSERT_GT(host.value, 0.0);
  const double p = TestFixture::product(values);
  EXPECT_LE(std::fabs(p - host.value), nbk::product::product_tolerance(host.value, n));
  EXPECT_GT(p, 0.0);
}

TYPED_TEST(Product, LogSumToRelative1e12) {
  const std::int64_t n = 4000000 / 16;
  const auto u = nbk::uniform_doubles(n, 4);
  const std::vector<double> values(u.data(), u.data() + n);
  nbk::ExactSum logs;
  for (double v : values) logs.add(std::log(v));
  const double reference = static_cast<double>(logs.value());
  const double got = TestFixture::log_sum(values);
  EXPECT_TRUE(nbk::close_relative(got, reference, 1e-12)) << got << " vs " << reference;
  // The product itself is 0: the log-sum is the quantity that still carries information.
  EXPECT_TRUE(nbk::product::product_underflows(reference));
  EXPECT_EQ(TestFixture::product(values), 0.0);
}

}  // namespace
