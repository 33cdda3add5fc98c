#pragma once
// A rank-1 View read and written 16 bytes per access on a GPU.
//
// A streaming kernel with one 4-byte element per thread leaves the memory system waiting on one
// small load per thread (add-one 2^31 on an H100: 80% of cudaMemcpy, where PyTorch's kernel, four
// elements to a thread in 16-byte loads, reaches 98%). Kokkos has no vector-load API, but a View
// of a 16-byte aligned struct of four elements, unmanaged over the same memory, is read and
// written by nvcc with ld.global.v4 / st.global.v4 (CI reads it in the PTX: tests/ptx_atomics.sh). Host
// code keeps the element loop, which its compilers vectorize already. A reduction gains the
// same way: four times the bytes in flight per thread at the same launch shape. The packs are
// GPU code (nbk/core/code.hpp): the tests run them on host spaces too.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "nbk/core/code.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/policy.hpp"

namespace nbk {

// `Width` consecutive T in one aligned access.
template <class T, int Width>
struct alignas(sizeof(T) * Width) Pack {
  T at[Width];
};

// How many T a 16-byte pack holds (1: T does not divide 16 bytes, no packs).
template <class T>
inline constexpr int pack_width = sizeof(T) < 16 && 16 % sizeof(T) == 0 ? int(16 / sizeof(T)) : 1;

// What packs_of gives: a View of Pack<T, pack_width<T>>, const where View's elements are.
template <class View, class T = typename View::non_const_value_type, class P = Pack<T, pack_width<T>>>
using PacksOf = Kokkos::View<std::conditional_t<std::is_const_v<typename View::value_type>, const P, P>*,
                             typename View::memory_space, Kokkos::MemoryUnmanaged>;

// v's first n / width elements as 16-byte packs, or nothing (an empty View) for host code, where
// T has no packs, or where v is not contiguous or not 16-byte aligned (a slice). The caller
// handles the elements from packs.extent(0) * width on one at a time.
template <class Code, class View>
auto packs_of(const View& v) {
  constexpr int width = pack_width<typename View::non_const_value_type>;
  using Packs = PacksOf<View>;
  using P = typename Packs::value_type;
  const bool packable = is_gpu_code_v<Code> && width > 1 && v.span_is_contiguous() &&
                        reinterpret_cast<std::uintptr_t>(v.data()) % 16 == 0;
  if (!packable) return Packs(reinterpret_cast<P*>(v.data()), 0);
  return Packs(reinterpret_cast<P*>(v.data()), static_cast<std::size_t>(v.extent(0)) / width);
}

// The element operations handed to the maps below are functors at namespace scope, as the maps'
// kernels are: a lambda of a host function can be part of a device kernel's type only as an
// extended lambda, which nvcc's host code calls through a pointer, element by element
// (kokkos/kokkos#8141). Each workload names its own, so that its kernels' names say whose they
// are (tests/ptx_atomics.sh reads them).

// v(i) = f(v(i)), an element a call.
template <class View, class F>
struct UpdateEach {
  View v;
  F f;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const { v(i) = f(v(i)); }
};

// The same a 16-byte pack a call: packs [0, packs) of p, then (c == packs) v's tail from packs * width.
template <class View, class F>
struct UpdatePacks {
  static constexpr int width = pack_width<typename View::non_const_value_type>;
  View v;
  PacksOf<View> p;
  Index packs, n;
  F f;
  KOKKOS_INLINE_FUNCTION void operator()(Index c) const {
    if (c < packs) {
      auto x = p(c);
      for (int k = 0; k < width; ++k) x.at[k] = f(x.at[k]);
      p(c) = x;
    } else {
      for (Index i = packs * width; i < n; ++i) v(i) = f(v(i));
    }
  }
};

// v(i) = f(v(i)) for every i, labelled `label`: a thread a 16-byte pack where packs_of gives
// them (the last thread takes the tail), a thread an element elsewhere.
template <class Space, class View, class F, class Code = CodeFor<Space>>
void update_each(const std::string& label, const Space& exec, const View& v, const F& f, Code = {}) {
  check_1d_arguments<Space, View>();
  constexpr int width = pack_width<typename View::non_const_value_type>;
  const auto n = static_cast<Index>(v.extent(0));
  const auto p = packs_of<Code>(v);
  const auto packs = static_cast<Index>(p.extent(0));
  if (packs == 0) {
    Kokkos::parallel_for(label, range(exec, 0, n), UpdateEach<View, F>{v, f});
    return;
  }
  Kokkos::parallel_for(label, range(exec, 0, packs + (n > packs * width)), UpdatePacks<View, F>{v, p, packs, n, f});
}

// out(i) = f(a(i), b(i)), an element a call.
template <class Out, class A, class B, class F>
struct MapEach {
  Out out;
  A a;
  B b;
  F f;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const { out(i) = f(a(i), b(i)); }
};

// The same a 16-byte pack of each View a call: packs [0, packs), then (c == packs) the tail from
// packs * width.
template <class Out, class A, class B, class F>
struct MapPacks {
  static constexpr int width = pack_width<typename Out::non_const_value_type>;
  Out out;
  A a;
  B b;
  PacksOf<Out> po;
  PacksOf<A> pa;
  PacksOf<B> pb;
  Index packs, n;
  F f;
  KOKKOS_INLINE_FUNCTION void operator()(Index c) const {
    if (c < packs) {
      const auto x = pa(c), y = pb(c);
      typename PacksOf<Out>::non_const_value_type r;
      for (int k = 0; k < width; ++k) r.at[k] = f(x.at[k], y.at[k]);
      po(c) = r;
    } else {
      for (Index i = packs * width; i < n; ++i) out(i) = f(a(i), b(i));
    }
  }
};

// out(i) = f(a(i), b(i)) for every i of three rank-1 Views of one length, labelled `label`: a
// thread three 16-byte packs where packs_of gives them for all three, an element elsewhere.
template <class Space, class Out, class A, class B, class F, class Code = CodeFor<Space>>
void map_each(const std::string& label, const Space& exec, const Out& out, const A& a, const B& b, const F& f,
              Code = {}) {
  check_1d_arguments<Space, Out>();
  constexpr int width = pack_width<typename Out::non_const_value_type>;
  static_assert(pack_width<typename A::non_const_value_type> == width &&
                pack_width<typename B::non_const_value_type> == width, "one element size for all three Views");
  const auto n = static_cast<Index>(out.extent(0));
  const auto po = packs_of<Code>(out);
  const auto pa = packs_of<Code>(a);
  const auto pb = packs_of<Code>(b);
  const auto packs = static_cast<Index>(po.extent(0));
  if (packs == 0 || pa.extent(0) != po.extent(0) || pb.extent(0) != po.extent(0)) {
    Kokkos::parallel_for(label, range(exec, 0, n), MapEach<Out, A, B, F>{out, a, b, f});
    return;
  }
  Kokkos::parallel_for(label, range(exec, 0, packs + (n > packs * width)),
                       MapPacks<Out, A, B, F>{out, a, b, po, pa, pb, packs, n, f});
}

// A contiguous View of any rank as the rank-1 View of its elements: the same memory, unmanaged.
// A View with gaps (a strided slice) has no such View: std::invalid_argument.
template <class View>
auto flat(const View& v) {
  if (!v.span_is_contiguous()) throw std::invalid_argument("nbk::flat: View '" + v.label() + "' is not contiguous");
  return Kokkos::View<typename View::value_type*, typename View::memory_space, Kokkos::MemoryUnmanaged>(v.data(),
                                                                                                      v.size());
}

}  // namespace nbk
