#pragma once
// Seed 003's histogram: counts of float samples in equal bins over [xmin, xmax), samples
// outside dropped. Here the document's kernels: an atomic increment a sample on the one histogram
// (plain, and atomic through our launcher), its unchecked formula (the injected bug), and one host
// thread. The tuned ways of sharing the counts (a ScatterView, private team histograms in
// scratch, private int32 copies per CPU thread) are in tuned.hpp.
#include <Kokkos_Core.hpp>

#include <cstdint>

#include "nbk/core/compat.hpp"
#include "nbk/core/policy.hpp"

namespace nbk::histogram {

struct Bins {
  float xmin = -4, xmax = 4;
  int count = 100;
  // count / (xmax - xmin), in float as the kernels compute it.
  KOKKOS_INLINE_FUNCTION float per_unit() const { return static_cast<float>(count) / (xmax - xmin); }
};

// The bin of x, or -1 when x is outside [xmin, xmax) or NaN. The range is checked on x
// itself; the scaled offset is clamped, because for x just below xmax it can round up to
// `count`.
KOKKOS_INLINE_FUNCTION int bin_of(float x, const Bins& bins) {
  if (!(x >= bins.xmin && x < bins.xmax)) return -1;
  const int bin = static_cast<int>((x - bins.xmin) * bins.per_unit());
  return bin < bins.count ? bin : bins.count - 1;
}

// The document's histogram kernel as Kokkos' documentation writes it: a RangePolicy (64-bit indices),
// one sample a call, its bin (bin_of, the document's formula corrected) incremented atomically in the
// one histogram, the body in place; the tuned forms (tuned.hpp) share the counts in other ways.
template <class Space, class X, class H>
void plain_histogram(const Space& exec, const X& x, const Bins& bins, const H& histogram) {
  using Policy = Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t n = x.extent(0);
  Kokkos::deep_copy(exec, histogram, Count(0));
  Kokkos::parallel_for("nbk::histogram::plain", Policy(exec, 0, n), KOKKOS_LAMBDA(const std::int64_t i) {
    const int bin = bin_of(x(i), bins);
    if (bin >= 0) Kokkos::atomic_add(&histogram(bin), Count{1});
  });
}

// The document's formula, (x + xmin) / bin_width: it adds xmin where it must subtract it, so
// a sample's offset is 2 |xmin| / width bins too low. With xmin = -4 and 100 bins that is
// below the histogram, where its range check drops it, except for the top bin's samples,
// whose small negative offset truncates to 0: everything lands in bin 0 or nowhere.
KOKKOS_INLINE_FUNCTION int document_unchecked_bin_of(float x, const Bins& bins) {
  const float width = (bins.xmax - bins.xmin) / static_cast<float>(bins.count);
  return static_cast<int>((x + bins.xmin) / width);
}

// The document's formula with its range check: -1 outside the histogram.
KOKKOS_INLINE_FUNCTION int document_bin_of(float x, const Bins& bins) {
  const int bin = document_unchecked_bin_of(x, bins);
  return bin >= 0 && bin < bins.count ? bin : -1;
}

// The kernels are functors, not lambdas: under nvcc a lambda's host code is called through a
// type-erased wrapper that Serial and OpenMP loops cannot inline (kokkos/kokkos issue 8141).
template <class X, class H>
struct AtomicCount {
  X x;
  Bins bins;
  H histogram;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const {
    const int bin = bin_of(x(i), bins);
    if (bin >= 0) Kokkos::atomic_add(&histogram(bin), Count{1});
  }
};

// The document's kernel (one sample a call, an atomic increment) launched through our range();
// the same kernel as plain_histogram, so it stays here, not among the tuned forms.
template <class Space, class X, class H>
void atomic_histogram(const Space& exec, const X& x, const Bins& bins, const H& histogram) {
  check_1d_arguments<Space, X>();
  check_1d_arguments<Space, H>();
  Kokkos::deep_copy(exec, histogram, Count(0));
  Kokkos::parallel_for("nbk::histogram::atomic", range(exec, 0, static_cast<Index>(x.extent(0))),
                       AtomicCount<X, H>{x, bins, histogram});
}

// The counts, LayoutRight on every space: a ScatterView (scatter_histogram, tuned.hpp) requires
// the layout of the View it contributes into, and CUDA's default would be LayoutLeft.
template <class Memory>
using Histogram = Kokkos::View<Count*, Kokkos::LayoutRight, Memory>;

// The injected bug (program flag --inject-bug, never in tests' variant runs): the document's
// bin without its range check, so with xmin < 0 it writes below the histogram. The debug
// preset's bounds checks abort on the first such write; compute-sanitizer memcheck reports
// it on a GPU, as cuda-memcheck does in the document.
template <class X, class H>
struct UncheckedDocumentCount {
  X x;
  Bins bins;
  H histogram;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const {
    Kokkos::atomic_add(&histogram(document_unchecked_bin_of(x(i), bins)), Count{1});
  }
};

template <class Space, class X, class H>
void unchecked_document_histogram(const Space& exec, const X& x, const Bins& bins, const H& histogram) {
  check_1d_arguments<Space, X>();
  check_1d_arguments<Space, H>();
  Kokkos::deep_copy(exec, histogram, Count(0));
  Kokkos::parallel_for("nbk::histogram::unchecked_document", range(exec, 0, static_cast<Index>(x.extent(0))),
                       UncheckedDocumentCount<X, H>{x, bins, histogram});
}

// One host thread, the reference every variant must match exactly.
inline void host_histogram(const float* x, std::int64_t n, const Bins& bins, Count* histogram) {
  for (int b = 0; b < bins.count; ++b) histogram[b] = 0;
  for (std::int64_t i = 0; i < n; ++i)
    if (const int bin = bin_of(x[i], bins); bin >= 0) ++histogram[bin];
}

}  // namespace nbk::histogram
