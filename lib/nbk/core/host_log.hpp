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
//
// On a host compiled for AVX-512 (F and DQ) the sum of logarithms, the one kernel whose time is
// all log, runs an explicit 8-lane form instead (log_f64x8, below): no division, a 16-entry table
// held in registers, specials fixed by one instruction. The portable form above is the reference
// and the fallback (a CUDA build's host code, an AVX2 host).
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

// sum of log(x[i]) for i < n, over contiguous doubles: the host spaces' work item of the
// product's log-sum. One running sum would be a chain of dependent additions that the compiler
// may not reorder, so its logs would run one at a time; `lanes` sums let it vectorize them.
inline double sum_of_logs_portable(const double* x, std::int64_t n) noexcept {
  constexpr std::int64_t lanes = 16;
  double sums[lanes] = {};
  std::int64_t i = 0;
  for (; i + lanes <= n; i += lanes)
    for (std::int64_t lane = 0; lane < lanes; ++lane) sums[lane] += log_f64(x[i + lane]);
  for (; i < n; ++i) sums[0] += log_f64(x[i]);
  double sum = 0;
  for (std::int64_t lane = 0; lane < lanes; ++lane) sum += sums[lane];
  return sum;
}

}  // namespace nbk::host_math

#if defined(__AVX512F__) && defined(__AVX512DQ__) && !defined(__CUDACC__)
#define NBK_HOST_LOG_AVX512 1
#define NBK_SUM_OF_LOGS_FORM "AVX-512, 8 lanes"
#include <immintrin.h>

namespace nbk::host_math {

namespace log_detail {
// x = 2^k m with m in [0.703125, 1.40625). That range's bit patterns fall in 16 runs of 2^48,
// the table's entries; entry 9 is centred on 1 with c = 1 and log c = 0, so nothing cancels
// where log x is small. Then log x = k ln2 + log c + log1p(r) with r = m / c - 1, |r| <= 1/32,
// held exactly as r + r_low. log c is a multiple of 2^-33 plus a remainder, so k ln2_high +
// log c_high is exact. log1p(r) = r + r^2 Q(r), with Q of degree 7 fitted to
// (log1p(r) - r) / r^2 on [-0.0295, 0.0313]. Q's relative error is 2^-49.6, and it reaches
// the result scaled by r / 2. scripts/host_log_table.py derives the tables and Q (mpmath).
inline constexpr std::uint64_t range_start_bits = 0x3fe6800000000000;  // 0.703125
inline constexpr double inv_c[16] = {
    0x1.642c8590b2164p+0, 0x1.5555555555555p+0, 0x1.47ae147ae147bp+0, 0x1.3b13b13b13b14p+0,
    0x1.2f684bda12f68p+0, 0x1.2492492492492p+0, 0x1.1a7b9611a7b96p+0, 0x1.1111111111111p+0,
    0x1.0842108421084p+0, 0x1.0000000000000p+0, 0x1.e1e1e1e1e1e1ep-1, 0x1.c71c71c71c71cp-1,
    0x1.af286bca1af28p-1, 0x1.999999999999ap-1, 0x1.8618618618618p-1, 0x1.745d1745d1746p-1};
inline constexpr double log_c_high[16] = {
    -0x1.522ae07400000p-2, -0x1.2696211400000p-2, -0x1.f991c6cc00000p-3, -0x1.a93ed3c800000p-3,
    -0x1.5bf406b400000p-3, -0x1.1178e82400000p-3, -0x1.9335e5d800000p-4, -0x1.08598b5800000p-4,
    -0x1.0415d8a000000p-5, 0.0,                   0x1.f0a30c0000000p-5,  0x1.e27076e000000p-4,
    0x1.5ff3070c00000p-3,  0x1.c8ff7c7800000p-3,  0x1.1675caba00000p-2,  0x1.4618bc2200000p-2};
inline constexpr double log_c_low[16] = {
    0x1.d70a2c7bf4d9cp-36,  0x1.648dd0f882913p-35, 0x1.8990b84cd7cc8p-36,  -0x1.5b3cade57d4efp-36,
    -0x1.43daffb8292edp-35, 0x1.81b8621cc74bep-35, 0x1.35b3c28f150aep-35,  -0x1.e3a0588a3fd9cp-36,
    0x1.8bbbf8fe8c38ap-37,  0.0,                   0x1.162a8617cc971p-37,  0x1.57974f4f54400p-35,
    -0x1.86c2a378c1df6p-35, 0x1.a9a1fac25d81fp-35, 0x1.74c1e07398fabp-35,  -0x1.d09f017a42642p-37};
inline constexpr double q[8] = {-0x1.ffffffffffff6p-2, 0x1.55555555557c8p-2,  -0x1.0000000052f80p-2,
                                0x1.9999998cfddaap-3,  -0x1.555547791d09cp-3, 0x1.2492c372ce5cap-3,
                                -0x1.005f2b6e84e82p-3, 0x1.c4ca6e0331ae2p-4};

// The 16 entries of a table, picked by the low 4 bits of each lane of `index`.
inline __m512d lookup(const double (&table)[16], __m512i index) {
  return _mm512_permutex2var_pd(_mm512_loadu_pd(table), index, _mm512_loadu_pd(table + 8));
}
inline __m512d splat(double v) { return _mm512_set1_pd(v); }
}  // namespace log_detail

// log of 8 doubles. Accuracy (tests/test_math.cpp, HostLog, against long double): 0.62 ulp at
// most over its inputs, checked against 1.
inline __m512d log_f64x8(__m512d x) noexcept {
  using namespace log_detail;
  // Subnormal lanes are scaled by 2^54 first. Behind a branch on their mask: the two masked
  // instructions done always cost 15% of the log-sum's time on the development VM.
  const __mmask8 subnormal = _mm512_cmp_pd_mask(x, splat(0x1p-1022), _CMP_LT_OQ);
  const __m512d scaled = subnormal ? _mm512_mask_mul_pd(x, subnormal, x, splat(0x1p54)) : x;
  const __m512i u = _mm512_castpd_si512(scaled);
  const __m512i t = _mm512_sub_epi64(u, _mm512_set1_epi64(static_cast<long long>(range_start_bits)));
  const __m512i k = _mm512_srai_epi64(t, 52);
  const __m512i index = _mm512_srli_epi64(t, 48);
  const __m512d m = _mm512_castsi512_pd(_mm512_sub_epi64(u, _mm512_slli_epi64(k, 52)));
  const __m512d k_scaled = _mm512_cvtepi64_pd(k);
  const __m512d kd = subnormal ? _mm512_mask_sub_pd(k_scaled, subnormal, k_scaled, splat(54)) : k_scaled;

  // m/c - 1 = r + r_low exactly: m (1/c) as a product and its error, then r = m (1/c) - 1 exact (Sterbenz).
  // A rounded fma would cost up to half an ulp of log x where log x is small, next to entry 9.
  const __m512d inv = lookup(inv_c, index), product = _mm512_mul_pd(m, inv);
  const __m512d r_low = _mm512_fmsub_pd(m, inv, product), r = _mm512_sub_pd(product, splat(1.0));
  // log1p(r + r_low) = log1p(r) + r_low (1 - r) + O(r_low r^2), that term below 2^-63 (1/32 ulp
  // at most): the slope matters where |r| ~ 1/64.
  const __m512d log1p_r_low = _mm512_fnmadd_pd(r, r_low, r_low);
  const __m512d r2 = _mm512_mul_pd(r, r), r4 = _mm512_mul_pd(r2, r2);
  const __m512d q01 = _mm512_fmadd_pd(r, splat(q[1]), splat(q[0])), q23 = _mm512_fmadd_pd(r, splat(q[3]), splat(q[2]));
  const __m512d q45 = _mm512_fmadd_pd(r, splat(q[5]), splat(q[4])), q67 = _mm512_fmadd_pd(r, splat(q[7]), splat(q[6]));
  const __m512d poly = _mm512_fmadd_pd(r4, _mm512_fmadd_pd(r2, q67, q45), _mm512_fmadd_pd(r2, q23, q01));

  // hi + lo = k ln2 + log c + r, hi exact by Fast2Sum (|w| >= |r| unless w = 0).
  const __m512d w = _mm512_fmadd_pd(kd, splat(ln2_high), lookup(log_c_high, index));
  const __m512d hi = _mm512_add_pd(w, r);
  const __m512d tails = _mm512_add_pd(log1p_r_low, lookup(log_c_low, index));
  const __m512d lo = _mm512_fmadd_pd(kd, splat(ln2_low), _mm512_add_pd(_mm512_add_pd(_mm512_sub_pd(w, hi), r), tails));
  const __m512d y = _mm512_add_pd(hi, _mm512_fmadd_pd(r2, poly, lo));

  // Specials by class of x: NaN -> NaN, +-0 -> -inf, 1 -> +0, -inf and x < 0 -> NaN, +inf -> +inf,
  // x > 0 (subnormals included) -> y. One 4-bit answer per class (Intel SDM, VFIXUPIMMPD).
  return _mm512_fixupimm_pd(y, x, _mm512_set1_epi64(0x03538422), 0);
}

// sum_of_logs_portable's job, 8 lanes at a time, the tail through a masked load. One vector
// accumulator: its addition's latency hides under the log's three dozen instructions, and a
// second (tried) made GCC spill, the constants holding 22 of the 32 registers.
inline double sum_of_logs(const double* x, std::int64_t n) noexcept {
  __m512d sum = _mm512_setzero_pd();
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8) sum = _mm512_add_pd(sum, log_f64x8(_mm512_loadu_pd(x + i)));
  if (i < n) {
    const auto valid = static_cast<__mmask8>((1u << (n - i)) - 1);
    sum = _mm512_mask_add_pd(sum, valid, sum, log_f64x8(_mm512_maskz_loadu_pd(valid, x + i)));
  }
  return _mm512_reduce_add_pd(sum);
}

}  // namespace nbk::host_math

#else
#define NBK_SUM_OF_LOGS_FORM "portable, vectorized by the compiler"

namespace nbk::host_math {
inline double sum_of_logs(const double* x, std::int64_t n) noexcept { return sum_of_logs_portable(x, n); }
}  // namespace nbk::host_math

#endif
