#pragma once
// A plain-text table with aligned columns, for the programs' reports.
#include <iosfwd>
#include <string>
#include <vector>

namespace nbk {

class Table {
 public:
  explicit Table(std::vector<std::string> headers) : headers_(std::move(headers)) {}
  void add_row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  void print(std::ostream& out) const;

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
};

// Seconds as "629 ms", "4.62 s", "85.3 us": three significant digits, the unit that fits.
std::string format_seconds(double seconds);

}  // namespace nbk
