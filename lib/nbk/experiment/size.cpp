#include "nbk/experiment/size.hpp"

#include <limits>

#include "nbk/core/cli.hpp"
#include "nbk/core/errors.hpp"

namespace nbk::exp {

std::int64_t Size::elements() const {
  std::int64_t n = 1;
  for (auto e : extents) n *= e;
  return n;
}

std::string Size::text() const {
  std::string out;
  for (std::size_t i = 0; i < extents.size(); ++i) out += (i ? "x" : "") + std::to_string(extents[i]);
  return out;
}

Size parse_size(std::string_view text, int rank, std::string_view option) {
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const auto x = text.find('x', start);
    parts.push_back(text.substr(start, x == std::string_view::npos ? std::string_view::npos : x - start));
    if (x == std::string_view::npos) break;
    start = x + 1;
  }
  const std::string shown = std::string(option) + " '" + std::string(text) + "'";
  if (parts.size() != 1 && static_cast<int>(parts.size()) != rank)
    throw InputError(shown + " has " + std::to_string(parts.size()) + " extents; this experiment takes " +
                     (rank == 1 ? std::string("one")
                                 : std::string("one (a ") + (rank == 2 ? "square" : "cube") + ") or " +
                                       std::to_string(rank)));
  Size size;
  for (auto part : parts) size.extents.push_back(parse_count(part, option));
  if (parts.size() == 1) size.extents.assign(static_cast<std::size_t>(rank), size.extents.front());
  std::int64_t n = 1;
  for (auto e : size.extents) {
    if (n > std::numeric_limits<std::int64_t>::max() / e) throw InputError(shown + " has more than 2^63 elements");
    n *= e;
  }
  return size;
}

Size power_of_two_size(int k, int rank) {
  Size size;
  for (int d = 0; d < rank; ++d) {
    const int bits = k / rank + (d < k % rank ? 1 : 0);
    size.extents.push_back(std::int64_t{1} << bits);
  }
  return size;
}

}  // namespace nbk::exp
