#pragma once
// The CUDA C guide's MatAdd (quoted in seed 003): C = A + B over N x N float32 matrices, one
// thread per element, on a 2-D grid of 16 x 16 blocks; here a 2-D MDRangePolicy with 16 x 16,
// 1 x 256 or Kokkos' tiles. Row-major (C's float A[N][N]), right-most index fastest.
#include <Kokkos_Core.hpp>

#include <cstdint>

#include "nbk/core/compat.hpp"
#include "nbk/core/mdrange.hpp"
#include "nbk/core/policy.hpp"

namespace nbk::mat_add {

template <class Memory>
using Matrix = Kokkos::View<float**, Kokkos::LayoutRight, Memory>;

// The guide's MatAdd as Kokkos' documentation writes it: a 2-D MDRangePolicy over C's indices,
// one (i, j) a call, the body in place. Kokkos picks the tiles and, on a GPU, puts a warp's
// threads on i (nbk/core/mdrange.hpp): the launches below choose both. The streaming stores,
// ours, are in tuned.hpp.
template <class Space, class A, class C>
void plain_mat_add(const Space& exec, const A& a, const A& b, const C& c) {
  using Policy = Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t rows = c.extent(0), columns = c.extent(1);
  Kokkos::parallel_for("nbk::mat_add::plain", Policy(exec, {0, 0}, {rows, columns}),
                       KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) { c(i, j) = a(i, j) + b(i, j); });
}

// How the 2-D range is launched (nbk/core/mdrange.hpp), in the matrix's own index order: the
// guide's 16 x 16 blocks, Kokkos' tiles, or 1 x 256, whose block is one piece of a row (threadIdx.y
// on j): a warp reads 128 contiguous bytes, where a 16 x 16 warp reads 16 rows x 2 columns, 16
// separate 32-byte sectors per load. On host spaces tiles only set the order of the loops.
using Launch = nbk::Launch<2>;
inline constexpr Launch kokkos_launch{};
inline constexpr Launch guide_launch{{16, 16}};  // the guide's threadsPerBlock(16, 16)
inline constexpr Launch row_launch{{1, 256}};
inline constexpr Launch flat_launch{{}, Walk::flat};  // the spans as one range, 16-byte packs on a GPU

struct Plus {
  KOKKOS_INLINE_FUNCTION float operator()(float x, float y) const { return x + y; }
};

template <class Space, class A, class C, class Code = CodeFor<Space>>
void mat_add(const Space& exec, const A& a, const A& b, const C& c, const Launch& launch, Code code = {}) {
  static_assert(Kokkos::is_execution_space<Space>::value);
  static_assert(A::rank == 2 && C::rank == 2, "MatAdd works on 2-D Views");
  static_assert(Kokkos::SpaceAccessibility<Space, typename C::memory_space>::accessible,
                "the views' memory is not accessible from this execution space");
  map_elements("nbk::mat_add", exec, launch, c, a, b, Plus{}, code);
}

}  // namespace nbk::mat_add
