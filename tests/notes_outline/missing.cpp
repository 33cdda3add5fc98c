// Asks its notes.md (tests/notes_outline/notes.md) for a section it lacks, as a statement would
// after its heading was renamed: must not compile (ctest lint.notes_sections).
#include "notes_outline.hpp"

constexpr auto heading = NBK_HEADING("## Notes with the runs figures");
