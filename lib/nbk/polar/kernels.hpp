#pragma once
// Seed 003's device function: (rho, theta) to (x, y), called twice per element by a map that
// returns the distance between two points given in polar coordinates.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>

#include "nbk/core/code.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/flop_count.hpp"
#include "nbk/core/math_map.hpp"
#include "nbk/core/policy.hpp"

namespace nbk::polar {

template <class T>
struct Point {
  T x, y;
};

template <class T>
KOKKOS_INLINE_FUNCTION Point<T> to_cartesian(T rho, T theta) {
  return {rho * nbk::math::cos(theta), rho * nbk::math::sin(theta)};
}

// Two points' cos, sin and two *, then two -, two *, + and sqrt.
inline constexpr std::uint64_t distance_flops = 2 * (flop_count::cos + flop_count::sin) + 10 * flop_count::arithmetic;

template <class T>
KOKKOS_INLINE_FUNCTION T distance(T rho1, T theta1, T rho2, T theta2) {
  const Point<T> a = to_cartesian(rho1, theta1), b = to_cartesian(rho2, theta2);
  const T dx = a.x - b.x, dy = a.y - b.y;
  return nbk::math::sqrt(dx * dx + dy * dy);
}

// The document's ufunc as Kokkos' documentation writes it: a RangePolicy (64-bit indices), one
// element a call, the body in place calling the device function; the tuned form is below.
template <class Space, class In, class Out>
void plain_distance(const Space& exec, const In& rho1, const In& theta1, const In& rho2, const In& theta2,
                    const Out& d) {
  const std::int64_t n = d.extent(0);
  Kokkos::parallel_for("nbk::polar::plain", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                       KOKKOS_LAMBDA(const std::int64_t i) { d(i) = distance(rho1(i), theta1(i), rho2(i), theta2(i)); });
}

template <class In, class Out>
struct DistanceMap {
  In rho1, theta1, rho2, theta2;
  Out d;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const { d(i) = distance(rho1(i), theta1(i), rho2(i), theta2(i)); }
};

template <class Space, class In, class Out, class Code = CodeFor<Space>>
void distance_map(const Space& exec, const In& rho1, const In& theta1, const In& rho2, const In& theta2,
                  const Out& d, Code = {}) {
  check_1d_arguments<Space, In>();
  check_1d_arguments<Space, Out>();
  using T = typename Out::value_type;
  if constexpr (is_gpu_code_v<Code>)
    Kokkos::parallel_for("nbk::polar", range(exec, 0, static_cast<Index>(d.extent(0))),
                         DistanceMap<In, Out>{rho1, theta1, rho2, theta2, d});
  else
    map_in_blocks("nbk::polar", exec, d, [](T r1, T t1, T r2, T t2) { return distance(r1, t1, r2, t2); }, rho1,
                  theta1, rho2, theta2);
}

}  // namespace nbk::polar
