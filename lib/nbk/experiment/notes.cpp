#include "nbk/experiment/notes.hpp"

#include <algorithm>
#include <stdexcept>

namespace nbk::exp {

namespace {

// The lines of `text` from the one after `heading` up to the next "## " heading.
std::string_view section_of(std::string_view text, std::string_view heading) {
  const std::string marker = "\n" + std::string(heading) + "\n";
  const auto at = text.find(marker);
  if (at == std::string_view::npos) return {};
  const auto begin = at + marker.size();
  auto end = std::min(text.find("\n## ", begin), text.size());
  while (end > begin && text[end - 1] == '\n') --end;  // one line end, no blank lines after the text
  return end > begin ? text.substr(begin, end + 1 - begin) : std::string_view();
}

// The rest of the line that starts with `prefix` in `lines` ("" if none).
std::string line_after(std::string_view lines, std::string_view prefix) {
  for (std::size_t at = 0; at < lines.size();) {
    const auto end = std::min(lines.find('\n', at), lines.size());
    const auto line = lines.substr(at, end - at);
    if (line.substr(0, prefix.size()) == prefix) return std::string(line.substr(prefix.size()));
    at = end + 1;
  }
  return {};
}

}  // namespace

std::string Notes::field(std::string_view key) const {
  const auto head = text.substr(0, text.find("\n## "));
  return line_after(head, std::string(key) + ": ");
}

std::string Notes::figure(const Variant& variant) const {
  const auto figures = section_of(text, "## Figures");
  if (variant.space != "host") {
    for (const std::string where : {" on " + variant.space, std::string(variant.device ? " on a device" : " on a host")})
      if (auto words = line_after(figures, "- " + variant.name + where + ": "); !words.empty()) return words;
  }
  return line_after(figures, "- " + variant.name + ": ");
}

std::vector<std::pair<std::vector<std::string>, std::string>> Notes::below_memcpy() const {
  static constexpr std::string_view marker = "\n## Below memcpy: ";
  std::vector<std::pair<std::vector<std::string>, std::string>> sections;
  for (auto at = text.find(marker); at != std::string_view::npos; at = text.find(marker, at + 1)) {
    const auto names_begin = at + marker.size();
    const auto names_end = std::min(text.find('\n', names_begin), text.size());
    const std::string_view heading = text.substr(at + 1, names_end - at - 1);
    std::string names(text.substr(names_begin, names_end - names_begin));
    for (const std::string_view separator : {", ", " and "})
      for (auto found = names.find(separator); found != std::string::npos; found = names.find(separator))
        names.replace(found, separator.size(), "\n");
    std::vector<std::string> variants;
    for (std::size_t begin = 0; begin <= names.size();) {
      const auto end = std::min(names.find('\n', begin), names.size());
      variants.push_back(names.substr(begin, end - begin));
      begin = end + 1;
    }
    std::string reason(section_of(text, heading));
    if (!reason.empty()) reason.pop_back();
    std::replace(reason.begin(), reason.end(), '\n', ' ');
    sections.emplace_back(std::move(variants), std::move(reason));
  }
  return sections;
}

std::string Notes::body() const {
  const auto notes = section_of(text, "## Notes");
  return notes.empty() ? std::string() : "\n" + std::string(notes);
}

std::string Notes::section(Heading heading) const { return std::string(section_of(text, heading.text())); }

std::string Notes::paragraph(Heading heading) const {
  std::string text = section(heading);
  if (!text.empty()) text.pop_back();
  return text;
}

std::string Notes::line(Heading heading) const {
  std::string text = paragraph(heading);
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

Experiment stated(const Notes& notes) {
  Experiment e;
  e.name = std::string(notes.name);
  e.title = notes.field("Title");
  e.document = notes.field("Document");
  e.size_help = notes.field("Sizes");
  e.notes = notes.body();
  return e;
}

void check_references(const Experiment& e) {
  auto known = [&e](const VariantRef& ref, const char* what) {
    for (const auto& v : e.variants)
      if (v.name == ref.name()) return;
    throw std::logic_error(e.name + ": " + what + " '" + ref.name() + "' is no variant of the experiment");
  };
  for (const auto& v : e.variants)
    if (!v.speedup_against.empty()) known(v.speedup_against, "speed-up baseline");
  for (const auto& sweep : e.sweeps) {
    known(sweep.host_variant, "sweep host variant");
    known(sweep.device_variant, "sweep device variant");
  }
}

Experiment build(const Notes& notes, Experiment (*statement)(const Notes&)) {
  Experiment e = statement(notes);
  for (auto* variants : {&e.variants, &e.injected_bugs})
    for (auto& v : *variants)
      if (v.document.empty()) v.document = notes.figure(v);
  for (const auto& [names, reason] : notes.below_memcpy())
    for (const std::string& name : names) {
      bool named = false;
      for (auto& v : e.variants)
        if (v.name == name) v.below_memcpy_because = reason, named = true;
      if (!named) throw std::logic_error(e.name + ": notes.md's \"## Below memcpy: " + name + "\" is no variant");
    }
  check_references(e);
  return e;
}

}  // namespace nbk::exp
