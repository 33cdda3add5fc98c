// Problem sizes as the programs take them: counts, 2^K, cubes and AxBxC shapes.
#include <gtest/gtest.h>

#include "nbk/core/errors.hpp"
#include "nbk/experiment/size.hpp"

namespace {

using nbk::InputError;
using nbk::exp::parse_size;
using nbk::exp::Size;

TEST(ParseSize, OneDimension) {
  EXPECT_EQ(parse_size("2^31", 1, "--size"), Size{std::int64_t{1} << 31});
  EXPECT_EQ(parse_size("7", 1, "--size").elements(), 7);
  EXPECT_THROW(parse_size("3x4", 1, "--size"), InputError);
}

TEST(ParseSize, ThreeDimensions) {
  EXPECT_EQ(parse_size("256", 3, "--size"), (Size{256, 256, 256}));
  EXPECT_EQ(parse_size("7x9x2^4", 3, "--size"), (Size{7, 9, 16}));
  EXPECT_EQ(parse_size("7x9x13", 3, "--size").text(), "7x9x13");
  EXPECT_THROW(parse_size("7x9", 3, "--size"), InputError);
  EXPECT_THROW(parse_size("7x0x9", 3, "--size"), InputError);
  EXPECT_THROW(parse_size("7x-1x9", 3, "--size"), InputError);
  EXPECT_THROW(parse_size("axbxc", 3, "--size"), InputError);
  EXPECT_THROW(parse_size("", 3, "--size"), InputError);
  EXPECT_THROW(parse_size("2^21x2^21x2^21", 3, "--size"), InputError);  // 2^63 elements
}

TEST(PowerOfTwoSize, AsEvenAsPossible) {
  EXPECT_EQ(nbk::exp::power_of_two_size(10, 3), (Size{16, 8, 8}));
  EXPECT_EQ(nbk::exp::power_of_two_size(24, 3), (Size{256, 256, 256}));
  EXPECT_EQ(nbk::exp::power_of_two_size(26, 3), (Size{512, 512, 256}));
  EXPECT_EQ(nbk::exp::power_of_two_size(20, 1), Size{std::int64_t{1} << 20});
}

}  // namespace
