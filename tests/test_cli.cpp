// The command-line conventions every program shares.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "nbk/core/cli.hpp"
#include "nbk/core/errors.hpp"
#include "nbk/experiment/driver.hpp"
#include "nbk/experiment/registry.hpp"
#include "nbk/report/json_file.hpp"
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

// The one rule every value of every option passes (parse_command_line applies it).
TEST(ValueRule, RefusesEmptyBlankAndControlCharacters) {
  EXPECT_EQ(nbk::value_problem("7"), "");
  EXPECT_EQ(nbk::value_problem("a b"), "");
  for (const char* bad : {"", " ", " 7", "7 ", "\t", "a\nb", "\x1b[31m"})
    EXPECT_NE(nbk::value_problem(bad), "") << "'" << bad << "'";
  EXPECT_EQ(std::string(nbk::value_problem("a\nb")).find('\n'), std::string::npos) << "one line";
}

int parse(std::vector<std::string> args, std::string& value, std::string& error) {
  CLI::App app{"test"};
  app.name("nbk-test");
  app.add_option("--json", value);
  app.add_option("--space", value)->check(nbk::one_of({"host", "serial"}));
  args.insert(args.begin(), "nbk-test");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  std::ostringstream captured;
  auto* old = std::cerr.rdbuf(captured.rdbuf());
  const auto code = nbk::parse_command_line(app, static_cast<int>(argv.size()), argv.data());
  std::cerr.rdbuf(old);
  error = captured.str();
  return code.value_or(-1);
}

TEST(ParseCommandLine, AnEmptyValueIsAnErrorNotAnAbsentOption) {
  std::string value, error;
  EXPECT_EQ(parse({"--json", ""}, value, error), 2);
  EXPECT_EQ(error, "nbk-test: error: --json: '' is empty (give a value, or leave the option out)\n");
  EXPECT_EQ(parse({"--json=  "}, value, error), 2);
  EXPECT_EQ(parse({"--space", ""}, value, error), 2);
  EXPECT_EQ(parse({"--space", "cuda"}, value, error), 2);
  EXPECT_NE(error.find("'cuda' is not one of {host,serial}"), std::string::npos) << error;
  EXPECT_EQ(parse({"--space", "host"}, value, error), -1);
  EXPECT_EQ(value, "host");
}

const nbk::exp::Experiment& experiment(const std::string& name) {
  for (const auto& e : nbk::exp::all_experiments())
    if (e.name == name) return e;
  throw std::logic_error("no experiment " + name);
}

std::vector<const nbk::exp::Variant*> all_variants(const nbk::exp::Experiment& e) {
  return nbk::exp::select_variants(e, {}, {});
}

// The documents' own requests run; absurd ones are refused before any work.
TEST(WorkEstimate, DocumentSizesFitTheLimitAndAbsurdOnesDoNot) {
  for (const auto& e : nbk::exp::all_experiments())
    EXPECT_LT(nbk::exp::estimated_seconds(e, all_variants(e), e.sizes, e.repetitions, std::int64_t{0}),
              nbk::exp::work_limit_seconds / 4)
        << e.name;
  const auto& counter = experiment("counter");
  const nbk::exp::Size huge{std::numeric_limits<std::int64_t>::max()};
  EXPECT_GT(nbk::exp::estimated_seconds(counter, all_variants(counter), {huge}, 5, std::nullopt), 1e9);
  const auto& maximum = experiment("maximum");
  const std::vector<nbk::exp::Size> small{{32, 32, 32}};
  const double table = nbk::exp::estimated_seconds(maximum, all_variants(maximum), small, 5, std::nullopt);
  EXPECT_EQ(nbk::exp::estimated_seconds(maximum, all_variants(maximum), small, 5, std::int64_t{1} << 4), table);
  EXPECT_GT(nbk::exp::estimated_seconds(maximum, all_variants(maximum), small, 5, std::int64_t{1} << 62), 1e9);
}

TEST(SweepSizes, EndAtTheRequestedSizeAndContinueInPowersOfTwo) {
  const auto& maximum = experiment("maximum");
  const auto& plan = maximum.sweeps.front();
  EXPECT_EQ(nbk::exp::sweep_sizes(maximum, plan, 0), plan.sizes);
  EXPECT_EQ(nbk::exp::sweep_sizes(maximum, plan, (std::int64_t{1} << 12) + 5).back().elements(), 1 << 12);
  const auto longer = nbk::exp::sweep_sizes(maximum, plan, std::int64_t{1} << 28);
  ASSERT_EQ(longer.size(), plan.sizes.size() + 2);
  EXPECT_EQ(longer.back(), nbk::exp::power_of_two_size(28, 3));
}

std::string contents(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(JsonFile, CheckedUpFrontAndReplacedWhole) {
  const auto dir = std::filesystem::temp_directory_path() / ("nbk-json-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "out.json";
  nbk::require_writable_json(file.string());
  EXPECT_FALSE(std::filesystem::exists(file)) << "the check leaves nothing behind";
  nbk::write_json_file(file.string(), {{"run", 1}});
  nbk::require_writable_json(file.string());
  EXPECT_EQ(contents(file), "{\n  \"run\": 1\n}\n") << "an earlier file survives the check";
  EXPECT_THROW(nbk::require_writable_json(dir.string()), InputError);
  EXPECT_THROW(nbk::require_writable_json("/dev/full"), InputError);
  EXPECT_THROW(nbk::require_writable_json((dir / "missing" / "x.json").string()), InputError);
  EXPECT_THROW(nbk::write_json_file((dir / "missing" / "x.json").string(), {}), InputError);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1) << "no temporary file left";
  std::filesystem::remove_all(dir);
}

TEST(FormatSeconds, PicksAReadableUnit) {
  EXPECT_EQ(nbk::format_seconds(4.62), "4.62 s");
  EXPECT_EQ(nbk::format_seconds(0.629), "629 ms");
  EXPECT_EQ(nbk::format_seconds(85.3e-6), "85.3 us");
}

}  // namespace
