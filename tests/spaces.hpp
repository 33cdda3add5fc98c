#pragma once
// The enabled execution spaces as a GoogleTest type list, named "serial", "openmp", "cuda"
// in test names, so `--gtest_filter='*/cuda.*'` selects one backend.
#include <gtest/gtest.h>

#include <string>

#include "nbk/core/spaces.hpp"

namespace nbk::test {

template <class List>
struct ToTestTypes;
template <class... Spaces>
struct ToTestTypes<SpaceList<Spaces...>> {
  using type = ::testing::Types<Spaces...>;
};

using SpaceTypes = typename ToTestTypes<EnabledSpaces>::type;

struct SpaceNames {
  template <class Space>
  static std::string GetName(int) {
    return std::string(space_name<Space>());
  }
};

}  // namespace nbk::test
