#pragma once
// Floating-point operations per element of the math-bound kernels, so that their rates sit on
// the same roofline as the matrix product's: GFLOP/s against the FMA probe of the space.
// +, -, *, / and sqrt count one each (one instruction on every target). An elementary
// function counts as a vector implementation evaluates it: range reduction and a minimax
// polynomial, a dozen multiply-adds, counted as the nominal weights below. They are a
// convention, the same on every space, so two spaces' GFLOP/s compare exactly while a
// "% of FMA peak" is an estimate of how close a kernel runs to the arithmetic limit.
#include <cstdint>

namespace nbk::flop_count {

inline constexpr std::uint64_t arithmetic = 1;  // +, -, *, /, sqrt
inline constexpr std::uint64_t exp = 10;
inline constexpr std::uint64_t log = 10;
inline constexpr std::uint64_t sin = 12;
inline constexpr std::uint64_t cos = 12;

}  // namespace nbk::flop_count
