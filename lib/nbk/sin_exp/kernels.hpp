#pragma once
// Seed 004's ufunc: z = sin(x) * exp(y) element by element, in float32 or float64.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "nbk/core/code.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/flop_count.hpp"
#include "nbk/core/lambda.hpp"
#include "nbk/core/math_map.hpp"
#include "nbk/core/policy.hpp"

namespace nbk::sin_exp {

inline constexpr std::uint64_t sin_exp_flops = flop_count::sin + flop_count::exp + flop_count::arithmetic;

template <class Space, class X, class Z, class Code = CodeFor<Space>>
void sin_exp(const Space& exec, const X& x, const X& y, const Z& z, Code = {}) {
  check_1d_arguments<Space, X>();
  check_1d_arguments<Space, Z>();
  using T = typename Z::value_type;
  static_assert(std::is_same_v<typename X::non_const_value_type, T>, "inputs and output have one precision");
  if constexpr (is_gpu_code_v<Code>)
    Kokkos::parallel_for("nbk::sin_exp", range(exec, 0, static_cast<Index>(z.extent(0))),
                         NBK_LAMBDA(exec, (Index i) { z(i) = nbk::math::sin(x(i)) * nbk::math::exp(y(i)); }));
  else
    map_in_blocks("nbk::sin_exp", exec, z, [](T a, T b) { return nbk::math::sin(a) * nbk::math::exp(b); }, x, y);
}

// The document's NumPy line as one host thread: the same formula, in index order.
template <class T>
void host_loop(const T* x, const T* y, T* z, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) z[i] = nbk::math::sin(x[i]) * nbk::math::exp(y[i]);
}

}  // namespace nbk::sin_exp
