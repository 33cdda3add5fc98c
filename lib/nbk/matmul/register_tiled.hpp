#pragma once
// register_tiled (ours, issue 53): the shared-memory GEMM of cuBLAS-like kernels, where tiled is
// the textbook one. A team of 256 threads computes a 128 x 64 tile of C, 16 deep at a time; each
// thread keeps an 8 x 4 block of C in registers, and for each k loads its 8 elements of A and 4 of
// B from scratch as three 16-byte loads and does 32 multiply-adds with them (tiled: 8 loads of 4
// bytes for 16). A's tile is stored transposed, k-major, so a thread's 4 rows of A at one k are
// one 16-byte load. The tiles are double-buffered: the next stage's elements are loaded from
// global memory into registers before the current stage is multiplied and stored into the other
// buffer after, so one barrier a stage suffices and the loads' latency hides behind 512 FMAs.
//
// The arithmetic of the tiles (which thread owns which elements of C, which one stages which
// elements of A and B) is in RegisterTileShape's functions, which the tests check on the host at
// this shape. Every per-thread function takes the thread's rank as an argument: on a GPU the team
// is the 256 threads; GPU code on a host space (the tests) runs the same functions for each of
// the 256 ranks in turn on a team of 1 or 2 threads, the blocks of C held in scratch between
// stages instead of registers. Host code is tiled's HostTileShape.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>

#include "nbk/core/code.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/packed.hpp"
#include "nbk/core/policy.hpp"
#include "nbk/matmul/kernels.hpp"

namespace nbk::matmul {

// Threads ThreadsX x ThreadsY, each holding BlockRows x BlockCols of C, Depth deep a stage. A
// thread's rows of the tile are quads (4 consecutive rows) ThreadsY quads apart, its columns quads
// ThreadsX quads apart: thread (ty, tx) holds rows 4 ty .. 4 ty + 3 and 4 ty + 4 ThreadsY ...,
// so a warp reads B's tile 16 bytes a thread over consecutive addresses and A's as a broadcast.
template <int ThreadsX, int ThreadsY, int BlockRows, int BlockCols, int Depth>
struct RegisterTileShape {
  static constexpr int threads_x = ThreadsX, threads_y = ThreadsY, threads = ThreadsX * ThreadsY;
  static constexpr int block_rows = BlockRows, block_cols = BlockCols, depth = Depth;
  static constexpr int rows = ThreadsY * BlockRows, cols = ThreadsX * BlockCols;
  // A's tile transposed: depth rows of a_pitch floats. The 4 floats of padding spread the k quads
  // a warp stores over the banks (rows + 4 = 4 mod 32): 8 deep, none shares one; 16 deep, pairs do.
  static constexpr int a_pitch = rows + 4;
  static constexpr int a_packs = rows * depth / 4, b_packs = depth * cols / 4;  // 16-byte packs a stage
  static constexpr int a_loads = a_packs / threads, b_loads = b_packs / threads;  // per thread
  static constexpr int buffer_floats = depth * a_pitch + depth * cols;
  static_assert(BlockRows % 4 == 0 && BlockCols % 4 == 0 && Depth % 4 == 0, "quads of 4 floats");
  static_assert(a_packs % threads == 0 && b_packs % threads == 0, "every thread stages as many packs");

  // The tile's row of the thread's r-th row of C (r < block_rows), and column of its s-th column.
  KOKKOS_INLINE_FUNCTION static constexpr int c_row(int rank, int r) {
    return r / 4 * (threads_y * 4) + rank / threads_x * 4 + r % 4;
  }
  KOKKOS_INLINE_FUNCTION static constexpr int c_col(int rank, int s) {
    return s / 4 * (threads_x * 4) + rank % threads_x * 4 + s % 4;
  }
  // The l-th pack of A a thread stages: row a_row, k a_k .. a_k + 3 of the stage (depth / 4
  // threads read a row's stage, consecutive 16 bytes each); of B: k b_k, columns b_col .. b_col + 3
  // (cols / 4 threads read a row of B's tile, consecutive 16 bytes each).
  KOKKOS_INLINE_FUNCTION static constexpr int a_pack(int rank, int l) { return rank + l * threads; }
  KOKKOS_INLINE_FUNCTION static constexpr int a_row(int pack) { return pack / (depth / 4); }
  KOKKOS_INLINE_FUNCTION static constexpr int a_k(int pack) { return pack % (depth / 4) * 4; }
  KOKKOS_INLINE_FUNCTION static constexpr int b_pack(int rank, int l) { return rank + l * threads; }
  KOKKOS_INLINE_FUNCTION static constexpr int b_k(int pack) { return pack / (cols / 4); }
  KOKKOS_INLINE_FUNCTION static constexpr int b_col(int pack) { return pack % (cols / 4) * 4; }
  // Where A's element (row, k) of the stage and B's (k, col) lie in a buffer (floats).
  KOKKOS_INLINE_FUNCTION static constexpr int a_at(int row, int k) { return k * a_pitch + row; }
  KOKKOS_INLINE_FUNCTION static constexpr int b_at(int k, int col) { return depth * a_pitch + k * cols + col; }
};

// The GPU's shape: 256 threads, 128 x 64 tiles, 16 deep (2 x 12.25 KiB of scratch). On an H200 at
// 1024^3 (issue 53, cuBLAS 68 us): 78 us; 128 x 128 tiles of 8 x 8 a thread, 8 deep, took 132 us,
// as 1024^2 makes only 64 of them for 132 SMs (at 2048^3 and 4096^3 1-4% faster than this shape);
// 128 x 64 or 64 x 128 with 128 threads of 8 x 8, 90 us; 64 x 64 with 256 threads of 4 x 4, 82 us.
using GpuRegisterTileShape = RegisterTileShape<16, 16, 8, 4, 16>;

// The tiles of an m x p C: rows of tiles, columns of tiles, and all of them.
struct TileCount {
  Index rows, cols, tiles;
};
template <class Shape>
TileCount tile_count(Index m, Index p) {
  const Index rows = (m + Shape::rows - 1) / Shape::rows, cols = (p + Shape::cols - 1) / Shape::cols;
  return {rows, cols, rows * cols};
}

namespace detail {

using Quad = Pack<float, 4>;

// Whether a matrix is read or written 16 bytes at a time: rows contiguous, each starting 16-byte
// aligned. Elsewhere (a slice, an odd row length) element by element.
template <class M>
bool quads_aligned(const M& x) {
  return x.stride(1) == 1 && x.stride(0) % 4 == 0 && reinterpret_cast<std::uintptr_t>(x.data()) % 16 == 0;
}

// to[0 .. 3] = q, 16-byte aligned, in one store. Into C on a GPU by CUDA's __stcg (st.global.cg.v4):
// nvcc split a Quad's or a float4's plain store there into four 4-byte stores.
KOKKOS_INLINE_FUNCTION void store_quad(float* to, const Quad& q) { *reinterpret_cast<Quad*>(to) = q; }
KOKKOS_INLINE_FUNCTION void store_global_quad(float* to, const Quad& q) {
#if defined(__CUDA_ARCH__)
  __stcg(reinterpret_cast<float4*>(to), make_float4(q.at[0], q.at[1], q.at[2], q.at[3]));
#else
  store_quad(to, q);
#endif
}

// What a launch knows of its matrices.
struct RegisterTiling {
  Index tile_columns;
  bool quads_a, quads_b, quads_c;
};

// One thread's packs of a stage, between their load from A and B and their store into scratch.
template <class Shape>
struct Staged {
  Quad a[Shape::a_loads], b[Shape::b_loads];
};

// The packs of rank's share of the stage at (i0, k0) of A and (k0, j0) of B, zero outside the
// matrices: a partial tile multiplies as a full one, its padding adding nothing.
template <class Shape, class A, class B>
KOKKOS_INLINE_FUNCTION void load_stage(Staged<Shape>& st, int rank, const A& a, const B& b, Index i0, Index j0,
                                       Index k0, const RegisterTiling& t) {
  const auto m = static_cast<Index>(a.extent(0)), n = static_cast<Index>(a.extent(1)),
             p = static_cast<Index>(b.extent(1));
  for (int l = 0; l < Shape::a_loads; ++l) {
    const int pack = Shape::a_pack(rank, l);
    const Index i = i0 + Shape::a_row(pack), k = k0 + Shape::a_k(pack);
    if (t.quads_a && i < m && k + 4 <= n) {
      st.a[l] = *reinterpret_cast<const Quad*>(&a(i, k));
    } else {
      for (int q = 0; q < 4; ++q) st.a[l].at[q] = i < m && k + q < n ? a(i, k + q) : 0.0f;
    }
  }
  for (int l = 0; l < Shape::b_loads; ++l) {
    const int pack = Shape::b_pack(rank, l);
    const Index k = k0 + Shape::b_k(pack), j = j0 + Shape::b_col(pack);
    if (t.quads_b && k < n && j + 4 <= p) {
      st.b[l] = *reinterpret_cast<const Quad*>(&b(k, j));
    } else {
      for (int q = 0; q < 4; ++q) st.b[l].at[q] = k < n && j + q < p ? b(k, j + q) : 0.0f;
    }
  }
}

// The packs into a buffer of scratch: A's transposed (4 stores of 4 bytes), B's as they are.
template <class Shape>
KOKKOS_INLINE_FUNCTION void store_stage(const Staged<Shape>& st, int rank, float* buffer) {
  for (int l = 0; l < Shape::a_loads; ++l) {
    const int pack = Shape::a_pack(rank, l);
    for (int q = 0; q < 4; ++q) buffer[Shape::a_at(Shape::a_row(pack), Shape::a_k(pack) + q)] = st.a[l].at[q];
  }
  for (int l = 0; l < Shape::b_loads; ++l) {
    const int pack = Shape::b_pack(rank, l);
    store_quad(buffer + Shape::b_at(Shape::b_k(pack), Shape::b_col(pack)), st.b[l]);
  }
}

// acc += rank's rows of the buffer's A times its columns of B: for each k, its block_rows
// elements of A and block_cols of B in 16-byte loads, then their outer product.
template <class Shape>
KOKKOS_INLINE_FUNCTION void multiply_stage(float (&acc)[Shape::block_rows][Shape::block_cols], int rank,
                                           const float* buffer) {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int k = 0; k < Shape::depth; ++k) {
    float x[Shape::block_rows], y[Shape::block_cols];
    for (int h = 0; h < Shape::block_rows / 4; ++h) {
      const Quad q = *reinterpret_cast<const Quad*>(buffer + Shape::a_at(Shape::c_row(rank, 4 * h), k));
      for (int e = 0; e < 4; ++e) x[4 * h + e] = q.at[e];
    }
    for (int h = 0; h < Shape::block_cols / 4; ++h) {
      const Quad q = *reinterpret_cast<const Quad*>(buffer + Shape::b_at(k, Shape::c_col(rank, 4 * h)));
      for (int e = 0; e < 4; ++e) y[4 * h + e] = q.at[e];
    }
    for (int r = 0; r < Shape::block_rows; ++r)
      for (int s = 0; s < Shape::block_cols; ++s) acc[r][s] += x[r] * y[s];
  }
}

// rank's block of C into the tile at (i0, j0), the part inside C: 16 bytes at a time where C's
// rows allow it and the quad is whole.
template <class Shape, class C>
KOKKOS_INLINE_FUNCTION void write_block(const float (&acc)[Shape::block_rows][Shape::block_cols], int rank, const C& c,
                                        Index i0, Index j0, const RegisterTiling& t) {
  const auto m = static_cast<Index>(c.extent(0)), p = static_cast<Index>(c.extent(1));
  for (int r = 0; r < Shape::block_rows; ++r) {
    const Index i = i0 + Shape::c_row(rank, r);
    if (i >= m) continue;
    for (int h = 0; h < Shape::block_cols / 4; ++h) {
      const Index j = j0 + Shape::c_col(rank, 4 * h);
      if (t.quads_c && j + 4 <= p) {
        Quad q;
        for (int e = 0; e < 4; ++e) q.at[e] = acc[r][4 * h + e];
        store_global_quad(&c(i, j), q);
      } else {
        for (int e = 0; e < 4; ++e)
          if (j + e < p) c(i, j + e) = acc[r][4 * h + e];
      }
    }
  }
}

// One stage of one rank: the next stage's packs loaded (if there is one), this stage's buffer
// multiplied, the packs stored into the other buffer. Between stages, a barrier.
template <class Shape, class A, class B>
KOKKOS_INLINE_FUNCTION void register_step(float (&acc)[Shape::block_rows][Shape::block_cols], int rank, const A& a,
                                          const B& b, Index i0, Index j0, Index k0, float* now, float* next,
                                          const RegisterTiling& t) {
  const bool more = k0 + Shape::depth < static_cast<Index>(a.extent(1));
  Staged<Shape> st;
  if (more) load_stage<Shape>(st, rank, a, b, i0, j0, k0 + Shape::depth, t);
  multiply_stage<Shape>(acc, rank, now);
  if (more) store_stage<Shape>(st, rank, next);
}

// The floats of scratch a team takes: two buffers, and on a host space the ranks' blocks of C;
// 4 more to align the buffers to 16 bytes (Kokkos aligns scratch to 8).
template <class Shape, bool Registers>
KOKKOS_INLINE_FUNCTION constexpr int register_scratch_floats() {
  return 2 * Shape::buffer_floats + (Registers ? 0 : Shape::threads * Shape::block_rows * Shape::block_cols) + 4;
}

// The tile of C at (i0, j0). Registers: a team of Shape::threads, rank r the thread of that rank,
// its block in registers; otherwise a team of any size whose threads take the ranks in turn.
template <class Shape, bool Registers, class Member, class A, class B, class C>
KOKKOS_INLINE_FUNCTION void multiply_register_tile(const Member& team, const A& a, const B& b, const C& c, Index i0,
                                                   Index j0, const RegisterTiling& t) {
  using Scratch = Kokkos::View<float*, typename Member::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  using Block = float[Shape::block_rows][Shape::block_cols];
  const Scratch scratch(team.team_scratch(0), register_scratch_floats<Shape, Registers>());
  // Aligned by pointer arithmetic, not through an integer: nvcc then still knows it for shared memory.
  float* const buffers = scratch.data() + (4 - reinterpret_cast<std::uintptr_t>(scratch.data()) / 4 % 4) % 4;
  const auto n = static_cast<Index>(a.extent(1));
  // Buffer s of the two (an offset, not an array of pointers, which a GPU would keep in local memory).
  const auto buffer = [buffers](Index s) { return buffers + s * Shape::buffer_floats; };
  if constexpr (Registers) {
    const int rank = team.team_rank();
    Block acc = {};
    if (n > 0) {
      Staged<Shape> st;
      load_stage<Shape>(st, rank, a, b, i0, j0, 0, t);
      store_stage<Shape>(st, rank, buffer(0));
    }
    team.team_barrier();
    for (Index k0 = 0, s = 0; k0 < n; k0 += Shape::depth, s ^= 1) {
      register_step<Shape>(acc, rank, a, b, i0, j0, k0, buffer(s), buffer(s ^ 1), t);
      team.team_barrier();
    }
    write_block<Shape>(acc, rank, c, i0, j0, t);
  } else {
    Block* const blocks = reinterpret_cast<Block*>(buffers + 2 * Shape::buffer_floats);
    const int first = team.team_rank(), step = team.team_size();
    for (int rank = first; rank < Shape::threads; rank += step) {
      for (int r = 0; r < Shape::block_rows; ++r)
        for (int s = 0; s < Shape::block_cols; ++s) blocks[rank][r][s] = 0;
      if (n > 0) {
        Staged<Shape> st;
        load_stage<Shape>(st, rank, a, b, i0, j0, 0, t);
        store_stage<Shape>(st, rank, buffer(0));
      }
    }
    team.team_barrier();
    for (Index k0 = 0, s = 0; k0 < n; k0 += Shape::depth, s ^= 1) {
      for (int rank = first; rank < Shape::threads; rank += step)
        register_step<Shape>(blocks[rank], rank, a, b, i0, j0, k0, buffer(s), buffer(s ^ 1), t);
      team.team_barrier();
    }
    for (int rank = first; rank < Shape::threads; rank += step) write_block<Shape>(blocks[rank], rank, c, i0, j0, t);
  }
}

// The register tile of C a team computes (a functor: nvcc calls a lambda's host code through a
// wrapper that a host space's loop cannot inline, kokkos/kokkos issue 8141).
template <class Shape, bool Registers, class Member, class A, class B, class C>
struct RegisterTileProduct {
  A a;
  B b;
  C c;
  RegisterTiling t;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& member) const {
    const Index tile = member.league_rank();
    detail::multiply_register_tile<Shape, Registers>(member, a, b, c, tile / t.tile_columns * Shape::rows,
                                                     tile % t.tile_columns * Shape::cols, t);
  }
};

// C = A B by the register tiles of Shape, a team a tile: Shape::threads threads on a GPU, 1 or 2
// taking the ranks in turn on a host space.
template <class Space, class Shape, class A, class B, class C>
void launch_register_tiles(const Space& exec, const A& a, const B& b, const C& c) {
  constexpr bool registers = is_device_space_v<Space>;
  // At most 128 registers a thread, so that two teams fit an SM (2 x 256 x 128 = its 64 K).
  using Policy = std::conditional_t<registers, Kokkos::TeamPolicy<Space, Kokkos::LaunchBounds<Shape::threads, 2>>,
                                    Kokkos::TeamPolicy<Space>>;
  using Member = typename Policy::member_type;
  const TileCount count = tile_count<Shape>(static_cast<Index>(c.extent(0)), static_cast<Index>(c.extent(1)));
  if (count.tiles == 0) return;
  if (count.tiles > INT32_MAX) throw std::invalid_argument("nbk::matmul::register_tiled: more than 2^31 tiles");
  int team = Shape::threads;
  if constexpr (!registers) {
    const int most = Policy(exec, 1, 1).team_size_max([](const auto&) {}, Kokkos::ParallelForTag());
    team = most >= 2 ? 2 : 1;
  }
  const RegisterTiling t = {count.cols, quads_aligned(a), quads_aligned(b), quads_aligned(c)};
  using Scratch = Kokkos::View<float*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  const Policy policy = Policy(exec, static_cast<int>(count.tiles), team)
                            .set_scratch_size(0, Kokkos::PerTeam(Scratch::shmem_size(
                                                     register_scratch_floats<Shape, registers>())));
  Kokkos::parallel_for("nbk::matmul::register_tiled", policy,
                       RegisterTileProduct<Shape, registers, Member, A, B, C>{a, b, c, t});
}

}  // namespace detail

// C = A B in register tiles (GpuRegisterTileShape) for GPU code; host code is tiled's.
// Tuned form: register_tiled: 8 x 4 of C a GPU thread in registers, 16-byte loads, double buffers; gains on a GPU.
template <class Space, class A, class B, class C, class Code = CodeFor<Space>>
void register_tiled(const Space& exec, const A& a, const B& b, const C& c, Code = {}) {
  check_matmul_arguments<Space>(a, b, c);
  static_assert(is_gpu_code_v<Code> || !is_device_space_v<Space>, "host code runs on host spaces only");
  if constexpr (is_gpu_code_v<Code>)
    detail::launch_register_tiles<Space, GpuRegisterTileShape>(exec, a, b, c);
  else
    detail::launch_tiles<Space, HostTileShape>(exec, a, b, c, "nbk::matmul::register_tiled");
}

}  // namespace nbk::matmul
