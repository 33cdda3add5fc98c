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

// The GPU code alone: every host space with it ("serial_gpu_code", "openmp_gpu_code") and every
// device space with its own ("cuda"). tests/test_gpu_code.cpp's suite GpuCode runs the GPU code's
// launch shapes on it.
template <class Space>
using GpuCodeOn = ::testing::Types<On<Space, GpuCode>>;
template <class Space>
using GpuCodeOnHost = std::conditional_t<is_device_space_v<Space>, ::testing::Types<>, GpuCodeOn<Space>>;
template <class List, template <class> class Of>
struct ToTypesOf;
template <class... Spaces, template <class> class Of>
struct ToTypesOf<SpaceList<Spaces...>, Of> {
  using type = typename Concat<Of<Spaces>...>::type;
};
using GpuCodeTypes = typename ToTypesOf<EnabledSpaces, GpuCodeOn>::type;

// The host spaces with the GPU code, for a suite typed on the space alone (whose tests run the
// space's own code) to run its tests of GPU code in a twin suite, "<Suite>GpuCode": a test's body
// is then a function of the space and the code. Every test of GPU code has "_gpu_code" in its
// name, or is in a suite whose name starts with "GpuCode" (the launch shapes as pure functions,
// tests/test_gpu_code.cpp): `--gtest_filter='GpuCode*:*_gpu_code.*'` selects them all (docs/gpu.md,
// "GPU code on the host").
using HostGpuCodeTypes = typename ToTypesOf<EnabledSpaces, GpuCodeOnHost>::type;

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
