#pragma once
// Vector forms of exp, log, sin and cos for the host spaces' loops (double log: host_log.hpp).
//
// GCC vectorizes a loop that calls a libm function only when it knows a vector form of that
// function. glibc ships one for every x86-64 vector width in libmvec (SSE2 _ZGVb.., AVX
// _ZGVc.., AVX2 _ZGVd.., AVX-512 _ZGVe..), but its <math.h> announces them only under
// -ffast-math, which would also let the compiler reorder and contract our arithmetic. Here the
// functions the kernels call are announced alone, under names of our own bound to glibc's
// symbols (`__asm__("expf")`: GCC derives the vector names from the symbol), so Serial and
// OpenMP loops over them run 4-16 lanes wide while every other operation keeps IEEE semantics,
// and no declaration of libm's own (nor CUDA's, which declares them for host and device) is
// touched. GCC does not know these names as sin and cos, so it never fuses them into a sincos
// call, which it could not vectorize.
//
// SLEEF's libsleefgnuabi exports the same names (its 1-ulp functions): the build's
// NBK_VECTOR_MATH picks which library answers them (docs/measured.md, "Vector math" has both measured).
// Accuracy: glibc bounds libmvec at 4 ulp; tests/test_math.cpp measures each function
// against long double over its domain and checks that bound.
// CMakeLists.txt defines NBK_HOST_VECTOR_MATH for GCC on x86-64 with glibc, also in CUDA
// builds, whose host code then calls these and whose device code CUDA's (compat.hpp).
#include <cmath>

#include "nbk/core/host_log.hpp"

#if defined(NBK_HOST_VECTOR_MATH)
#if !(defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__))
#error "NBK_HOST_VECTOR_MATH needs GCC on x86-64 and glibc's libmvec"
#endif

// `const`: no side effect (a vector call cannot set errno), so calls can be vectorized and hoisted.
#define NBK_VECTOR_MATH_DECL(type, name, symbol) \
  __attribute__((simd("notinbranch"), const)) type name(type) noexcept __asm__(symbol);
extern "C" {
NBK_VECTOR_MATH_DECL(float, nbk_vector_expf, "expf")
NBK_VECTOR_MATH_DECL(float, nbk_vector_logf, "logf")
NBK_VECTOR_MATH_DECL(float, nbk_vector_sinf, "sinf")
NBK_VECTOR_MATH_DECL(float, nbk_vector_cosf, "cosf")
NBK_VECTOR_MATH_DECL(double, nbk_vector_exp, "exp")
NBK_VECTOR_MATH_DECL(double, nbk_vector_sin, "sin")
NBK_VECTOR_MATH_DECL(double, nbk_vector_cos, "cos")
}
#undef NBK_VECTOR_MATH_DECL

namespace nbk::host_math {
inline float exp(float x) { return nbk_vector_expf(x); }
inline float log(float x) { return nbk_vector_logf(x); }
inline float sin(float x) { return nbk_vector_sinf(x); }
inline float cos(float x) { return nbk_vector_cosf(x); }
inline double exp(double x) { return nbk_vector_exp(x); }
inline double log(double x) { return log_f64(x); }  // host_log.hpp: faster than libmvec's
inline double sin(double x) { return nbk_vector_sin(x); }
inline double cos(double x) { return nbk_vector_cos(x); }
}  // namespace nbk::host_math

#endif

namespace nbk {
// What the host spaces' exp, log, sin and cos are, for the programs' context. The log-sum's
// log is our own in every build (host_log.hpp).
#define NBK_LOG_SUM_LOG "the log-sum's double log our own (host_log.hpp: " NBK_SUM_OF_LOGS_FORM ")"
#if defined(NBK_HOST_VECTOR_MATH)
inline constexpr const char* host_math_name = NBK_HOST_VECTOR_MATH_LIBRARY " (vector calls, double log our own); " NBK_LOG_SUM_LOG;
#else
inline constexpr const char* host_math_name = "Kokkos' math functions (scalar on the host); " NBK_LOG_SUM_LOG;
#endif
#undef NBK_LOG_SUM_LOG
}  // namespace nbk
