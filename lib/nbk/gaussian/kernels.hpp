#pragma once
// Seed 003's ufunc with a special function: the normal probability density
// exp(-((x - mean) / sigma)^2 / 2) / (sigma sqrt(2 pi)) at every x, mean and sigma scalars,
// every constant in the input's precision (the document's float32 SQRT_2PI).
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>

#include "nbk/core/code.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/flop_count.hpp"
#include "nbk/core/math_map.hpp"
#include "nbk/core/policy.hpp"

namespace nbk::gaussian {

// sqrt(2 pi), rounded to T once (a function: device code cannot read host variables).
template <class T>
KOKKOS_INLINE_FUNCTION constexpr T sqrt_2pi() {
  return T(2.5066282746310002);
}

// -, /, two *, exp, *, /
inline constexpr std::uint64_t pdf_flops = 6 * flop_count::arithmetic + flop_count::exp;

template <class T>
KOKKOS_INLINE_FUNCTION T pdf(T x, T mean, T sigma) {
  const T z = (x - mean) / sigma;
  return nbk::math::exp(T(-0.5) * z * z) / (sigma * sqrt_2pi<T>());
}

// The document's ufunc as Kokkos' documentation writes it: a RangePolicy (64-bit indices), one
// element a call, the body in place calling the device function; the tuned form is below.
template <class Space, class X, class P>
void plain_pdf(const Space& exec, const X& x, typename P::value_type mean, typename P::value_type sigma, const P& p) {
  const std::int64_t n = p.extent(0);
  Kokkos::parallel_for("nbk::gaussian::plain", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                       KOKKOS_LAMBDA(const std::int64_t i) { p(i) = pdf(x(i), mean, sigma); });
}

template <class X, class P>
struct PdfMap {
  X x;
  typename P::value_type mean, sigma;
  P p;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const { p(i) = pdf(x(i), mean, sigma); }
};

template <class Space, class X, class P, class Code = CodeFor<Space>>
void pdf_map(const Space& exec, const X& x, typename P::value_type mean, typename P::value_type sigma, const P& p,
             Code = {}) {
  check_1d_arguments<Space, X>();
  check_1d_arguments<Space, P>();
  using T = typename P::value_type;
  if constexpr (is_gpu_code_v<Code>)
    Kokkos::parallel_for("nbk::gaussian", range(exec, 0, static_cast<Index>(p.extent(0))),
                         PdfMap<X, P>{x, mean, sigma, p});
  else
    map_in_blocks("nbk::gaussian", exec, p, [=](T v) { return pdf(v, mean, sigma); }, x);
}

// One host thread, the same formula with std::exp, in index order.
template <class T>
void host_loop(const T* x, T mean, T sigma, T* p, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    const T z = (x[i] - mean) / sigma;
    p[i] = std::exp(T(-0.5) * z * z) / (sigma * sqrt_2pi<T>());
  }
}

}  // namespace nbk::gaussian
