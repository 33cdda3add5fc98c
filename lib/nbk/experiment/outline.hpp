#pragma once
// A notes.md checked when the program is built, not when it runs. lib/CMakeLists.txt generates,
// for each workload, notes_outline.hpp from its notes.md (and, for nbk_core, from legend.md):
//
//   constexpr std::string_view notes_headings[] = {"## Notes with the run's figures", ..., ""};
//   constexpr std::string_view notes_fields[] = {"Title", "Document", "Sizes", ""};
//
// A statement names a section as NBK_HEADING("## Notes under MPI"): a heading that notes.md lacks
// (renamed, mistyped) stops the build at that line, where before it printed nothing.
// Notes::section takes only a Heading, so every section a statement asks for goes through it.
// Plain C++ without Kokkos: tests/notes_outline/ builds it alone.
#include <cstddef>
#include <string_view>

namespace nbk::exp {

// Whether `key` is one of `list` (a generated outline's headings or fields).
template <std::size_t N>
constexpr bool listed(const std::string_view (&list)[N], std::string_view key) {
  for (std::size_t k = 0; k < N; ++k)
    if (!list[k].empty() && list[k] == key) return true;
  return false;
}

// A heading of the notes.md beside the statement, found there by the build.
class Heading {
 public:
  // `found`: whether the outline lists `text` (NBK_HEADING computes it at compile time).
  template <bool Found>
  static constexpr Heading checked(std::string_view text) {
    static_assert(Found, "NBK_HEADING: the notes.md beside this statement has no such heading "
                         "(the build's notes_outline.hpp lists those it has)");
    return Heading(text);
  }
  constexpr std::string_view text() const { return text_; }

 private:
  constexpr explicit Heading(std::string_view text) : text_(text) {}
  std::string_view text_;
};

}  // namespace nbk::exp

// The heading `text` of this folder's notes.md (the notes_outline.hpp included before), or a
// compile error where notes.md has none such.
#define NBK_HEADING(text) (::nbk::exp::Heading::checked<::nbk::exp::listed(notes_headings, text)>(text))
// Whether this folder's notes.md has the field `key` ("Title: ..."), for a static_assert.
#define NBK_HAS_FIELD(key) (::nbk::exp::listed(notes_fields, key))
