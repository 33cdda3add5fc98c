#pragma once
// Seed 003's matmulcore gufunc, (m,n),(n,p)->(m,p): C = A B for float32 row-major matrices.
// plain: one element of C a call of a 2-D MDRangePolicy (the document's kernel as Kokkos' docs write it).
// naive: one thread per element of C, a dot product over k read straight from A and B.
// tiled: one team per tile of C; the team stages a tile of A and a tile of B in scratch
// memory (CUDA's shared memory), waits at a barrier, and multiplies them out of scratch, so
// every element it loads from A or B is used by a whole row or column of the tile.
// host_matmul: one host thread, i-k-j order (the inner loop runs along rows of B and C).
// The tuned form, register_tiled (register tiles of C on a GPU), is in register_tiled.hpp; the
// vendor's GEMM in vendor.hpp.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "nbk/core/code.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/policy.hpp"

namespace nbk::matmul {

template <class Memory>
using Matrix = Kokkos::View<float**, Kokkos::LayoutRight, Memory>;

// The naive matmul (cuda.grid(2), one element of C a thread) as Kokkos' documentation writes it: a
// 2-D MDRangePolicy over C's indices, a float dot product over k in the body in place. naive below
// walks C as one range so that a warp takes consecutive j; tiled stages tiles in scratch.
template <class Space, class A, class B, class C>
void plain_matmul(const Space& exec, const A& a, const B& b, const C& c) {
  using Policy = Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t m = c.extent(0), n = a.extent(1), p = c.extent(1);
  Kokkos::parallel_for("nbk::matmul::plain", Policy(exec, {0, 0}, {m, p}),
                       KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) {
                         float sum = 0;
                         for (std::int64_t k = 0; k < n; ++k) sum += a(i, k) * b(k, j);
                         c(i, j) = sum;
                       });
}

// The tile of C a team computes (rows x cols), the depth of k staged at a time, and the
// block of C one thread keeps in registers (block_rows x block_cols). Compile-time, so the
// register block's loops have constant trip counts and unroll into registers. Which shape a
// launch takes follows its code (nbk/core/code.hpp), not its space: the tests run the GPU's
// shape on Serial and OpenMP too.
//
// Host code (HostTileShape): a team is one thread, with a tile of A (rows x 256) and of B
// (256 x cols) staged for each 256-deep step, and C's tile in scratch between steps (128 x 128
// with AVX-512: 320 KiB of scratch, in L2; 128 x 96 with AVX2: 272 KiB). B's tile is staged as
// panels, each block column's 256 x block_cols elements contiguous (32 KiB with AVX-512, 24 KiB
// with AVX2), read by the thread as it runs down the panel's column of register blocks
// (multiply_block_on_host) as one stream that the prefetchers keep ahead. A register block is
// block_rows rows of block_vectors vectors, sized to the registers: AVX-512 8 x 32 (16 zmm
// accumulators of 32), AVX2 with FMA 4 x 24 (12 ymm accumulators, 3 for a row of B and one
// broadcast of A: all 16). Each step of k loads a row of B and broadcasts a column of A, the
// broadcasts from rows of A 1 KiB apart: AVX2's 6 x 16 (12 accumulators, as BLIS's Haswell
// kernel, whose A is packed k-major) took 8 loads per 12 FMAs and ran at 77-80% of OpenBLAS's
// one thread on the development VM's Zen 4 core (thread CPU time; 101-108 GFLOP/s, its AVX2
// kernels or its AVX-512 ones), 4 x 24 (7 loads) at 85-92%, 3 x 32 (a 32 KiB panel) at 83-90%;
// 128 rows, not 96, spread the staging over more blocks. Staged row-major, 512 bytes a row, a
// panel fell into a quarter of L1's sets and was read from L2 at every step: one Zen 4 thread
// ran at 83-85% of OpenBLAS's one thread, 91-97% with panels (AVX-512; 128 deep, a panel that
// fits L1 beside A's rows, measured no faster). Blocks of one row, or arrays GCC 12 kept in
// memory, ran at 40-60% of the register blocks.
struct HostTileShape {
#if defined(__AVX512F__)
  static constexpr int vector_bytes = 64, block_rows = 8, block_vectors = 2, rows = 128, cols = 128;
#elif defined(__AVX2__) && defined(__FMA__)
  static constexpr int vector_bytes = 32, block_rows = 4, block_vectors = 3, rows = 128, cols = 96;
#elif defined(__AVX__)  // a product and a sum: a register more for each product
  static constexpr int vector_bytes = 32, block_rows = 6, block_vectors = 2, rows = 96, cols = 128;
#else
  static constexpr int vector_bytes = 16, block_rows = 6, block_vectors = 2, rows = 96, cols = 128;
#endif
  static constexpr int depth = 256;
  static constexpr int block_cols = block_vectors * vector_bytes / 4;
  static constexpr int threads = 1;
  // One block per thread, kept in registers across every stage (no scratch C tile).
  static constexpr bool one_block_per_thread = false;
};
// GPU code (GpuTileShape<16, 16> on CUDA): the classic shared-memory GEMM. A team of 16 x 16
// threads computes a 64 x 64 tile 16 deep at a time (8 KiB of scratch); each thread holds 4 x 4
// elements of C, strided by 16 so that a warp reads 16 consecutive floats of a B row from scratch
// and writes C coalesced. Four rows and four columns per thread quarter the scratch loads per
// multiply-add against one element per thread, whose two scratch loads per FMA would bound it
// below the FMA rate. On a host space (the tests) the team is as wide as the pool allows, 1 or
// 2 threads: the same code, the tile shrunk with it.
// Which thread holds which elements is this shape's arithmetic, which the tests check on the host at
// the GPU's 16 x 16 (a host team is too narrow to show it).
template <int ThreadsX, int ThreadsY>
struct GpuTileShape {
  static constexpr int block_rows = 4, block_cols = 4;
  static constexpr int rows = block_rows * ThreadsY, cols = block_cols * ThreadsX, depth = 16;
  static constexpr int threads = ThreadsX * ThreadsY;
  static constexpr bool one_block_per_thread = true;
  // Thread `rank` holds the tile's elements (thread_row + r row_step, thread_col + s col_step) for
  // r < block_rows, s < block_cols: consecutive ranks, consecutive columns.
  static constexpr int row_step = ThreadsY, col_step = ThreadsX;
  KOKKOS_INLINE_FUNCTION static constexpr int thread_row(int rank) { return rank / ThreadsX; }
  KOKKOS_INLINE_FUNCTION static constexpr int thread_col(int rank) { return rank % ThreadsX; }
};

template <class Space, class A, class B, class C>
void check_matmul_arguments(const A& a, const B& b, const C& c) {
  static_assert(Kokkos::is_execution_space<Space>::value, "the first argument must be an execution space");
  static_assert(A::rank == 2 && B::rank == 2 && C::rank == 2, "a matrix product works on 2-D Views");
  static_assert(std::is_same_v<typename C::non_const_value_type, float>, "the product is float32");
  static_assert(Kokkos::SpaceAccessibility<Space, typename C::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<Space, typename A::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<Space, typename B::memory_space>::accessible,
                "the views' memory is not accessible from this execution space");
  if (a.extent(1) != b.extent(0) || c.extent(0) != a.extent(0) || c.extent(1) != b.extent(1))
    throw std::invalid_argument("nbk::matmul: C must be (m x p) for A (m x n) times B (n x p)");
}

// Element e of C (row-major) as a dot product. The kernels are functors, not lambdas: under nvcc
// a lambda's host code is called through a wrapper that a host space's loop cannot inline
// (kokkos/kokkos issue 8141).
template <class A, class B, class C>
struct ElementDot {
  A a;
  B b;
  C c;
  Index n, p;
  KOKKOS_INLINE_FUNCTION void operator()(Index e) const {
    // Consecutive threads take consecutive j: a warp reads one row of B coalesced and one
    // element of A broadcast.
    const Index i = e / p, j = e % p;
    float sum = 0;
    for (Index k = 0; k < n; ++k) sum += a(i, k) * b(k, j);
    c(i, j) = sum;
  }
};

// The document's kernel (cuda.grid(2), one element of C a thread) launched through our range();
// the same kernel as plain_matmul, so it stays here, not among the tuned forms.
template <class Space, class A, class B, class C>
void naive(const Space& exec, const A& a, const B& b, const C& c) {
  check_matmul_arguments<Space>(a, b, c);
  const auto n = static_cast<Index>(a.extent(1)), p = static_cast<Index>(c.extent(1));
  Kokkos::parallel_for("nbk::matmul::naive", range(exec, 0, static_cast<Index>(c.extent(0)) * p),
                       ElementDot<A, B, C>{a, b, c, n, p});
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

// panels(q, k, s) = source(row0 + k, col0 + q Shape::block_cols + s), zero outside the source:
// B's tile as panels for the host's register blocks, each read by its block as one contiguous
// run. A team of one thread copies row by row, a panel's whole width at a time where it is in
// the source (a constant trip count: vector loads and stores). Panels wholly right of the source
// are left as they are: their blocks are not multiplied (multiply_tile); a panel that reaches past
// the source's last column is copied as far as it goes and zero-filled, not element by element
// with a test each (a 1024-wide B in 96-wide tiles: 2 panels in 44).
template <class Shape, class Member, class Panels, class Source>
KOKKOS_INLINE_FUNCTION void stage_panels(const Member& team, const Panels& panels, const Source& source, Index row0,
                                         Index col0) {
  constexpr int width = Shape::block_cols;
  const Index rows = static_cast<Index>(source.extent(0)) - row0, cols = static_cast<Index>(source.extent(1)) - col0;
  const int valid = cols < Shape::cols ? static_cast<int>(cols) : Shape::cols;
  const int count = (valid + width - 1) / width;
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, Shape::depth), [&](int k) {
    for (int q = 0; q < count; ++q) {
      float* to = &panels(q, k, 0);
      const int first = q * width;
      const int in_source = k >= rows ? 0 : valid - first < width ? valid - first : width;
      if (in_source == width) {
        const float* from = &source(row0 + k, col0 + first);
        for (int s = 0; s < width; ++s) to[s] = from[s];
      } else {
        const float* from = in_source > 0 ? &source(row0 + k, col0 + first) : nullptr;
        for (int s = 0; s < in_source; ++s) to[s] = from[s];
        for (int s = in_source; s < width; ++s) to[s] = 0;
      }
    }
  });
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
// Shape::depth) times b (its panel of the B tile, row stride Shape::block_cols), on a CPU thread.
// The block lives in GCC vector variables, whole rows of vectors, so that it stays in registers
// across the staged depth: as an array GCC 12 kept it in memory (3x slower than one row). They
// are loaded and stored through an unaligned, may_alias vector type, not by memcpy: under
// -mtune=generic (x86-64-v3, a CUDA build's host code) GCC 12 split each 32-byte memcpy into
// two 16-byte halves through the stack and kept the whole block there, 15 GFLOP/s on one Zen 4
// thread against 77 with the direct loads (AVX-512 and -march=native: the same code either way).
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
      for (int s = 0; s < Shape::block_cols; ++s) c[r * Shape::cols + s] += a[r * Shape::depth + k] * b[k * Shape::block_cols + s];
#else
  constexpr int lanes = Shape::vector_bytes / sizeof(float), vectors = Shape::block_cols / lanes;
  static_assert(Shape::block_cols % lanes == 0, "a block's row is whole vectors");
  typedef float Vector __attribute__((vector_size(Shape::vector_bytes), aligned(alignof(float)), may_alias));
  static_assert(sizeof(Vector) == Shape::vector_bytes, "a GCC vector type");
  Vector acc[Shape::block_rows][vectors];
NBK_UNROLL_FULLY
  for (int r = 0; r < Shape::block_rows; ++r)
NBK_UNROLL_FULLY
    for (int v = 0; v < vectors; ++v) acc[r][v] = *reinterpret_cast<const Vector*>(c + r * Shape::cols + v * lanes);
  for (int k = 0; k < Shape::depth; ++k) {
    Vector row[vectors];
NBK_UNROLL_FULLY
    for (int v = 0; v < vectors; ++v) row[v] = *reinterpret_cast<const Vector*>(b + k * Shape::block_cols + v * lanes);
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
    for (int v = 0; v < vectors; ++v) *reinterpret_cast<Vector*>(c + r * Shape::cols + v * lanes) = acc[r][v];
#endif
}
#undef NBK_UNROLL_FULLY

template <class Shape, class Scratch>
struct Tiles {
  using A = Kokkos::View<float[Shape::rows][Shape::depth], Kokkos::LayoutRight, Scratch, Kokkos::MemoryUnmanaged>;
  // GPU code: B's tile row-major. Host code: as panels, panel q holding the tile's columns
  // q block_cols ... (q + 1) block_cols - 1, row after row (stage_panels).
  using B = std::conditional_t<
      Shape::one_block_per_thread,
      Kokkos::View<float[Shape::depth][Shape::cols], Kokkos::LayoutRight, Scratch, Kokkos::MemoryUnmanaged>,
      Kokkos::View<float[Shape::cols / Shape::block_cols][Shape::depth][Shape::block_cols], Kokkos::LayoutRight,
                   Scratch, Kokkos::MemoryUnmanaged>>;
  using C = Kokkos::View<float[Shape::rows][Shape::cols], Kokkos::LayoutRight, Scratch, Kokkos::MemoryUnmanaged>;
  static std::size_t scratch_bytes() {
    return A::shmem_size() + B::shmem_size() + (Shape::one_block_per_thread ? 0 : C::shmem_size());
  }
};

// The tile of C at (i0, j0), computed by `team`.
template <class Shape, class Member, class A, class B, class C>
KOKKOS_INLINE_FUNCTION void multiply_tile(const Member& team, const A& a, const B& b, const C& c, Index i0, Index j0) {
  using T = Tiles<Shape, typename Member::scratch_memory_space>;
  const auto m = static_cast<Index>(c.extent(0)), n = static_cast<Index>(a.extent(1)),
             p = static_cast<Index>(c.extent(1));
  const typename T::A as(team.team_scratch(0));
  const typename T::B bs(team.team_scratch(0));
  if constexpr (Shape::one_block_per_thread) {
    // Thread (ty, tx) holds C's elements (ty + 16 r, tx + 16 s) of the tile (for 16 x 16
    // threads), in registers from the first stage to the last.
    constexpr int row_step = Shape::row_step, col_step = Shape::col_step;
    const int row = Shape::thread_row(team.team_rank()), col = Shape::thread_col(team.team_rank());
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
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, Shape::rows), [&](int r) {
      for (int s = 0; s < Shape::cols; ++s) cs(r, s) = 0;
    });
    // Only the blocks that reach into C: at its lower and right edges a tile's others would
    // multiply padding (a 1024-wide C in AVX2's 96-wide tiles: 1 block column in 44).
    const int valid_rows = m - i0 < Shape::rows ? static_cast<int>(m - i0) : Shape::rows;
    const int valid = p - j0 < Shape::cols ? static_cast<int>(p - j0) : Shape::cols;
    const int block_rows_in_c = (valid_rows + Shape::block_rows - 1) / Shape::block_rows;
    const int blocks = block_rows_in_c * ((valid + Shape::block_cols - 1) / Shape::block_cols);
    for (Index k0 = 0; k0 < n; k0 += Shape::depth) {
      stage<Shape::rows, Shape::depth, true>(team, as, a, i0, k0);
      stage_panels<Shape>(team, bs, b, k0, j0);
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, blocks), [&](int block) {
        // Down a column of blocks first: each reads the same panel of B, one contiguous stream.
        const int row = block % block_rows_in_c * Shape::block_rows, panel = block / block_rows_in_c;
        multiply_block_on_host<Shape>(&cs(row, panel * Shape::block_cols), &as(row, 0), &bs(panel, 0, 0));
      });
      team.team_barrier();
    }
    // Row by row into C, the part of the tile inside it.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, Shape::rows), [&](int r) {
      if (i0 + r < m) {
        float* to = &c(i0 + r, j0);
        for (int s = 0; s < valid; ++s) to[s] = cs(r, s);
      }
    });
  }
}

// The tile of C a team computes: tile r of the league is tile row r / tile_columns, column
// r % tile_columns.
template <class Shape, class Member, class A, class B, class C>
struct TileProduct {
  A a;
  B b;
  C c;
  Index tile_columns;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    detail::multiply_tile<Shape>(team, a, b, c, team.league_rank() / tile_columns * Shape::rows,
                                 team.league_rank() % tile_columns * Shape::cols);
  }
};

// C = A B by the tiles of Shape: a team per tile.
template <class Space, class Shape, class A, class B, class C>
void launch_tiles(const Space& exec, const A& a, const B& b, const C& c, const char* label = "nbk::matmul::tiled") {
  static_assert(Shape::rows % Shape::block_rows == 0 && Shape::cols % Shape::block_cols == 0);
  // Host code takes its tiles dynamically: 64 tiles of 128 x 128 at 1024^2, and a thread that
  // shares its core with another process does not hold up the kernel's end by its fixed half.
  using Policy = std::conditional_t<Shape::one_block_per_thread, Kokkos::TeamPolicy<Space>,
                                    Kokkos::TeamPolicy<Space, Kokkos::Schedule<Kokkos::Dynamic>>>;
  using Member = typename Policy::member_type;
  using Tiles = detail::Tiles<Shape, typename Space::scratch_memory_space>;
  const auto m = static_cast<Index>(c.extent(0)), p = static_cast<Index>(c.extent(1));
  const Index tile_columns = (p + Shape::cols - 1) / Shape::cols;
  const Index tiles = (m + Shape::rows - 1) / Shape::rows * tile_columns;
  if (tiles == 0) return;
  if (tiles > INT32_MAX) throw std::invalid_argument("nbk::matmul::tiled: more than 2^31 tiles");
  const Policy policy = Policy(exec, static_cast<int>(tiles), Shape::threads)
                            .set_scratch_size(0, Kokkos::PerTeam(Tiles::scratch_bytes()));
  Kokkos::parallel_for(label, policy, TileProduct<Shape, Member, A, B, C>{a, b, c, tile_columns});
}

}  // namespace detail

// C = A B in tiles staged in team scratch: the GPU's shared-memory tiles (GpuTileShape) or the
// host's register blocks over panels (HostTileShape), as Code says (by default the space's own).
// The textbook shared-memory tiled matmul, its tile shapes chosen for the code: it stays here with
// the document's kernels; register_tiled (register_tiled.hpp) is its tuned form.
template <class Space, class A, class B, class C, class Code = CodeFor<Space>>
void tiled(const Space& exec, const A& a, const B& b, const C& c, Code = {}) {
  check_matmul_arguments<Space>(a, b, c);
  static_assert(is_gpu_code_v<Code> || !is_device_space_v<Space>, "host code runs on host spaces only");
  if constexpr (!is_gpu_code_v<Code>) {
    detail::launch_tiles<Space, HostTileShape>(exec, a, b, c);
  } else if constexpr (is_device_space_v<Space>) {
    detail::launch_tiles<Space, GpuTileShape<16, 16>>(exec, a, b, c);
  } else {
    // GPU code on a host space: a team of two threads where the pool has them, else one.
    const int most =
        Kokkos::TeamPolicy<Space>(exec, 1, 1).team_size_max([](const auto&) {}, Kokkos::ParallelForTag());
    if (most >= 2) detail::launch_tiles<Space, GpuTileShape<2, 1>>(exec, a, b, c);
    else detail::launch_tiles<Space, GpuTileShape<1, 1>>(exec, a, b, c);
  }
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
