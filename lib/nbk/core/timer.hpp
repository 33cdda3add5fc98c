#pragma once
// Wall-clock timing that cannot stop early: everything outstanding is fenced before the
// clock starts and before it stops, so asynchronous kernels and copies are inside the
// measured interval. A call that runs on host spaces only stops its clock after fencing the
// host spaces: in a CUDA build Kokkos::fence() also synchronizes the GPU (cudaDeviceSynchronize,
// about a microsecond even when idle), which no CPU row's work needs and a host-only build's rows
// do not pay. On an H200 machine's host that was +1.2 us a call on Serial (add f32 at 4
// elements: 1.49 us against a host-only build's 294 ns).
#include <Kokkos_Core.hpp>

#include <string>
#include <utility>

#include "nbk/core/compat.hpp"
#include "nbk/ranks/ranks.hpp"

namespace nbk {

// Which spaces a timed call's work runs on, so which fences its clock waits for.
enum class Fences { every_space, host_spaces };

template <class Space>
inline constexpr Fences fences_for = is_device_space_v<Space> ? Fences::every_space : Fences::host_spaces;

inline void fence(Fences which, const std::string& label) {
  if (which == Fences::every_space) nbk::fence(label);
  else fence_host_spaces(label);
}

// Seconds taken by f(), fencing the spaces it runs on (by default every one) around it.
template <class F>
double time_fenced(const std::string& label, F&& f, Fences which = Fences::every_space) {
  nbk::fence(which, "nbk::time_fenced(start): " + label);
  Kokkos::Timer timer;
  std::forward<F>(f)();
  nbk::fence(which, "nbk::time_fenced(stop): " + label);
  return timer.seconds();
}

// Seconds the slowest rank took for f(), every rank fenced and past a barrier when its clock
// starts, so no rank's time includes waiting for another to arrive; collective. With one
// process it is time_fenced.
template <class F>
double time_slowest_rank(const std::string& label, F&& f, Fences which = Fences::every_space) {
  nbk::fence(which, "nbk::time_slowest_rank(start): " + label);
  ranks::barrier();
  Kokkos::Timer timer;
  std::forward<F>(f)();
  nbk::fence(which, "nbk::time_slowest_rank(stop): " + label);
  return ranks::max(timer.seconds());
}

}  // namespace nbk
