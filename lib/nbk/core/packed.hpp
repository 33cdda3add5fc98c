#pragma once
// Element-wise updates of a rank-1 View, 16 bytes per access on a GPU.
//
// A streaming kernel with one 4-byte element per thread leaves the memory system waiting on one
// small load per thread (add-one 2^31 on an H100: 80% of cudaMemcpy, where PyTorch's kernel, four
// elements to a thread in 16-byte loads, reaches 98%). Kokkos has no vector-load API, but a View
// of a 16-byte aligned struct of four elements, unmanaged over the same memory, is read and
// written by nvcc with ld.global.v4 / st.global.v4 (CI reads it in the PTX: tests/ptx_atomics.sh). Host
// spaces keep the element loop, which their compilers vectorize already.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

#include "nbk/core/compat.hpp"
#include "nbk/core/policy.hpp"

namespace nbk {

// `Width` consecutive T in one aligned access.
template <class T, int Width>
struct alignas(sizeof(T) * Width) Pack {
  T at[Width];
};

// v(i) = f(v(i)) for every i, labelled `label`. On a device space, where v is contiguous and its
// data 16-byte aligned, a thread updates one Pack of 16 bytes; the last thread the tail.
template <class ExecSpace, class View, class F>
void update_each(const std::string& label, const ExecSpace& exec, const View& v, const F& f) {
  check_1d_arguments<ExecSpace, View>();
  using T = typename View::non_const_value_type;
  constexpr int width = sizeof(T) < 16 && 16 % sizeof(T) == 0 ? int(16 / sizeof(T)) : 1;
  const auto n = static_cast<Index>(v.extent(0));
  if constexpr (is_device_space_v<ExecSpace> && width > 1) {
    if (v.span_is_contiguous() && reinterpret_cast<std::uintptr_t>(v.data()) % 16 == 0) {
      using P = Pack<T, width>;
      const Index packs = n / width;
      const Kokkos::View<P*, typename View::memory_space, Kokkos::MemoryUnmanaged> p(reinterpret_cast<P*>(v.data()),
                                                                                    packs);
      Kokkos::parallel_for(label, range(exec, 0, packs + (n % width != 0)), KOKKOS_LAMBDA(Index c) {
        if (c < packs) {
          P x = p(c);
          for (int k = 0; k < width; ++k) x.at[k] = f(x.at[k]);
          p(c) = x;
        } else {
          for (Index i = packs * width; i < n; ++i) v(i) = f(v(i));
        }
      });
      return;
    }
  }
  Kokkos::parallel_for(label, range(exec, 0, n), KOKKOS_LAMBDA(Index i) { v(i) = f(v(i)); });
}

}  // namespace nbk
