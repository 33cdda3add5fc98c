// Asks its notes.md (tests/notes_outline/notes.md) for a section it has, and formats it with the
// one figure its field asks for: compiles.
#include <string>

#include "notes_outline.hpp"

static_assert(NBK_HAS_FIELD("Title") && !NBK_HAS_FIELD("Sizes"));
constexpr auto heading = NBK_HEADING("## Notes with the run's figures");
static_assert(heading.text() == "## Notes with the run's figures");
static_assert(nbk::exp::figures_in(notes_sections, "## Notes with the run's figures") == 1);
static_assert(nbk::exp::figures_in(notes_sections, "## Positional fields") == 3);
static_assert(nbk::exp::figures_in(notes_sections, "## Braces") == 0);

std::string section(nbk::exp::Heading) { return "{} of them"; }
std::string formatted() { return NBK_PROSE(section, "## Notes with the run's figures")(3); }
