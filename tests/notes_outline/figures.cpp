// Formats a section of its notes.md (tests/notes_outline/notes.md) that asks for one figure
// with two: must not compile (ctest lint.notes_figures).
#include <string>

#include "notes_outline.hpp"

std::string section(nbk::exp::Heading) { return "{} of them"; }
std::string formatted() { return NBK_PROSE(section, "## Notes with the run's figures")(3, 4); }
