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
#include "nbk/core/lambda.hpp"
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

// v's first n / width elements as 16-byte packs, or nothing (an empty View) for host code, where
// T has no packs, or where v is not contiguous or not 16-byte aligned (a slice). The caller
// handles the elements from packs.extent(0) * width on one at a time.
template <class Code, class View>
auto packs_of(const View& v) {
  using T = typename View::value_type;
  constexpr int width = pack_width<typename View::non_const_value_type>;
  using P = std::conditional_t<std::is_const_v<T>, const Pack<std::remove_const_t<T>, width>, Pack<T, width>>;
  using Packs = Kokkos::View<P*, typename View::memory_space, Kokkos::MemoryUnmanaged>;
  const bool packable = is_gpu_code_v<Code> && width > 1 && v.span_is_contiguous() &&
                        reinterpret_cast<std::uintptr_t>(v.data()) % 16 == 0;
  if (!packable) return Packs(reinterpret_cast<P*>(v.data()), 0);
  return Packs(reinterpret_cast<P*>(v.data()), static_cast<std::size_t>(v.extent(0)) / width);
}

// The element operations handed to the maps below are functors at namespace scope, not lambdas:
// nvcc refuses a lambda type local to a host function (what NBK_LAMBDA gives a host space) as a
// template argument of a function that defines an extended lambda, as these do. Each workload
// names its own, so that its kernels' names say whose they are (tests/ptx_atomics.sh reads them).

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
    Kokkos::parallel_for(label, range(exec, 0, n), NBK_LAMBDA(exec, (Index i) { v(i) = f(v(i)); }));
    return;
  }
  Kokkos::parallel_for(label, range(exec, 0, packs + (n > packs * width)), NBK_LAMBDA(exec, (Index c) {
    if (c < packs) {
      auto x = p(c);
      for (int k = 0; k < width; ++k) x.at[k] = f(x.at[k]);
      p(c) = x;
    } else {
      for (Index i = packs * width; i < n; ++i) v(i) = f(v(i));
    }
  }));
}

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
    Kokkos::parallel_for(label, range(exec, 0, n), NBK_LAMBDA(exec, (Index i) { out(i) = f(a(i), b(i)); }));
    return;
  }
  Kokkos::parallel_for(label, range(exec, 0, packs + (n > packs * width)), NBK_LAMBDA(exec, (Index c) {
    if (c < packs) {
      const auto x = pa(c), y = pb(c);
      typename decltype(po)::non_const_value_type r;
      for (int k = 0; k < width; ++k) r.at[k] = f(x.at[k], y.at[k]);
      po(c) = r;
    } else {
      for (Index i = packs * width; i < n; ++i) out(i) = f(a(i), b(i));
    }
  }));
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
