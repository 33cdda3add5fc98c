// Memory checks made before allocating, and the huge-page advice on large host arrays.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <limits>
#include <vector>

#include "nbk/core/errors.hpp"
#include "nbk/core/memory.hpp"
#include "nbk/experiment/arrays_case.hpp"
#include "nbk/experiment/elementwise.hpp"

namespace {

TEST(Memory, HostStatusIsPlausible) {
  const auto host = nbk::host_memory();
  EXPECT_GT(host.total, std::uint64_t{1} << 26);
  EXPECT_LE(host.available, host.total);
}

TEST(Memory, RefusesWhatCannotFit) {
  EXPECT_NO_THROW(nbk::require_host_memory(1024, "tiny"));
  EXPECT_THROW(nbk::require_host_memory(std::numeric_limits<std::uint64_t>::max(), "huge"), nbk::InputError);
  EXPECT_TRUE(nbk::host_shortfall(1024).empty());
  EXPECT_FALSE(nbk::host_shortfall(std::numeric_limits<std::uint64_t>::max()).empty());
}

TEST(Memory, ByteCountsDoNotOverflow) {
  EXPECT_EQ(nbk::checked_bytes(std::int64_t{1} << 31, 4, "n"), std::uint64_t{1} << 33);
  EXPECT_THROW(nbk::checked_bytes(std::numeric_limits<std::int64_t>::max(), 4, "n"), nbk::InputError);
  EXPECT_THROW(nbk::checked_bytes(-1, 4, "n"), nbk::InputError);
}

TEST(Memory, FormatsBinaryUnits) {
  EXPECT_EQ(nbk::format_bytes(512), "512 B");
  EXPECT_EQ(nbk::format_bytes(std::uint64_t{8} << 30), "8.00 GiB");
}

// The experiments' host arrays of 4 MiB or more are advised to take huge pages before their
// first touch (nbk::advise_huge_pages: NumPy's are, and on 4 KiB pages a streaming row trails
// it); smaller ones are not. Where the kernel has no transparent huge pages, nothing to check.
TEST(Memory, LargeHostArraysAreAdvisedToTakeHugePages) {
  if (!std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled")) GTEST_SKIP() << "no transparent huge pages";
  using Floats = Kokkos::View<float*, Kokkos::HostSpace>;
  const auto large = nbk::exp::allocate<Floats>("large", std::size_t{3} << 20);  // 12 MiB
  EXPECT_TRUE(nbk::huge_pages_advised(large.data() + (std::size_t{3} << 19)));
  const auto matrix = nbk::exp::host_array<float, 2>(nbk::exp::Size{2048, 1024}, "matrix");  // 8 MiB
  EXPECT_TRUE(nbk::huge_pages_advised(matrix.data() + (std::size_t{1} << 20)));
  // The advice itself: whole pages inside the range, none below the threshold.
  std::vector<char> small(std::size_t{1} << 20);
  EXPECT_FALSE(nbk::advise_huge_pages(small.data(), small.size()));
  EXPECT_FALSE(nbk::advise_huge_pages(nullptr, std::uint64_t{1} << 30));
}

}  // namespace
