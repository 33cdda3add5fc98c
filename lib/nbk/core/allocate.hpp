#pragma once
// The one way this project allocates an array it fills itself: uninitialized (the caller's
// first touch places the pages: on the threads that use them, for a CPU space), and, in host
// memory of 4 MiB or more, advised onto transparent huge pages before that touch
// (nbk::advise_huge_pages says why: NumPy's arrays are, and a kernel on 2 MiB pages beside a
// probe on 4 KiB ones would beat its own reference).
#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

#include "nbk/core/memory.hpp"

namespace nbk {

// An uninitialized View labelled `label`, of the given extents or layout.
template <class View, class... Shape>
View allocate(const std::string& label, const Shape&... shape) {
  View view(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), shape...);
  if constexpr (std::is_same_v<typename View::memory_space, Kokkos::HostSpace>)
    advise_huge_pages(view.data(), view.span() * sizeof(typename View::value_type));
  return view;
}

}  // namespace nbk
