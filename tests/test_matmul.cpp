// Seed 003's matrix product on every enabled space, naive and tiled: identities, small
// non-square products with integer values (exact), sizes that are not a multiple of any tile
// against a double reference, empty matrices and 1 x 1. tiled runs both of its codes on every
// space (nbk/core/code.hpp): the host's register blocks over panels of B, and the GPU's
// shared-memory tiles, whose team on a host space is one or two threads wide.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <vector>

#include "nbk/matmul/kernels.hpp"
#include "spaces.hpp"

namespace {

using nbk::Index;
using Floats = std::vector<float>;

enum class Kernel { naive, tiled, tiled_gpu_code };

const char* name_of(Kernel kernel) {
  return kernel == Kernel::naive ? "naive" : kernel == Kernel::tiled ? "tiled" : "tiled, GPU code";
}

// C = A B by `kernel` on Space: tiled with the space's own code, or with the GPU's.
template <class Space, class A, class B, class C>
void multiply(Kernel kernel, const A& a, const B& b, const C& c) {
  if (kernel == Kernel::naive) nbk::matmul::naive(Space(), a, b, c);
  else if (kernel == Kernel::tiled) nbk::matmul::tiled(Space(), a, b, c);
  else nbk::matmul::tiled(Space(), a, b, c, nbk::GpuCode());
}

// C = A B on Space, A m x n and B n x p row-major; C starts as NaN, so an element a kernel
// does not write shows.
template <class Space>
Floats product(Kernel kernel, const Floats& a, const Floats& b, Index m, Index n, Index p) {
  using Matrix = nbk::matmul::Matrix<typename Space::memory_space>;
  const Matrix da("a", m, n), db("b", n, p), dc("c", m, p);
  auto ha = Kokkos::create_mirror_view(da), hb = Kokkos::create_mirror_view(db);
  for (Index e = 0; e < m * n; ++e) ha.data()[e] = a[static_cast<std::size_t>(e)];
  for (Index e = 0; e < n * p; ++e) hb.data()[e] = b[static_cast<std::size_t>(e)];
  Kokkos::deep_copy(da, ha);
  Kokkos::deep_copy(db, hb);
  Kokkos::deep_copy(dc, std::numeric_limits<float>::quiet_NaN());
  multiply<Space>(kernel, da, db, dc);
  auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dc);
  return Floats(hc.data(), hc.data() + m * p);
}

Floats host_product(const Floats& a, const Floats& b, Index m, Index n, Index p) {
  Floats c(static_cast<std::size_t>(m * p), std::numeric_limits<float>::quiet_NaN());
  nbk::matmul::host_matmul(a.data(), b.data(), c.data(), m, n, p);
  return c;
}

// Deterministic values in [-1, 1), distinct enough that a wrong index shows.
Floats values(Index count, int salt) {
  Floats v(static_cast<std::size_t>(count));
  for (Index e = 0; e < count; ++e)
    v[static_cast<std::size_t>(e)] = static_cast<float>((e * 37 + salt) % 101) / 50.5f - 1;
  return v;
}

Floats identity(Index n) {
  Floats v(static_cast<std::size_t>(n * n), 0.0f);
  for (Index i = 0; i < n; ++i) v[static_cast<std::size_t>(i * n + i)] = 1;
  return v;
}

// Every element within n u sum_k |a_ik b_kj| of the product in double (a float dot product's
// error bound, whatever the order of summation).
void expect_close_to_reference(const Floats& c, const Floats& a, const Floats& b, Index m, Index n, Index p) {
  const double u = std::numeric_limits<float>::epsilon() / 2;
  ASSERT_EQ(c.size(), static_cast<std::size_t>(m * p));
  for (Index i = 0; i < m; ++i)
    for (Index j = 0; j < p; ++j) {
      double exact = 0, magnitude = 0;
      for (Index k = 0; k < n; ++k) {
        const double term =
            static_cast<double>(a[static_cast<std::size_t>(i * n + k)]) * b[static_cast<std::size_t>(k * p + j)];
        exact += term;
        magnitude += std::abs(term);
      }
      const double got = c[static_cast<std::size_t>(i * p + j)];
      EXPECT_LE(std::abs(got - exact), static_cast<double>(n) * u * magnitude) << "C(" << i << ", " << j << ")";
    }
}

template <class Space>
class Matmul : public ::testing::Test {};
TYPED_TEST_SUITE(Matmul, nbk::test::SpaceTypes, nbk::test::SpaceNames);

constexpr Kernel kernels[] = {Kernel::naive, Kernel::tiled, Kernel::tiled_gpu_code};

TYPED_TEST(Matmul, IdentityTimesAMatrixIsTheMatrix) {
  for (const Kernel kernel : kernels) {
    const Floats b = values(3 * 70, 1);
    EXPECT_EQ(product<TypeParam>(kernel, identity(3), b, 3, 3, 70), b);
    const Floats a = values(70 * 3, 2);
    EXPECT_EQ(product<TypeParam>(kernel, a, identity(3), 70, 3, 3), a);
    const Floats square = values(300 * 300, 3);  // several tiles and stages
    EXPECT_EQ(product<TypeParam>(kernel, identity(300), square, 300, 300, 300), square);
  }
}

TYPED_TEST(Matmul, SmallNonSquareProductsAreExact) {
  const Floats a = {1, 2, 3,  //
                    4, 5, 6};
  const Floats b = {1, 0, -1, 2,  //
                    0, 1, 2,  -1,  //
                    3, -2, 1, 0};
  const Floats c = {10, -4, 6,  0,  //
                    22, -7, 12, 3};
  for (const Kernel kernel : kernels) {
    EXPECT_EQ(product<TypeParam>(kernel, a, b, 2, 3, 4), c);
    EXPECT_EQ(product<TypeParam>(kernel, {3}, {4}, 1, 1, 1), Floats{12});
    EXPECT_EQ(product<TypeParam>(kernel, {1, 2, 3}, {4, 5, 6}, 1, 3, 1), Floats{32});  // a row times a column
    EXPECT_EQ(product<TypeParam>(kernel, {1, 2}, {3, 4}, 2, 1, 2), (Floats{3, 4, 6, 8}));  // a column times a row
  }
  EXPECT_EQ(host_product(a, b, 2, 3, 4), c);
}

TYPED_TEST(Matmul, SizesThatAreNotAMultipleOfTheTile) {
  struct Shape {
    Index m, n, p;
  };
  // 131 x 515 x 259: on the host's 128 x 128 tiles 256 deep, two rows of tiles and three
  // columns, the last of three stages 3 deep and the last tile's last panel 3 columns wide.
  for (const Shape s : {Shape{17, 33, 5}, Shape{65, 257, 66}, Shape{1, 513, 1}, Shape{129, 1, 3}, Shape{131, 515, 259}}) {
    const Floats a = values(s.m * s.n, 5), b = values(s.n * s.p, 7);
    for (const Kernel kernel : kernels) {
      SCOPED_TRACE(std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.p) +
                   " " + name_of(kernel));
      expect_close_to_reference(product<TypeParam>(kernel, a, b, s.m, s.n, s.p), a, b, s.m, s.n, s.p);
    }
    expect_close_to_reference(host_product(a, b, s.m, s.n, s.p), a, b, s.m, s.n, s.p);
  }
}

// C with no rows or no columns, in the middle of a larger allocation (A and B too): the whole
// allocation of C is as it was (a kernel that wrote a tile, a row or an element of an empty C
// would change it). An empty sum (n = 0) writes zeros.
TYPED_TEST(Matmul, EmptyMatrices) {
  using Memory = typename TypeParam::memory_space;
  using Unmanaged = Kokkos::View<float**, Kokkos::LayoutRight, Memory, Kokkos::MemoryUnmanaged>;
  constexpr std::size_t size = 256, at = 128;
  Kokkos::View<float*, Memory> a_memory("a", size), b_memory("b", size), c_memory("c", size);
  Kokkos::deep_copy(a_memory, 1.0f);
  Kokkos::deep_copy(b_memory, 2.0f);
  struct Shape {
    Index m, n, p;
  };
  for (const Kernel kernel : kernels)
    for (const Shape s : {Shape{0, 4, 5}, Shape{5, 4, 0}, Shape{0, 0, 0}, Shape{0, 40, 3}}) {
      Kokkos::deep_copy(c_memory, -1.0f);
      const Unmanaged a(a_memory.data() + at, s.m, s.n), b(b_memory.data() + at, s.n, s.p),
          c(c_memory.data() + at, s.m, s.p);
      multiply<TypeParam>(kernel, a, b, c);
      const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c_memory);
      std::size_t written = 0;
      for (std::size_t e = 0; e < size; ++e) written += host(e) != -1.0f;
      EXPECT_EQ(written, 0u) << s.m << "x" << s.n << "x" << s.p << " " << name_of(kernel);
    }
  for (const Kernel kernel : kernels)
    EXPECT_EQ(product<TypeParam>(kernel, {}, {}, 4, 0, 3), Floats(12, 0.0f));  // empty sums: zeros
  EXPECT_EQ(host_product({}, {}, 4, 0, 3), Floats(12, 0.0f));
}

TYPED_TEST(Matmul, MismatchedExtentsAreRefused) {
  using Matrix = nbk::matmul::Matrix<typename TypeParam::memory_space>;
  const Matrix a("a", 2, 3), b("b", 4, 2), c("c", 2, 2);
  EXPECT_THROW(nbk::matmul::naive(TypeParam(), a, b, c), std::invalid_argument);
  EXPECT_THROW(nbk::matmul::tiled(TypeParam(), a, b, c), std::invalid_argument);
  EXPECT_THROW(nbk::matmul::tiled(TypeParam(), a, b, c, nbk::GpuCode()), std::invalid_argument);
}

}  // namespace
