#pragma once
// The row norms' tuned form, written for speed beside the document's kernels (kernels.hpp): rows
// of the document's 2 or 3 components a block at a time on a CPU, so that its vector lanes take
// eight rows at once. Measured against the plain row in notes.md's "## Tuned forms".
#include <Kokkos_Core.hpp>

#include <cmath>
#include <type_traits>

#include "nbk/core/code.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/policy.hpp"
#include "nbk/l2_norm/kernels.hpp"

namespace nbk::l2_norm {

// Rows a work item of the host code takes.
inline constexpr Index rows_per_block = 256;

namespace detail {
// norms[r] of `rows` rows of `Columns` floats from `a`: RowNorms' operations in RowNorms' order
// (acc = 0, then acc += x * x a component), a row's norm the same bits whichever lane or scalar
// remainder computes it (no contraction: -ffp-contract=off; a square root rounds exactly). With
// the column count a constant and the arrays unaliased, the compiler unrolls each row and puts
// consecutive rows in vector lanes, where the run-time column count of RowNorms keeps it to a row
// at a time (3 ns a row on the development VM, in L1 as in L3: docs/measured.md).
template <class Acc, int Columns>
inline void norms_of_rows(const float* __restrict__ a, float* __restrict__ norms, int rows) {
  for (int r = 0; r < rows; ++r) {
    Acc acc = 0;
    for (int j = 0; j < Columns; ++j) {
      const Acc x = a[r * Columns + j];
      acc += x * x;
    }
    norms[r] = static_cast<float>(std::sqrt(acc));
  }
}

// A block of rows_per_block rows a call (the last one shorter).
template <class Acc, int Columns>
struct BlockNorms {
  const float* a;
  float* norms;
  Index rows;
  void operator()(Index b) const {
    const Index first = b * rows_per_block;
    const Index count = rows - first < rows_per_block ? rows - first : rows_per_block;
    norms_of_rows<Acc, Columns>(a + first * Columns, norms + first, static_cast<int>(count));
  }
};

template <class Acc, int Columns, class Space>
void block_norms(const Space& exec, const float* a, float* norms, Index rows) {
  Kokkos::parallel_for(std::is_same_v<Acc, double> ? "nbk::l2_norm::blocked_double" : "nbk::l2_norm::blocked_float",
                       range(exec, 0, (rows + rows_per_block - 1) / rows_per_block),
                       BlockNorms<Acc, Columns>{a, norms, rows});
}
}  // namespace detail

// Whether the host code takes these rows: 2 or 3 components (the document's shapes), the matrix
// and the norms each one contiguous array.
template <class A, class N>
bool blocks_fit(const A& a, const N& norms) {
  const auto columns = a.extent(1);
  return (columns == 2 || columns == 3) && a.span_is_contiguous() && a.stride(0) == columns &&
         norms.span_is_contiguous();
}

// Tuned form: blocked_row_norms: a CPU's work item 256 rows of 2 or 3 components, the count a constant, so its vector lanes take eight rows at once; GPU code and other shapes are row_norms'.
template <class Acc, class Space, class A, class N, class Code = CodeFor<Space>>
void blocked_row_norms(const Space& exec, const A& a, const N& norms, Code = {}) {
  static_assert(is_gpu_code_v<Code> || !is_device_space_v<Space>, "host code runs on host spaces only");
  check_rows_arguments<Acc, Space, A, N>();
  if constexpr (is_gpu_code_v<Code>) {
    row_norms<Acc>(exec, a, norms);  // a row a thread: a warp's 32 rows share their loads (kernels.hpp)
  } else {
    if (!blocks_fit(a, norms)) {
      row_norms<Acc>(exec, a, norms);
      return;
    }
    const auto rows = static_cast<Index>(a.extent(0));
    if (a.extent(1) == 3) detail::block_norms<Acc, 3>(exec, a.data(), norms.data(), rows);
    else detail::block_norms<Acc, 2>(exec, a.data(), norms.data(), rows);
  }
}

}  // namespace nbk::l2_norm
