#pragma once
// Runs an element-wise map of host vectors on Space: copies each into the space's memory,
// calls `kernel(space, in..., out)` and returns the output copied back.
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

}  // namespace nbk::test
