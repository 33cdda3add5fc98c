#pragma once
// The CUDA C guide's MatAdd (quoted in seed 003): C = A + B over N x N float32 matrices, one
// thread per element, on a 2-D grid of 16 x 16 blocks; here a 2-D MDRangePolicy with 16 x 16
// tiles or with tiles left to Kokkos. Row-major (C's float A[N][N]), right-most index fastest.
#include <Kokkos_Core.hpp>

#include <array>
#include <cstdint>

#include "nbk/core/policy.hpp"

namespace nbk::mat_add {

template <class Memory>
using Matrix = Kokkos::View<float**, Kokkos::LayoutRight, Memory>;

// Tiles of the 2-D range: {0, 0} leaves them to Kokkos.
using Tiles = std::array<std::int64_t, 2>;
inline constexpr Tiles default_tiles{0, 0};
inline constexpr Tiles guide_tiles{16, 16};  // the guide's threadsPerBlock(16, 16)
// Kokkos 3.4's CUDA MDRange makes a block of tile[0] x tile[1] threads with threadIdx.x on the
// first index, whatever the iteration order: in a row-major matrix, a warp of a 16 x 16 block
// reads 16 rows x 2 columns (16 separate 32-byte sectors), where a 1 x 256 block reads 128
// contiguous bytes. On host spaces tiles only set the order of the loops.
inline constexpr Tiles row_tiles{1, 256};

template <class ExecSpace, class A, class C>
void mat_add(const ExecSpace& exec, const A& a, const A& b, const C& c, Tiles tiles) {
  static_assert(Kokkos::is_execution_space<ExecSpace>::value);
  static_assert(A::rank == 2 && C::rank == 2, "MatAdd works on 2-D Views");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename C::memory_space>::accessible,
                "the views' memory is not accessible from this execution space");
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2, Kokkos::Iterate::Right, Kokkos::Iterate::Right>,
                                       Kokkos::IndexType<Index>>;
  const Index rows = static_cast<Index>(c.extent(0)), columns = static_cast<Index>(c.extent(1));
  const Policy policy = tiles == default_tiles ? Policy(exec, {0, 0}, {rows, columns})
                                               : Policy(exec, {0, 0}, {rows, columns}, {tiles[0], tiles[1]});
  Kokkos::parallel_for(
      "nbk::mat_add", policy, KOKKOS_LAMBDA(Index i, Index j) { c(i, j) = a(i, j) + b(i, j); });
}

}  // namespace nbk::mat_add
