// Seed 003's element-wise kernels on every enabled space: the gaussian density and the polar
// distance at exact points and against double over odd sizes, the document's grid-stride add
// for sizes around its grid of 3,840 threads, and MatAdd over shapes no tile divides.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "nbk/add/kernels.hpp"
#include "nbk/core/math_map.hpp"
#include "nbk/gaussian/kernels.hpp"
#include "nbk/mat_add/kernels.hpp"
#include "nbk/mat_add/tuned.hpp"
#include "nbk/polar/kernels.hpp"
#include "nbk/sin_exp/kernels.hpp"
#include "map.hpp"
#include "spaces.hpp"

namespace {

constexpr double pi = 3.14159265358979323846;
constexpr double u32 = std::numeric_limits<float>::epsilon() / 2;

template <class Space>
class Elementwise : public ::testing::Test {};
TYPED_TEST_SUITE(Elementwise, nbk::test::SpaceTypes, nbk::test::SpaceNames);
// The GPU code of the range add (16-byte packs) and of MatAdd (its tiles, its packs) on the host
// spaces: the twin suite ElementwiseGpuCode (tests/spaces.hpp). The maps' GPU code is in
// tests/test_gpu_code.cpp.
template <class SpaceCode>
class ElementwiseGpuCode : public ::testing::Test {};
TYPED_TEST_SUITE(ElementwiseGpuCode, nbk::test::HostGpuCodeTypes, nbk::test::SpaceCodeNames);

template <class Space>
std::vector<float> gaussian_on(const std::vector<float>& x, float mean, float sigma) {
  return nbk::test::run_map<Space>(
      [=](const auto& space, const auto& in, const auto& out) { nbk::gaussian::pdf_map(space, in, mean, sigma, out); },
      x);
}

TYPED_TEST(Elementwise, GaussianAtExactPointsAndSymmetric) {
  const auto p = gaussian_on<TypeParam>({0.0f, 1.0f, -1.0f, 2.5f, -2.5f, 3.0f}, 0.0f, 1.0f);
  const double peak = 1 / std::sqrt(2 * pi);
  EXPECT_NEAR(p[0], peak, 4 * u32 * peak);
  EXPECT_NEAR(p[1], peak * std::exp(-0.5), 8 * u32 * peak);
  EXPECT_EQ(p[1], p[2]);
  EXPECT_EQ(p[3], p[4]);
  EXPECT_NEAR(p[5], peak * std::exp(-4.5), 32 * u32 * p[5]);
  // Another mean and sigma: the density of N(1, 2) at 3 is the standard one at 1, halved.
  const auto q = gaussian_on<TypeParam>({3.0f}, 1.0f, 2.0f);
  EXPECT_NEAR(q[0], peak * std::exp(-0.5) / 2, 8 * u32 * q[0]);
}

TYPED_TEST(Elementwise, GaussianOverAnOddSizeAndEmpty) {
  std::vector<float> x(1025);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = -3.0f + 6.0f * static_cast<float>(i) / 1024.0f;
  const auto p = gaussian_on<TypeParam>(x, 0.0f, 1.0f);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double exact = std::exp(-0.5 * double(x[i]) * double(x[i])) / std::sqrt(2 * pi);
    ASSERT_NEAR(p[i], exact, 32 * u32 * exact) << "x = " << x[i];
  }
  EXPECT_EQ(nbk::test::writes_of_empty_map<TypeParam>([](const auto& space, const auto& in, const auto& out) {
              nbk::gaussian::pdf_map(space, in, 0.0f, 1.0f, out);
            }),
            0u);
}

template <class Space>
std::vector<float> polar_on(const std::vector<float>& rho1, const std::vector<float>& theta1,
                            const std::vector<float>& rho2, const std::vector<float>& theta2) {
  return nbk::test::run_map<Space>(
      [](const auto& space, const auto& r1, const auto& t1, const auto& r2, const auto& t2, const auto& out) {
        nbk::polar::distance_map(space, r1, t1, r2, t2, out);
      },
      rho1, theta1, rho2, theta2);
}

// A map's value of an element does not depend on where the element falls: in a vector loop's
// body or its remainder, in which thread's share, in an array of which size. Every element of
// arrays of one repeated input, at sizes around the host code's blocks and vector widths, must
// equal (bit for bit) the value at size 1. On an AVX2 host a plain loop failed this: libmvec's
// lanes and glibc's scalar expf differ in the last bit (nbk/core/math_map.hpp).
TYPED_TEST(Elementwise, MathMapsGiveOneValueWhereverTheElementFalls) {
  const auto check = [](const char* what, auto map) {
    const auto one = map(std::size_t{1})[0];
    for (const std::size_t n : {2, 3, 5, 6, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 127, 129, 200, 1000, 4099}) {
      const auto values = map(n);
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(values[i], one) << what << ": element " << i << " of " << n;
    }
  };
  const float x = 2.5f, theta = 1.25f;
  check("gaussian", [&](std::size_t n) { return gaussian_on<TypeParam>(std::vector<float>(n, x), 0.0f, 1.0f); });
  check("polar", [&](std::size_t n) {
    const std::vector<float> rho(n, x), t1(n, theta), t2(n, -theta);
    return polar_on<TypeParam>(rho, t1, rho, t2);
  });
  check("sin_exp", [&](std::size_t n) {
    return nbk::test::run_map<TypeParam>(
        [](const auto& space, const auto& a, const auto& b, const auto& out) { nbk::sin_exp::sin_exp(space, a, b, out); },
        std::vector<double>(n, 0.7), std::vector<double>(n, 0.3));
  });
  for (const nbk::MathFunction f : nbk::math_functions)
    check(nbk::name_of(f), [&](std::size_t n) {
      return nbk::test::run_map<TypeParam>(
          [f](const auto& space, const auto& in, const auto& out) { nbk::math_map(f, space, in, out); },
          std::vector<float>(n, x));
    });
}

TYPED_TEST(Elementwise, PolarDistanceAtExactPoints) {
  const float right = static_cast<float>(pi / 2);
  const auto d = polar_on<TypeParam>({1, 1, 2, 3, 0.5f}, {0, 0, 0, 1.25f, right}, {1, 0, 2, 3, 0.5f},
                                     {right, 2.0f, static_cast<float>(pi), 1.25f, -right});
  EXPECT_NEAR(d[0], std::sqrt(2.0), 4 * u32);  // (1, 0) and (0, 1)
  EXPECT_NEAR(d[1], 1.0, 4 * u32);             // (1, 0) and the origin
  EXPECT_NEAR(d[2], 4.0, 16 * u32);            // (2, 0) and (-2, 0)
  // One point twice: exactly 0 where a*b - c*d rounds both products (the host builds), but a
  // compiler that contracts (nvcc's device code, by default, as Numba's does) computes
  // fma(a, b, -(c*d)): the second product's rounding error, at most u |c*d| <= u rho in each
  // coordinate, so d <= sqrt(2) rho u (rho = 3: 2.5e-07; an H100 gave 2.98e-08). 1.5 leaves
  // room for the rounding of the squares and the sqrt.
  EXPECT_GE(d[3], 0.0f);
  EXPECT_LE(d[3], 1.5 * 3 * u32);
  EXPECT_NEAR(d[4], 1.0, 4 * u32);             // (0, 0.5) and (0, -0.5)
  const auto p = nbk::polar::to_cartesian(2.0f, 0.0f);
  EXPECT_EQ(p.x, 2.0f);
  EXPECT_EQ(p.y, 0.0f);
}

TYPED_TEST(Elementwise, PolarDistanceOverAnOddSize) {
  const std::size_t n = 1027;
  std::vector<float> r1(n), t1(n), r2(n), t2(n);
  for (std::size_t i = 0; i < n; ++i) {
    r1[i] = static_cast<float>(i % 7) / 7;
    t1[i] = static_cast<float>(std::fmod(0.37 * double(i), 2 * pi) - pi);
    r2[i] = static_cast<float>(i % 11) / 11;
    t2[i] = static_cast<float>(std::fmod(0.53 * double(i), 2 * pi) - pi);
  }
  const auto d = polar_on<TypeParam>(r1, t1, r2, t2);
  for (std::size_t i = 0; i < n; ++i) {
    const double dx = r1[i] * std::cos(double(t1[i])) - r2[i] * std::cos(double(t2[i]));
    const double dy = r1[i] * std::sin(double(t1[i])) - r2[i] * std::sin(double(t2[i]));
    ASSERT_NEAR(d[i], std::hypot(dx, dy), 16 * u32 * (double(r1[i]) + r2[i])) << "element " << i;
  }
  EXPECT_EQ(nbk::test::writes_of_empty_map<TypeParam>([](const auto& space, const auto& in, const auto& out) {
              nbk::polar::distance_map(space, in, in, in, in, out);
            }),
            0u);
}

// Sizes below, at and above the document's 30 x 128 = 3,840 threads, and a grid of one
// thread that strides over everything.
TYPED_TEST(Elementwise, GridStrideAddCoversEveryElementOnce) {
  for (const nbk::add::GridShape grid : {nbk::add::GridShape{30, 128}, nbk::add::GridShape{1, 1}}) {
    for (const std::size_t n : {0, 1, 127, 3839, 3840, 3841, 100003}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", grid " + std::to_string(grid.blocks));
      std::vector<float> x(n), y(n);
      for (std::size_t i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i);
        y[i] = 2 * x[i];
      }
      nbk::add::GridShape ran{};
      const auto out = nbk::test::run_map<TypeParam>(
          [&](const auto& space, const auto& a, const auto& b, const auto& c) {
            ran = nbk::add::grid_stride_add(space, a, b, c, grid);
          },
          x, y);
      EXPECT_EQ(ran.blocks, grid.blocks);
      EXPECT_GE(ran.threads, 1);
      EXPECT_LE(ran.threads, grid.threads);
      if (nbk::is_device_space_v<TypeParam>) EXPECT_EQ(ran.threads, grid.threads);
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], 3.0f * static_cast<float>(i)) << "element " << i;
    }
    EXPECT_EQ(nbk::test::writes_of_empty_map<TypeParam>([grid](const auto& space, const auto& in, const auto& out) {
                nbk::add::grid_stride_add(space, in, in, out, grid);
              }),
              0u)
        << "grid " << grid.blocks;
  }
}

template <class Space, class Code>
void range_add_in_int64(Code code) {
  const auto out = nbk::test::run_map<Space>(
      [code](const auto& space, const auto& a, const auto& b, const auto& c) { nbk::add::range_add(space, a, b, c, code); },
      std::vector<std::int64_t>{0, 1, 2, 3, 4}, std::vector<std::int64_t>{0, 2, 4, std::int64_t{1} << 40, -9});
  EXPECT_EQ(out, (std::vector<std::int64_t>{0, 3, 6, 3 + (std::int64_t{1} << 40), -5})) << nbk::test::code_name(code);
}
TYPED_TEST(Elementwise, RangeAddInInt64) { range_add_in_int64<TypeParam>(nbk::CodeFor<TypeParam>()); }
TYPED_TEST(ElementwiseGpuCode, RangeAddInInt64) { range_add_in_int64<typename TypeParam::space>(nbk::GpuCode()); }

// Every element once, as packs and a tail: odd sizes of float32, against sums known exactly.
template <class Space, class Code>
void range_add_of_floats_at_odd_sizes(Code code) {
  for (const std::size_t n : {0u, 1u, 3u, 4u, 5u, 1023u, 4099u}) {
    std::vector<float> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = static_cast<float>(i);
      y[i] = static_cast<float>(2 * i + 1);
    }
    const auto out = nbk::test::run_map<Space>(
        [code](const auto& space, const auto& a, const auto& b, const auto& c) { nbk::add::range_add(space, a, b, c, code); },
        x, y);
    ASSERT_EQ(out.size(), n);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], static_cast<float>(3 * i + 1)) << i << ", " << nbk::test::code_name(code);
  }
  EXPECT_EQ(nbk::test::writes_of_empty_map<Space>([code](const auto& space, const auto& in, const auto& out) {
              nbk::add::range_add(space, in, in, out, code);
            }),
            0u)
      << nbk::test::code_name(code);
}
TYPED_TEST(Elementwise, RangeAddOfFloatsAtOddSizes) { range_add_of_floats_at_odd_sizes<TypeParam>(nbk::CodeFor<TypeParam>()); }
TYPED_TEST(ElementwiseGpuCode, RangeAddOfFloatsAtOddSizes) {
  range_add_of_floats_at_odd_sizes<typename TypeParam::space>(nbk::GpuCode());
}

// Every element of C once, for shapes no tile divides, and the empty one.
template <class Space, class Code>
void mat_add_over_shapes_no_tile_divides(Code code) {
  using Memory = typename Space::memory_space;
  using nbk::Walk;
  for (const auto launch : {nbk::mat_add::guide_launch, nbk::mat_add::row_launch, nbk::mat_add::kokkos_launch,
                            nbk::mat_add::flat_launch,
                            nbk::mat_add::Launch{{4, 64}, Walk::contiguous_first}, nbk::mat_add::Launch{{}, Walk::contiguous_first}}) {
    for (const auto [rows, columns] : {std::pair{0, 4}, std::pair{1, 1}, std::pair{17, 33}, std::pair{1, 1025},
                                       std::pair{1025, 1}}) {
      SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(columns) + ", tiles " + std::to_string(launch.tiles[0]) +
                   " x " + std::to_string(launch.tiles[1]) + (launch.walk == Walk::view_order ? "" : launch.walk == Walk::flat ? ", flat" : ", j first"));
      nbk::mat_add::Matrix<Memory> a("a", rows, columns), b("b", rows, columns), c("c", rows, columns);
      auto ha = Kokkos::create_mirror_view(a), hb = Kokkos::create_mirror_view(b);
      for (int i = 0; i < rows; ++i)
        for (int j = 0; j < columns; ++j) {
          ha(i, j) = static_cast<float>(1000 * i);
          hb(i, j) = static_cast<float>(j);
        }
      Kokkos::deep_copy(a, ha);
      Kokkos::deep_copy(b, hb);
      Kokkos::deep_copy(c, std::numeric_limits<float>::quiet_NaN());
      nbk::mat_add::mat_add(Space(), a, b, c, launch, code);
      auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
      for (int i = 0; i < rows; ++i)
        for (int j = 0; j < columns; ++j)
          ASSERT_EQ(hc(i, j), static_cast<float>(1000 * i + j)) << i << ", " << j << ", " << nbk::test::code_name(code);
    }
  }
}
TYPED_TEST(Elementwise, MatAddOverShapesNoTileDivides) { mat_add_over_shapes_no_tile_divides<TypeParam>(nbk::CodeFor<TypeParam>()); }
TYPED_TEST(ElementwiseGpuCode, MatAddOverShapesNoTileDivides) {
  mat_add_over_shapes_no_tile_divides<typename TypeParam::space>(nbk::GpuCode());
}

// The host spaces' streaming MatAdd (non-temporal stores in blocks of 4096 elements): every element
// once, for spans that end inside a block and inside a vector, starting on and off a vector boundary
// (the matrices at an offset of 0, 1 or 3 floats into their allocations), and nothing written
// around them.
TYPED_TEST(Elementwise, MatAddStreamingWritesEveryElementOnce) {
  if constexpr (!nbk::is_device_space_v<TypeParam>) {
    using Memory = typename TypeParam::memory_space;
    using Unmanaged = Kokkos::View<float**, Kokkos::LayoutRight, Memory, Kokkos::MemoryUnmanaged>;
    for (const auto [rows, columns] : {std::pair{0, 4}, std::pair{1, 1}, std::pair{17, 33}, std::pair{3, 4099},
                                       std::pair{1, 2 * 4096 + 5}, std::pair{2, 4096}})
      for (const int offset : {0, 1, 3}) {
        SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(columns) + " at offset " + std::to_string(offset));
        const std::size_t span = static_cast<std::size_t>(rows) * columns, size = span + 8;
        Kokkos::View<float*, Memory> a_memory("a", size), b_memory("b", size), c_memory("c", size);
        Kokkos::deep_copy(c_memory, -1.0f);
        const Unmanaged a(a_memory.data() + offset, rows, columns), b(b_memory.data() + offset, rows, columns),
            c(c_memory.data() + offset, rows, columns);
        for (int i = 0; i < rows; ++i)
          for (int j = 0; j < columns; ++j) {
            a(i, j) = static_cast<float>(1000 * i);
            b(i, j) = static_cast<float>(j);
          }
        nbk::mat_add::mat_add_streaming(TypeParam(), a, b, c);
        Kokkos::fence();
        std::size_t wrong = 0;
        for (int i = 0; i < rows; ++i)
          for (int j = 0; j < columns; ++j) wrong += c(i, j) != static_cast<float>(1000 * i + j);
        EXPECT_EQ(wrong, 0u);
        std::size_t outside = 0;
        for (std::size_t e = 0; e < size; ++e)
          outside += (e < static_cast<std::size_t>(offset) || e >= offset + span) && c_memory(e) != -1.0f;
        EXPECT_EQ(outside, 0u);
      }
  }
}

// C with no rows or no columns in the middle of a larger allocation, every launch and code: the
// whole allocation is as it was.
template <class Space, class Code>
void mat_add_of_empty_matrices(Code code) {
  using Memory = typename Space::memory_space;
  using Unmanaged = Kokkos::View<float**, Kokkos::LayoutRight, Memory, Kokkos::MemoryUnmanaged>;
  using nbk::Walk;
  constexpr std::size_t size = 64, at = 32;
  Kokkos::View<float*, Memory> in("in", size), out("out", size);
  Kokkos::deep_copy(in, 1.0f);
  for (const auto launch : {nbk::mat_add::guide_launch, nbk::mat_add::row_launch, nbk::mat_add::kokkos_launch,
                            nbk::mat_add::flat_launch,
                            nbk::mat_add::Launch{{4, 64}, Walk::contiguous_first}, nbk::mat_add::Launch{{}, Walk::contiguous_first}})
    for (const auto [rows, columns] : {std::pair{0, 4}, std::pair{4, 0}, std::pair{0, 0}}) {
      Kokkos::deep_copy(out, -1.0f);
      const Unmanaged a(in.data() + at, rows, columns), c(out.data() + at, rows, columns);
      nbk::mat_add::mat_add(Space(), a, a, c, launch, code);
      const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
      std::size_t written = 0;
      for (std::size_t e = 0; e < size; ++e) written += host(e) != -1.0f;
      EXPECT_EQ(written, 0u) << rows << " x " << columns << ", tiles " << launch.tiles[0] << " x " << launch.tiles[1]
                             << ", " << nbk::test::code_name(code);
    }
}
TYPED_TEST(Elementwise, MatAddOfEmptyMatricesWritesNothing) { mat_add_of_empty_matrices<TypeParam>(nbk::CodeFor<TypeParam>()); }
TYPED_TEST(ElementwiseGpuCode, MatAddOfEmptyMatricesWritesNothing) {
  mat_add_of_empty_matrices<typename TypeParam::space>(nbk::GpuCode());
}

}  // namespace
