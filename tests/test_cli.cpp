// The command-line conventions every program shares.
#include <gtest/gtest.h>

#include "nbk/core/cli.hpp"
#include "nbk/core/errors.hpp"
#include "nbk/report/table.hpp"

namespace {

using nbk::InputError;
using nbk::parse_count;

TEST(ParseCount, AcceptsDigitsAndPowersOfTwo) {
  EXPECT_EQ(parse_count("1", "--size"), 1);
  EXPECT_EQ(parse_count("2147483648", "--size"), std::int64_t{1} << 31);
  EXPECT_EQ(parse_count("2^31", "--size"), std::int64_t{1} << 31);
  EXPECT_EQ(parse_count("2^0", "--size"), 1);
  EXPECT_EQ(parse_count("99999999999999", "--size"), 99999999999999);
}

TEST(ParseCount, RejectsWhatIsNotAPositiveCount) {
  for (const char* bad : {"0", "-5", "abc", "", "1.5", "1e9", "+3", " 7", "2^", "3^4", "2^63", "2^99",
                          "9223372036854775808", "99999999999999999999999"})
    EXPECT_THROW(parse_count(bad, "--size"), InputError) << "'" << bad << "'";
}

TEST(ParseCount, MessageNamesOptionAndValue) {
  try {
    parse_count("-5", "--size");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--size '-5'"), std::string::npos) << e.what();
  }
}

TEST(ParseSeed, DigitsOnly) {
  EXPECT_EQ(nbk::parse_seed("0", "--seed"), 0u);
  EXPECT_EQ(nbk::parse_seed("18446744073709551615", "--seed"), 18446744073709551615ull);
  for (const char* bad : {"", "-1", "abc", "18446744073709551616", "1.0"})
    EXPECT_THROW(nbk::parse_seed(bad, "--seed"), InputError) << "'" << bad << "'";
}

TEST(FormatSeconds, PicksAReadableUnit) {
  EXPECT_EQ(nbk::format_seconds(4.62), "4.62 s");
  EXPECT_EQ(nbk::format_seconds(0.629), "629 ms");
  EXPECT_EQ(nbk::format_seconds(85.3e-6), "85.3 us");
}

}  // namespace
