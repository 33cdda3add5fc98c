#pragma once
// A rank-1 View read and written 16 bytes per access on a GPU.
//
// A streaming kernel with one 4-byte element per thread leaves the memory system waiting on one
// small load per thread (add-one 2^31 on an H100: 80% of cudaMemcpy, where PyTorch's kernel, four
// elements to a thread in 16-byte loads, reaches 98%). Kokkos has no vector-load API, but a View
// of a 16-byte aligned struct of four elements, unmanaged over the same memory, is read and
// written by nvcc with ld.global.v4 / st.global.v4 (CI reads it in the PTX: tests/ptx_atomics.sh). Host
// spaces keep the element loop, which their compilers vectorize already. A reduction gains the
// same way: four times the bytes in flight per thread at the same launch shape.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

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

// v's first n / width elements as 16-byte packs, or nothing (an empty View) where ExecSpace is a
// host space, T has no packs, or v is not contiguous or not 16-byte aligned (a slice). The caller
// handles the elements from packs.extent(0) * width on one at a time.
template <class ExecSpace, class View>
auto packs_of(const View& v) {
  using T = typename View::value_type;
  constexpr int width = pack_width<typename View::non_const_value_type>;
  using P = std::conditional_t<std::is_const_v<T>, const Pack<std::remove_const_t<T>, width>, Pack<T, width>>;
  using Packs = Kokkos::View<P*, typename View::memory_space, Kokkos::MemoryUnmanaged>;
  const bool packable = is_device_space_v<ExecSpace> && width > 1 && v.span_is_contiguous() &&
                        reinterpret_cast<std::uintptr_t>(v.data()) % 16 == 0;
  if (!packable) return Packs(reinterpret_cast<P*>(v.data()), 0);
  return Packs(reinterpret_cast<P*>(v.data()), static_cast<std::size_t>(v.extent(0)) / width);
}

// v(i) = f(v(i)) for every i, labelled `label`: a thread a 16-byte pack where packs_of gives
// them (the last thread takes the tail), a thread an element elsewhere.
template <class ExecSpace, class View, class F>
void update_each(const std::string& label, const ExecSpace& exec, const View& v, const F& f) {
  check_1d_arguments<ExecSpace, View>();
  constexpr int width = pack_width<typename View::non_const_value_type>;
  const auto n = static_cast<Index>(v.extent(0));
  const auto p = packs_of<ExecSpace>(v);
  const auto packs = static_cast<Index>(p.extent(0));
  if (packs == 0) {
    Kokkos::parallel_for(label, range(exec, 0, n), KOKKOS_LAMBDA(Index i) { v(i) = f(v(i)); });
    return;
  }
  Kokkos::parallel_for(label, range(exec, 0, packs + (n > packs * width)), KOKKOS_LAMBDA(Index c) {
    if (c < packs) {
      auto x = p(c);
      for (int k = 0; k < width; ++k) x.at[k] = f(x.at[k]);
      p(c) = x;
    } else {
      for (Index i = packs * width; i < n; ++i) v(i) = f(v(i));
    }
  });
}

}  // namespace nbk
