#pragma once
// Vector forms of exp, log, sin and cos for the host spaces' loops.
//
// GCC vectorizes a loop that calls a libm function only when it knows a vector form of that
// function. glibc ships one for every x86-64 vector width in libmvec (SSE2 _ZGVb.., AVX
// _ZGVc.., AVX2 _ZGVd.., AVX-512 _ZGVe..), but its <math.h> announces them only under
// -ffast-math, which would also let the compiler reorder and contract our arithmetic. Here the
// four functions the kernels call are announced alone, so Serial and OpenMP loops over them
// run 4-16 lanes wide while every other operation keeps IEEE semantics. The build adds
// -fno-math-errno (a vector call cannot set errno) and -fno-builtin-sin/cos: GCC would
// otherwise fuse sin(x) and cos(x) of one x into a sincos call, which it cannot vectorize.
//
// SLEEF's libsleefgnuabi exports the same names (its 1-ulp functions): the build's
// NBK_VECTOR_MATH picks which library answers them (docs/measured.md, "Vector math" has both measured).
// Accuracy: glibc bounds libmvec at 4 ulp; tests/test_math.cpp measures each function
// against long double over its domain and checks that bound.
// CMakeLists.txt defines NBK_HOST_VECTOR_MATH for GCC on x86-64 with glibc in builds
// without a device compiler; everywhere else nbk::math uses Kokkos' functions.
#include <cmath>

#if defined(NBK_HOST_VECTOR_MATH)
#if !(defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__))
#error "NBK_HOST_VECTOR_MATH needs GCC on x86-64 and glibc's libmvec"
#endif

// `const`: no side effect (errno is off), so calls can be vectorized and hoisted.
#define NBK_VECTOR_MATH_DECL(type, name) __attribute__((simd("notinbranch"), const)) type name(type) noexcept;
extern "C" {
NBK_VECTOR_MATH_DECL(float, expf)
NBK_VECTOR_MATH_DECL(float, logf)
NBK_VECTOR_MATH_DECL(float, sinf)
NBK_VECTOR_MATH_DECL(float, cosf)
NBK_VECTOR_MATH_DECL(double, exp)
NBK_VECTOR_MATH_DECL(double, log)
NBK_VECTOR_MATH_DECL(double, sin)
NBK_VECTOR_MATH_DECL(double, cos)
}
#undef NBK_VECTOR_MATH_DECL

namespace nbk::host_math {
// Plain C calls, not std:: ones: std::sin is __builtin_sin, which GCC fuses with a cos of
// the same argument whatever -fno-builtin says.
inline float exp(float x) { return ::expf(x); }
inline float log(float x) { return ::logf(x); }
inline float sin(float x) { return ::sinf(x); }
inline float cos(float x) { return ::cosf(x); }
inline double exp(double x) { return ::exp(x); }
inline double log(double x) { return ::log(x); }
inline double sin(double x) { return ::sin(x); }
inline double cos(double x) { return ::cos(x); }
}  // namespace nbk::host_math

#endif

namespace nbk {
// What the host spaces' exp, log, sin and cos are, for the programs' context.
#if defined(NBK_HOST_VECTOR_MATH)
inline constexpr const char* host_math_name = NBK_HOST_VECTOR_MATH_LIBRARY " (vector calls)";
#else
inline constexpr const char* host_math_name = "Kokkos' math functions (scalar on the host)";
#endif
}  // namespace nbk
