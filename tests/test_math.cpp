// The kernels' exp, log, sin and cos (nbk::math) on every enabled space, in float and double,
// against long double over each function's whole domain: a dense grid where the values change
// fastest, random bit patterns across every finite exponent (huge sin arguments, subnormal
// inputs and results), and the special values. Run inside a parallel_for of the kernels' shape,
// so a host space is measured through the vector calls its loops make
// (lib/nbk/core/host_vector_math.hpp), the scalar tail too.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <limits>
#include <random>
#include <vector>

#include "nbk/core/host_log.hpp"
#include "nbk/core/math_map.hpp"
#include "map.hpp"
#include "spaces.hpp"

namespace {

// glibc's stated bound for libmvec; CUDA's own functions and scalar libm are within it too.
constexpr double max_ulps = 4;

using Fn = nbk::MathFunction;
using nbk::name_of;

long double reference(Fn f, long double x) {
  switch (f) {
    case Fn::exp: return std::exp(x);
    case Fn::log: return std::log(x);
    case Fn::sin: return std::sin(x);
    case Fn::cos: return std::cos(x);
  }
  return NAN;
}

// |got - ref| in units in the last place of T at ref (the subnormal spacing below T's normal
// range); 0 for matching NaN and infinities, and for an infinity where ref overflows T.
template <class T>
double ulp_error(T got, long double ref) {
  using limits = std::numeric_limits<T>;
  const double worst = std::numeric_limits<double>::infinity();
  if (std::isnan(ref)) return std::isnan(got) ? 0 : worst;
  if (std::isnan(got)) return worst;
  if (std::fabs(ref) > static_cast<long double>(limits::max()))
    return std::isinf(got) && std::signbit(got) == std::signbit(ref) ? 0 : worst;
  if (std::isinf(got)) return worst;
  int exponent = 0;
  std::frexp(ref, &exponent);  // ref = m 2^exponent, 0.5 <= |m| < 1
  const long double ulp = std::ldexp(1.0L, std::max(exponent, limits::min_exponent) - limits::digits);
  return static_cast<double>(std::fabs(static_cast<long double>(got) - ref) / ulp);
}

template <class T>
std::vector<T> specials() {
  using limits = std::numeric_limits<T>;
  std::vector<T> v{T(0), -T(0), T(1), T(-1), T(0.5), T(2), limits::infinity(), -limits::infinity(),
                   limits::quiet_NaN(), limits::denorm_min(), -limits::denorm_min(), limits::min(),
                   -limits::min(), limits::max(), limits::lowest(), limits::epsilon()};
  // exp's overflow and underflow edges, and multiples of pi/2 (sin and cos near zero).
  for (double x : {88.72283, 88.72284, -87.33654, -103.27893, -103.97208, 709.78271289338397,
                   709.78271289338409, -708.39641853226408, -745.13321910194110, -745.13321910194122})
    v.push_back(static_cast<T>(x));
  for (int k = -8; k <= 8; ++k) v.push_back(static_cast<T>(k * 1.5707963267948966));
  return v;
}

// Random bit patterns of finite T: every exponent equally often, both signs.
template <class T>
std::vector<T> random_finite(std::size_t count, std::uint64_t seed) {
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  std::mt19937_64 engine(seed);
  std::vector<T> v;
  while (v.size() < count) {
    const Bits bits = static_cast<Bits>(engine());
    T x;
    std::memcpy(&x, &bits, sizeof x);
    if (std::isfinite(x)) v.push_back(x);
  }
  return v;
}

template <class T>
std::vector<T> grid(double lo, double hi, std::size_t count) {
  std::vector<T> v(count);
  for (std::size_t i = 0; i < count; ++i) v[i] = static_cast<T>(lo + (hi - lo) * double(i) / double(count - 1));
  return v;
}

// Inputs for f: the special values, a dense grid over the range where f's value varies, random
// bit patterns over all finite T. An odd count, so vector loops run their scalar tail too.
template <class T>
std::vector<T> inputs(Fn f) {
  using limits = std::numeric_limits<T>;
  std::vector<T> v = specials<T>();
  const std::size_t dense = (1u << 17) + 3;
  if (f == Fn::exp) {
    const double lo = std::log(double(limits::denorm_min())) - 1, hi = std::log(double(limits::max())) + 1;
    const auto g = grid<T>(lo, hi, dense);
    v.insert(v.end(), g.begin(), g.end());
  } else if (f == Fn::log) {
    const auto g = grid<T>(0.25, 4.0, dense);  // around 1, where log's relative error is hardest
    v.insert(v.end(), g.begin(), g.end());
  } else {
    const auto g = grid<T>(-100.0, 100.0, dense);
    v.insert(v.end(), g.begin(), g.end());
  }
  const auto r = random_finite<T>(1u << 17, 20261124 + static_cast<int>(f));
  v.insert(v.end(), r.begin(), r.end());
  return v;
}

template <class Space, Fn F, class T>
void expect_within_bound() {
  const std::vector<T> x = inputs<T>(F);
  const std::vector<T> y = nbk::test::run_map<Space>(
      [](const auto& space, const auto& in, const auto& out) { nbk::math_map<F>(space, in, out); }, x);
  double worst = 0;
  T worst_x = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double e = ulp_error(y[i], reference(F, static_cast<long double>(x[i])));
    if (!(e <= worst)) worst = e, worst_x = x[i];
  }
  std::cout << "  " << name_of(F) << (sizeof(T) == 4 ? "f" : "") << " on " << nbk::space_name<Space>() << ": at most "
            << worst << " ulp over " << x.size() << " inputs\n";
  EXPECT_LE(worst, max_ulps) << name_of(F) << " of " << sizeof(T) * 8 << "-bit " << worst_x;
}

template <class Space>
class VectorMath : public ::testing::Test {};
TYPED_TEST_SUITE(VectorMath, nbk::test::SpaceTypes, nbk::test::SpaceNames);

TYPED_TEST(VectorMath, ExpWithinFourUlps) {
  expect_within_bound<TypeParam, Fn::exp, float>();
  expect_within_bound<TypeParam, Fn::exp, double>();
}

TYPED_TEST(VectorMath, LogWithinFourUlps) {
  expect_within_bound<TypeParam, Fn::log, float>();
  expect_within_bound<TypeParam, Fn::log, double>();
}

TYPED_TEST(VectorMath, SinWithinFourUlps) {
  expect_within_bound<TypeParam, Fn::sin, float>();
  expect_within_bound<TypeParam, Fn::sin, double>();
}

TYPED_TEST(VectorMath, CosWithinFourUlps) {
  expect_within_bound<TypeParam, Fn::cos, float>();
  expect_within_bound<TypeParam, Fn::cos, double>();
}

// The check can fail: a float computation passed off as double is thousands of ulps out.
TEST(VectorMath, BoundRejectsSinglePrecision) {
  EXPECT_GT(ulp_error<double>(static_cast<float>(std::sin(1.0)), std::sin(1.0L)), 1000.0);
  EXPECT_EQ(ulp_error<float>(std::numeric_limits<float>::infinity(), 1e39L), 0.0);
  EXPECT_EQ(ulp_error<float>(std::numeric_limits<float>::max(), 1e39L), std::numeric_limits<double>::infinity());
  EXPECT_EQ(ulp_error<float>(std::numeric_limits<float>::denorm_min(), std::ldexp(1.0L, -149)), 0.0);
}

// The product's host log-sum (lib/nbk/core/host_log.hpp): its vector log, in every form this
// build's target has (AVX2 and FMA; AVX-512 too where the target has it), checked element by
// element at its stated bound, 1 ulp, through both of its paths (all lanes normal, and the general
// one), and the forms against each other bit for bit; and the sum itself, on every size shape its
// loop has (none, a padded last vector only, whole vectors, both), and with lanes that take the
// general path.
#if defined(NBK_HOST_LOG_VECTOR)
std::vector<double> log_inputs() {
  std::vector<double> x = inputs<double>(Fn::log);
  // Both sides of every table boundary (0.703125 + j/32 below 1, 1 + (2j + 1)/32 above; the
  // 1/32 steps cover both) in the binade of 1 and in three others, the smallest normals' among
  // them (taken by the general path), a grid of subnormals, a signalling NaN; padded with ones to
  // whole vectors.
  for (double scale : {1.0, 0x1p-700, 0x1p+600, 0x1p-1022})
    for (double b = 0.703125; b <= 1.40625; b += b < 1 ? 1.0 / 64 : 1.0 / 32)
      for (double edge : {b, std::nextafter(b, 0.0), std::nextafter(b, 2.0)}) x.push_back(edge * scale);
  for (int i = 0; i < 4099; ++i) x.push_back(std::ldexp(1.0 + i / 4099.0, -1074 + i % 52));
  x.push_back(std::numeric_limits<double>::signaling_NaN());
  while (x.size() % 8) x.push_back(1.0);
  return x;
}

template <class V>
struct HostLogForm {
  using Vector = V;
};
using HostLogForms = ::testing::Types<HostLogForm<nbk::host_math::log_detail::Avx2>
#if defined(NBK_HOST_LOG_AVX512)
                                      ,
                                      HostLogForm<nbk::host_math::log_detail::Avx512>
#endif
                                      >;
struct HostLogFormNames {
  template <class Form>
  static std::string GetName(int) {
    return Form::Vector::lanes == 8 ? "avx512" : "avx2";
  }
};
template <class Form>
class HostLog : public ::testing::Test {};
TYPED_TEST_SUITE(HostLog, HostLogForms, HostLogFormNames);

// Each vector of inputs as the log-sum's loop takes it (log_of_lanes: its fast path where every
// lane is a positive normal double, the general one otherwise) and by the general path alone.
TYPED_TEST(HostLog, LanesWithinOneUlpOnBothPaths) {
  using V = typename TypeParam::Vector;
  const std::vector<double> x = log_inputs();
  double worst = 0, worst_x = 0;
  std::size_t fast = 0, differ = 0;
  for (std::size_t i = 0; i + V::lanes <= x.size(); i += V::lanes) {
    double y[V::lanes], general[V::lanes];
    nbk::host_math::log_detail::log_of_lanes<V>(x.data() + i, y);
    V::store(general, nbk::host_math::log_detail::log_lanes<V>(V::load(x.data() + i)));
    bool normal = true;
    for (int lane = 0; lane < V::lanes; ++lane) {
      const double e = ulp_error(y[lane], std::log(static_cast<long double>(x[i + lane])));
      if (!(e <= worst)) worst = e, worst_x = x[i + lane];
      differ += std::memcmp(&y[lane], &general[lane], sizeof(double)) != 0;
      normal = normal && x[i + lane] >= 0x1.68p-1022 && x[i + lane] <= std::numeric_limits<double>::max();
    }
    fast += normal;
  }
  std::cout << "  " << V::lanes << "-lane log: at most " << worst << " ulp over " << x.size() << " inputs, "
            << fast << " vectors on the fast path\n";
  EXPECT_LE(worst, 1.0) << "log of " << worst_x;
  EXPECT_EQ(differ, 0u) << "lanes where the fast path and the general one differ";
  EXPECT_GT(fast, x.size() / V::lanes / 4);  // the dense grid
}

#if defined(NBK_HOST_LOG_AVX512)
// One algorithm: the AVX2 form gives the AVX-512 one's results bit for bit (NaNs' payloads too).
TEST(HostLogForms, Avx2IsAvx512BitForBit) {
  namespace d = nbk::host_math::log_detail;
  const std::vector<double> x = log_inputs();
  std::size_t differ = 0;
  for (std::size_t i = 0; i + 8 <= x.size(); i += 8) {
    double narrow[8], wide[8];
    d::log_of_lanes<d::Avx2>(x.data() + i, narrow);
    d::log_of_lanes<d::Avx2>(x.data() + i + 4, narrow + 4);
    d::log_of_lanes<d::Avx512>(x.data() + i, wide);
    for (int lane = 0; lane < 8; ++lane) differ += std::memcmp(&narrow[lane], &wide[lane], sizeof(double)) != 0;
  }
  EXPECT_EQ(differ, 0u);
}
#endif

TYPED_TEST(HostLog, SumOfLogsMatchesLongDouble) {
  using V = typename TypeParam::Vector;
  const auto sum_of_logs = [](const double* x, std::int64_t n) {
    return nbk::host_math::log_detail::sum_of_logs<V>(x, n);
  };
  std::mt19937_64 engine(20261125);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (std::int64_t n : {0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 4096, 4097}) {
    // (0, 1], then the same with a subnormal and one of the smallest normals in it, which send
    // the call down the general path.
    for (bool general : {false, true}) {
      std::vector<double> x(static_cast<std::size_t>(n));
      for (double& v : x) v = 1.0 - uniform(engine);
      if (general && n > 0) x[static_cast<std::size_t>(n / 2)] = 0x1.8p-1060, x[0] = 0x1.2p-1022;
      long double exact = 0, magnitude = 0;
      for (double v : x) {
        const long double log_v = std::log(static_cast<long double>(v));
        exact += log_v, magnitude += std::fabs(log_v);
      }
      // Each log within 1 ulp (2 u |log x|, u = eps / 2), then along the longest chain of
      // additions n / 4 + 3 roundings (AVX2: a lane, the last vector, the lanes' sum; AVX-512
      // n / 8 + 4), each within u of the magnitudes.
      const long double bound = (n / 4 + 32) * std::numeric_limits<double>::epsilon() / 2 * magnitude;
      EXPECT_LE(std::fabs(sum_of_logs(x.data(), n) - exact), bound) << n << " elements, general " << general;
    }
  }
  // A zero makes the sum -inf and a negative value NaN, wherever they sit.
  std::vector<double> x(21, 0.5);
  x[19] = 0.0;
  EXPECT_EQ(sum_of_logs(x.data(), 21), -std::numeric_limits<double>::infinity());
  x[19] = -1.0;
  EXPECT_TRUE(std::isnan(sum_of_logs(x.data(), 21)));
  // A lone element: the other lanes of its vector are ones, which add nothing.
  EXPECT_EQ(sum_of_logs(x.data() + 20, 1), std::log(0.5));
}
#endif

// What the product's log-sum calls in this build (the vector form above where there is one, the
// portable loop otherwise) and the portable loop, against long double.
TEST(HostLogSum, EveryFormMatchesLongDouble) {
  std::mt19937_64 engine(20261126);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (std::int64_t n : {0, 1, 7, 8, 9, 15, 16, 17, 31, 4096, 4097}) {
    std::vector<double> x(static_cast<std::size_t>(n));
    for (double& v : x) v = 1.0 - uniform(engine);  // (0, 1]
    long double exact = 0, magnitude = 0;
    for (double v : x) {
      const long double log_v = std::log(static_cast<long double>(v));
      exact += log_v, magnitude += std::fabs(log_v);
    }
    // As above; the portable loop's chains are n / 16 + 30 (a lane, its 15-element tail, the 16
    // lanes in turn).
    const long double bound = (n / 4 + 32) * std::numeric_limits<double>::epsilon() / 2 * magnitude;
    EXPECT_LE(std::fabs(nbk::host_math::sum_of_logs(x.data(), n) - exact), bound) << n << " elements";
    EXPECT_LE(std::fabs(nbk::host_math::sum_of_logs_portable(x.data(), n) - exact), bound) << n << " elements";
  }
  std::vector<double> x(21, 0.5);
  x[19] = 0.0;
  EXPECT_EQ(nbk::host_math::sum_of_logs(x.data(), 21), -std::numeric_limits<double>::infinity());
  x[19] = -1.0;
  EXPECT_TRUE(std::isnan(nbk::host_math::sum_of_logs(x.data(), 21)));
}

}  // namespace
