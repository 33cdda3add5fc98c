// Memory checks made before allocating.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "nbk/core/errors.hpp"
#include "nbk/core/memory.hpp"

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

}  // namespace
