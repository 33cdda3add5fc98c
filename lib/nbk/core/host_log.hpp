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
// On a host compiled for AVX-512 (F and DQ) or for AVX2 and FMA (x86-64-v3: a CUDA build's host
// code, AMD's Zen 2 and 3), the sum of logarithms, the one kernel whose time is all log, runs an
// explicit vector form instead (below): no division, a 16-entry table, 8 lanes a vector with
// AVX-512 and 4 with AVX2, one algorithm written once over a small interface per instruction set.
// The portable form above is the fallback (a host without AVX2, nvcc's device pass) and the
// per-element log of the kernels' nbk::math::log (host_vector_math.hpp).
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

#if !defined(__CUDA_ARCH__) && ((defined(__AVX512F__) && defined(__AVX512DQ__)) || (defined(__AVX2__) && defined(__FMA__)))
#define NBK_HOST_LOG_VECTOR 1
#include <immintrin.h>

namespace nbk::host_math {

namespace log_detail {
// x = 2^k m with m in [0.703125, 1.40625). That range's bit patterns fall in 16 runs of 2^48,
// the table's entries; entry 9 is centred on 1 with c = 1 and log c = 0, so nothing cancels
// where log x is small. Then log x = k ln2 + log c + log1p(r) with r = m / c - 1, |r| <= 1/32,
// held exactly as r + r_low. log c is a multiple of 2^-33 plus a remainder, so k ln2_high +
// log c_high is exact. log1p(r) = r + r^2 Q(r), with Q of degree 7 fitted to
// (log1p(r) - r) / r^2 on [-0.0295, 0.0313]. Q's relative error is 2^-49.6, and it reaches
// the result scaled by r / 2. scripts/host_log_table.py derives the tables, Q and the constants
// of the reduction below (mpmath).
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

// The reduction in 64-bit integer lanes, with logical shifts only (AVX2 has no arithmetic one):
// t = bits(x) + bias, where bias = 2^63 - 2^52 - (range_start_bits mod 2^52). For a positive
// normal x, t's top 12 bits are k + 3069, bits 48-51 the table's index, and its low 52 bits + the
// range's start are m's bits. And x is a positive normal double at least 1.40625 2^-1022, not
// infinity (the lanes the loop's fast path may take), exactly when t, read as a signed integer,
// is below normal_limit: one comparison. (The smallest normals are taken by the general path.)
inline constexpr std::uint64_t bias = 0x7fe9800000000000;
inline constexpr std::int64_t normal_limit = static_cast<std::int64_t>(0xffd9800000000000);
inline constexpr std::uint64_t low_52 = 0x000fffffffffffff;
// k as a double with no conversion instruction (AVX2 has none for 64-bit integers): the top
// bits t >> 52 < 2^12 placed in the mantissa of 2^52, then 2^52 + 3069 taken off, exactly.
inline constexpr std::uint64_t two_52_bits = 0x4330000000000000;
inline constexpr double exponent_offset = 0x1p52 + 3069;

// The tables entry by entry for AVX2, a lane's entry 32 bytes (one load), and picked by bits
// 47-51 of x (h) instead of t's 48-51, which are (x's bits 48-51 + 9 + x's bit 47) mod 16 (bias's
// bits 44-47 are 8, those below 0): 32 half-entries, h's entry (h + 1) / 2 + 9 mod 16, so that
// a lane's offset is two scalar instructions from x's bits.
struct alignas(32) Entry {
  double inv_c, log_c_high, log_c_low, unused;
};
struct HalfEntries {
  Entry by_h[32];
};
constexpr HalfEntries half_entries_of_tables() {
  HalfEntries e{};
  for (int h = 0; h < 32; ++h) {
    const int i = ((h + 1) / 2 + 9) % 16;
    e.by_h[h] = {inv_c[i], log_c_high[i], log_c_low[i], 0.0};
  }
  return e;
}
alignas(64) inline constexpr HalfEntries half_entries = half_entries_of_tables();

// What the algorithm below needs of an instruction set: D holds lanes of doubles and I lanes of
// 64-bit integers (the same register), Lanes a test per lane (a mask or a vector of all-ones).
// lookup(t) gives each lane's entry of the three tables; lookup_at(x, t) the same for lanes that
// were loaded from x, where that is cheaper; specials(y, x) puts the results of zero, negative,
// infinite and NaN inputs in place of y.

// AVX2 and FMA: 4 lanes, 16 registers. The entries are loaded lane by lane and transposed. From
// lanes in memory their offsets are computed in scalar registers (integer units beside the vector
// ones). The log-sum's loop, AVX2 code on the development VM's Zen 4 core, one thread: 1.07 ns an
// element so (BMI's BEXTR; 1.13 by a shift and a mask), 1.46 with the offsets moved out of a
// vector register (vmovq/vpextrq, or a store and loads), 1.86 with AVX2's gathers, 1.88 with the
// table in 4 registers (VPERMD, then blends); the AVX-512 form 0.73, the portable loop 6.5.
struct Avx2 {
  using D = __m256d;
  using I = __m256i;
  using Lanes = __m256d;
  static constexpr int lanes = 4;
  static D splat(double v) { return _mm256_set1_pd(v); }
  static I splat_bits(std::uint64_t v) { return _mm256_set1_epi64x(static_cast<long long>(v)); }
  static D load(const double* p) { return _mm256_loadu_pd(p); }
  static void store(double* p, D v) { _mm256_storeu_pd(p, v); }
  static D add(D a, D b) { return _mm256_add_pd(a, b); }
  static D sub(D a, D b) { return _mm256_sub_pd(a, b); }
  static D mul(D a, D b) { return _mm256_mul_pd(a, b); }
  static D fmadd(D a, D b, D c) { return _mm256_fmadd_pd(a, b, c); }
  static D fmsub(D a, D b, D c) { return _mm256_fmsub_pd(a, b, c); }
  static D fnmadd(D a, D b, D c) { return _mm256_fnmadd_pd(a, b, c); }
  static I bits(D x) { return _mm256_castpd_si256(x); }
  static D from_bits(I u) { return _mm256_castsi256_pd(u); }
  static I add_bits(I a, I b) { return _mm256_add_epi64(a, b); }
  static I and_bits(I a, I b) { return _mm256_and_si256(a, b); }
  static I or_bits(I a, I b) { return _mm256_or_si256(a, b); }
  template <int n>
  static I shift_right(I a) { return _mm256_srli_epi64(a, n); }
  static Lanes every() { return _mm256_castsi256_pd(_mm256_set1_epi64x(-1)); }
  static Lanes both(Lanes a, Lanes b) { return _mm256_and_pd(a, b); }
  static bool any(Lanes a) { return _mm256_movemask_pd(a) != 0; }
  static bool all(Lanes a) { return _mm256_movemask_pd(a) == 0xf; }
  static Lanes below(I t, std::int64_t limit) {  // signed
    return _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_set1_epi64x(limit), t));
  }
  static Lanes less(D a, D b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
  static D select(Lanes where, D a, D otherwise) { return _mm256_blendv_pd(otherwise, a, where); }
  static double sum(D v) {
    const __m128d half = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(_mm_add_sd(half, _mm_unpackhi_pd(half, half)));
  }

  struct Table {
    D inv_c, log_c_high, log_c_low;
  };
  static std::uint64_t offset_of(std::uint64_t u) {  // h * sizeof(Entry) from x's bits u
#if defined(__BMI__)
    return _bextr_u64(u, 47, 5) << 5;
#else
    return u >> 42 & 0x3e0;
#endif
  }
  static Table at_offsets(const std::uint64_t (&offset)[4]) {
    const char* base = reinterpret_cast<const char*>(&half_entries);
    const auto entry = [&](int lane) { return _mm256_load_pd(reinterpret_cast<const double*>(base + offset[lane])); };
    const D e0 = entry(0), e1 = entry(1), e2 = entry(2), e3 = entry(3);
    const D low01 = _mm256_unpacklo_pd(e0, e1), high01 = _mm256_unpackhi_pd(e0, e1);
    const D low23 = _mm256_unpacklo_pd(e2, e3), high23 = _mm256_unpackhi_pd(e2, e3);
    return {_mm256_permute2f128_pd(low01, low23, 0x20), _mm256_permute2f128_pd(high01, high23, 0x20),
            _mm256_permute2f128_pd(low01, low23, 0x31)};
  }
  static Table lookup(I t) {
    alignas(32) std::uint64_t u[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(u), _mm256_sub_epi64(t, splat_bits(bias)));
    const std::uint64_t offset[4] = {offset_of(u[0]), offset_of(u[1]), offset_of(u[2]), offset_of(u[3])};
    return at_offsets(offset);
  }
  static Table lookup_at(const double* x, I) {
    std::uint64_t offset[4];
    for (int lane = 0; lane < 4; ++lane) {
      std::uint64_t u;
      std::memcpy(&u, x + lane, sizeof u);
      offset[lane] = offset_of(u);
    }
    return at_offsets(offset);
  }
  // As AVX-512's VFIXUPIMMPD below: NaN -> the input quieted, +-0 -> -inf, +inf -> +inf, -inf
  // and x < 0 -> the default NaN, x > 0 finite (subnormals included) -> y.
  static D specials(D y, D x) {
    const D zero = _mm256_setzero_pd(), inf = splat(std::numeric_limits<double>::infinity());
    D special = _mm256_blendv_pd(from_bits(splat_bits(0xfff8000000000000)), inf, _mm256_cmp_pd(x, inf, _CMP_EQ_OQ));
    special = _mm256_blendv_pd(special, splat(-std::numeric_limits<double>::infinity()), _mm256_cmp_pd(x, zero, _CMP_EQ_OQ));
    special = _mm256_blendv_pd(special, _mm256_add_pd(x, x), _mm256_cmp_pd(x, x, _CMP_UNORD_Q));
    const D finite_positive = _mm256_and_pd(_mm256_cmp_pd(x, zero, _CMP_GT_OQ), _mm256_cmp_pd(x, inf, _CMP_LT_OQ));
    return _mm256_blendv_pd(special, y, finite_positive);
  }
};

#if defined(__AVX512F__) && defined(__AVX512DQ__)
#define NBK_HOST_LOG_AVX512 1
// AVX-512 (F and DQ): 8 lanes, 32 registers, masks. Each table is two registers, and one
// permutation (VPERMT2PD) picks every lane's entry.
struct Avx512 {
  using D = __m512d;
  using I = __m512i;
  using Lanes = __mmask8;
  static constexpr int lanes = 8;
  static D splat(double v) { return _mm512_set1_pd(v); }
  static I splat_bits(std::uint64_t v) { return _mm512_set1_epi64(static_cast<long long>(v)); }
  static D load(const double* p) { return _mm512_loadu_pd(p); }
  static void store(double* p, D v) { _mm512_storeu_pd(p, v); }
  static D add(D a, D b) { return _mm512_add_pd(a, b); }
  static D sub(D a, D b) { return _mm512_sub_pd(a, b); }
  static D mul(D a, D b) { return _mm512_mul_pd(a, b); }
  static D fmadd(D a, D b, D c) { return _mm512_fmadd_pd(a, b, c); }
  static D fmsub(D a, D b, D c) { return _mm512_fmsub_pd(a, b, c); }
  static D fnmadd(D a, D b, D c) { return _mm512_fnmadd_pd(a, b, c); }
  static I bits(D x) { return _mm512_castpd_si512(x); }
  static D from_bits(I u) { return _mm512_castsi512_pd(u); }
  static I add_bits(I a, I b) { return _mm512_add_epi64(a, b); }
  static I and_bits(I a, I b) { return _mm512_and_si512(a, b); }
  static I or_bits(I a, I b) { return _mm512_or_si512(a, b); }
  template <int n>
  static I shift_right(I a) { return _mm512_srli_epi64(a, n); }
  static Lanes every() { return 0xff; }
  static Lanes both(Lanes a, Lanes b) { return a & b; }
  static bool any(Lanes a) { return a != 0; }
  static bool all(Lanes a) { return a == 0xff; }
  static Lanes below(I t, std::int64_t limit) { return _mm512_cmplt_epi64_mask(t, _mm512_set1_epi64(limit)); }
  static Lanes less(D a, D b) { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
  static D select(Lanes where, D a, D otherwise) { return _mm512_mask_blend_pd(where, otherwise, a); }
  static double sum(D v) { return _mm512_reduce_add_pd(v); }

  struct Table {
    D inv_c, log_c_high, log_c_low;
  };
  static D lookup(const double (&table)[16], I index) {  // by the low 4 bits of each lane of index
    return _mm512_permutex2var_pd(_mm512_loadu_pd(table), index, _mm512_loadu_pd(table + 8));
  }
  static Table lookup(I t) {
    const I index = _mm512_srli_epi64(t, 48);
    return {lookup(inv_c, index), lookup(log_c_high, index), lookup(log_c_low, index)};
  }
  static Table lookup_at(const double*, I t) { return lookup(t); }
  // Specials by class of x: NaN -> NaN, +-0 -> -inf, 1 -> +0, -inf and x < 0 -> NaN, +inf -> +inf,
  // x > 0 (subnormals included) -> y. One 4-bit answer per class (Intel SDM, VFIXUPIMMPD).
  static D specials(D y, D x) { return _mm512_fixupimm_pd(y, x, _mm512_set1_epi64(0x03538422), 0); }
};
#endif

// log x from t = bits(x) + bias, the lanes' table entries and k as a double; every lane's x a
// positive normal double (or made one: the general path below).
template <class V>
inline typename V::D log_reduced(typename V::I t, const typename V::Table& c, typename V::D kd) noexcept {
  using D = typename V::D;
  const auto splat = [](double v) { return V::splat(v); };
  const D m = V::from_bits(V::add_bits(V::and_bits(t, V::splat_bits(low_52)), V::splat_bits(range_start_bits)));

  // m/c - 1 = r + r_low exactly: m (1/c) as a product and its error, then r = m (1/c) - 1 exact (Sterbenz).
  // A rounded fma would cost up to half an ulp of log x where log x is small, next to entry 9.
  const D product = V::mul(m, c.inv_c);
  const D r_low = V::fmsub(m, c.inv_c, product), r = V::sub(product, splat(1.0));
  // log1p(r + r_low) = log1p(r) + r_low (1 - r) + O(r_low r^2), that term below 2^-63 (1/32 ulp
  // at most): the slope matters where |r| ~ 1/64.
  const D log1p_r_low = V::fnmadd(r, r_low, r_low);
  const D r2 = V::mul(r, r), r4 = V::mul(r2, r2);
  const D q01 = V::fmadd(r, splat(q[1]), splat(q[0])), q23 = V::fmadd(r, splat(q[3]), splat(q[2]));
  const D q45 = V::fmadd(r, splat(q[5]), splat(q[4])), q67 = V::fmadd(r, splat(q[7]), splat(q[6]));
  const D poly = V::fmadd(r4, V::fmadd(r2, q67, q45), V::fmadd(r2, q23, q01));

  // hi + lo = k ln2 + log c + r, hi exact by Fast2Sum (|w| >= |r| unless w = 0).
  const D w = V::fmadd(kd, splat(ln2_high), c.log_c_high);
  const D hi = V::add(w, r);
  const D tails = V::add(log1p_r_low, c.log_c_low);
  const D lo = V::fmadd(kd, splat(ln2_low), V::add(V::add(V::sub(w, hi), r), tails));
  return V::add(hi, V::fmadd(r2, poly, lo));
}

template <class V>
inline typename V::D exponent_of(typename V::I t) noexcept {  // k, exactly
  return V::sub(V::from_bits(V::or_bits(V::template shift_right<52>(t), V::splat_bits(two_52_bits))),
                V::splat(exponent_offset));
}

// log of every lane, whatever its value: subnormal lanes scaled by 2^54 first (behind a branch:
// rare, and masked instructions done always cost 15% of the log-sum's time with AVX-512), the
// specials put in place at the end.
template <class V>
inline typename V::D log_lanes(typename V::D x) noexcept {
  using D = typename V::D;
  const auto small = V::less(x, V::splat(0x1p-1022));  // subnormals, zeros and negatives
  const bool scale = V::any(small);
  const D scaled = scale ? V::select(small, V::mul(x, V::splat(0x1p54)), x) : x;
  const auto t = V::add_bits(V::bits(scaled), V::splat_bits(bias));
  D kd = exponent_of<V>(t);
  if (scale) kd = V::select(small, V::sub(kd, V::splat(54)), kd);
  return V::specials(log_reduced<V>(t, V::lookup(t), kd), x);
}

// The lanes of x[0 ... V::lanes - 1] at y, as sum_of_logs takes them (tests).
template <class V>
inline void log_of_lanes(const double* x, double* y) noexcept {
  const auto t = V::add_bits(V::bits(V::load(x)), V::splat_bits(bias));
  V::store(y, V::all(V::below(t, normal_limit)) ? log_reduced<V>(t, V::lookup_at(x, t), exponent_of<V>(t))
                                                 : log_lanes<V>(V::load(x)));
}

// sum of log(x[i]), i < n, a vector at a time, the last one's missing lanes ones (log 1 = 0).
// One vector accumulator: its addition's latency hides under the log's 40-odd instructions, and a
// second (tried with AVX-512) made GCC spill. The loop takes every lane as a positive normal
// double and only notes those that are not; if any was, the whole call is done again by the
// general path (log_lanes): a test and a branch per vector cost 10-15% of the loop's time.
template <class V>
inline double sum_of_logs(const double* x, std::int64_t n) noexcept {
  using D = typename V::D;
  constexpr int lanes = V::lanes;
  alignas(64) double last[lanes];
  const std::int64_t whole = n - n % lanes;
  for (int lane = 0; lane < lanes; ++lane) last[lane] = whole + lane < n ? x[whole + lane] : 1.0;
  const auto fast = [](const double* at, D& sum, typename V::Lanes& normal) {
    const auto t = V::add_bits(V::bits(V::load(at)), V::splat_bits(bias));
    normal = V::both(normal, V::below(t, normal_limit));
    sum = V::add(sum, log_reduced<V>(t, V::lookup_at(at, t), exponent_of<V>(t)));
  };
  D sum = V::splat(0.0);
  auto normal = V::every();
  for (std::int64_t i = 0; i < whole; i += lanes) fast(x + i, sum, normal);
  if (whole < n) fast(last, sum, normal);
  if (!V::all(normal)) {
    sum = V::splat(0.0);
    for (std::int64_t i = 0; i < whole; i += lanes) sum = V::add(sum, log_lanes<V>(V::load(x + i)));
    if (whole < n) sum = V::add(sum, log_lanes<V>(V::load(last)));
  }
  return V::sum(sum);
}

}  // namespace log_detail

// The widest form this build's target has.
#if defined(NBK_HOST_LOG_AVX512)
using VectorLog = log_detail::Avx512;
#define NBK_SUM_OF_LOGS_FORM "AVX-512, 8 lanes"
#else
using VectorLog = log_detail::Avx2;
#define NBK_SUM_OF_LOGS_FORM "AVX2 and FMA, 4 lanes"
#endif

inline double sum_of_logs(const double* x, std::int64_t n) noexcept { return log_detail::sum_of_logs<VectorLog>(x, n); }

}  // namespace nbk::host_math

#else
#define NBK_SUM_OF_LOGS_FORM "portable, vectorized by the compiler"

namespace nbk::host_math {
inline double sum_of_logs(const double* x, std::int64_t n) noexcept { return sum_of_logs_portable(x, n); }
}  // namespace nbk::host_math

#endif
