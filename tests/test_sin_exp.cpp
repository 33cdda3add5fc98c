// Seed 004's sin(x) * exp(y) on every enabled space, in float32 and float64: exact points,
// agreement with the host's std::sin * std::exp to 16 unit roundoffs, and that this bound is
// tight enough to reject a float32 result passed off as float64.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "nbk/sin_exp/kernels.hpp"
#include "map.hpp"
#include "spaces.hpp"

namespace {

template <class Space, class T>
std::vector<T> computed_on(const std::vector<T>& x, const std::vector<T>& y) {
  return nbk::test::run_map<Space>([](const auto& space, const auto& a, const auto& b, const auto& out) {
    nbk::sin_exp::sin_exp(space, a, b, out);
  }, x, y);
}

// Relative distance of each z from sin(x) exp(y) computed in long double, in unit roundoffs of T.
template <class T, class Z>
double worst_in_u(const std::vector<T>& x, const std::vector<T>& y, const std::vector<Z>& z) {
  const double u = std::numeric_limits<T>::epsilon() / 2;
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const long double ref = std::sin(static_cast<long double>(x[i])) * std::exp(static_cast<long double>(y[i]));
    if (ref != 0) worst = std::max(worst, static_cast<double>(std::fabs((z[i] - ref) / ref)) / u);
  }
  return worst;
}

template <class T>
void linspace_inputs(std::size_t n, std::vector<T>& x, std::vector<T>& y) {
  x.resize(n);
  y.assign(n, T(10));
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<T>(6.283185307179586 * double(i) / double(n - 1));
}

template <class Space>
class SinExp : public ::testing::Test {};
TYPED_TEST_SUITE(SinExp, nbk::test::SpaceTypes, nbk::test::SpaceNames);

TYPED_TEST(SinExp, ExactPoints) {
  const auto z = computed_on<TypeParam, double>({0.0, 0.0, 1.5707963267948966}, {0.0, 10.0, 0.0});
  EXPECT_EQ(z[0], 0.0);
  EXPECT_EQ(z[1], 0.0);
  EXPECT_NEAR(z[2], 1.0, 1e-15);
}

// No elements, in the middle of larger allocations: z's allocation is as it was, all of it. One
// element: within the 16 unit roundoffs of the test below.
TYPED_TEST(SinExp, EmptyAndOneElement) {
  using Memory = typename TypeParam::memory_space;
  constexpr std::size_t size = 64, at = 32;
  Kokkos::View<float*, Memory> in("in", size), out("out", size);
  Kokkos::deep_copy(in, 1.0f);
  Kokkos::deep_copy(out, -1.0f);
  const Kokkos::View<float*, Memory, Kokkos::MemoryUnmanaged> x(in.data() + at, 0), z(out.data() + at, 0);
  nbk::sin_exp::sin_exp(TypeParam(), x, x, z);
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  std::size_t written = 0;
  for (std::size_t e = 0; e < size; ++e) written += host(e) != -1.0f;
  EXPECT_EQ(written, 0u);
  const std::vector<float> x1 = {1.0f}, y1 = {2.0f};
  EXPECT_LE(worst_in_u(x1, y1, computed_on<TypeParam, float>(x1, y1)), 16.0);
}

TYPED_TEST(SinExp, WithinSixteenUnitRoundoffsInEachPrecision) {
  std::vector<float> x32, y32;
  std::vector<double> x64, y64;
  linspace_inputs(1025, x32, y32);
  linspace_inputs(1025, x64, y64);
  EXPECT_LE(worst_in_u(x32, y32, computed_on<TypeParam, float>(x32, y32)), 16.0);
  EXPECT_LE(worst_in_u(x64, y64, computed_on<TypeParam, double>(x64, y64)), 16.0);
}

TEST(SinExpTolerance, RejectsFloatResultsAsDouble) {
  std::vector<float> x32, y32;
  std::vector<double> x64, y64;
  linspace_inputs(1025, x32, y32);
  linspace_inputs(1025, x64, y64);
  std::vector<float> z32(x32.size());
  nbk::sin_exp::host_loop(x32.data(), y32.data(), z32.data(), static_cast<std::int64_t>(z32.size()));
  EXPECT_GT(worst_in_u(x64, y64, z32), 1e6) << "a float32 result is millions of float64 roundoffs off";
}

}  // namespace
