#pragma once
// Seed 003's add: out = x + y element by element, as a range (what a ufunc launches) and as
// the document's grid-stride kernel: a fixed grid of blocks whose threads stride over the
// array by the grid's size.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

#include "nbk/core/packed.hpp"
#include "nbk/core/policy.hpp"

namespace nbk::add {

struct Plus {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(T a, T b) const {
    return T(a + b);
  }
};

// The document's ufunc as Kokkos' documentation writes it: a RangePolicy (64-bit indices), one
// element a call, the body in place; the tuned forms are below.
template <class Space, class X, class Out>
void plain_add(const Space& exec, const X& x, const X& y, const Out& out) {
  const std::int64_t n = out.extent(0);
  Kokkos::parallel_for("nbk::add::plain", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                       KOKKOS_LAMBDA(const std::int64_t i) { out(i) = x(i) + y(i); });
}

// One element a thread on a host; GPU code 16 bytes of each array a thread (nbk/core/packed.hpp).
template <class Space, class X, class Out, class Code = CodeFor<Space>>
void range_add(const Space& exec, const X& x, const X& y, const Out& out, Code code = {}) {
  check_1d_arguments<Space, X>();
  map_each("nbk::add", exec, out, x, y, Plus{}, code);
}

// The launch shape a grid-stride kernel asked for and the one it got: a team (block) of
// `threads` where the space allows that many, else as many as it allows (1 on Serial).
struct GridShape {
  int blocks = 0;
  int threads = 0;
};

// cuda.grid(1) is league_rank * team_size + team_rank, cuda.gridsize(1) is league_size *
// team_size; each thread adds every stride-th element from its own, so neighbouring
// threads touch neighbouring elements (coalesced on a GPU). Pure arithmetic, checked by the tests
// at a GPU's grids.
KOKKOS_INLINE_FUNCTION Index grid_index(Index league_rank, Index team_size, Index team_rank) {
  return league_rank * team_size + team_rank;
}
KOKKOS_INLINE_FUNCTION Index grid_size(Index league_size, Index team_size) { return league_size * team_size; }

// The shape run: the blocks asked for, of the threads asked for where the space allows that many.
inline GridShape shape_run(GridShape asked, int allowed) { return {asked.blocks, std::min(asked.threads, allowed)}; }

// One thread's share of the grid-stride add: every stride-th element from its grid index.
template <class Member, class X, class Out>
struct GridStrideAdd {
  X x, y;
  Out out;
  Index n;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const Index stride = grid_size(team.league_size(), team.team_size());
    for (Index i = grid_index(team.league_rank(), team.team_size(), team.team_rank()); i < n; i += stride)
      out(i) = x(i) + y(i);
  }
};

// The grid-stride add over the shape asked for (threads capped by the space); returns the shape run.
template <class Space, class X, class Out>
GridShape grid_stride_add(const Space& exec, const X& x, const X& y, const Out& out, GridShape asked) {
  check_1d_arguments<Space, X>();
  check_1d_arguments<Space, Out>();
  using Policy = Kokkos::TeamPolicy<Space, Kokkos::IndexType<Index>>;
  using Member = typename Policy::member_type;
  const auto n = static_cast<Index>(out.extent(0));
  const GridStrideAdd<Member, X, Out> body{x, y, out, n};
  const GridShape shape = shape_run(asked, Policy(exec, asked.blocks, 1).team_size_max(body, Kokkos::ParallelForTag()));
  Kokkos::parallel_for("nbk::add::grid_stride", Policy(exec, shape.blocks, shape.threads), body);
  return shape;
}

// One host thread, in index order.
template <class T>
void host_loop(const T* x, const T* y, T* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) out[i] = x[i] + y[i];
}

}  // namespace nbk::add
