#pragma once
// Seed 002's workload: c = max(a, b) element by element over three 3-D float32 arrays.
// The arrays are LayoutRight on every space (NumPy's C order, so host data copies as is).
#include <Kokkos_Core.hpp>

#include <array>
#include <cstdint>
#include <type_traits>

#include "nbk/core/mdrange.hpp"

namespace nbk::maximum {

template <class Memory>
using Array = Kokkos::View<float***, Kokkos::LayoutRight, Memory>;

// The document's maximum kernel as Kokkos' documentation writes it: a 3-D MDRangePolicy over c's
// indices, one (i, j, k) a call, the body in place (its `a if a > b else b`). Kokkos picks the
// tiles; the launches below choose them and the walk.
template <class Space, class A, class C>
void plain_max(const Space& exec, const A& a, const A& b, const C& c) {
  using Policy = Kokkos::MDRangePolicy<Space, Kokkos::Rank<3>, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t n0 = c.extent(0), n1 = c.extent(1), n2 = c.extent(2);
  Kokkos::parallel_for("nbk::maximum::plain", Policy(exec, {0, 0, 0}, {n0, n1, n2}),
                       KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j, const std::int64_t k) {
                         c(i, j, k) = a(i, j, k) > b(i, j, k) ? a(i, j, k) : b(i, j, k);
                       });
}

// How the 3-D range is launched (nbk/core/mdrange.hpp): the View's own index order with the
// document's 8x8x8 tiles or Kokkos' tiles; the contiguous index first, in 1x2x128 tiles on a
// GPU (a 256-thread block whose warps read 128 contiguous bytes of a row each); or flat, the
// three arrays' spans as one range, 16-byte packs on a GPU (every array here is contiguous).
using Launch = nbk::Launch<3>;
inline constexpr Launch kokkos_launch{};
inline constexpr Launch document_launch{{8, 8, 8}};  // the document's threads_per_block
inline constexpr Launch coalesced_launch{{1, 2, 128}, Walk::contiguous_first};
inline constexpr Launch flat_launch{{}, Walk::flat};

// The larger of two floats, the document's `a if a > b else b` with NaN as the second.
struct Larger {
  KOKKOS_INLINE_FUNCTION float operator()(float x, float y) const { return x < y ? y : x; }
};

template <class Space, class A, class C, class Code = CodeFor<Space>>
void elementwise_max(const Space& exec, const A& a, const A& b, const C& c, const Launch& launch, Code code = {}) {
  static_assert(Kokkos::is_execution_space<Space>::value);
  static_assert(A::rank == 3 && C::rank == 3, "the maximum works on 3-D Views");
  static_assert(Kokkos::SpaceAccessibility<Space, typename C::memory_space>::accessible,
                "the views' memory is not accessible from this execution space");
  map_elements("nbk::maximum", exec, launch, c, a, b, Larger{}, code);
}

// The document's maximum_1: three nested loops on one host thread.
inline void host_loops(const float* a, const float* b, float* c, std::int64_t n0, std::int64_t n1, std::int64_t n2) {
  for (std::int64_t i = 0; i < n0; ++i)
    for (std::int64_t j = 0; j < n1; ++j)
      for (std::int64_t k = 0; k < n2; ++k) {
        const std::int64_t at = (i * n1 + j) * n2 + k;
        c[at] = a[at] < b[at] ? b[at] : a[at];
      }
}

}  // namespace nbk::maximum
