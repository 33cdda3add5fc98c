#pragma once
// Seed 003's device function: hypot(x, y) = sqrt(x^2 + y^2) in its scaled form, which never
// squares a number larger than 1, so it neither overflows for huge inputs nor underflows to
// zero for tiny ones as the naive form does; and the element-wise map that calls it.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "nbk/core/compat.hpp"
#include "nbk/core/policy.hpp"

namespace nbk::hypot {

namespace detail {
// c ? a : b. On a GPU as written; in host code as bits under a mask, which GCC cannot turn into a
// branch: from a select written as c ? a : b it threaded jumps, duplicating the division and
// the sqrt into the paths of each condition, and then, under -ftrapping-math, could not merge
// them back into a vector loop (AVX-512's masked operations could, AVX2's and SSE2's could not).
template <class T>
KOKKOS_INLINE_FUNCTION T select(bool c, T a, T b) {
#if defined(__CUDA_ARCH__)
  return c ? a : b;
#else
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  U ua, ub;
  std::memcpy(&ua, &a, sizeof a);
  std::memcpy(&ub, &b, sizeof b);
  const U mask = U(0) - U(c);
  const U r = (ua & mask) | (ub & ~mask);
  T v;
  std::memcpy(&v, &r, sizeof v);
  return v;
#endif
}
}  // namespace detail

// The document's (Wikipedia's) form, plus the case it divides by zero in (both inputs zero),
// and C's rules for the special values (std::hypot's): +inf where either input is infinite,
// even if the other is NaN; NaN where either is NaN and neither infinite.
template <class T>
KOKKOS_INLINE_FUNCTION T scaled(T x, T y) {
  using detail::select;
  x = nbk::math::fabs(x);
  y = nbk::math::fabs(y);
  // Comparisons and selects, not fmin and fmax: those must return the number where the other
  // input is NaN, which x86's minps/maxps do not, so GCC kept them scalar and with them the
  // whole loop (vsqrtss, vdivss). A select is a packed compare and blend, and NaN is carried
  // on explicitly: where x or y is NaN, `large` or `small` is NaN.
  const bool x_larger = x > y;
  const T large = select(x_larger, x, y);
  const T small = select(x_larger, y, x);
  // Below small = large * 2^-(p/2 + 1) (p: the significand's bits), 1 + t*t rounds to 1 and
  // the result is `large` exactly, so small is raised to that floor (`lowest`): t and t*t then
  // never reach the subnormal range, which x86 cores handle in microcode (~100 cycles an
  // operation; with magnitudes 2^-100 to 2^100 that happens to most pairs). Selects instead of
  // branches on random signs and magnitudes (measured: 2-5x faster on the development VM); a
  // zero `large` (both inputs zero) divides 0 by 1. `small < lowest` is false for a NaN
  // `small`, which so stays NaN.
  constexpr T negligible = std::is_same_v<T, float> ? T(0x1p-13f) : T(0x1p-27);
  const T lowest = large * negligible;
  const T t = select(small < lowest, lowest, small) / select(large > T(0), large, T(1));
  const T h = large * nbk::math::sqrt(T(1) + t * t);
  // An infinite input would give inf / inf = NaN above; C's hypot gives +inf. (HUGE_VAL, not
  // numeric_limits, whose host-only constexpr function nvcc refuses in device code.)
  constexpr T inf = std::is_same_v<T, float> ? T(HUGE_VALF) : T(HUGE_VAL);
  return select((x == inf) | (y == inf), inf, h);
}

// sqrt(x^2 + y^2) as written: inf once a square exceeds the type's range (|x| > 1.8e19 in
// float32), 0 once both squares fall below its smallest subnormal (|x| < 2.6e-23).
template <class T>
KOKKOS_INLINE_FUNCTION T naive(T x, T y) {
  return nbk::math::sqrt(x * x + y * y);
}

// The document's kernel as Kokkos' documentation writes it: a RangePolicy (64-bit indices: the
// suite's arrays reach 2^31 elements), one element a call, the body in place calling the device
// function. ScaledMap below is the same body as a functor, which nvcc never wraps (notes.md).
template <class Space, class In, class Out>
void plain_hypot(const Space& exec, const In& x, const In& y, const Out& h) {
  const std::int64_t n = h.extent(0);
  Kokkos::parallel_for("nbk::hypot::plain", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                       KOKKOS_LAMBDA(const std::int64_t i) { h(i) = scaled(x(i), y(i)); });
}

template <class In, class Out>
struct ScaledMap {
  In x, y;
  Out h;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const { h(i) = scaled(x(i), y(i)); }
};

template <class Space, class In, class Out>
void scaled_map(const Space& exec, const In& x, const In& y, const Out& h) {
  check_1d_arguments<Space, In>();
  check_1d_arguments<Space, Out>();
  Kokkos::parallel_for("nbk::hypot", range(exec, 0, static_cast<Index>(h.extent(0))), ScaledMap<In, Out>{x, y, h});
}

}  // namespace nbk::hypot
