#pragma once
// The CUDA C guide's MatAdd (quoted in seed 003): C = A + B over N x N float32 matrices, one
// thread per element, on a 2-D grid of 16 x 16 blocks; here a 2-D MDRangePolicy with 16 x 16,
// 1 x 256 or Kokkos' tiles. Row-major (C's float A[N][N]), right-most index fastest.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>

#if defined(__SSE2__) && !defined(__CUDA_ARCH__)
#include <immintrin.h>
#endif

#include "nbk/core/compat.hpp"
#include "nbk/core/mdrange.hpp"
#include "nbk/core/policy.hpp"

namespace nbk::mat_add {

template <class Memory>
using Matrix = Kokkos::View<float**, Kokkos::LayoutRight, Memory>;

// The guide's MatAdd as Kokkos' documentation writes it: a 2-D MDRangePolicy over C's indices,
// one (i, j) a call, the body in place. Kokkos picks the tiles and, on a GPU, puts a warp's
// threads on i (nbk/core/mdrange.hpp): the tuned forms below choose both.
template <class Space, class A, class C>
void plain_mat_add(const Space& exec, const A& a, const A& b, const C& c) {
  using Policy = Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t rows = c.extent(0), columns = c.extent(1);
  Kokkos::parallel_for("nbk::mat_add::plain", Policy(exec, {0, 0}, {rows, columns}),
                       KOKKOS_LAMBDA(const std::int64_t i, const std::int64_t j) { c(i, j) = a(i, j) + b(i, j); });
}

// How the 2-D range is launched (nbk/core/mdrange.hpp), in the matrix's own index order: the
// guide's 16 x 16 blocks, Kokkos' tiles, or 1 x 256, whose block is one piece of a row (threadIdx.y
// on j): a warp reads 128 contiguous bytes, where a 16 x 16 warp reads 16 rows x 2 columns, 16
// separate 32-byte sectors per load. On host spaces tiles only set the order of the loops.
using Launch = nbk::Launch<2>;
inline constexpr Launch kokkos_launch{};
inline constexpr Launch guide_launch{{16, 16}};  // the guide's threadsPerBlock(16, 16)
inline constexpr Launch row_launch{{1, 256}};
inline constexpr Launch flat_launch{{}, Walk::flat};  // the spans as one range, 16-byte packs on a GPU

struct Plus {
  KOKKOS_INLINE_FUNCTION float operator()(float x, float y) const { return x + y; }
};

template <class Space, class A, class C, class Code = CodeFor<Space>>
void mat_add(const Space& exec, const A& a, const A& b, const C& c, const Launch& launch, Code code = {}) {
  static_assert(Kokkos::is_execution_space<Space>::value);
  static_assert(A::rank == 2 && C::rank == 2, "MatAdd works on 2-D Views");
  static_assert(Kokkos::SpaceAccessibility<Space, typename C::memory_space>::accessible,
                "the views' memory is not accessible from this execution space");
  map_elements("nbk::mat_add", exec, launch, c, a, b, Plus{}, code);
}

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
