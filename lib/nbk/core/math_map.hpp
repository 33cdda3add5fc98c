#pragma once
// One of the kernels' math functions (nbk::math) mapped over a View, in the shape the kernels
// use it: what the accuracy tests (tests/test_math.cpp) and the per-function benchmarks
// (benchmarks/math.cpp) run on every space.
#include <Kokkos_Core.hpp>

#include "nbk/core/compat.hpp"
#include "nbk/core/policy.hpp"

namespace nbk {

enum class MathFunction { exp, log, sin, cos };
inline constexpr MathFunction math_functions[] = {MathFunction::exp, MathFunction::log, MathFunction::sin,
                                                  MathFunction::cos};

inline const char* name_of(MathFunction f) {
  switch (f) {
    case MathFunction::exp: return "exp";
    case MathFunction::log: return "log";
    case MathFunction::sin: return "sin";
    case MathFunction::cos: return "cos";
  }
  return "?";
}

template <MathFunction F, class T>
KOKKOS_INLINE_FUNCTION T apply(T x) {
  if constexpr (F == MathFunction::exp) return nbk::math::exp(x);
  if constexpr (F == MathFunction::log) return nbk::math::log(x);
  if constexpr (F == MathFunction::sin) return nbk::math::sin(x);
  if constexpr (F == MathFunction::cos) return nbk::math::cos(x);
}

// out(i) = F(in(i)) on exec.
template <MathFunction F, class Space, class In, class Out>
void math_map(const Space& exec, const In& in, const Out& out) {
  check_1d_arguments<Space, In>();
  check_1d_arguments<Space, Out>();
  Kokkos::parallel_for(
      "nbk::math_map", range(exec, 0, static_cast<Index>(out.extent(0))),
      KOKKOS_LAMBDA(Index i) { out(i) = apply<F>(in(i)); });
}

// The same with F chosen at run time.
template <class Space, class In, class Out>
void math_map(MathFunction f, const Space& exec, const In& in, const Out& out) {
  switch (f) {
    case MathFunction::exp: return math_map<MathFunction::exp>(exec, in, out);
    case MathFunction::log: return math_map<MathFunction::log>(exec, in, out);
    case MathFunction::sin: return math_map<MathFunction::sin>(exec, in, out);
    case MathFunction::cos: return math_map<MathFunction::cos>(exec, in, out);
  }
}

}  // namespace nbk
