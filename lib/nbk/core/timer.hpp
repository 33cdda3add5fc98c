#pragma once
// Wall-clock timing that cannot stop early: everything outstanding is fenced before the
// clock starts and before it stops, so asynchronous kernels and copies are inside the
// measured interval.
#include <Kokkos_Core.hpp>

#include <string>
#include <utility>

#include "nbk/core/compat.hpp"

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

}  // namespace nbk
