// nbk/core/packed.hpp on every enabled space: update_each and map_each over slices that start at
// every offset from a 16-byte boundary and end at every tail length (a GPU's packs where the data
// are aligned, an element at a time where not), nothing outside the slice written; element types
// of every pack width; and flat() of a View with gaps refused.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <utility>

#include "nbk/core/packed.hpp"
#include "spaces.hpp"

namespace {

using nbk::Index;

// TypeParam: a space and the code its kernels take (tests/spaces.hpp): the packs are GPU code,
// run on the host spaces too.
template <class SpaceCode>
class Packed : public ::testing::Test {};
TYPED_TEST_SUITE(Packed, nbk::test::SpaceCodeTypes, nbk::test::SpaceCodeNames);

constexpr Index kLength = 1031;

// out = a * 3 + b over [first, first + n) of views filled with i and 2 i; out elsewhere stays -1.
template <class SpaceCode, class T>
void check_map(Index first, Index n) {
  using Space = typename SpaceCode::space;
  Kokkos::View<T*, typename Space::memory_space> a("a", kLength), b("b", kLength), out("out", kLength);
  auto ha = Kokkos::create_mirror_view(a), hb = Kokkos::create_mirror_view(b);
  for (Index i = 0; i < kLength; ++i) {
    ha(i) = static_cast<T>(i % 100);
    hb(i) = static_cast<T>(2 * (i % 100));
  }
  Kokkos::deep_copy(a, ha);
  Kokkos::deep_copy(b, hb);
  Kokkos::deep_copy(out, T(-1));
  const auto slice = std::make_pair(first, first + n);
  nbk::map_each("nbk::test::map", Space(), Kokkos::subview(out, slice), Kokkos::subview(a, slice),
                Kokkos::subview(b, slice), KOKKOS_LAMBDA(T x, T y) { return T(x * 3 + y); },
                typename SpaceCode::code());
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (Index i = 0; i < kLength; ++i)
    ASSERT_EQ(h(i), first <= i && i < first + n ? T(5 * (i % 100)) : T(-1))
        << "slice " << first << "+" << n << ", element " << i;
}

template <class SpaceCode, class T>
void check_update(Index first, Index n) {
  using Space = typename SpaceCode::space;
  Kokkos::View<T*, typename Space::memory_space> v("v", kLength);
  Kokkos::deep_copy(v, T(7));
  nbk::update_each("nbk::test::update", Space(), Kokkos::subview(v, std::make_pair(first, first + n)),
                   KOKKOS_LAMBDA(T x) { return T(x * 2); }, typename SpaceCode::code());
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  for (Index i = 0; i < kLength; ++i)
    ASSERT_EQ(h(i), first <= i && i < first + n ? T(14) : T(7)) << "slice " << first << "+" << n << ", element " << i;
}

TYPED_TEST(Packed, SlicesAtEveryAlignmentAndTail) {
  for (Index first = 0; first < 17; ++first)
    for (Index n : {0, 1, 3, 4, 5, 15, 16, 17, 1001}) {
      check_map<TypeParam, float>(first, n);
      check_map<TypeParam, std::int8_t>(first, n);
      check_map<TypeParam, double>(first, n);
      check_update<TypeParam, std::int32_t>(first, n);
      check_update<TypeParam, std::int16_t>(first, n);
    }
}

TYPED_TEST(Packed, FlatViewsAreTheSameMemory) {
  Kokkos::View<float***, Kokkos::LayoutRight, typename TypeParam::space::memory_space> v("v", 3, 5, 7);
  const auto f = nbk::flat(v);
  EXPECT_EQ(f.extent(0), 105u);
  EXPECT_EQ(f.data(), v.data());
  const auto gaps = Kokkos::subview(v, Kokkos::ALL, std::make_pair(1, 3), Kokkos::ALL);
  EXPECT_THROW(nbk::flat(gaps), std::invalid_argument);
}

}  // namespace
