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
  const std::string where = variant.space == "host" ? "" : variant.device ? " on a device" : " on a host";
  if (!where.empty())
    if (auto words = line_after(figures, "- " + variant.name + where + ": "); !words.empty()) return words;
  return line_after(figures, "- " + variant.name + ": ");
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
  check_references(e);
  return e;
}

}  // namespace nbk::exp
