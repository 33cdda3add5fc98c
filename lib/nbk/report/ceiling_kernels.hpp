#pragma once
// The kernels the ceilings are probed with, one per kind of traffic, over arrays of doubles:
// read (sum of a), update (b = b + 1 in place), copy (c = a), add (c = a + b: BabelStream's Add).
// Functors, not lambdas: a host space runs the host code nvcc never wraps (kokkos#8141).
// GPU code (nbk/core/code.hpp) moves 16-byte pairs, `gpu_unroll` of them in flight per thread
// (item i takes pairs i, i + items, ...: each load coalesced across a warp), so that the probe
// keeps enough bytes in flight to reach the card's rate; host code takes one element per index,
// which the host compilers vectorize. The tests run the GPU code on host spaces too.
// Also the same kinds as plain loops outside Kokkos (BabelStream's OpenMP kernels), and a CPU's
// copy and add with streaming stores: a ceiling is the best of every form of its kind.
#include <Kokkos_Core.hpp>

#include <cstdint>

#include "nbk/core/code.hpp"
#include "nbk/core/packed.hpp"
#include "nbk/core/policy.hpp"

namespace nbk::ceiling {

inline constexpr int gpu_unroll = 4;
using Pair = Pack<double, 2>;

// The array lengths every form can take whole: a multiple of 8 (gpu_unroll pairs), at least 8.
constexpr Index round_length(Index n) { return n < 8 ? 8 : n / 8 * 8; }

// Work items of a kernel over n doubles: one per element (host code) or per gpu_unroll pairs.
template <class Code>
constexpr Index items(Index n) {
  return is_gpu_code_v<Code> ? n / (2 * gpu_unroll) : n;
}

template <class Code>
struct Read {
  const double* a;
  Index items;
  KOKKOS_INLINE_FUNCTION void operator()(Index i, double& sum) const {
    if constexpr (is_gpu_code_v<Code>) {
      const Pair* p = reinterpret_cast<const Pair*>(a);
      Pair x[gpu_unroll];
      for (int k = 0; k < gpu_unroll; ++k) x[k] = p[i + k * items];
      for (int k = 0; k < gpu_unroll; ++k) sum += x[k].at[0] + x[k].at[1];
    } else {
      sum += a[i];
    }
  }
};

template <class Code>
struct Update {
  double* b;
  Index items;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const {
    if constexpr (is_gpu_code_v<Code>) {
      Pair* p = reinterpret_cast<Pair*>(b);
      Pair x[gpu_unroll];
      for (int k = 0; k < gpu_unroll; ++k) x[k] = p[i + k * items];
      for (int k = 0; k < gpu_unroll; ++k) {
        x[k].at[0] += 1.0;
        x[k].at[1] += 1.0;
        p[i + k * items] = x[k];
      }
    } else {
      b[i] += 1.0;
    }
  }
};

template <class Code>
struct Copy {
  const double* a;
  double* c;
  Index items;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const {
    if constexpr (is_gpu_code_v<Code>) {
      const Pair* pa = reinterpret_cast<const Pair*>(a);
      Pair* pc = reinterpret_cast<Pair*>(c);
      Pair x[gpu_unroll];
      for (int k = 0; k < gpu_unroll; ++k) x[k] = pa[i + k * items];
      for (int k = 0; k < gpu_unroll; ++k) pc[i + k * items] = x[k];
    } else {
      c[i] = a[i];
    }
  }
};

template <class Code>
struct Add {
  const double* a;
  const double* b;
  double* c;
  Index items;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const {
    if constexpr (is_gpu_code_v<Code>) {
      const Pair* pa = reinterpret_cast<const Pair*>(a);
      const Pair* pb = reinterpret_cast<const Pair*>(b);
      Pair* pc = reinterpret_cast<Pair*>(c);
      Pair x[gpu_unroll], y[gpu_unroll];
      for (int k = 0; k < gpu_unroll; ++k) x[k] = pa[i + k * items];
      for (int k = 0; k < gpu_unroll; ++k) y[k] = pb[i + k * items];
      for (int k = 0; k < gpu_unroll; ++k) {
        x[k].at[0] += y[k].at[0];
        x[k].at[1] += y[k].at[1];
        pc[i + k * items] = x[k];
      }
    } else {
      c[i] = a[i] + b[i];
    }
  }
};

template <class Space, class Code = CodeFor<Space>>
double read(const Space& exec, const double* a, Index n, Code = {}) {
  double sum = 0;
  const Index m = items<Code>(n);
  Kokkos::parallel_reduce("nbk::probe::read", range(exec, 0, m), Read<Code>{a, m}, sum);
  return sum;
}
template <class Space, class Code = CodeFor<Space>>
void update(const Space& exec, double* b, Index n, Code = {}) {
  const Index m = items<Code>(n);
  Kokkos::parallel_for("nbk::probe::update", range(exec, 0, m), Update<Code>{b, m});
}
template <class Space, class Code = CodeFor<Space>>
void copy(const Space& exec, const double* a, double* c, Index n, Code = {}) {
  const Index m = items<Code>(n);
  Kokkos::parallel_for("nbk::probe::copy", range(exec, 0, m), Copy<Code>{a, c, m});
}
template <class Space, class Code = CodeFor<Space>>
void add(const Space& exec, const double* a, const double* b, double* c, Index n, Code = {}) {
  const Index m = items<Code>(n);
  Kokkos::parallel_for("nbk::probe::add", range(exec, 0, m), Add<Code>{a, b, c, m});
}

// ---- outside Kokkos, host memory (ceiling_loops.cpp): `threads` OpenMP threads, 1: this one ----

// BabelStream's kernels: a static schedule over `threads`, the loops vectorized (the sum in
// sixteen parts, as a vectorized reduction adds).
double plain_read(const double* a, Index n, int threads);
void plain_update(double* b, Index n, int threads);
void plain_copy(const double* a, double* c, Index n, int threads);
void plain_add(const double* a, const double* b, double* c, Index n, int threads);
// With non-temporal stores (whole lines to memory, none read first), ordered by an sfence at the
// end of each thread's part; plain stores where the build has no SSE2.
void streaming_copy(const double* a, double* c, Index n, int threads);
void streaming_add(const double* a, const double* b, double* c, Index n, int threads);

}  // namespace nbk::ceiling
