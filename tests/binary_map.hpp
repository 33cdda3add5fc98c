#pragma once
// Runs an element-wise map of two host vectors on Space: copies them into the space's memory,
// calls `kernel(space, x, y, out)` and returns the output copied back.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace nbk::test {

template <class Space, class T, class Kernel>
std::vector<T> run_binary_map(const std::vector<T>& x, const std::vector<T>& y, Kernel kernel) {
  using Array = Kokkos::View<T*, typename Space::memory_space>;
  const auto n = static_cast<std::int64_t>(x.size());
  Array dx("x", n), dy("y", n), dout("out", n);
  auto hx = Kokkos::create_mirror_view(dx), hy = Kokkos::create_mirror_view(dy);
  for (std::int64_t i = 0; i < n; ++i) {
    hx(i) = x[static_cast<std::size_t>(i)];
    hy(i) = y[static_cast<std::size_t>(i)];
  }
  Kokkos::deep_copy(dx, hx);
  Kokkos::deep_copy(dy, hy);
  kernel(Space(), dx, dy, dout);
  auto hout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dout);
  return std::vector<T>(hout.data(), hout.data() + n);
}

}  // namespace nbk::test
