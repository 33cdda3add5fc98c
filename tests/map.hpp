#pragma once
// Runs an element-wise map of host vectors on Space: copies each into the space's memory,
// calls `kernel(space, in..., out)` and returns the output copied back; and what a map of no
// elements writes (writes_of_empty_map).
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace nbk::test {

template <class Space, class T>
Kokkos::View<T*, typename Space::memory_space> to_space(const std::vector<T>& values) {
  Kokkos::View<T*, typename Space::memory_space> view("in", values.size());
  auto host = Kokkos::create_mirror_view(view);
  for (std::size_t i = 0; i < values.size(); ++i) host(i) = values[i];
  Kokkos::deep_copy(view, host);
  return view;
}

template <class Space, class T, class Kernel, class... More>
std::vector<T> run_map(Kernel kernel, const std::vector<T>& first, const More&... more) {
  Kokkos::View<T*, typename Space::memory_space> out("out", first.size());
  kernel(Space(), to_space<Space>(first), to_space<Space>(more)..., out);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  return std::vector<T>(host.data(), host.data() + first.size());
}

// `kernel(space, in, out)` on Views of no elements, each in the middle of a larger allocation (the
// input's of ones, the output's of -1): how many elements of the output's allocation it changed.
// A map of nothing writes nothing, not an element, a tail or a tile.
template <class Space, class Kernel>
std::size_t writes_of_empty_map(Kernel kernel) {
  using Memory = typename Space::memory_space;
  constexpr std::size_t size = 64, at = 32;
  Kokkos::View<float*, Memory> in("in", size), out("out", size);
  Kokkos::deep_copy(in, 1.0f);
  Kokkos::deep_copy(out, -1.0f);
  const Kokkos::View<float*, Memory, Kokkos::MemoryUnmanaged> empty_in(in.data() + at, 0), empty_out(out.data() + at, 0);
  kernel(Space(), empty_in, empty_out);
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  std::size_t written = 0;
  for (std::size_t e = 0; e < size; ++e) written += host(e) != -1.0f;
  return written;
}

}  // namespace nbk::test
