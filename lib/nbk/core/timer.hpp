#pragma once
// Wall-clock timing that cannot stop early: everything outstanding is fenced before the
// clock starts and before it stops, so asynchronous kernels and copies are inside the
// measured interval.
#include <Kokkos_Core.hpp>

#include <string>
#include <utility>

#include "nbk/core/compat.hpp"
#include "nbk/ranks/ranks.hpp"

namespace nbk {

// Seconds taken by f(), fencing all execution spaces around it.
template <class F>
double time_fenced(const std::string& label, F&& f) {
  nbk::fence("nbk::time_fenced(start): " + label);
  Kokkos::Timer timer;
  std::forward<F>(f)();
  nbk::fence("nbk::time_fenced(stop): " + label);
  return timer.seconds();
}

// Seconds the slowest rank took for f(), every rank fenced and past a barrier when its clock
// starts, so no rank's time includes waiting for another to arrive; collective. With one
// process it is time_fenced.
template <class F>
double time_slowest_rank(const std::string& label, F&& f) {
  nbk::fence("nbk::time_slowest_rank(start): " + label);
  ranks::barrier();
  Kokkos::Timer timer;
  std::forward<F>(f)();
  nbk::fence("nbk::time_slowest_rank(stop): " + label);
  return ranks::max(timer.seconds());
}

}  // namespace nbk
