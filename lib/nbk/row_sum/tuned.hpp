#pragma once
// The row sums' tuned forms, written for speed beside the document's kernels (kernels.hpp): a team
// per row, and a row per thread's vector lanes (a warp on a GPU, from 16-byte packs). Each is
// measured against the plain row in notes.md's "## Tuned forms".
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <type_traits>

#include "nbk/core/code.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/packed.hpp"
#include "nbk/core/policy.hpp"
#include "nbk/row_sum/kernels.hpp"
#include "nbk/sum/tuned.hpp"  // block_partial: the blocked sum's lanes, for float32 rows on a CPU

namespace nbk::row_sum {

// At most this many teams, each taking every league-th row: a TeamPolicy's league size is an
// int, and a GPU grid is full long before.
inline constexpr Index max_league = Index{1} << 20;

// The kernels are functors, not lambdas: under nvcc a lambda's host code is called through a
// wrapper that a host space's loop cannot inline (kokkos/kokkos issue 8141).
template <class Member, class A, class S>
struct TeamRowSums {
  using Value = typename S::non_const_value_type;
  A a;
  S sums;
  Index rows, columns;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    for (Index i = team.league_rank(); i < rows; i += team.league_size()) {
      Value total = 0;
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(team, columns), [&](Index j, Value& partial) { partial += a(i, j); }, total);
      Kokkos::single(Kokkos::PerTeam(team), [&]() { sums(i) = total; });
    }
  }
};

// One team per row: the team's threads reduce the row together (TeamThreadRange), and one
// thread of the team writes its sum.
// Tuned form: team_row_sums: a team per row, its threads reducing the row together; gains on a GPU.
template <class Space, class A, class S>
void team_row_sums(const Space& exec, const A& a, const S& sums) {
  detail::check_arguments<Space, A, S>();
  using Policy = Kokkos::TeamPolicy<Space>;
  using Member = typename Policy::member_type;
  const auto rows = static_cast<Index>(a.extent(0)), columns = static_cast<Index>(a.extent(1));
  if (rows == 0) return;
  const int league = static_cast<int>(rows < max_league ? rows : max_league);
  Kokkos::parallel_for("nbk::row_sum::team", Policy(exec, league, Kokkos::AUTO),
                       TeamRowSums<Member, A, S>{a, sums, rows, columns});
}

// The matrix's rows as whole 16-byte packs for GPU code (nbk/core/packed.hpp): a row of p packs
// is packs [i p, (i + 1) p) of the result. Empty where packs_of gives none, or where a row is not
// a whole number of packs (so its first element is not 16-byte aligned).
template <class Code, class A>
auto row_packs(const A& a) {
  using Flat = decltype(flat(a));
  const bool whole = a.span_is_contiguous() && a.extent(1) % pack_width<typename A::non_const_value_type> == 0;
  return packs_of<Code>(whole ? flat(a) : Flat(a.data(), 0));
}

// The vector way's launch shape: `league` teams of `rows_per_team` threads of `lanes` vector lanes.
struct VectorShape {
  int league = 0;
  int rows_per_team = 1;
  int lanes = 1;
};

// GPU code's threads and lanes a team (8 x 32: a warp a row) and host code's (1 x 1).
inline constexpr int gpu_rows_per_team = 8;
inline constexpr int gpu_lanes = 32;

// A team per `rows_per_team` rows, at most `league_cap` teams (past it a team takes several rounds of
// rows, a league's worth of rows apart: first_row, row_stride).
inline VectorShape vector_shape(Index rows, int rows_per_team, int lanes, Index league_cap = max_league) {
  const Index needed = (rows + rows_per_team - 1) / rows_per_team;
  return {static_cast<int>(needed < league_cap ? needed : league_cap), rows_per_team, lanes};
}

// The rows the threads of team `league_rank` take in its round `round` (0, 1, ...) of a league of
// `league` teams of `per_team` threads: [first, min(first + per_team, rows)), first =
// (league_rank + round league) per_team, thread t of the team taking row first + t. Pure
// arithmetic, what vector_row_sums' loop runs and the tests check at a GPU's shapes.
KOKKOS_INLINE_FUNCTION Index first_row(Index league_rank, Index per_team) { return league_rank * per_team; }
KOKKOS_INLINE_FUNCTION Index row_stride(Index league, Index per_team) { return league * per_team; }

// A row per thread's vector lanes: on a GPU, teams of 8 threads of 32 lanes (256), each thread
// summing one row with its lanes (ThreadVectorRange) and a lane-level reduction: a warp reads
// 512 contiguous bytes of its row per step, a 16-byte pack a lane where the rows are whole packs
// (128 bytes, a float a lane, elsewhere), and reduces by shuffles, with no block-wide barrier
// per row (the team variant's cost). The lanes' loop is not unrolled (the PTX has one load an
// iteration), so a pack a lane is what gives a lane 16 bytes in flight. Host code gives a team
// one thread of one lane, a thread per row (float32 rows, in a CPU's SIMD lanes: LaneRowSums). GPU code on a host space (the tests) asks for 8
// threads a team where the pool has them, fewer where not (a host team may not outnumber the
// pool's threads): the rows a team takes follow the team size it got. The tests may give a shape
// of their own (a small league, so that teams take several rounds of rows at a test's sizes).
template <class Space, class Code = CodeFor<Space>>
VectorShape vector_shape_on(const Space& exec, Index rows, Code = {}) {
  int rows_per_team = is_gpu_code_v<Code> ? gpu_rows_per_team : 1;
  if constexpr (!is_device_space_v<Space>)
    rows_per_team = std::max(1, std::min(rows_per_team, Kokkos::TeamPolicy<Space>(exec, 1, 1).team_size_max(
                                                            [](const auto&) {}, Kokkos::ParallelForTag())));
  return vector_shape(rows, rows_per_team, is_gpu_code_v<Code> ? gpu_lanes : 1);
}

// A row per thread, summed by the thread's vector lanes: from 16-byte packs where `packed`.
template <class Member, class A, class Packs, class S>
struct VectorRowSums {
  using Value = typename S::non_const_value_type;
  A a;
  Packs packs;
  S sums;
  bool packed;
  Index rows, columns, packs_per_row;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const Index per_team = team.team_size();
    const Index stride = row_stride(team.league_size(), per_team);
    for (Index first = first_row(team.league_rank(), per_team); first < rows; first += stride) {
      const Index last = first + per_team < rows ? first + per_team : rows;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](Index i) {
        Value total = 0;
        if (packed) {
          Kokkos::parallel_reduce(
              Kokkos::ThreadVectorRange(team, packs_per_row),
              [&](Index c, Value& partial) {
                const auto v = packs(i * packs_per_row + c);
                partial += (Value(v.at[0]) + Value(v.at[1])) + (Value(v.at[2]) + Value(v.at[3]));
              },
              total);
        } else {
          Kokkos::parallel_reduce(
              Kokkos::ThreadVectorRange(team, columns), [&](Index j, Value& partial) { partial += a(i, j); }, total);
        }
        Kokkos::single(Kokkos::PerThread(team), [&]() { sums(i) = total; });
      });
    }
  }
};

// Host code's float32 rows, a row a thread in a CPU's vector lanes: each 1024-float block of the
// row in the blocked sum's 64 independent running sums (nbk/sum/tuned.hpp's block_partial, which
// the compiler vectorizes, every lane in its order), the blocks' partials added in float. One float
// accumulator waits out every add in turn (1.0 ns an add on the development VM: nbk_bench's
// bound/add-chain-f32), which held these rows to a quarter of the DRAM rate that int32's reach.
template <class Flat, class S>
struct LaneRowSums {
  Flat x;  // the matrix's elements, row after row
  S sums;
  Index columns;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const {
    float total = 0;
    const Index end = (i + 1) * columns;
    for (Index first = i * columns; first < end; first += sum::blocked::block)
      total += sum::block_partial(x, first, end - first < sum::blocked::block ? end : first + sum::blocked::block);
    sums(i) = total;
  }
};

// Tuned form: vector_row_sums: a row a thread's vector lanes (a warp a row on a GPU, 16-byte packs; a CPU's SIMD lanes for float32); gains on GPUs, and for float32 on CPUs.
template <class Space, class A, class S, class Code = CodeFor<Space>>
void vector_row_sums(const Space& exec, const A& a, const S& sums, const VectorShape& shape, Code = {}) {
  detail::check_arguments<Space, A, S>();
  if constexpr (!is_gpu_code_v<Code> && std::is_same_v<typename A::non_const_value_type, float>) {
    if (a.span_is_contiguous()) {
      const auto x = flat(a);
      Kokkos::parallel_for("nbk::row_sum::vector", range(exec, 0, static_cast<Index>(a.extent(0))),
                           LaneRowSums<decltype(x), S>{x, sums, static_cast<Index>(a.extent(1))});
      return;
    }
  }
  using Policy = Kokkos::TeamPolicy<Space>;
  using Member = typename Policy::member_type;
  static_assert(pack_width<typename A::non_const_value_type> == 4, "rows of 4-byte elements");
  const auto rows = static_cast<Index>(a.extent(0)), columns = static_cast<Index>(a.extent(1));
  if (rows == 0) return;
  using Packs = decltype(row_packs<Code>(a));
  const Packs packs = row_packs<Code>(a);
  const bool packed = packs.extent(0) > 0;
  const Index packs_per_row = columns / 4;
  Kokkos::parallel_for("nbk::row_sum::vector", Policy(exec, shape.league, shape.rows_per_team, shape.lanes),
                       VectorRowSums<Member, A, Packs, S>{a, packs, sums, packed, rows, columns, packs_per_row});
}

template <class Space, class A, class S, class Code = CodeFor<Space>>
void vector_row_sums(const Space& exec, const A& a, const S& sums, Code code = {}) {
  vector_row_sums(exec, a, sums, vector_shape_on(exec, static_cast<Index>(a.extent(0)), code), code);
}

}  // namespace nbk::row_sum
