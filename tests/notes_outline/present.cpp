// Asks its notes.md (tests/notes_outline/notes.md) for a section it has: compiles.
#include "notes_outline.hpp"

static_assert(NBK_HAS_FIELD("Title") && !NBK_HAS_FIELD("Sizes"));
constexpr auto heading = NBK_HEADING("## Notes with the run's figures");
static_assert(heading.text() == "## Notes with the run's figures");
