#include "nbk/core/cli.hpp"

#include <algorithm>
#include <cctype>
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

std::string value_problem(std::string_view value) {
  const auto blank = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  if (value.empty()) return "'' is empty (give a value, or leave the option out)";
  if (std::any_of(value.begin(), value.end(), [](char c) { return std::iscntrl(static_cast<unsigned char>(c)); }))
    return "the value has a control character (a tab, a newline, an escape)";
  if (blank(value.front()) || blank(value.back())) return "'" + std::string(value) + "' has blanks around it";
  return "";
}

CLI::Validator one_of(std::vector<std::string> names) {
  std::string list;
  for (const auto& name : names) list += (list.empty() ? "" : ",") + name;
  return CLI::Validator(
      [names = std::move(names), list](std::string& value) {
        if (std::string why = value_problem(value); !why.empty()) return why;
        if (std::find(names.begin(), names.end(), value) != names.end()) return std::string();
        return "'" + value + "' is not one of {" + list + "}";
      },
      "{" + list + "}");
}

int report_input_error(std::string_view program, std::string_view message) {
  std::cerr << program << ": error: " << message << '\n';
  return exit_bad_input;
}

std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv) {
  // Kokkos' own flags pass through to Kokkos::initialize untouched.
  app.allow_extras();
  const CLI::Validator given([](std::string& value) { return value_problem(value); }, "", "value rule");
  for (CLI::Option* option : app.get_options())
    if (option->get_expected_max() > 0) option->check(given);
  // A flag takes no value: CLI11 would read "--verbose=" or "--verbose=2" as true.
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const auto equals = arg.find('=');
    if (arg.rfind("--", 0) != 0 || equals == std::string_view::npos) continue;
    const CLI::Option* option = app.get_option_no_throw(std::string(arg.substr(0, equals)));
    if (option && option->get_expected_max() == 0)
      return report_input_error(app.get_name(), std::string(arg.substr(0, equals)) + " is a flag and takes no value");
  }
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
