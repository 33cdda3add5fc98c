#pragma once
// log(x) in double for the host spaces' loops, written so that GCC vectorizes it inline: glibc's
// vector log (libmvec, _ZGVeN8v_log) costs about 1.5 times as much per element on the
// development VM's AVX-512 core, which left the product's sum of logarithms behind NumPy's.
//
// The classical reduction: x = 2^k m with m in [sqrt(1/2), sqrt(2)), f = m - 1,
// s = f / (2 + f), log(1 + f) = 2 atanh(s) = f - f^2/2 + s (f^2/2 + R(s^2)), R the minimax
// polynomial of fdlibm's e_log.c (Sun Microsystems, freely redistributable), k ln 2 added in
// two parts. Subnormal inputs are scaled by 2^54 first. Branch-free: zero, infinity, negative
// and NaN inputs pick their result by bits. Accuracy (tests/test_math.cpp, against long
// double): below 1 ulp.
#include <cstdint>
#include <cstring>
#include <limits>

#include "nbk/core/multiply_add.hpp"

namespace nbk::host_math {

namespace log_detail {
inline std::uint64_t bits(double x) {
  std::uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
inline double from_bits(std::uint64_t u) {
  double x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}
inline constexpr double ln2_high = 0x1.62e42fee00000p-1, ln2_low = 0x1.a39ef35793c76p-33;
inline constexpr std::uint64_t sqrt_half_bits = 0x3fe6a09e667f3bcd;
}  // namespace log_detail

inline double log_f64(double x) noexcept {
  using namespace log_detail;
  constexpr double inf = std::numeric_limits<double>::infinity();
  const bool subnormal = x < 0x1p-1022;
  const std::uint64_t u = bits(subnormal ? x * 0x1p54 : x);
  const std::int64_t k = static_cast<std::int64_t>(u - sqrt_half_bits) >> 52;  // m in [sqrt(1/2), sqrt(2))
  const double f = from_bits(u - (static_cast<std::uint64_t>(k) << 52)) - 1.0;
  const double s = f / (2.0 + f);
  const double z = s * s, w = z * z;
  const double odd = w * multiply_add(w, multiply_add(w, 0x1.39a09d078c69fp-3, 0x1.c71c51d8e78afp-3), 0x1.999999997fa04p-2);
  const double even = z * multiply_add(w, multiply_add(w, multiply_add(w, 0x1.2f112df3e5244p-3, 0x1.7466496cb03dep-3),
                                                       0x1.2492494229359p-2),
                                       0x1.5555555555593p-1);
  const double half_f2 = 0.5 * f * f;
  const double dk = static_cast<double>(k - (subnormal ? 54 : 0));
  const double y = dk * ln2_high - ((half_f2 - multiply_add(s, half_f2 + odd + even, dk * ln2_low)) - f);

  // A conditional on y itself would let GCC compute y in a branch and leave the loop scalar.
  const double special = x == 0 ? -inf : x == inf ? inf : std::numeric_limits<double>::quiet_NaN();
  const std::uint64_t use_y = (x > 0) & (x < inf) ? ~std::uint64_t{0} : 0;
  return from_bits((bits(y) & use_y) | (bits(special) & ~use_y));
}

}  // namespace nbk::host_math
