#pragma once
// Where a row of a statement's table runs (exp::Row's runs(where), row.hpp).
#include "nbk/core/compat.hpp"
#include "nbk/ranks/ranks.hpp"

namespace nbk::exp {

enum class Where {
  every_space,
  cpu_spaces,     // not on a device (a CPU shape that breaks coalescing on a GPU)
  device_spaces,  // only on a device (ways to move data between host and device memory)
  vendor_spaces,  // where the space has the vendor library the statement's Spec names
  across_ranks,   // every space, split over the MPI ranks (built with ranks::enabled only)
};

// Whether a row of `where` runs on Space; `has_vendor`: whether Space has the Spec's vendor library.
template <class Space>
constexpr bool runs_on(Where where, bool has_vendor) {
  switch (where) {
    case Where::cpu_spaces: return !is_device_space_v<Space>;
    case Where::device_spaces: return is_device_space_v<Space>;
    case Where::vendor_spaces: return has_vendor;
    case Where::across_ranks: return ranks::enabled;
    default: return true;
  }
}

}  // namespace nbk::exp
