// Seed 003's matrix product on every enabled space, naive, tiled and register_tiled: identities,
// small non-square products with integer values (exact), sizes that are not a multiple of any tile
// against a double reference, empty matrices and 1 x 1. tiled and register_tiled run both of their
// codes on every space (nbk/core/code.hpp): the host's register blocks over panels of B, and the
// GPU's shared-memory tiles, whose team on a host space is one or two threads wide (register_tiled's
// at the GPU's shape: each thread takes its 256 ranks in turn). RegisterTiles: register_tiled's
// arithmetic at the GPU's shape, who owns and who stages what, full tiles and edge tiles.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <type_traits>
#include <vector>

#include "nbk/matmul/kernels.hpp"
#include "nbk/matmul/register_tiled.hpp"
#include "spaces.hpp"

namespace {

using nbk::Index;
using Floats = std::vector<float>;

enum class Kernel { naive, tiled, tiled_gpu_code, register_tiled, register_tiled_gpu_code };

const char* name_of(Kernel kernel) {
  constexpr const char* names[] = {"naive", "tiled", "tiled, GPU code", "register_tiled", "register_tiled, GPU code"};
  return names[static_cast<int>(kernel)];
}

// C = A B by `kernel` on Space: tiled with the space's own code, or with the GPU's.
template <class Space, class A, class B, class C>
void multiply(Kernel kernel, const A& a, const B& b, const C& c) {
  if (kernel == Kernel::naive) nbk::matmul::naive(Space(), a, b, c);
  else if (kernel == Kernel::tiled) nbk::matmul::tiled(Space(), a, b, c);
  else if (kernel == Kernel::tiled_gpu_code) nbk::matmul::tiled(Space(), a, b, c, nbk::GpuCode());
  else if (kernel == Kernel::register_tiled) nbk::matmul::register_tiled(Space(), a, b, c);
  else nbk::matmul::register_tiled(Space(), a, b, c, nbk::GpuCode());
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

// Typed on a space and a code: "Matmul/<space>" runs the space's own code's kernels, and
// "Matmul/<host space>_gpu_code" the GPU code's, so the filter of every run of GPU code
// (`GpuCode*:*_gpu_code.*`, docs/gpu.md) selects matmul's too.
template <class SpaceCode>
class Matmul : public ::testing::Test {};
TYPED_TEST_SUITE(Matmul, nbk::test::SpaceCodeTypes, nbk::test::SpaceCodeNames);

template <class SpaceCode>
std::vector<Kernel> kernels_of() {
  using Space = typename SpaceCode::space;
  if (std::is_same_v<typename SpaceCode::code, nbk::CodeFor<Space>>)
    return {Kernel::naive, Kernel::tiled, Kernel::register_tiled};
  return {Kernel::tiled_gpu_code, Kernel::register_tiled_gpu_code};
}

TYPED_TEST(Matmul, IdentityTimesAMatrixIsTheMatrix) {
  using Space = typename TypeParam::space;
  for (const Kernel kernel : kernels_of<TypeParam>()) {
    const Floats b = values(3 * 70, 1);
    EXPECT_EQ(product<Space>(kernel, identity(3), b, 3, 3, 70), b);
    const Floats a = values(70 * 3, 2);
    EXPECT_EQ(product<Space>(kernel, a, identity(3), 70, 3, 3), a);
    const Floats square = values(300 * 300, 3);  // several tiles and stages
    EXPECT_EQ(product<Space>(kernel, identity(300), square, 300, 300, 300), square);
  }
}

TYPED_TEST(Matmul, SmallNonSquareProductsAreExact) {
  using Space = typename TypeParam::space;
  const Floats a = {1, 2, 3,  //
                    4, 5, 6};
  const Floats b = {1, 0, -1, 2,  //
                    0, 1, 2,  -1,  //
                    3, -2, 1, 0};
  const Floats c = {10, -4, 6,  0,  //
                    22, -7, 12, 3};
  for (const Kernel kernel : kernels_of<TypeParam>()) {
    EXPECT_EQ(product<Space>(kernel, a, b, 2, 3, 4), c);
    EXPECT_EQ(product<Space>(kernel, {3}, {4}, 1, 1, 1), Floats{12});
    EXPECT_EQ(product<Space>(kernel, {1, 2, 3}, {4, 5, 6}, 1, 3, 1), Floats{32});  // a row times a column
    EXPECT_EQ(product<Space>(kernel, {1, 2}, {3, 4}, 2, 1, 2), (Floats{3, 4, 6, 8}));  // a column times a row
  }
  EXPECT_EQ(host_product(a, b, 2, 3, 4), c);
}

TYPED_TEST(Matmul, SizesThatAreNotAMultipleOfTheTile) {
  using Space = typename TypeParam::space;
  struct Shape {
    Index m, n, p;
  };
  // 131 x 515 x 259: on the host's 128 x 128 tiles 256 deep, two rows of tiles and three
  // columns, the last of three stages 3 deep and the last tile's last panel 3 columns wide.
  for (const Shape s : {Shape{17, 33, 5}, Shape{65, 257, 66}, Shape{1, 513, 1}, Shape{129, 1, 3}, Shape{131, 515, 259}}) {
    const Floats a = values(s.m * s.n, 5), b = values(s.n * s.p, 7);
    for (const Kernel kernel : kernels_of<TypeParam>()) {
      SCOPED_TRACE(std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.p) +
                   " " + name_of(kernel));
      expect_close_to_reference(product<Space>(kernel, a, b, s.m, s.n, s.p), a, b, s.m, s.n, s.p);
    }
    expect_close_to_reference(host_product(a, b, s.m, s.n, s.p), a, b, s.m, s.n, s.p);
  }
}

// C with no rows or no columns, in the middle of a larger allocation (A and B too): the whole
// allocation of C is as it was (a kernel that wrote a tile, a row or an element of an empty C
// would change it). An empty sum (n = 0) writes zeros.
TYPED_TEST(Matmul, EmptyMatrices) {
  using Space = typename TypeParam::space;
  using Memory = typename Space::memory_space;
  using Unmanaged = Kokkos::View<float**, Kokkos::LayoutRight, Memory, Kokkos::MemoryUnmanaged>;
  constexpr std::size_t size = 256, at = 128;
  Kokkos::View<float*, Memory> a_memory("a", size), b_memory("b", size), c_memory("c", size);
  Kokkos::deep_copy(a_memory, 1.0f);
  Kokkos::deep_copy(b_memory, 2.0f);
  struct Shape {
    Index m, n, p;
  };
  for (const Kernel kernel : kernels_of<TypeParam>())
    for (const Shape s : {Shape{0, 4, 5}, Shape{5, 4, 0}, Shape{0, 0, 0}, Shape{0, 40, 3}}) {
      Kokkos::deep_copy(c_memory, -1.0f);
      const Unmanaged a(a_memory.data() + at, s.m, s.n), b(b_memory.data() + at, s.n, s.p),
          c(c_memory.data() + at, s.m, s.p);
      multiply<Space>(kernel, a, b, c);
      const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c_memory);
      std::size_t written = 0;
      for (std::size_t e = 0; e < size; ++e) written += host(e) != -1.0f;
      EXPECT_EQ(written, 0u) << s.m << "x" << s.n << "x" << s.p << " " << name_of(kernel);
    }
  for (const Kernel kernel : kernels_of<TypeParam>())
    EXPECT_EQ(product<Space>(kernel, {}, {}, 4, 0, 3), Floats(12, 0.0f));  // empty sums: zeros
  EXPECT_EQ(host_product({}, {}, 4, 0, 3), Floats(12, 0.0f));
}

TYPED_TEST(Matmul, MismatchedExtentsAreRefused) {
  using Space = typename TypeParam::space;
  using Matrix = nbk::matmul::Matrix<typename Space::memory_space>;
  const Matrix a("a", 2, 3), b("b", 4, 2), c("c", 2, 2);
  EXPECT_THROW(nbk::matmul::naive(Space(), a, b, c), std::invalid_argument);
  EXPECT_THROW(nbk::matmul::tiled(Space(), a, b, c), std::invalid_argument);
  EXPECT_THROW(nbk::matmul::tiled(Space(), a, b, c, nbk::GpuCode()), std::invalid_argument);
  EXPECT_THROW(nbk::matmul::register_tiled(Space(), a, b, c, nbk::GpuCode()), std::invalid_argument);
}


// C's slices: A, B and C as column ranges of wider matrices whose rows are 16-byte aligned
// (register_tiled reads and writes them 16 bytes at a time where a quad is whole), with widths
// that are not a multiple of 4: a row's last quad element by element.
TYPED_TEST(Matmul, SlicesOfWiderMatrices) {
  using Space = typename TypeParam::space;
  using Matrix = nbk::matmul::Matrix<typename Space::memory_space>;
  const Index m = 131, n = 263, p = 133, wide = 272;
  const Floats a = values(m * n, 11), b = values(n * p, 13);
  const Matrix da("a", m, wide), db("b", n, wide), dc("c", m, wide);
  auto ha = Kokkos::create_mirror_view(da), hb = Kokkos::create_mirror_view(db);
  for (Index i = 0; i < m; ++i)
    for (Index k = 0; k < n; ++k) ha(i, k) = a[static_cast<std::size_t>(i * n + k)];
  for (Index k = 0; k < n; ++k)
    for (Index j = 0; j < p; ++j) hb(k, j) = b[static_cast<std::size_t>(k * p + j)];
  Kokkos::deep_copy(da, ha);
  Kokkos::deep_copy(db, hb);
  const auto sa = Kokkos::subview(da, Kokkos::ALL, std::make_pair(Index(0), n));
  const auto sb = Kokkos::subview(db, Kokkos::ALL, std::make_pair(Index(0), p));
  const auto sc = Kokkos::subview(dc, Kokkos::ALL, std::make_pair(Index(0), p));
  for (const Kernel kernel : kernels_of<TypeParam>()) {
    SCOPED_TRACE(name_of(kernel));
    Kokkos::deep_copy(dc, std::numeric_limits<float>::quiet_NaN());
    multiply<Space>(kernel, sa, sb, sc);
    const auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dc);
    Floats c(static_cast<std::size_t>(m * p));
    std::size_t outside = 0;  // C's allocation right of the slice: never written
    for (Index i = 0; i < m; ++i) {
      for (Index j = 0; j < p; ++j) c[static_cast<std::size_t>(i * p + j)] = hc(i, j);
      for (Index j = p; j < wide; ++j) outside += !std::isnan(hc(i, j));
    }
    EXPECT_EQ(outside, 0u);
    expect_close_to_reference(c, a, b, m, n, p);
  }
}

// tiled's GPU tile at the GPU's shape (16 x 16 threads, 4 x 4 elements of C each), on the host:
// every element of the 64 x 64 tile held by exactly one thread, and a warp's 32 threads (two rows of
// 16) on consecutive columns of two rows, so that it reads B's tile and writes C coalesced. On the
// host the kernel runs this code at 2 x 1 or 1 x 1, where no wrong mapping would show.
TEST(GpuTiles, EveryElementOfTheTileIsHeldByOneThread) {
  using Tile = nbk::matmul::GpuTileShape<16, 16>;
  static_assert(Tile::threads == 256 && Tile::rows == 64 && Tile::cols == 64);
  std::vector<int> holders(Tile::rows * Tile::cols, 0);
  for (int rank = 0; rank < Tile::threads; ++rank)
    for (int r = 0; r < Tile::block_rows; ++r)
      for (int s = 0; s < Tile::block_cols; ++s) {
        const int row = Tile::thread_row(rank) + r * Tile::row_step, col = Tile::thread_col(rank) + s * Tile::col_step;
        ASSERT_TRUE(row >= 0 && row < Tile::rows && col >= 0 && col < Tile::cols) << rank << " " << r << " " << s;
        ++holders[static_cast<std::size_t>(row * Tile::cols + col)];
      }
  for (int e = 0; e < Tile::rows * Tile::cols; ++e)
    EXPECT_EQ(holders[static_cast<std::size_t>(e)], 1) << "C(" << e / Tile::cols << ", " << e % Tile::cols << ")";
  for (int warp = 0; warp < Tile::threads / 32; ++warp)
    for (int lane = 1; lane < 32; ++lane) {
      const int rank = 32 * warp + lane;
      if (lane % 16 == 0) {
        EXPECT_EQ(Tile::thread_row(rank), Tile::thread_row(rank - 1) + 1) << rank;
        EXPECT_EQ(Tile::thread_col(rank), 0) << rank;
      } else {
        EXPECT_EQ(Tile::thread_row(rank), Tile::thread_row(rank - 1)) << rank;
        EXPECT_EQ(Tile::thread_col(rank), Tile::thread_col(rank - 1) + 1) << rank;
      }
    }
}

// register_tiled's arithmetic at the GPU's shape (GpuRegisterTileShape), on the host.
using Shape = nbk::matmul::GpuRegisterTileShape;
using nbk::matmul::detail::RegisterTiling;

TEST(RegisterTiles, TheGpuShape) {
  EXPECT_EQ(Shape::threads, 256);
  EXPECT_EQ(Shape::rows, 128);
  EXPECT_EQ(Shape::cols, 64);
  EXPECT_EQ(Shape::depth, 16);
  EXPECT_EQ(Shape::block_rows, 8);
  EXPECT_EQ(Shape::block_cols, 4);
  EXPECT_EQ(Shape::a_loads, 2);  // two 16-byte packs of A and one of B a thread a stage
  EXPECT_EQ(Shape::b_loads, 1);
}

TEST(RegisterTiles, TileCounts) {
  struct Case {
    Index m, p, rows, cols;
  };
  for (const Case c : {Case{0, 5, 0, 1}, Case{5, 0, 1, 0}, Case{1, 1, 1, 1}, Case{128, 64, 1, 1}, Case{129, 64, 2, 1},
                       Case{128, 65, 1, 2}, Case{1024, 1024, 8, 16}, Case{1000, 300, 8, 5}}) {
    const auto count = nbk::matmul::tile_count<Shape>(c.m, c.p);
    EXPECT_EQ(count.rows, c.rows) << c.m << " x " << c.p;
    EXPECT_EQ(count.cols, c.cols) << c.m << " x " << c.p;
    EXPECT_EQ(count.tiles, c.rows * c.cols) << c.m << " x " << c.p;
  }
}

// Every element of a tile of C is in the block of exactly one thread; a thread's quads are 16-byte
// aligned in the tile, and consecutive ranks hold consecutive quads of a row (a warp reads B's
// tile and writes C 16 bytes a thread over consecutive addresses).
TEST(RegisterTiles, EveryElementOfCIsOwnedByOneThread) {
  std::vector<int> owners(Shape::rows * Shape::cols, 0);
  for (int rank = 0; rank < Shape::threads; ++rank)
    for (int r = 0; r < Shape::block_rows; ++r)
      for (int s = 0; s < Shape::block_cols; ++s) {
        const int row = Shape::c_row(rank, r), col = Shape::c_col(rank, s);
        ASSERT_TRUE(row >= 0 && row < Shape::rows && col >= 0 && col < Shape::cols) << rank << " " << r << " " << s;
        ++owners[static_cast<std::size_t>(row * Shape::cols + col)];
        if (s % 4 == 0) EXPECT_EQ(col % 4, 0);
        if (s % 4 != 0) EXPECT_EQ(col, Shape::c_col(rank, s - 1) + 1);
      }
  for (int e = 0; e < Shape::rows * Shape::cols; ++e)
    EXPECT_EQ(owners[static_cast<std::size_t>(e)], 1) << "C(" << e / Shape::cols << ", " << e % Shape::cols << ")";
  for (int rank = 1; rank < Shape::threads_x; ++rank) EXPECT_EQ(Shape::c_col(rank, 0), Shape::c_col(rank - 1, 0) + 4);
}

// Every element of a stage's A and B tiles is staged by exactly one thread into one place of the
// buffer; A's padding is never written, and B's tile does not overlap A's.
TEST(RegisterTiles, EveryScratchElementIsStagedOnceAStage) {
  std::vector<int> stored(Shape::buffer_floats, 0), a_seen(Shape::rows * Shape::depth, 0),
      b_seen(Shape::depth * Shape::cols, 0);
  for (int rank = 0; rank < Shape::threads; ++rank) {
    for (int l = 0; l < Shape::a_loads; ++l) {
      const int pack = Shape::a_pack(rank, l), row = Shape::a_row(pack);
      ASSERT_TRUE(row < Shape::rows && Shape::a_k(pack) + 3 < Shape::depth) << rank;
      for (int q = 0; q < 4; ++q) {
        ++a_seen[static_cast<std::size_t>(row * Shape::depth + Shape::a_k(pack) + q)];
        ++stored[static_cast<std::size_t>(Shape::a_at(row, Shape::a_k(pack) + q))];
      }
    }
    for (int l = 0; l < Shape::b_loads; ++l) {
      const int pack = Shape::b_pack(rank, l), k = Shape::b_k(pack), col = Shape::b_col(pack);
      ASSERT_TRUE(k < Shape::depth && col + 3 < Shape::cols && col % 4 == 0) << rank;
      for (int q = 0; q < 4; ++q) {
        ++b_seen[static_cast<std::size_t>(k * Shape::cols + col + q)];
        ++stored[static_cast<std::size_t>(Shape::b_at(k, col + q))];
      }
    }
  }
  for (const int seen : a_seen) EXPECT_EQ(seen, 1);
  for (const int seen : b_seen) EXPECT_EQ(seen, 1);
  for (int k = 0; k < Shape::depth; ++k)
    for (int e = 0; e < Shape::a_pitch; ++e)
      EXPECT_EQ(stored[static_cast<std::size_t>(Shape::a_at(e, k))], e < Shape::rows ? 1 : 0) << "A's (" << e << ", " << k << ")";
  for (int k = 0; k < Shape::depth; ++k)
    for (int col = 0; col < Shape::cols; ++col) EXPECT_EQ(stored[static_cast<std::size_t>(Shape::b_at(k, col))], 1);
}

using HostMatrix = nbk::matmul::Matrix<Kokkos::HostSpace>;

HostMatrix numbered(Index rows, Index cols, int salt) {
  const HostMatrix x("x", rows, cols);
  for (Index i = 0; i < rows; ++i)
    for (Index j = 0; j < cols; ++j) x(i, j) = static_cast<float>(salt + i * 1000 + j);
  return x;
}

// The 256 ranks' loads and stores of one stage fill the buffer with the stage's tiles of A and B,
// zero outside the matrices, padding untouched: full and edge tiles, first and last stages, with
// 16-byte loads (rows of a multiple of 4 floats) and without.
TEST(RegisterTiles, StagesAreTheTilesOfAAndB) {
  struct Case {
    Index m, n, p, i0, j0, k0;
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const Case c : {Case{300, 40, 260, 128, 128, 16}, Case{133, 12, 196, 128, 192, 0}, Case{133, 28, 196, 0, 192, 16},
                       Case{133, 13, 70, 128, 64, 0}, Case{5, 3, 2, 0, 0, 0}, Case{129, 260, 132, 0, 0, 256}}) {
    const HostMatrix a = numbered(c.m, c.n, 1), b = numbered(c.n, c.p, 500000);
    const RegisterTiling t = {0, nbk::matmul::detail::quads_aligned(a), nbk::matmul::detail::quads_aligned(b), false};
    SCOPED_TRACE(std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.p) + " at " +
                 std::to_string(c.i0) + ", " + std::to_string(c.j0) + ", " + std::to_string(c.k0) +
                 (t.quads_a ? " with" : " without") + " 16-byte loads");
    std::vector<float> buffer(Shape::buffer_floats + 4, nan);
    float* aligned = buffer.data() + (4 - reinterpret_cast<std::uintptr_t>(buffer.data()) / 4 % 4) % 4;
    for (int rank = 0; rank < Shape::threads; ++rank) {
      nbk::matmul::detail::Staged<Shape> st;
      nbk::matmul::detail::load_stage<Shape>(st, rank, a, b, c.i0, c.j0, c.k0, t);
      nbk::matmul::detail::store_stage<Shape>(st, rank, aligned);
    }
    std::size_t wrong = 0;
    for (int k = 0; k < Shape::depth; ++k) {
      const Index kk = c.k0 + k;
      for (int e = 0; e < Shape::a_pitch; ++e) {
        const float got = aligned[Shape::a_at(e, k)];
        const Index i = c.i0 + e;
        if (e >= Shape::rows) wrong += !std::isnan(got);
        else wrong += got != (i < c.m && kk < c.n ? a(i, kk) : 0.0f);
      }
      for (int col = 0; col < Shape::cols; ++col) {
        const Index j = c.j0 + col;
        wrong += aligned[Shape::b_at(k, col)] != (kk < c.n && j < c.p ? b(kk, j) : 0.0f);
      }
    }
    EXPECT_EQ(wrong, 0u);
  }
}

// The 256 ranks' blocks written into C at full and edge tiles: each element of the tile inside C
// holds the value of the one rank, row and column of a block that own it, and nothing outside C's
// part of the tile is written; with 16-byte stores (rows of a multiple of 4 floats) and without.
TEST(RegisterTiles, BlocksAreWrittenWhereTheirOwnersAre) {
  struct Case {
    Index m, p, i0, j0;
  };
  for (const Case c : {Case{256, 256, 128, 128}, Case{133, 196, 128, 192}, Case{133, 70, 0, 0}, Case{133, 70, 128, 64},
                       Case{3, 5, 0, 0}}) {
    const HostMatrix out("c", c.m, c.p);
    Kokkos::deep_copy(out, std::numeric_limits<float>::quiet_NaN());
    const RegisterTiling t = {0, false, false, nbk::matmul::detail::quads_aligned(out)};
    SCOPED_TRACE(std::to_string(c.m) + "x" + std::to_string(c.p) + " at " + std::to_string(c.i0) + ", " +
                 std::to_string(c.j0) + (t.quads_c ? " with" : " without") + " 16-byte stores");
    for (int rank = 0; rank < Shape::threads; ++rank) {
      float acc[Shape::block_rows][Shape::block_cols];
      for (int r = 0; r < Shape::block_rows; ++r)
        for (int s = 0; s < Shape::block_cols; ++s) acc[r][s] = static_cast<float>((rank * Shape::block_rows + r) * Shape::block_cols + s);
      nbk::matmul::detail::write_block<Shape>(acc, rank, out, c.i0, c.j0, t);
    }
    std::size_t wrong = 0;
    for (Index i = 0; i < c.m; ++i)
      for (Index j = 0; j < c.p; ++j) {
        const bool in_tile = i >= c.i0 && i < c.i0 + Shape::rows && j >= c.j0 && j < c.j0 + Shape::cols;
        if (!in_tile) {
          wrong += !std::isnan(out(i, j));
          continue;
        }
        const float got = out(i, j);
        if (!(got >= 0)) {
          ++wrong;
          continue;
        }
        const int id = static_cast<int>(got), s = id % Shape::block_cols, r = id / Shape::block_cols % Shape::block_rows,
                  rank = id / (Shape::block_cols * Shape::block_rows);
        wrong += Shape::c_row(rank, r) != i - c.i0 || Shape::c_col(rank, s) != j - c.j0;
      }
    EXPECT_EQ(wrong, 0u);
  }
}

}  // namespace
