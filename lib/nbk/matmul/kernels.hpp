#pragma once
// Seed 003's matmulcore gufunc, (m,n),(n,p)->(m,p): C = A B for float32 row-major matrices.
// naive: one thread per element of C, a dot product over k read straight from A and B.
// tiled: one team per tile of C; the team stages a tile of A and a tile of B in scratch
// memory (CUDA's shared memory), waits at a barrier, and multiplies them out of scratch, so
// every element it loads from A or B is used by a whole row or column of the tile.
// host_matmul: one host thread, i-k-j order (the inner loop runs along rows of B and C).
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "nbk/core/policy.hpp"

namespace nbk::matmul {

template <class Memory>
using Matrix = Kokkos::View<float**, Kokkos::LayoutRight, Memory>;

// The tile of C a team computes (rows x cols), the depth of k staged at a time, and the
// block of C one thread keeps in registers (block_rows x block_cols). Compile-time, so the
// register block's loops have constant trip counts and unroll into registers.
// On a CPU (the default): a team is one thread, with a tile of A (rows x 256) and of B
// (256 x 128) staged for each 256-deep step, and C's tile in scratch between steps. It runs
// down each column of register blocks (block_rows rows of two vectors' width: AVX-512 8 x 32,
// AVX2 6 x 16, 12-16 accumulators and room for a row of B and a broadcast of A), so that the
// column's 256-deep panel of B stays in L1 while every block of it is computed
// (multiply_block_on_host). Blocks of one row, or arrays GCC 12 kept in memory, ran at
// 40-60% of this.
template <class ExecSpace>
struct TileShape {
#if defined(__AVX512F__)
  static constexpr int vector_bytes = 64, block_rows = 8;
#elif defined(__AVX__)
  static constexpr int vector_bytes = 32, block_rows = 6;
#else
  static constexpr int vector_bytes = 16, block_rows = 6;
#endif
  static constexpr int rows = 8 * block_rows, cols = 128, depth = 256;
  static constexpr int block_cols = 2 * vector_bytes / 4;
  static constexpr int threads = 1;
  // One block per thread, kept in registers across every stage (no scratch C tile).
  static constexpr bool one_block_per_thread = false;
};
#if defined(KOKKOS_ENABLE_CUDA)
// On CUDA: the classic shared-memory GEMM. A team of 16 x 16 threads computes a 64 x 64 tile
// 16 deep at a time (8 KiB of scratch); each thread holds 4 x 4 elements of C, strided by 16
// so that a warp reads 16 consecutive floats of a B row from scratch and writes C coalesced.
// Four rows and four columns per thread quarter the scratch loads per multiply-add against one
// element per thread, whose two scratch loads per FMA would bound it below the FMA rate.
template <>
struct TileShape<Kokkos::Cuda> {
  static constexpr int rows = 64, cols = 64, depth = 16;
  static constexpr int block_rows = 4, block_cols = 4;
  static constexpr int threads = (rows / block_rows) * (cols / block_cols);  // 256
  static constexpr bool one_block_per_thread = true;
};
#endif

template <class ExecSpace, class A, class B, class C>
void check_matmul_arguments(const A& a, const B& b, const C& c) {
  static_assert(Kokkos::is_execution_space<ExecSpace>::value, "the first argument must be an execution space");
  static_assert(A::rank == 2 && B::rank == 2 && C::rank == 2, "a matrix product works on 2-D Views");
  static_assert(std::is_same_v<typename C::non_const_value_type, float>, "the product is float32");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename C::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecSpace, typename A::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecSpace, typename B::memory_space>::accessible,
                "the views' memory is not accessible from this execution space");
  if (a.extent(1) != b.extent(0) || c.extent(0) != a.extent(0) || c.extent(1) != b.extent(1))
    throw std::invalid_argument("nbk::matmul: C must be (m x p) for A (m x n) times B (n x p)");
}

template <class ExecSpace, class A, class B, class C>
void naive(const ExecSpace& exec, const A& a, const B& b, const C& c) {
  check_matmul_arguments<ExecSpace>(a, b, c);
  const auto n = static_cast<Index>(a.extent(1)), p = static_cast<Index>(c.extent(1));
  Kokkos::parallel_for(
      "nbk::matmul::naive", range(exec, 0, static_cast<Index>(c.extent(0)) * p), KOKKOS_LAMBDA(Index e) {
        // Consecutive threads take consecutive j: a warp reads one row of B coalesced and one
        // element of A broadcast.
        const Index i = e / p, j = e % p;
        float sum = 0;
        for (Index k = 0; k < n; ++k) sum += a(i, k) * b(k, j);
        c(i, j) = sum;
      });
}

namespace detail {

// tile(r, k) = source(row0 + r, col0 + k), zero outside the source: a partial tile at the
// edges multiplies as a full one, its padding adding nothing. With a team of one thread (a
// CPU), row by row, the bounds checked once per row and the inner loop a plain copy; with many
// (a GPU), element by element, so that consecutive threads read consecutive addresses.
template <int Rows, int Cols, bool ByRows, class Member, class Tile, class Source>
KOKKOS_INLINE_FUNCTION void stage(const Member& team, const Tile& tile, const Source& source, Index row0,
                                  Index col0) {
  const Index rows = static_cast<Index>(source.extent(0)) - row0, cols = static_cast<Index>(source.extent(1)) - col0;
  if constexpr (ByRows) {
    const int valid = cols < Cols ? static_cast<int>(cols) : Cols;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, Rows), [&](int r) {
      if (r < rows) {
        const float* from = &source(row0 + r, col0);
        for (int k = 0; k < valid; ++k) tile(r, k) = from[k];
        for (int k = valid; k < Cols; ++k) tile(r, k) = 0;
      } else {
        for (int k = 0; k < Cols; ++k) tile(r, k) = 0;
      }
    });
  } else {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, Rows * Cols), [&](int e) {
      const int r = e / Cols, k = e % Cols;
      tile(r, k) = r < rows && k < cols ? source(row0 + r, col0 + k) : 0.0f;
    });
  }
}

// acc += the block's rows of `as` times its columns of `bs`, over the whole staged depth.
// The block's element (r, s) is at (row + r * row_step, col + s * col_step) of the tile.
template <class Shape, int RowStep, int ColStep, class ATile, class BTile>
KOKKOS_INLINE_FUNCTION void multiply_add(float (&acc)[Shape::block_rows][Shape::block_cols], const ATile& as,
                                         const BTile& bs, int row, int col) {
  for (int k = 0; k < Shape::depth; ++k)
    for (int r = 0; r < Shape::block_rows; ++r) {
      const float a = as(row + r * RowStep, k);
      for (int s = 0; s < Shape::block_cols; ++s) acc[r][s] += a * bs(k, col + s * ColStep);
    }
}

// c (the block of C, row stride Shape::cols) += a (its rows of the A tile, row stride
// Shape::depth) times b (its columns of the B tile, row stride Shape::cols), on a CPU thread.
// The block lives in GCC vector variables, whole rows of vectors, so that it stays in registers
// across the staged depth: as an array GCC 12 kept it in memory (3x slower than one row).
// GCC's unroll pragma, which nvcc's front end does not know (it passes the host code on to GCC).
#if defined(__NVCC__)
#define NBK_UNROLL_FULLY
#else
#define NBK_UNROLL_FULLY _Pragma("GCC unroll 16")
#endif
template <class Shape>
KOKKOS_INLINE_FUNCTION void multiply_block_on_host(float* __restrict__ c, const float* __restrict__ a,
                                                   const float* __restrict__ b) {
#if defined(__CUDA_ARCH__) || !defined(__GNUC__)
  for (int k = 0; k < Shape::depth; ++k)
    for (int r = 0; r < Shape::block_rows; ++r)
      for (int s = 0; s < Shape::block_cols; ++s) c[r * Shape::cols + s] += a[r * Shape::depth + k] * b[k * Shape::cols + s];
#else
  constexpr int lanes = Shape::vector_bytes / sizeof(float), vectors = Shape::block_cols / lanes;
  static_assert(Shape::block_cols % lanes == 0, "a block's row is whole vectors");
  typedef float Vector __attribute__((vector_size(Shape::vector_bytes), aligned(alignof(float))));
  static_assert(sizeof(Vector) == Shape::vector_bytes, "a GCC vector type");
  Vector acc[Shape::block_rows][vectors];
NBK_UNROLL_FULLY
  for (int r = 0; r < Shape::block_rows; ++r)
NBK_UNROLL_FULLY
    for (int v = 0; v < vectors; ++v) __builtin_memcpy(&acc[r][v], c + r * Shape::cols + v * lanes, sizeof(Vector));
  for (int k = 0; k < Shape::depth; ++k) {
    Vector row[vectors];
NBK_UNROLL_FULLY
    for (int v = 0; v < vectors; ++v) __builtin_memcpy(&row[v], b + k * Shape::cols + v * lanes, sizeof(Vector));
NBK_UNROLL_FULLY
    for (int r = 0; r < Shape::block_rows; ++r) {
      const float x = a[r * Shape::depth + k];
NBK_UNROLL_FULLY
      for (int v = 0; v < vectors; ++v) acc[r][v] += x * row[v];
    }
  }
NBK_UNROLL_FULLY
  for (int r = 0; r < Shape::block_rows; ++r)
NBK_UNROLL_FULLY
    for (int v = 0; v < vectors; ++v) __builtin_memcpy(c + r * Shape::cols + v * lanes, &acc[r][v], sizeof(Vector));
#endif
}
#undef NBK_UNROLL_FULLY

template <class Shape, class Scratch>
struct Tiles {
  using A = Kokkos::View<float[Shape::rows][Shape::depth], Kokkos::LayoutRight, Scratch, Kokkos::MemoryUnmanaged>;
  using B = Kokkos::View<float[Shape::depth][Shape::cols], Kokkos::LayoutRight, Scratch, Kokkos::MemoryUnmanaged>;
  using C = Kokkos::View<float[Shape::rows][Shape::cols], Kokkos::LayoutRight, Scratch, Kokkos::MemoryUnmanaged>;
  static std::size_t scratch_bytes() {
    return A::shmem_size() + B::shmem_size() + (Shape::one_block_per_thread ? 0 : C::shmem_size());
  }
};

// The tile of C at (i0, j0), computed by `team`. (A function, not the body of the kernel's
// lambda: nvcc refuses a lambda's first use of a capture inside if constexpr.)
template <class Shape, class Member, class A, class B, class C>
KOKKOS_INLINE_FUNCTION void multiply_tile(const Member& team, const A& a, const B& b, const C& c, Index i0, Index j0) {
  using T = Tiles<Shape, typename Member::scratch_memory_space>;
  constexpr int block_columns = Shape::cols / Shape::block_cols;  // blocks across a tile
  const auto m = static_cast<Index>(c.extent(0)), n = static_cast<Index>(a.extent(1)),
             p = static_cast<Index>(c.extent(1));
  const typename T::A as(team.team_scratch(0));
  const typename T::B bs(team.team_scratch(0));
  if constexpr (Shape::one_block_per_thread) {
    // Thread (ty, tx) holds C's elements (ty + 16 r, tx + 16 s) of the tile (for 16 x 16
    // threads), in registers from the first stage to the last.
    constexpr int row_step = Shape::rows / Shape::block_rows, col_step = block_columns;
    const int row = team.team_rank() / block_columns, col = team.team_rank() % block_columns;
    float acc[Shape::block_rows][Shape::block_cols] = {};
    for (Index k0 = 0; k0 < n; k0 += Shape::depth) {
      stage<Shape::rows, Shape::depth, false>(team, as, a, i0, k0);
      stage<Shape::depth, Shape::cols, false>(team, bs, b, k0, j0);
      team.team_barrier();  // the tiles are in scratch
      multiply_add<Shape, row_step, col_step>(acc, as, bs, row, col);
      team.team_barrier();  // every thread is done with them before the next stage
    }
    for (int r = 0; r < Shape::block_rows; ++r)
      for (int s = 0; s < Shape::block_cols; ++s) {
        const Index i = i0 + row + r * row_step, j = j0 + col + s * col_step;
        if (i < m && j < p) c(i, j) = acc[r][s];
      }
  } else {
    // The team's threads share out its blocks; each block is in registers for one stage, in
    // the scratch tile of C between stages.
    const typename T::C cs(team.team_scratch(0));
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, Shape::rows * Shape::cols),
                         [&](int e) { cs(e / Shape::cols, e % Shape::cols) = 0; });
    constexpr int blocks = (Shape::rows / Shape::block_rows) * block_columns;
    for (Index k0 = 0; k0 < n; k0 += Shape::depth) {
      stage<Shape::rows, Shape::depth, true>(team, as, a, i0, k0);
      stage<Shape::depth, Shape::cols, true>(team, bs, b, k0, j0);
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, blocks), [&](int block) {
        // Down a column of blocks first: its 256-deep panel of B (16-32 KiB) stays in L1 for all of them.
        constexpr int block_rows_per_tile = Shape::rows / Shape::block_rows;
        const int row = block % block_rows_per_tile * Shape::block_rows, col = block / block_rows_per_tile * Shape::block_cols;
        multiply_block_on_host<Shape>(&cs(row, col), &as(row, 0), &bs(0, col));
      });
      team.team_barrier();
    }
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, Shape::rows * Shape::cols), [&](int e) {
      const Index i = i0 + e / Shape::cols, j = j0 + e % Shape::cols;
      if (i < m && j < p) c(i, j) = cs(e / Shape::cols, e % Shape::cols);
    });
  }
}

}  // namespace detail

template <class ExecSpace, class A, class B, class C>
void tiled(const ExecSpace& exec, const A& a, const B& b, const C& c) {
  check_matmul_arguments<ExecSpace>(a, b, c);
  using Shape = TileShape<ExecSpace>;
  static_assert(Shape::rows % Shape::block_rows == 0 && Shape::cols % Shape::block_cols == 0);
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  using Tiles = detail::Tiles<Shape, typename ExecSpace::scratch_memory_space>;
  const auto m = static_cast<Index>(c.extent(0)), p = static_cast<Index>(c.extent(1));
  const Index tile_columns = (p + Shape::cols - 1) / Shape::cols;
  const Index tiles = (m + Shape::rows - 1) / Shape::rows * tile_columns;
  if (tiles == 0) return;
  if (tiles > INT32_MAX) throw std::invalid_argument("nbk::matmul::tiled: more than 2^31 tiles");
  const Policy policy = Policy(exec, static_cast<int>(tiles), Shape::threads)
                            .set_scratch_size(0, Kokkos::PerTeam(Tiles::scratch_bytes()));
  Kokkos::parallel_for(
      "nbk::matmul::tiled", policy, KOKKOS_LAMBDA(const Member& team) {
        detail::multiply_tile<Shape>(team, a, b, c, team.league_rank() / tile_columns * Shape::rows,
                                     team.league_rank() % tile_columns * Shape::cols);
      });
}

// One host thread: c = a b for row-major m x n and n x p arrays, i-k-j order.
inline void host_matmul(const float* a, const float* b, float* c, Index m, Index n, Index p) {
  for (Index i = 0; i < m; ++i) {
    float* row = c + i * p;
    for (Index j = 0; j < p; ++j) row[j] = 0;
    for (Index k = 0; k < n; ++k) {
      const float aik = a[i * n + k];
      const float* b_row = b + k * p;
      for (Index j = 0; j < p; ++j) row[j] += aik * b_row[j];
    }
  }
}

}  // namespace nbk::matmul
