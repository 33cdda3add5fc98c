#pragma once
// Seed 003's gufunc l2_norm, (i)->(): the Euclidean norm of every row of a float32 matrix,
// one thread per row, its squares added in double or in float; and one host thread.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "nbk/core/compat.hpp"
#include "nbk/core/policy.hpp"

namespace nbk::l2_norm {

// Row-major on every space (CUDA's default is LayoutLeft): a row of 3 floats is 12 bytes, so
// a warp's 32 rows are 384 contiguous bytes that its three loads share through the L1 cache.
template <class Memory>
using Matrix = Kokkos::View<float**, Kokkos::LayoutRight, Memory>;

// The document's gufunc as Kokkos' documentation writes it: a RangePolicy (64-bit indices), a row
// a call, the body in place: acc = 0.0 a double, value**2 a float32 square, as Numba types them;
// the tuned forms below are functors that square in the accumulator's type (double or float).
template <class Space, class A, class N>
void plain_l2_norm(const Space& exec, const A& a, const N& out) {
  const std::int64_t n = a.extent(0);  // rows
  const std::int64_t columns = a.extent(1);
  Kokkos::parallel_for("nbk::l2_norm::plain", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                       KOKKOS_LAMBDA(const std::int64_t i) {
                         double acc = 0.0;
                         for (std::int64_t j = 0; j < columns; ++j) acc += a(i, j) * a(i, j);
                         out(i) = static_cast<float>(nbk::math::sqrt(acc));
                       });
}

// Acc is the type the squares are added in. double: the square of a float is exact in double
// and no float's square overflows or underflows there (2^256 and 2^-298 are far inside its
// range), so the norm is the exact one rounded about once, for any finite components (the
// document's acc = 0.0 adds in double, but its value**2 squares in float32 first, as the plain
// kernel does: a rounding more, and float's range). float: as written in float32, x*x overflows
// to inf for |x| > 1.8e19 and flushes to 0 for |x| < 2.6e-23 (hypot's scaling would avoid
// that at a division per component; a double accumulator avoids it for free).
template <class Acc, class A, class N>
struct RowNorms {
  A a;
  N norms;
  Index columns;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const {
    Acc acc = 0;
    for (Index j = 0; j < columns; ++j) {
      const Acc x = a(i, j);
      acc += x * x;
    }
    norms(i) = static_cast<float>(nbk::math::sqrt(acc));
  }
};

// What every row-norm kernel takes: rank-2 float rows and rank-1 float norms its space can reach.
template <class Acc, class Space, class A, class N>
constexpr void check_rows_arguments() {
  static_assert(std::is_same_v<Acc, float> || std::is_same_v<Acc, double>);
  static_assert(Kokkos::is_view<A>::value && A::rank == 2, "the rows must be a rank-2 View");
  static_assert(std::is_same_v<typename A::non_const_value_type, float>, "the rows are float32");
  static_assert(Kokkos::SpaceAccessibility<Space, typename A::memory_space>::accessible,
                "the matrix's memory is not accessible from this execution space");
  check_1d_arguments<Space, N>();
  static_assert(std::is_same_v<typename N::non_const_value_type, float>, "the norms are float32");
}

template <class Acc, class Space, class A, class N>
void row_norms(const Space& exec, const A& a, const N& norms) {
  check_rows_arguments<Acc, Space, A, N>();
  const auto columns = static_cast<Index>(a.extent(1));
  Kokkos::parallel_for(
      std::is_same_v<Acc, double> ? "nbk::l2_norm::double_acc" : "nbk::l2_norm::float_acc",
      range(exec, 0, static_cast<Index>(a.extent(0))), RowNorms<Acc, A, N>{a, norms, columns});
}

// One host thread over a row-major rows x columns matrix, in index order.
template <class Acc>
void host_row_norms(const float* a, Index rows, Index columns, float* norms) {
  for (Index i = 0; i < rows; ++i) {
    Acc acc = 0;
    for (Index j = 0; j < columns; ++j) {
      const Acc x = a[i * columns + j];
      acc += x * x;
    }
    norms[i] = static_cast<float>(std::sqrt(acc));
  }
}

}  // namespace nbk::l2_norm
