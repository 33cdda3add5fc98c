#pragma once
// Command-line conventions shared by every program (host code only, no Kokkos):
// CLI11 does the parsing; bad input becomes one line on stderr and exit code 2.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nbk {

// A positive element count written in decimal digits ("2147483648"), or a power of two
// written "2^31". Throws InputError naming `option` and the text otherwise.
std::int64_t parse_count(std::string_view text, std::string_view option);

// An unsigned seed in decimal digits; throws InputError otherwise.
std::uint64_t parse_seed(std::string_view text, std::string_view option);

// The rule every value of every option passes before its own parsing: not empty, no blanks
// around it. "" when `value` passes, else why not. parse_command_line applies it to every
// option that takes a value, so no program can take an empty value as "not given".
std::string value_problem(std::string_view value);

// A CLI11 check for a value among `names` (after the rule above).
CLI::Validator one_of(std::vector<std::string> names);

// Parses argv with `app`. Arguments of the form --kokkos-NAME=VALUE are left for
// Kokkos::initialize. Returns an exit code when the program should stop now: 0 after
// --help, 2 (with one line "PROGRAM: error: ..." on stderr) on bad input.
std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv);

// Prints "PROGRAM: error: MESSAGE" on one line and returns exit code 2.
int report_input_error(std::string_view program, std::string_view message);

}  // namespace nbk
