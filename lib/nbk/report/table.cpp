#include "nbk/report/table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

namespace nbk {

void Table::print(std::ostream& out) const {
  std::vector<std::size_t> width(headers_.size(), 0);
  auto widen = [&](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < cells.size() && c < width.size(); ++c)
      width[c] = std::max(width[c], cells[c].size());
  };
  widen(headers_);
  for (const auto& row : rows_) widen(row);

  auto print_row = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t c = 0; c < width.size(); ++c) {
      const std::string& cell = c < cells.size() ? cells[c] : std::string();
      line += fmt::format("{:<{}}", cell, width[c]);
      if (c + 1 < width.size()) line += " | ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  };
  print_row(headers_);
  std::string rule;
  for (std::size_t c = 0; c < width.size(); ++c) {
    rule += std::string(width[c], '-');
    if (c + 1 < width.size()) rule += "-|-";
  }
  out << rule << '\n';
  for (const auto& row : rows_) print_row(row);
}

std::string format_seconds(double seconds) {
  if (seconds >= 1.0) return fmt::format("{:.3g} s", seconds);
  if (seconds >= 1e-3) return fmt::format("{:.3g} ms", seconds * 1e3);
  if (seconds >= 1e-6) return fmt::format("{:.3g} us", seconds * 1e6);
  return fmt::format("{:.3g} ns", seconds * 1e9);
}

}  // namespace nbk
