#pragma once
// The matrix product's problem (its statement: experiment.cpp): A and B, float32 N(0, 1), made
// for a size m x n x p with A B and |A| |B| in double, and the check of a product C against them.
#include <fmt/format.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <ostream>

#include "nbk/core/allocate.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/random_data.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/matmul/kernels.hpp"

namespace nbk::matmul {

using HostMatrix = Matrix<Kokkos::HostSpace>;
using HostDoubles = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;

// A size is m x n x p: A is m x n, B is n x p, C is m x p.
inline Index rows(const exp::Size& s) { return s[0]; }
inline Index inner(const exp::Size& s) { return s[1]; }
inline Index columns(const exp::Size& s) { return s[2]; }

struct Matrices {
  std::int64_t rows, columns;
  std::uint64_t element_bytes = sizeof(float);
};

// The bytes of some matrices, saturating: parse_size lets m n p reach 2^63, and then m n
// floats do not fit in 64 bits of bytes.
inline std::uint64_t bytes_of(std::initializer_list<Matrices> matrices) {
  std::uint64_t total = 0;
  for (const Matrices& x : matrices) {
    std::uint64_t bytes = 0;
    if (__builtin_mul_overflow(static_cast<std::uint64_t>(x.rows) * static_cast<std::uint64_t>(x.columns),
                               x.element_bytes, &bytes) ||
        __builtin_add_overflow(total, bytes, &total))
      return std::numeric_limits<std::uint64_t>::max();
  }
  return total;
}

struct Problem final : exp::Problem {
  Problem(const exp::Size& s, std::uint64_t seed_);  // below
  exp::Size size;
  std::uint64_t seed = 0;
  HostMatrix a, b;                  // N(0, 1): signed, so that the dot products cancel
  HostDoubles reference, magnitude;  // A B and |A| |B|, in double
  void describe(std::ostream& out) const override {
    out << fmt::format("C = A B, float32 row-major A ({} x {}) times B ({} x {}), N(0,1), seed {}; checked against "
                       "A B in double\n",
                       rows(size), inner(size), inner(size), columns(size), seed);
  }
  nlohmann::json to_json() const override {
    return {{"element_type", "float32"}, {"m", rows(size)}, {"n", inner(size)}, {"p", columns(size)}, {"seed", seed}};
  }
};

// Row i of the reference: A B and |A| |B| in double, i-k-j. Plain loops sharing no code with
// the kernels; products of two floats are exact in double, so only the sums round.
inline void reference_row(const Problem& p, Index i) {
  const Index n = inner(p.size), columns_of_c = columns(p.size);
  for (Index j = 0; j < columns_of_c; ++j) p.reference(i, j) = p.magnitude(i, j) = 0;
  for (Index k = 0; k < n; ++k) {
    const double aik = p.a(i, k);
    for (Index j = 0; j < columns_of_c; ++j) {
      const double term = aik * p.b(k, j);
      p.reference(i, j) += term;
      p.magnitude(i, j) += std::abs(term);
    }
  }
}

// A and B for a size, from a seed, and their product's reference.
inline Problem::Problem(const exp::Size& s, std::uint64_t seed_)
    : size(s),
      seed(seed_),
      a(allocate<HostMatrix>("nbk::matmul::a", rows(s), inner(s))),
      b(allocate<HostMatrix>("nbk::matmul::b", inner(s), columns(s))),
      reference(allocate<HostDoubles>("nbk::matmul::reference", rows(s), columns(s))),
      magnitude(allocate<HostDoubles>("nbk::matmul::magnitude", rows(s), columns(s))) {
  fill_standard_normal(a.data(), rows(s) * inner(s), seed);
  fill_standard_normal(b.data(), inner(s) * columns(s), seed + 1);
  // A plain host lambda: the rows of the reference, in parallel on the host threads.
  const Problem& problem = *this;
  Kokkos::parallel_for("nbk::matmul::reference", range(Kokkos::DefaultHostExecutionSpace(), 0, rows(s)),
                       [&problem](Index i) { reference_row(problem, i); });
  nbk::fence(Kokkos::DefaultHostExecutionSpace(), "nbk::matmul::reference");
}

// A float32 dot product of length n, summed in any order, with or without fused multiply-
// adds, is within gamma_n = n u / (1 - n u) of the exact one relative to sum_k |a_ik b_kj|
// (Higham, Accuracy and Stability of Numerical Algorithms, section 3.1), u = 2^-24; the
// double reference is within about n 2^-53 of that sum, far below. Right products land near
// sqrt(n) u; a lost or repeated term, about sum / n for these data, exceeds the bound for n
// below 2^12, and an element never written stays NaN and fails any bound.
inline exp::Verdict product_verdict(const Problem& p, const float* c) {
  const double u = std::numeric_limits<float>::epsilon() / 2;
  const double nu = static_cast<double>(inner(p.size)) * u;
  const double gamma = nu < 1 ? nu / (1 - nu) : std::numeric_limits<double>::infinity();
  std::int64_t wrong = 0;
  double worst = 0;  // the largest error, in units of u sum_k |a_ik b_kj|
  const Index elements = rows(p.size) * columns(p.size);
  for (Index e = 0; e < elements; ++e) {
    const double error = std::abs(static_cast<double>(c[e]) - p.reference.data()[e]);
    const double magnitude = p.magnitude.data()[e];
    if (!(error <= gamma * magnitude)) ++wrong;
    if (magnitude > 0) worst = std::max(worst, error / (u * magnitude));
  }
  exp::Verdict v;
  v.ok = wrong == 0;
  v.summary = v.ok ? "ok" : fmt::format("FAILED ({} beyond n u)", wrong);
  v.cells = {{"error / u|A||B|", fmt::format("{:.2f}", worst)}};
  v.details = {{"mismatches", wrong}, {"max_error_in_u_of_magnitude", worst}, {"tolerance_in_u", gamma / u}};
  return v;
}

}  // namespace nbk::matmul
