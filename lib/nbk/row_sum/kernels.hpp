#pragma once
// Seed 004's gufunc sum_row, (n,m)->(n): the sum of every row of an int32 or float32 matrix,
// the document's way (plain, and a thread per row adding it alone through our launcher) and one
// host thread. The tuned forms (a team per row, whose threads add the row together; a thread's
// vector lanes per row, a warp on a GPU) are in tuned.hpp.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

#include "nbk/core/compat.hpp"
#include "nbk/core/policy.hpp"

namespace nbk::row_sum {

// What a row of T is summed in and stored as. int32 rows are summed in int64: a row of m
// int32 values sums to at most m * 2^31 in magnitude, which fits for any m below 2^32, so
// every sum is exact; an int32 sum would wrap (or be undefined) once a row passes 2^31.
// float32 rows are summed in float32, rounding at every add.
template <class T>
using Sum = std::conditional_t<std::is_integral_v<T>, std::int64_t, T>;

// Row-major on every space, CUDA included (whose default is LayoutLeft): the document's
// C-order NumPy array, so the upload is a plain copy. A team's threads then read one row's
// consecutive elements, coalesced; a thread per row is the layout's bad case on a GPU, where
// the 32 threads of a warp read 32 rows a row apart (it would want LayoutLeft, a column-major
// copy), and its good case on a CPU, where each thread streams whole rows.
template <class T, class Memory>
using Matrix = Kokkos::View<T**, Kokkos::LayoutRight, Memory>;

// The document's sum_row as Kokkos' documentation writes it: a RangePolicy (64-bit indices), a row a
// call in a KOKKOS_LAMBDA, its columns added in order into tmp = 0. a double, as Numba types it; the
// other kernels (flat_row_sums below, the tuned forms in tuned.hpp) are functors adding in Sum<T> (int64,
// or float32 rounding at every add).
template <class Space, class A, class S>
void plain_row_sums(const Space& exec, const A& a, const S& sums) {
  using Value = typename S::non_const_value_type;
  const std::int64_t n = a.extent(0);  // rows
  const std::int64_t m = a.extent(1);
  Kokkos::parallel_for("nbk::row_sum::plain", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                       KOKKOS_LAMBDA(const std::int64_t i) {
                         double tmp = 0.0;
                         for (std::int64_t j = 0; j < m; ++j) tmp += a(i, j);
                         sums(i) = static_cast<Value>(tmp);
                       });
}

namespace detail {
template <class Space, class A, class S>
constexpr void check_arguments() {
  static_assert(Kokkos::is_execution_space<Space>::value, "the first argument must be an execution space");
  static_assert(Kokkos::is_view<A>::value && A::rank == 2, "the matrix must be a rank-2 View");
  static_assert(Kokkos::SpaceAccessibility<Space, typename A::memory_space>::accessible,
                "the matrix's memory is not accessible from this execution space");
  check_1d_arguments<Space, S>();
  static_assert(std::is_same_v<typename S::value_type, Sum<typename A::non_const_value_type>>,
                "the sums are Sum<T> of the matrix's T");
}
}  // namespace detail

// One thread per row, adding its row in order: the document's sum_row (a row a call), launched
// through our range() and adding in Sum<T>, so it stays here, not among the tuned forms. The
// kernels are functors, not lambdas: under nvcc a lambda's host code is called through a
// wrapper that a host space's loop cannot inline (kokkos/kokkos issue 8141).
template <class A, class S>
struct FlatRowSums {
  using Value = typename S::non_const_value_type;
  A a;
  S sums;
  Index columns;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const {
    Value total = 0;
    for (Index j = 0; j < columns; ++j) total += a(i, j);
    sums(i) = total;
  }
};

template <class Space, class A, class S>
void flat_row_sums(const Space& exec, const A& a, const S& sums) {
  detail::check_arguments<Space, A, S>();
  const auto columns = static_cast<Index>(a.extent(1));
  Kokkos::parallel_for("nbk::row_sum::flat", range(exec, 0, static_cast<Index>(a.extent(0))),
                       FlatRowSums<A, S>{a, sums, columns});
}

// One host thread over a row-major rows x columns matrix, in index order.
template <class T>
void host_row_sums(const T* a, Index rows, Index columns, Sum<T>* sums) {
  for (Index i = 0; i < rows; ++i) {
    Sum<T> total = 0;
    for (Index j = 0; j < columns; ++j) total += a[i * columns + j];
    sums[i] = total;
  }
}

}  // namespace nbk::row_sum
