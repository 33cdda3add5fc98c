#pragma once
// A Kokkos Profiling region over a scope: Kokkos Tools (the kernel timer, the space-time stack, the
// NVTX connector) file the kernels, copies and fences run inside it under its name
// (docs/profiling.md). With no tool loaded, pushing or popping one only finds Kokkos' callback
// empty; the driver pushes none inside a timed call's clock (between the fences of time_fenced),
// so a timed call costs the same with a tool or without one.
#include <Kokkos_Core.hpp>

#include <string>

namespace nbk {

class Region {
 public:
  explicit Region(const std::string& name) { Kokkos::Profiling::pushRegion(name); }
  ~Region() { Kokkos::Profiling::popRegion(); }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;
};

}  // namespace nbk
