#pragma once
// How far a floating-point sum may stray from the exact one, and how many digits it kept.
//
// Each addition in a sum rounds its result t_j: fl(t_j) = t_j (1 + d_j), |d_j| <= u (the
// unit roundoff of the accumulator: 2^-24 for float, 2^-53 for double). To first order the
// total error is sum_j d_j t_j over the n-1 additions, whatever the order.
//
// Worst case (Higham, Accuracy and Stability, eq. 4.4): |t_j| <= sum|x|, so
//     |error| <= gamma_{n-1} sum|x|,   gamma_k = k u / (1 - k u).
// It is a proof, but for 2^27 floats (n-1) u = 8: it says nothing at all.
//
// Probabilistic (Higham & Mary, SIAM J. Sci. Comput. 2019): if the d_j behave as independent
// zero-mean variables, Hoeffding's inequality gives, with probability >= 1 - 2 exp(-lambda^2/2),
//     |error| <= lambda u sqrt(sum_j t_j^2) <= lambda u sqrt(n-1) max|t_j|.
// Every reduction in this project adds up contiguous runs of the input (a loop over a
// chunk, then a tree or a loop over the chunks' partials), so each t_j is a difference of
// two prefix sums: |t_j| <= 2 max_k |x_0 + .. + x_k|, and never above sum|x|. A GPU thread's
// strided partial is not contiguous, but on zero-mean random data it has the size of one.
// lambda = 6 puts the chance of a false alarm under 2e-8. For the seeded N(0,1) data at the
// document's size this is ~1e2 for float accumulation (1% of a typical sum of ~1e4) and
// ~2e-7 for double: tight enough to catch a lost or doubled block of data.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace nbk {

template <class Accumulator>
constexpr double unit_roundoff() {
  return std::numeric_limits<Accumulator>::epsilon() / 2;
}

// What the bounds need to know about the data.
struct SumScale {
  std::int64_t n = 0;
  double sum_abs = 0;     // sum |x_i|
  double max_prefix = 0;  // max_k |x_0 + ... + x_k| (in double: a scale, not a result)
};

// The scale of x[0, n); its prefix sums start from `start` (the sum of what comes before it,
// where x is one rank's slice of a longer array).
template <class T>
SumScale sum_scale(const T* x, std::int64_t n, double start = 0.0) {
  SumScale scale;
  scale.n = n;
  double prefix = start;
  for (std::int64_t i = 0; i < n; ++i) {
    scale.sum_abs += std::fabs(static_cast<double>(x[i]));
    prefix += static_cast<double>(x[i]);
    scale.max_prefix = std::max(scale.max_prefix, std::fabs(prefix));
  }
  return scale;
}

// gamma_{n-1} sum|x|; +inf when (n-1) u >= 1 and the bound proves nothing.
inline double worst_case_bound(const SumScale& s, double u) {
  const double k = s.n > 1 ? static_cast<double>(s.n - 1) : 0.0;
  if (k * u >= 1.0) return std::numeric_limits<double>::infinity();
  return k * u / (1.0 - k * u) * s.sum_abs;
}

inline constexpr double default_lambda = 6.0;

// lambda u sqrt(n-1) min(2 max|prefix|, sum|x|), plus a few ulps of slack for the scale
// itself being computed in double.
inline double probabilistic_bound(const SumScale& s, double u, double lambda = default_lambda) {
  if (s.n <= 1) return 0.0;
  const double largest_partial = std::min(2.0 * s.max_prefix, s.sum_abs) * (1.0 + 1e-12);
  return lambda * u * std::sqrt(static_cast<double>(s.n - 1)) * largest_partial;
}

// The tolerance a sum accumulated with unit roundoff u is checked against: the smaller of
// the proof and the probabilistic bound (the proof wins for short sums).
inline double sum_tolerance(const SumScale& s, double u) {
  return std::min(worst_case_bound(s, u), probabilistic_bound(s, u));
}

// Significant decimal digits a result shares with the exact value: -log10 |error / exact|.
// +inf when the error is zero; NaN when the exact value is zero and the error is not.
inline double correct_digits(long double error, long double exact) {
  if (error == 0) return std::numeric_limits<double>::infinity();
  if (exact == 0) return std::numeric_limits<double>::quiet_NaN();
  return static_cast<double>(-std::log10(std::fabs(error / exact)));
}

}  // namespace nbk
