// Seed 000's kernels and methods on every enabled execution space.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "nbk/add_one/kernels.hpp"
#include "nbk/add_one/methods.hpp"
#include "nbk/core/memory.hpp"
#include "spaces.hpp"

namespace {

using nbk::add_one::Element;

template <class Space>
class AddOne : public ::testing::Test {};
TYPED_TEST_SUITE(AddOne, nbk::test::SpaceTypes, nbk::test::SpaceNames);

// Sizes that catch off-by-one tails: empty, one, odd, around a power of two.
const std::int64_t kSizes[] = {0, 1, 2, 3, 1023, 1024, 1025, (1 << 20) + 7};

// The increments' GPU code (16-byte packs) runs on the host spaces in the twin suite AddOneGpuCode.
template <class SpaceCode>
class AddOneGpuCode : public ::testing::Test {};
TYPED_TEST_SUITE(AddOneGpuCode, nbk::test::HostGpuCodeTypes, nbk::test::SpaceCodeNames);

template <class Space, class Code>
void fill_then_increment(Code code) {
  for (std::int64_t n : kSizes) {
    Kokkos::View<Element*, typename Space::memory_space> v("v", n);
    nbk::fill(Space(), v, 41);
    nbk::increment(Space(), v, code);
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    EXPECT_EQ(nbk::count_not_equal(host.data(), n, Element{42}), 0) << "n = " << n << ", " << nbk::test::code_name(code);
  }
}
TYPED_TEST(AddOne, FillThenIncrementReachesEveryElement) { fill_then_increment<TypeParam>(nbk::CodeFor<TypeParam>()); }
TYPED_TEST(AddOneGpuCode, FillThenIncrementReachesEveryElement) {
  fill_then_increment<typename TypeParam::space>(nbk::GpuCode());
}

// Slices that start at every offset from a 16-byte boundary and end at every tail length: a
// GPU's 16-byte packs where the slice's data are aligned, one element at a time where not, and
// nothing outside the slice written either way.
template <class Space, class Code>
void increment_slices(Code code) {
  Kokkos::View<Element*, typename Space::memory_space> v("v", 1031);
  for (std::int64_t first = 0; first < 5; ++first)
    for (std::int64_t n : {0, 1, 3, 4, 5, 1021}) {
      nbk::fill(Space(), v, 7);
      nbk::increment(Space(), Kokkos::subview(v, std::make_pair(first, first + n)), code);
      auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
      for (std::int64_t i = 0; i < 1031; ++i)
        ASSERT_EQ(host(i), first <= i && i < first + n ? 8 : 7)
            << "slice " << first << "+" << n << ", element " << i << ", " << nbk::test::code_name(code);
    }
}
TYPED_TEST(AddOne, IncrementOfSlicesAtEveryAlignment) { increment_slices<TypeParam>(nbk::CodeFor<TypeParam>()); }
TYPED_TEST(AddOneGpuCode, IncrementOfSlicesAtEveryAlignment) { increment_slices<typename TypeParam::space>(nbk::GpuCode()); }

TYPED_TEST(AddOne, SumElementsCountsEveryElementOnce) {
  using Space = TypeParam;
  for (std::int64_t n : kSizes) {
    Kokkos::View<Element*, typename Space::memory_space> v("v", n);
    nbk::fill(Space(), v, 3);
    EXPECT_EQ(nbk::sum_elements(Space(), v), 3 * n) << "n = " << n;
  }
}

// The document's array has 2^31 elements, one past INT32_MAX: every index must be reached.
// int8 keeps it at 2 GiB; skipped with the reason where memory is short.
TYPED_TEST(AddOne, IndicesBeyondTwoToThe31AreReached) {
  using Space = TypeParam;
  const std::int64_t n = (std::int64_t{1} << 31) + 3;
  if (auto why = nbk::host_shortfall(2 * static_cast<std::uint64_t>(n)); !why.empty()) GTEST_SKIP() << why;
  if (nbk::is_device_space_v<Space>)
    if (auto why = nbk::device_shortfall(static_cast<std::uint64_t>(n)); !why.empty()) GTEST_SKIP() << why;
  Kokkos::View<std::int8_t*, typename Space::memory_space> v(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "big"), n);
  nbk::fill(Space(), v, std::int8_t{0});
  nbk::increment(Space(), v);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  EXPECT_EQ(host(0), 1);
  EXPECT_EQ(host(std::numeric_limits<std::int32_t>::max()), 1);
  EXPECT_EQ(host(n - 1), 1);
  EXPECT_EQ(nbk::count_not_equal(host.data(), n, std::int8_t{1}), 0);
}

TEST(AddOneSplit, PartsFollowArraySplit) {
  using nbk::add_one::array_split;
  using Range = nbk::add_one::IndexRange;
  EXPECT_EQ(array_split(0, 2), (std::vector<Range>{{0, 0}, {0, 0}}));
  EXPECT_EQ(array_split(1, 2), (std::vector<Range>{{0, 1}, {1, 1}}));
  EXPECT_EQ(array_split(7, 2), (std::vector<Range>{{0, 4}, {4, 7}}));
  EXPECT_EQ(array_split(8, 2), (std::vector<Range>{{0, 4}, {4, 8}}));
  EXPECT_EQ(array_split(10, 4), (std::vector<Range>{{0, 3}, {3, 6}, {6, 8}, {8, 10}}));
  EXPECT_EQ(array_split(3, 16).size(), 16u);
  EXPECT_EQ(array_split(3, 16)[2], Range(2, 3));
  EXPECT_EQ(array_split(3, 16)[15], Range(3, 3));
}

// Every method, on every space, for empty, tiny, odd and split-straddling sizes: each call
// adds exactly one, and every call builds on the one before (the document's explicit method
// got that wrong).
template <class Method>
void expect_counts_calls(Method&& method, std::int64_t n, int calls) {
  for (int c = 0; c < calls; ++c) {
    method.run();
    method.record();
  }
  const auto verdict = method.verdict();
  EXPECT_TRUE(verdict.ok) << "n = " << n << ", calls = " << calls << ": " << verdict.summary;
  EXPECT_EQ(verdict.details["calls"], calls);
}

const std::int64_t kVariantSizes[] = {0, 1, 2, 3, 1001, 65536 + 1};

TYPED_TEST(AddOne, ResidentMethod) {
  for (auto n : kVariantSizes) expect_counts_calls(nbk::add_one::Resident<TypeParam>(n), n, 2);
}

TYPED_TEST(AddOne, ManagedMethod) {
  for (auto n : kVariantSizes)
    expect_counts_calls(nbk::add_one::Managed<TypeParam>(n, nbk::add_one::Prefetch::none), n, 2);
}

TYPED_TEST(AddOne, ManagedMethodWithPrefetch) {
  for (auto n : kVariantSizes)
    expect_counts_calls(nbk::add_one::Managed<TypeParam>(n, nbk::add_one::Prefetch::to_device), n, 2);
}

TYPED_TEST(AddOne, ExplicitMethod) {
  for (auto n : kVariantSizes) expect_counts_calls(nbk::add_one::Explicit<TypeParam>(n), n, 2);
}

TYPED_TEST(AddOne, SplitStreamsMethod) {
  for (int parts : {2, 16})
    for (auto n : kVariantSizes) expect_counts_calls(nbk::add_one::SplitStreams<TypeParam>(n, parts), n, 2);
}

TYPED_TEST(AddOne, RepeatedCallsAccumulate) {
  expect_counts_calls(nbk::add_one::Explicit<TypeParam>(4097), 4097, 5);
  expect_counts_calls(nbk::add_one::SplitStreams<TypeParam>(4097, 2), 4097, 5);
  expect_counts_calls(nbk::add_one::SplitStreams<TypeParam>(4097, 16), 4097, 5);
}

}  // namespace
