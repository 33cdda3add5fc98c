#pragma once
// Host-side references. Deliberately plain loops over raw host pointers, sharing no code
// with the kernels they check.
#include <cmath>
#include <cstdint>

namespace nbk {

// Elements of data[0, n) that differ from `expected`.
template <class T>
std::int64_t count_not_equal(const T* data, std::int64_t n, T expected) {
  std::int64_t bad = 0;
  for (std::int64_t i = 0; i < n; ++i) bad += (data[i] != expected);
  return bad;
}

// |a - b| <= tolerance * max(|a|, |b|), or both are exactly equal (zeros, infinities).
inline bool close_relative(double a, double b, double tolerance) {
  if (a == b) return true;
  return std::fabs(a - b) <= tolerance * std::fmax(std::fabs(a), std::fabs(b));
}

}  // namespace nbk
