#pragma once
// The size of one problem: its extents (one for a 1-D array, three for a 3-D one).
// Host code only.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nbk::exp {

struct Size {
  std::vector<std::int64_t> extents;

  Size() = default;
  Size(std::initializer_list<std::int64_t> e) : extents(e) {}
  explicit Size(std::vector<std::int64_t> e) : extents(std::move(e)) {}

  int rank() const { return static_cast<int>(extents.size()); }
  std::int64_t operator[](int i) const { return extents[static_cast<std::size_t>(i)]; }
  // The product of the extents; the caller checked it fits (parse_size does).
  std::int64_t elements() const;
  // "134217571", "256x256x256": the form --size accepts and benchmark names carry.
  std::string text() const;
  bool operator==(const Size& other) const { return extents == other.extents; }
};

// `text` as a size of `rank` extents: "N" or "2^K" (for rank 2 or 3, a square or cube of that edge), or
// "AxB", "AxBxC". Every extent positive and the element count within 63 bits; InputError otherwise,
// naming `option` and the text.
Size parse_size(std::string_view text, int rank, std::string_view option);

// Rank-3 shape with 2^k elements, as even as powers of two allow (larger extents first):
// 2^10 -> 16x8x8. Rank 1: {2^k}.
Size power_of_two_size(int k, int rank);

}  // namespace nbk::exp
