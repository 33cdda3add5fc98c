#pragma once
// A notes.md checked when the program is built, not when it runs. lib/CMakeLists.txt generates,
// for each workload, notes_outline.hpp from its notes.md (and, for nbk_core, from legend.md):
//
//   constexpr nbk::exp::Section notes_sections[] = {{"## Notes with the run's figures", 5}, ..., {"", 0}};
//   constexpr std::string_view notes_fields[] = {"Title", "Document", "Sizes", ""};
//
// A statement names a section as NBK_HEADING("## Notes under MPI"): a heading that notes.md lacks
// (renamed, mistyped) stops the build at that line, where before it printed nothing.
// Notes::section takes only a Heading, so every section a statement asks for goes through it.
// A section that formats the run's figures is read as NBK_PROSE(notes.section, "## ..."): a
// Prose<N> that takes exactly the N figures its fields ("{}", "{0:.3g}") ask for, or fails to
// compile. Plain C++ and fmt without Kokkos: tests/notes_outline/ builds it alone.
#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace nbk::exp {

// A "## " heading of a notes.md and how many figures its section formats.
struct Section {
  std::string_view heading;
  std::size_t figures;
};

// Whether `key` is one of `list` (a generated outline's fields).
template <std::size_t N>
constexpr bool listed(const std::string_view (&list)[N], std::string_view key) {
  for (std::size_t k = 0; k < N; ++k)
    if (!list[k].empty() && list[k] == key) return true;
  return false;
}

// Whether `heading` is one of `sections` (a generated outline's).
template <std::size_t N>
constexpr bool listed(const Section (&sections)[N], std::string_view heading) {
  for (std::size_t k = 0; k < N; ++k)
    if (!sections[k].heading.empty() && sections[k].heading == heading) return true;
  return false;
}

// How many figures the section under `heading` formats (0 where there is no such section).
template <std::size_t N>
constexpr std::size_t figures_in(const Section (&sections)[N], std::string_view heading) {
  for (std::size_t k = 0; k < N; ++k)
    if (!sections[k].heading.empty() && sections[k].heading == heading) return sections[k].figures;
  return 0;
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

// A section of the notes that formats `Figures` of the run's figures: called with exactly that
// many (NBK_PROSE counts its fields when the program is built), it returns the text with them.
template <std::size_t Figures>
class Prose {
 public:
  Prose() = default;
  explicit Prose(std::string text) : text_(std::move(text)) {}
  template <class... Args>
  std::string operator()(const Args&... figures) const {
    static_assert(sizeof...(Args) == Figures, "NBK_PROSE: the notes' section formats another number of "
                                              "figures than this call gives (notes_outline.hpp counts them)");
    return fmt::format(fmt::runtime(text_), figures...);
  }

 private:
  std::string text_;
};

}  // namespace nbk::exp

// The heading `text` of this folder's notes.md (the notes_outline.hpp included before), or a
// compile error where notes.md has none such.
#define NBK_HEADING(text) (::nbk::exp::Heading::checked<::nbk::exp::listed(notes_sections, text)>(text))
// Whether this folder's notes.md has the field `key` ("Title: ..."), for a static_assert.
#define NBK_HAS_FIELD(key) (::nbk::exp::listed(notes_fields, key))
// The section under `heading` as read by `read` (notes.section, or notes.paragraph: without its
// last line end), as a Prose of as many figures as its fields ask for.
#define NBK_PROSE(read, heading) \
  (::nbk::exp::Prose<::nbk::exp::figures_in(notes_sections, heading)>(read(NBK_HEADING(heading))))
