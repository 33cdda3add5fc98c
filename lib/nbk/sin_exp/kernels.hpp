#pragma once
// Seed 004's ufunc: z = sin(x) * exp(y) element by element, in float32 or float64.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "nbk/core/compat.hpp"
#include "nbk/core/flop_count.hpp"
#include "nbk/core/policy.hpp"

namespace nbk::sin_exp {

inline constexpr std::uint64_t sin_exp_flops = flop_count::sin + flop_count::exp + flop_count::arithmetic;

template <class Space, class X, class Z>
void sin_exp(const Space& exec, const X& x, const X& y, const Z& z) {
  check_1d_arguments<Space, X>();
  check_1d_arguments<Space, Z>();
  static_assert(std::is_same_v<typename X::non_const_value_type, typename Z::value_type>,
                "inputs and output have one precision");
  Kokkos::parallel_for(
      "nbk::sin_exp", range(exec, 0, static_cast<Index>(z.extent(0))),
      KOKKOS_LAMBDA(Index i) { z(i) = nbk::math::sin(x(i)) * nbk::math::exp(y(i)); });
}

// The document's NumPy line as one host thread: the same formula, in index order.
template <class T>
void host_loop(const T* x, const T* y, T* z, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) z[i] = nbk::math::sin(x[i]) * nbk::math::exp(y[i]);
}

}  // namespace nbk::sin_exp
