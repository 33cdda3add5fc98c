#pragma once
// The enabled execution spaces as a GoogleTest type list, named "serial", "openmp", "cuda"
// in test names, so `--gtest_filter='*/cuda.*'` selects one backend.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>

#include "nbk/core/code.hpp"
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

// A space and the code its kernels take (nbk/core/code.hpp).
template <class Space, class KernelCode = CodeFor<Space>>
struct On {
  using space = Space;
  using code = KernelCode;
};

template <class... Lists>
struct Concat;
template <class... A>
struct Concat<::testing::Types<A...>> {
  using type = ::testing::Types<A...>;
};
template <class... A, class... B, class... Rest>
struct Concat<::testing::Types<A...>, ::testing::Types<B...>, Rest...> : Concat<::testing::Types<A..., B...>, Rest...> {};

template <class Space>
using CodesOn = std::conditional_t<is_device_space_v<Space>, ::testing::Types<On<Space>>,
                                   ::testing::Types<On<Space>, On<Space, GpuCode>>>;

template <class List>
struct ToCodeTypes;
template <class... Spaces>
struct ToCodeTypes<SpaceList<Spaces...>> {
  using type = typename Concat<CodesOn<Spaces>...>::type;
};

// Every enabled space with its own code, and every host space with the GPU code as well: the
// kernels' GPU branches run on Serial and OpenMP through the same tests. Named "serial",
// "serial_gpu_code", "openmp", "openmp_gpu_code", "cuda".
using SpaceCodeTypes = typename ToCodeTypes<EnabledSpaces>::type;

// f(code) with the space's own code and, on a host space, with the GPU code too: for the tests
// of suites typed on the space alone.
template <class Space, class F>
void for_each_code(const F& f) {
  f(CodeFor<Space>());
  if constexpr (!is_device_space_v<Space>) f(GpuCode());
}

template <class Code>
const char* code_name(Code) {
  return is_gpu_code_v<Code> ? "GPU code" : "host code";
}

struct SpaceCodeNames {
  template <class SpaceCode>
  static std::string GetName(int) {
    using Space = typename SpaceCode::space;
    const bool other = !std::is_same_v<typename SpaceCode::code, CodeFor<Space>>;
    return std::string(space_name<Space>()) + (other ? "_gpu_code" : "");
  }
};

}  // namespace nbk::test
