#include "nbk/core/cli.hpp"

#include <charconv>
#include <iostream>
#include <limits>

#include "nbk/core/errors.hpp"

namespace nbk {

namespace {

std::optional<std::uint64_t> parse_digits(std::string_view text) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  for (char c : text)
    if (c < '0' || c > '9') return std::nullopt;
  std::uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string quoted(std::string_view option, std::string_view text) {
  return std::string(option) + " '" + std::string(text) + "'";
}

}  // namespace

std::int64_t parse_count(std::string_view text, std::string_view option) {
  constexpr auto max_count = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  std::optional<std::uint64_t> value;
  if (auto caret = text.find('^'); caret != std::string_view::npos) {
    auto base = parse_digits(text.substr(0, caret));
    auto exponent = parse_digits(text.substr(caret + 1));
    if (!base || *base != 2 || !exponent)
      throw InputError(quoted(option, text) + " is not a count (write digits, or 2^K)");
    if (*exponent > 62) throw InputError(quoted(option, text) + " is too large (at most 2^62)");
    value = std::uint64_t{1} << *exponent;
  } else {
    value = parse_digits(text);
    if (!value) {
      if (!text.empty() && text[0] == '-' && parse_digits(text.substr(1)))
        throw InputError(quoted(option, text) + " is negative; it must be at least 1");
      throw InputError(quoted(option, text) + " is not a count (write digits, or 2^K)");
    }
  }
  if (*value == 0) throw InputError(quoted(option, text) + " is zero; it must be at least 1");
  if (*value > max_count) throw InputError(quoted(option, text) + " is too large");
  return static_cast<std::int64_t>(*value);
}

std::uint64_t parse_seed(std::string_view text, std::string_view option) {
  auto value = parse_digits(text);
  if (!value) throw InputError(quoted(option, text) + " is not a non-negative integer");
  return *value;
}

int report_input_error(std::string_view program, std::string_view message) {
  std::cerr << program << ": error: " << message << '\n';
  return exit_bad_input;
}

std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv) {
  // Kokkos' own flags pass through to Kokkos::initialize untouched.
  app.allow_extras();
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return exit_ok;
  } catch (const CLI::ParseError& e) {
    return report_input_error(app.get_name(), e.what());
  }
  for (const std::string& extra : app.remaining()) {
    if (extra.rfind("--kokkos-", 0) == 0) continue;
    return report_input_error(app.get_name(), "unknown argument '" + extra + "' (see --help)");
  }
  return std::nullopt;
}

}  // namespace nbk
