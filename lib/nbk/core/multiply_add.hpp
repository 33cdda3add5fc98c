#pragma once
// a * b + c, rounded once where the target has an FMA instruction (every GPU, a host compiled
// for AVX2 or later); where it has none (a CUDA build's host code targets plain x86-64) a
// multiply and an add, the fastest that code can do. The host build otherwise compiles with
// -ffp-contract=off, so this is the one place host code fuses on purpose.
#include <Kokkos_Core.hpp>

#include <cmath>

namespace nbk {

template <class T>
KOKKOS_INLINE_FUNCTION T multiply_add(T a, T b, T c) {
#if defined(__CUDA_ARCH__)
  return fma(a, b, c);
#elif defined(__FMA__)
  return std::fma(a, b, c);
#else
  return a * b + c;
#endif
}

}  // namespace nbk
