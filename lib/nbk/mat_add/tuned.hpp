#pragma once
// MatAdd's tuned form, ours and not the guide's: on host spaces C written by streaming
// (non-temporal) stores, and a row's way to run, a launch of kernels.hpp's mat_add or those
// stores. Measured against the plain row in notes.md's "## Tuned forms".
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#if defined(__SSE2__) && !defined(__CUDA_ARCH__)
#include <immintrin.h>
#endif

#include "nbk/core/compat.hpp"
#include "nbk/core/policy.hpp"
#include "nbk/mat_add/kernels.hpp"

namespace nbk::mat_add {

// Host spaces only: C = A + B over the matrices' spans with non-temporal stores, in blocks of
// `block` elements, a work item each. An ordinary store first reads C's cache line into the
// cache (a read for ownership) and writes it back later: C = A + B then moves four streams, A,
// B and C in, C out, where a streaming store writes whole lines straight to memory and moves
// three. On a CPU where one thread already runs at the memory's speed (NumPy's one thread, the
// flat and mdrange rows: 4.6-4.7 ms at 4096^2 on the 2-core VM) that quarter of the bytes is
// all that is left to win. Each block ends with an sfence, so its stores are ordered before
// the kernel's end (non-temporal stores are weakly ordered); 16 KiB of C a block keeps the fence
// rare and the blocks many (1024 at 4096^2). Where the build has no SSE2, the loop is plain.
inline constexpr Index streaming_block = 4096;

inline void add_streaming(const float* a, const float* b, float* c, Index n) {
  Index i = 0;
#if defined(__SSE2__) && !defined(__CUDA_ARCH__)
#if defined(__AVX512F__)
  constexpr Index width = 16;
#elif defined(__AVX__)
  constexpr Index width = 8;
#else
  constexpr Index width = 4;
#endif
  // Up to C's first vector-aligned element in ordinary stores (a streaming store needs one).
  for (; i < n && reinterpret_cast<std::uintptr_t>(c + i) % (width * sizeof(float)) != 0; ++i) c[i] = a[i] + b[i];
  for (; i + width <= n; i += width) {
#if defined(__AVX512F__)
    _mm512_stream_ps(c + i, _mm512_add_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i)));
#elif defined(__AVX__)
    _mm256_stream_ps(c + i, _mm256_add_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i)));
#else
    _mm_stream_ps(c + i, _mm_add_ps(_mm_loadu_ps(a + i), _mm_loadu_ps(b + i)));
#endif
  }
#endif
  for (; i < n; ++i) c[i] = a[i] + b[i];
#if defined(__SSE2__) && !defined(__CUDA_ARCH__)
  _mm_sfence();
#endif
}

// Tuned form: mat_add_streaming: C written by non-temporal stores, no read of its lines first; gains on a CPU.
template <class Space, class A, class C>
void mat_add_streaming(const Space& exec, const A& a, const A& b, const C& c) {
  static_assert(!is_device_space_v<Space>, "non-temporal stores are a host space's (a GPU's flat row: mat_add)");
  static_assert(A::rank == 2 && C::rank == 2, "MatAdd works on 2-D Views");
  static_assert(std::is_same_v<typename A::non_const_value_type, float> &&
                std::is_same_v<typename C::value_type, float>, "MatAdd adds float32 matrices");
  if (!a.span_is_contiguous() || !b.span_is_contiguous() || !c.span_is_contiguous() || a.span() != c.span() ||
      b.span() != c.span())
    Kokkos::abort("nbk::mat_add::mat_add_streaming: the matrices must be contiguous and of one span");
  const Index n = static_cast<Index>(c.span());
  const float* pa = a.data();
  const float* pb = b.data();
  float* pc = c.data();
  // A host lambda, not KOKKOS_LAMBDA: the intrinsics have no device form.
  Kokkos::parallel_for("nbk::mat_add::streaming", range(exec, 0, (n + streaming_block - 1) / streaming_block),
                       [=](Index k) {
                         const Index begin = k * streaming_block;
                         add_streaming(pa + begin, pb + begin, pc + begin, std::min(streaming_block, n - begin));
                       });
}

// A row's way to run: a launch of mat_add, or (host spaces) mat_add_streaming's non-temporal stores.
struct Way {
  Launch launch = {};
  bool streaming_stores = false;
  constexpr Way(Launch l = {}, bool streaming = false) : launch(l), streaming_stores(streaming) {}  // NOLINT: implicit
};
inline constexpr Way streaming_way{flat_launch, true};

template <class Space, class A, class C>
void mat_add(const Space& exec, const A& a, const A& b, const C& c, const Way& way) {
  if constexpr (!is_device_space_v<Space>) {
    if (way.streaming_stores) return mat_add_streaming(exec, a, b, c);
  }
  mat_add(exec, a, b, c, way.launch);
}

}  // namespace nbk::mat_add
