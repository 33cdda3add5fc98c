// Seed 002's 3-D maximum on every enabled space: known values, shapes that are not cubes and
// not multiples of the 8x8x8 tiles, empty extents, and the host loops.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "nbk/maximum/kernels.hpp"
#include "spaces.hpp"

namespace {

using nbk::Walk;
using nbk::maximum::Launch;

template <class Space>
class Maximum : public ::testing::Test {
 public:
  // c for a(i,j,k) = i + j - k and b(i,j,k) = k - 2 j, with the given tiles.
  template <class Code = nbk::CodeFor<Space>>
  static std::vector<float> run(std::int64_t n0, std::int64_t n1, std::int64_t n2, const Launch& launch, Code code = {}) {
    using Array = nbk::maximum::Array<typename Space::memory_space>;
    Array a("a", n0, n1, n2), b("b", n0, n1, n2), c("c", n0, n1, n2);
    auto ha = Kokkos::create_mirror_view(a), hb = Kokkos::create_mirror_view(b);
    for (std::int64_t i = 0; i < n0; ++i)
      for (std::int64_t j = 0; j < n1; ++j)
        for (std::int64_t k = 0; k < n2; ++k) {
          ha(i, j, k) = static_cast<float>(i + j - k);
          hb(i, j, k) = static_cast<float>(k - 2 * j);
        }
    Kokkos::deep_copy(a, ha);
    Kokkos::deep_copy(b, hb);
    Kokkos::deep_copy(c, -1.0f);
    nbk::maximum::elementwise_max(Space(), a, b, c, launch, code);
    auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
    return std::vector<float>(hc.data(), hc.data() + hc.size());
  }
  static float expected(std::int64_t i, std::int64_t j, std::int64_t k) {
    return static_cast<float>(std::max(i + j - k, k - 2 * j));
  }
  template <class Code>
  static void check(std::int64_t n0, std::int64_t n1, std::int64_t n2, const Launch& launch, Code code) {
    const auto c = run(n0, n1, n2, launch, code);
    ASSERT_EQ(static_cast<std::int64_t>(c.size()), n0 * n1 * n2);
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < n0; ++i)
      for (std::int64_t j = 0; j < n1; ++j)
        for (std::int64_t k = 0; k < n2; ++k) wrong += c[static_cast<std::size_t>((i * n1 + j) * n2 + k)] != expected(i, j, k);
    EXPECT_EQ(wrong, 0) << n0 << "x" << n1 << "x" << n2 << ", " << nbk::test::code_name(code);
  }
};
TYPED_TEST_SUITE(Maximum, nbk::test::SpaceTypes, nbk::test::SpaceNames);
// The GPU code (its tiles, its 16-byte packs) on the host spaces: the twin suite MaximumGpuCode.
template <class SpaceCode>
class MaximumGpuCode : public ::testing::Test {};
TYPED_TEST_SUITE(MaximumGpuCode, nbk::test::HostGpuCodeTypes, nbk::test::SpaceCodeNames);

template <class Space, class Code>
void shapes_not_multiples_of_the_tiles(Code code) {
  for (const Launch& launch : {nbk::maximum::document_launch, nbk::maximum::kokkos_launch, nbk::maximum::coalesced_launch,
                               nbk::maximum::flat_launch, Launch{{2, 3, 5}}, Launch{{2, 3, 5}, Walk::contiguous_first}, Launch{{}, Walk::contiguous_first}})
    for (auto [n0, n1, n2] : {std::array<std::int64_t, 3>{1, 1, 1}, {7, 9, 13}, {8, 8, 8}, {17, 3, 33}, {1, 1, 1025},
                              {33, 1, 2}})
      Maximum<Space>::check(n0, n1, n2, launch, code);
}
TYPED_TEST(Maximum, ShapesThatAreNotMultiplesOfTheTiles) {
  shapes_not_multiples_of_the_tiles<TypeParam>(nbk::CodeFor<TypeParam>());
}
TYPED_TEST(MaximumGpuCode, ShapesThatAreNotMultiplesOfTheTiles) {
  shapes_not_multiples_of_the_tiles<typename TypeParam::space>(nbk::GpuCode());
}

// Arrays with an empty extent, each in the middle of a larger allocation: c's allocation is as it
// was before the call, all of it (a kernel that wrote an element, a tail or a tile of an empty
// array would change it).
template <class Space, class Code>
void empty_extents_write_nothing(Code code) {
  using Memory = typename Space::memory_space;
  using Unmanaged = Kokkos::View<float***, Kokkos::LayoutRight, Memory, Kokkos::MemoryUnmanaged>;
  constexpr std::size_t size = 256, at = 128;
  Kokkos::View<float*, Memory> a_memory("a", size), b_memory("b", size), c_memory("c", size);
  Kokkos::deep_copy(a_memory, 1.0f);
  Kokkos::deep_copy(b_memory, 2.0f);
  for (const Launch& launch : {nbk::maximum::document_launch, nbk::maximum::kokkos_launch, nbk::maximum::coalesced_launch,
                               nbk::maximum::flat_launch, Launch{{2, 3, 5}, Walk::contiguous_first}, Launch{{}, Walk::contiguous_first}})
    for (auto [n0, n1, n2] : {std::array<std::int64_t, 3>{0, 5, 5}, {5, 0, 5}, {5, 5, 0}, {0, 0, 0}}) {
      Kokkos::deep_copy(c_memory, -1.0f);
      const Unmanaged a(a_memory.data() + at, n0, n1, n2), b(b_memory.data() + at, n0, n1, n2),
          c(c_memory.data() + at, n0, n1, n2);
      nbk::maximum::elementwise_max(Space(), a, b, c, launch, code);
      const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c_memory);
      std::size_t written = 0;
      for (std::size_t e = 0; e < size; ++e) written += host(e) != -1.0f;
      EXPECT_EQ(written, 0u) << n0 << "x" << n1 << "x" << n2 << ", " << nbk::test::code_name(code);
    }
}
TYPED_TEST(Maximum, EmptyExtentsWriteNothing) { empty_extents_write_nothing<TypeParam>(nbk::CodeFor<TypeParam>()); }
TYPED_TEST(MaximumGpuCode, EmptyExtentsWriteNothing) {
  empty_extents_write_nothing<typename TypeParam::space>(nbk::GpuCode());
}

TEST(MaximumHost, LoopsTakeTheLargerIncludingTies) {
  const float a[] = {1.0f, -2.0f, 3.0f, 0.0f, -0.0f, 5.0f};
  const float b[] = {2.0f, -3.0f, 3.0f, -0.0f, 0.0f, -5.0f};
  float c[6] = {};
  nbk::maximum::host_loops(a, b, c, 1, 2, 3);
  const float expected[] = {2.0f, -2.0f, 3.0f, 0.0f, 0.0f, 5.0f};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(c[i], expected[i]) << i;
}

}  // namespace
