// The ceilings' kernels outside Kokkos (ceiling_kernels.hpp): BabelStream's OpenMP loops, and a
// CPU's copy and add with streaming stores.
#include "nbk/report/ceiling_kernels.hpp"

#if defined(__SSE2__)
#include <immintrin.h>
#endif
#if defined(_OPENMP)
#include <omp.h>
#endif

#include <algorithm>
#include <cstdint>
#include <vector>

namespace nbk::ceiling {

namespace {

// This thread's part [first, last) of n, in whole 64-byte lines where n allows.
struct Part {
  Index first = 0, last = 0;
};
Part part_of(Index n, int thread, int threads) {
  const Index lines = (n + 7) / 8;
  const Index per = lines / threads, extra = lines % threads;
  const Index first = std::min(n, 8 * (per * thread + std::min<Index>(thread, extra)));
  const Index last = std::min(n, first + 8 * (per + (thread < extra ? 1 : 0)));
  return {first, last};
}

// Runs body(first, last) on each of `threads` OpenMP threads, in parts of whole lines (a static
// schedule, as BabelStream's); on this thread alone, without an OpenMP construct, for 1.
template <class Body>
void on_threads(Index n, int threads, const Body& body) {
#if defined(_OPENMP)
  if (threads > 1) {
#pragma omp parallel num_threads(threads)
    {
      const Part p = part_of(n, omp_get_thread_num(), omp_get_num_threads());
      body(p.first, p.last);
    }
    return;
  }
#endif
  (void)threads;
  body(Index{0}, n);
}

#if defined(__AVX512F__)
constexpr int lanes = 8;
inline void stream_pd(double* to, const double* a) { _mm512_stream_pd(to, _mm512_loadu_pd(a)); }
inline void stream_add_pd(double* to, const double* a, const double* b) {
  _mm512_stream_pd(to, _mm512_add_pd(_mm512_loadu_pd(a), _mm512_loadu_pd(b)));
}
#elif defined(__AVX__)
constexpr int lanes = 4;
inline void stream_pd(double* to, const double* a) { _mm256_stream_pd(to, _mm256_loadu_pd(a)); }
inline void stream_add_pd(double* to, const double* a, const double* b) {
  _mm256_stream_pd(to, _mm256_add_pd(_mm256_loadu_pd(a), _mm256_loadu_pd(b)));
}
#elif defined(__SSE2__)
constexpr int lanes = 2;
inline void stream_pd(double* to, const double* a) { _mm_stream_pd(to, _mm_loadu_pd(a)); }
inline void stream_add_pd(double* to, const double* a, const double* b) {
  _mm_stream_pd(to, _mm_add_pd(_mm_loadu_pd(a), _mm_loadu_pd(b)));
}
#endif

}  // namespace

// Sixteen sums at once, so that the adds of a thread overlap (one sum would wait on each add) and
// vectorize without reassociating any one of them: what a read-only kernel can reach.
double plain_read(const double* a, Index n, int threads) {
  constexpr int lanes = 16;
  std::vector<double> parts(static_cast<std::size_t>(std::max(threads, 1)), 0.0);
  on_threads(n, threads, [&](Index first, Index last) {
    double acc[lanes] = {};
    Index i = first;
    for (; i + lanes <= last; i += lanes)
      for (int k = 0; k < lanes; ++k) acc[k] += a[i + k];
    for (; i < last; ++i) acc[0] += a[i];
    double sum = 0;
    for (int k = 0; k < lanes; ++k) sum += acc[k];
#if defined(_OPENMP)
    parts[static_cast<std::size_t>(threads > 1 ? omp_get_thread_num() : 0)] = sum;
#else
    parts[0] = sum;
#endif
  });
  double sum = 0;
  for (const double p : parts) sum += p;
  return sum;
}

void plain_update(double* b, Index n, int threads) {
  on_threads(n, threads, [=](Index first, Index last) {
    double* __restrict x = b;
    for (Index i = first; i < last; ++i) x[i] += 1.0;
  });
}

void plain_copy(const double* a, double* c, Index n, int threads) {
  on_threads(n, threads, [=](Index first, Index last) {
    const double* __restrict x = a;
    double* __restrict y = c;
    for (Index i = first; i < last; ++i) y[i] = x[i];
  });
}

void plain_add(const double* a, const double* b, double* c, Index n, int threads) {
  on_threads(n, threads, [=](Index first, Index last) {
    const double* __restrict x = a;
    const double* __restrict y = b;
    double* __restrict z = c;
    for (Index i = first; i < last; ++i) z[i] = x[i] + y[i];
  });
}

void streaming_copy(const double* a, double* c, Index n, int threads) {
  on_threads(n, threads, [=](Index first, Index last) {
    Index i = first;
#if defined(__SSE2__)
    for (; i < last && reinterpret_cast<std::uintptr_t>(c + i) % (lanes * sizeof(double)) != 0; ++i) c[i] = a[i];
    for (; i + lanes <= last; i += lanes) stream_pd(c + i, a + i);
#endif
    for (; i < last; ++i) c[i] = a[i];
#if defined(__SSE2__)
    _mm_sfence();
#endif
  });
}

void streaming_add(const double* a, const double* b, double* c, Index n, int threads) {
  on_threads(n, threads, [=](Index first, Index last) {
    Index i = first;
#if defined(__SSE2__)
    for (; i < last && reinterpret_cast<std::uintptr_t>(c + i) % (lanes * sizeof(double)) != 0; ++i)
      c[i] = a[i] + b[i];
    for (; i + lanes <= last; i += lanes) stream_add_pd(c + i, a + i, b + i);
#endif
    for (; i < last; ++i) c[i] = a[i] + b[i];
#if defined(__SSE2__)
    _mm_sfence();
#endif
  });
}

}  // namespace nbk::ceiling
