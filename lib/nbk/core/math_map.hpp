#pragma once
// Maps whose element function calls the math functions (nbk::math): map_in_blocks, the host code of
// every such workload, and one function mapped over a View, what the accuracy tests
// (tests/test_math.cpp) and the per-function benchmarks (benchmarks/math.cpp) run on every space.
#include <Kokkos_Core.hpp>

#include <array>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "nbk/core/code.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/policy.hpp"

namespace nbk {

// Elements a work item of map_in_blocks takes: a multiple of every vector width.
inline constexpr int map_block = 256;

namespace detail {
// out[k] = f(in[k]...) for k < map_block: one loop of fixed length over unaliased arrays, which
// the compiler vectorizes whole, with no remainder and no test of overlap.
template <class F, class T, class... U>
inline void map_block_of(const F& f, T* __restrict__ out, const U* __restrict__... in) {
  int count = map_block;
  __asm__("" : "+r"(count));  // a rolled loop: unrolled into 16 calls or more it ran 13-19% slower
  for (int k = 0; k < count; ++k) out[k] = f(in[k]...);
}
}  // namespace detail

// Host code of a map whose element function calls math functions: out(i) = f(in(i)...) for
// every i of contiguous rank-1 Views of one length, a work item a block of map_block elements;
// the last, partial block is computed in full from copies of its inputs padded with its last
// element. Every element so goes through the same machine code (detail::map_block_of, one
// instantiation for the body and the tail). A plain loop over the elements computes its body in
// vector lanes (libmvec's expf) and its remainder in scalar calls (glibc's expf), which differ
// in the last bit on AVX2: an element's value would depend on where it falls in a thread's
// share. (GPU code maps an element a thread; an extended lambda cannot capture a pack.)
template <class Space, class Out, class F, class... In>
void map_in_blocks(const std::string& label, const Space& exec, const Out& out, const F& f, const In&... in) {
  static_assert(!is_device_space_v<Space>, "host code runs on a host space");
  check_1d_arguments<Space, Out>();
  (check_1d_arguments<Space, In>(), ...);
  static_assert(!std::is_same_v<typename Out::array_layout, Kokkos::LayoutStride> &&
                    (!std::is_same_v<typename In::array_layout, Kokkos::LayoutStride> && ...),
                "map_in_blocks reads and writes contiguous Views");
  using T = typename Out::non_const_value_type;
  const auto n = static_cast<Index>(out.extent(0));
  Kokkos::parallel_for(label, range(exec, 0, (n + map_block - 1) / map_block), [=](Index b) {
    const Index first = b * map_block;
    if (first + map_block <= n) {
      detail::map_block_of(f, out.data() + first, (in.data() + first)...);
      return;
    }
    const int m = static_cast<int>(n - first);
    const auto padded = [&](const auto& v) {
      std::array<typename std::decay_t<decltype(v)>::non_const_value_type, map_block> a;
      for (int k = 0; k < map_block; ++k) a[k] = v(first + (k < m ? k : m - 1));
      return a;
    };
    std::array<T, map_block> r;
    std::apply([&](const auto&... a) { detail::map_block_of(f, r.data(), std::as_const(a).data()...); },
               std::make_tuple(padded(in)...));
    for (int k = 0; k < m; ++k) out(first + k) = r[k];
  });
}

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

// GPU code's math_map: out(i) = F(in(i)), an element a call.
template <MathFunction F, class In, class Out>
struct MathMap {
  In in;
  Out out;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const { out(i) = apply<F>(in(i)); }
};

// out(i) = F(in(i)) on exec.
template <MathFunction F, class Space, class In, class Out, class Code = CodeFor<Space>>
void math_map(const Space& exec, const In& in, const Out& out, Code = {}) {
  check_1d_arguments<Space, In>();
  check_1d_arguments<Space, Out>();
  using T = typename Out::non_const_value_type;
  if constexpr (is_gpu_code_v<Code>)
    Kokkos::parallel_for("nbk::math_map", range(exec, 0, static_cast<Index>(out.extent(0))),
                         MathMap<F, In, Out>{in, out});
  else
    map_in_blocks("nbk::math_map", exec, out, [](T x) { return apply<F>(x); }, in);
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
