#pragma once
// Row-major (LayoutRight) index spaces as 2-D and 3-D MDRangePolicies, in two walks.
//
// Kokkos' CUDA MDRange (3.4.01: Kokkos_Cuda_Parallel.hpp; 4.6.01: Kokkos_Cuda_Parallel_MDRange.hpp)
// launches a rank-2 or rank-3 policy as blocks of tile[0] x tile[1] (x tile[2]) threads with
// threadIdx.x on the policy's *first* index, whatever its Iterate arguments say; a warp is 32
// consecutive threadIdx.x, then .y, then .z. A LayoutRight View's contiguous index is its *last*.
// So a policy over the View's own indices, (i, j, k), coalesces only where every tile but the
// last is 1 (and blockDim.z is at most 64): the documents' 8x8x8 and 16x16 blocks put a warp's
// lanes on 32 (16) different rows, one 32-byte sector each per load.
//  - Walk::view_order: the policy's indices are the View's, (i, j, k), iterated right-most
//    fastest on a host. The documents' launches (Numba's cuda.grid(3) and the CUDA guide's
//    MatAdd put x on i) and what a user writes first.
//  - Walk::contiguous_first: the policy's indices are the View's reversed, (k, j, i), iterated
//    left-most fastest on a host: a warp's lanes are consecutive k on a GPU, and a host thread's
//    inner loop walks memory in order. Its tiles are a GPU's block, GPU code (nbk/core/code.hpp):
//    host code keeps Kokkos' tiles, whose inner loop is then the whole contiguous extent (a GPU
//    block's 128 columns cut a host thread's rows into pieces and cost half the bandwidth of
//    whole rows here); the tests run the GPU tiles on host spaces too.
// Tiles are given in the View's index order either way; all zeros leave them to Kokkos.
//  - Walk::flat is no MDRange: Views that are contiguous and share a layout, read element-wise,
//    are one 1-D range over their span, 16-byte packs a thread on a GPU (nbk/core/packed.hpp).
//    map_elements takes it; for_each_index, which has indices to give, refuses it.
#include <Kokkos_Core.hpp>

#include <array>
#include <cstdint>
#include <string>

#include "nbk/core/code.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/packed.hpp"
#include "nbk/core/policy.hpp"

namespace nbk {

enum class Walk { view_order, contiguous_first, flat };

template <std::size_t Rank>
struct Launch {
  std::array<std::int64_t, Rank> tiles{};  // in the View's index order; all zeros: Kokkos' choice
  Walk walk = Walk::view_order;
  bool kokkos_tiles() const { return tiles == std::array<std::int64_t, Rank>{}; }
};

template <class Space, Kokkos::Iterate Order, unsigned Rank>
using MDRange = Kokkos::MDRangePolicy<Space, Kokkos::Rank<Rank, Order, Order>, Kokkos::IndexType<Index>>;

// The policy of a walk: over `extents` (the View's order) as they are or reversed.
template <class Space>
MDRange<Space, Kokkos::Iterate::Right, 2> view_order_policy(const Space& exec, std::array<Index, 2> n,
                                                                   const Launch<2>& l) {
  using P = MDRange<Space, Kokkos::Iterate::Right, 2>;
  return l.kokkos_tiles() ? P(exec, {0, 0}, {n[0], n[1]}) : P(exec, {0, 0}, {n[0], n[1]}, {l.tiles[0], l.tiles[1]});
}
template <class Space, class Code = CodeFor<Space>>
MDRange<Space, Kokkos::Iterate::Left, 2> contiguous_first_policy(const Space& exec, std::array<Index, 2> n,
                                                                        const Launch<2>& l, Code = {}) {
  using P = MDRange<Space, Kokkos::Iterate::Left, 2>;
  return l.kokkos_tiles() || !is_gpu_code_v<Code> ? P(exec, {0, 0}, {n[1], n[0]})
                                                           : P(exec, {0, 0}, {n[1], n[0]}, {l.tiles[1], l.tiles[0]});
}
template <class Space>
MDRange<Space, Kokkos::Iterate::Right, 3> view_order_policy(const Space& exec, std::array<Index, 3> n,
                                                                   const Launch<3>& l) {
  using P = MDRange<Space, Kokkos::Iterate::Right, 3>;
  return l.kokkos_tiles() ? P(exec, {0, 0, 0}, {n[0], n[1], n[2]})
                          : P(exec, {0, 0, 0}, {n[0], n[1], n[2]}, {l.tiles[0], l.tiles[1], l.tiles[2]});
}
template <class Space, class Code = CodeFor<Space>>
MDRange<Space, Kokkos::Iterate::Left, 3> contiguous_first_policy(const Space& exec, std::array<Index, 3> n,
                                                                        const Launch<3>& l, Code = {}) {
  using P = MDRange<Space, Kokkos::Iterate::Left, 3>;
  return l.kokkos_tiles() || !is_gpu_code_v<Code>
             ? P(exec, {0, 0, 0}, {n[2], n[1], n[0]})
             : P(exec, {0, 0, 0}, {n[2], n[1], n[0]}, {l.tiles[2], l.tiles[1], l.tiles[0]});
}

namespace detail {
// f(i, j[, k]) at one index of a view_order policy: its indices are the View's.
template <class F>
struct InViewOrder {
  F f;
  KOKKOS_INLINE_FUNCTION void operator()(Index i, Index j) const { f(i, j); }
  KOKKOS_INLINE_FUNCTION void operator()(Index i, Index j, Index k) const { f(i, j, k); }
};
// f(i, j[, k]) at one index of a contiguous_first policy: its indices are the View's reversed.
template <class F>
struct Reversed {
  F f;
  KOKKOS_INLINE_FUNCTION void operator()(Index j, Index i) const { f(i, j); }
  KOKKOS_INLINE_FUNCTION void operator()(Index k, Index j, Index i) const { f(i, j, k); }
};
}  // namespace detail

// f(i, j) for every index of an n[0] x n[1] row-major space, launched as `launch` says.
template <class Space, class F, class Code = CodeFor<Space>>
void for_each_index(const std::string& label, const Space& exec, std::array<Index, 2> n, const Launch<2>& launch,
                    const F& f, Code code = {}) {
  if (launch.walk == Walk::flat) Kokkos::abort("nbk::for_each_index: a flat walk has no indices (nbk/core/packed.hpp)");
  if (launch.walk == Walk::view_order)
    Kokkos::parallel_for(label, view_order_policy(exec, n, launch), detail::InViewOrder<F>{f});
  else
    Kokkos::parallel_for(label, contiguous_first_policy(exec, n, launch, code), detail::Reversed<F>{f});
}

// f(i, j, k) for every index of an n[0] x n[1] x n[2] row-major space, launched as `launch` says.
template <class Space, class F, class Code = CodeFor<Space>>
void for_each_index(const std::string& label, const Space& exec, std::array<Index, 3> n, const Launch<3>& launch,
                    const F& f, Code code = {}) {
  if (launch.walk == Walk::flat) Kokkos::abort("nbk::for_each_index: a flat walk has no indices (nbk/core/packed.hpp)");
  if (launch.walk == Walk::view_order)
    Kokkos::parallel_for(label, view_order_policy(exec, n, launch), detail::InViewOrder<F>{f});
  else
    Kokkos::parallel_for(label, contiguous_first_policy(exec, n, launch, code), detail::Reversed<F>{f});
}

namespace detail {
// out(idx) = f(a(idx), b(idx)) at one index of a rank-2 or rank-3 space.
template <class Out, class In, class F>
struct ElementMap {
  Out out;
  In a, b;
  F f;
  KOKKOS_INLINE_FUNCTION void operator()(Index i, Index j) const { out(i, j) = f(a(i, j), b(i, j)); }
  KOKKOS_INLINE_FUNCTION void operator()(Index i, Index j, Index k) const { out(i, j, k) = f(a(i, j, k), b(i, j, k)); }
};
}  // namespace detail

// out = f(a, b) element by element over three row-major Views of one shape, labelled `label`:
// over their indices as `launch` walks them, or, for Walk::flat, over their spans as one range
// (map_each: 16-byte packs on a GPU; every View must be contiguous).
template <class Space, std::size_t Rank, class Out, class In, class F, class Code = CodeFor<Space>>
void map_elements(const std::string& label, const Space& exec, const Launch<Rank>& launch, const Out& out,
                  const In& a, const In& b, const F& f, Code code = {}) {
  static_assert(Out::rank == Rank && In::rank == Rank, "the launch's rank is the Views' rank");
  if (launch.walk == Walk::flat) {
    map_each(label, exec, flat(out), flat(a), flat(b), f, code);
    return;
  }
  std::array<Index, Rank> n{};
  for (std::size_t r = 0; r < Rank; ++r) n[r] = static_cast<Index>(out.extent(r));
  for_each_index(label, exec, n, launch, detail::ElementMap<Out, In, F>{out, a, b, f}, code);
}

}  // namespace nbk
