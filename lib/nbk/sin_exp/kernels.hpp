#pragma once
// Seed 004's ufunc: z = sin(x) * exp(y) element by element, in float32 or float64.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "nbk/core/code.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/flop_count.hpp"
#include "nbk/core/math_map.hpp"
#include "nbk/core/policy.hpp"

namespace nbk::sin_exp {

inline constexpr std::uint64_t sin_exp_flops = flop_count::sin + flop_count::exp + flop_count::arithmetic;

// The document's ufunc as Kokkos' documentation writes it: a RangePolicy (64-bit indices), one
// element a call, the body in place; the tuned form is below.
template <class Space, class X, class Z>
void plain_sin_exp(const Space& exec, const X& x, const X& y, const Z& z) {
  const std::int64_t n = z.extent(0);
  Kokkos::parallel_for("nbk::sin_exp::plain", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                       KOKKOS_LAMBDA(const std::int64_t i) { z(i) = nbk::math::sin(x(i)) * nbk::math::exp(y(i)); });
}

template <class X, class Z>
struct SinExpMap {
  X x, y;
  Z z;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const { z(i) = nbk::math::sin(x(i)) * nbk::math::exp(y(i)); }
};

template <class Space, class X, class Z, class Code = CodeFor<Space>>
void sin_exp(const Space& exec, const X& x, const X& y, const Z& z, Code = {}) {
  check_1d_arguments<Space, X>();
  check_1d_arguments<Space, Z>();
  using T = typename Z::value_type;
  static_assert(std::is_same_v<typename X::non_const_value_type, T>, "inputs and output have one precision");
  if constexpr (is_gpu_code_v<Code>)
    Kokkos::parallel_for("nbk::sin_exp", range(exec, 0, static_cast<Index>(z.extent(0))),
                         SinExpMap<X, Z>{x, y, z});
  else
    map_in_blocks("nbk::sin_exp", exec, z, [](T a, T b) { return nbk::math::sin(a) * nbk::math::exp(b); }, x, y);
}

// The document's NumPy line as one host thread: the same formula, in index order.
template <class T>
void host_loop(const T* x, const T* y, T* z, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) z[i] = nbk::math::sin(x[i]) * nbk::math::exp(y[i]);
}

}  // namespace nbk::sin_exp
