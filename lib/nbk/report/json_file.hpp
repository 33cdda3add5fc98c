#pragma once
// Writing the programs' JSON files: the path checked before any work, the file written whole
// or not at all (a temporary file beside it, then a rename), with InputError (exit 2) for a
// path that cannot be written.
#include <nlohmann/json.hpp>

#include <string>

namespace nbk {

// Refuses, before any work, a --json path that is not a regular file, in a directory this
// process cannot write, or on a file system that is full: a trial write of a file the size
// of a large report beside it must succeed (and is removed). No-op for an empty path.
// `option` names the path in the error ("--json", "--probes").
void require_writable_json(const std::string& path, const std::string& option = "--json");

// Writes `document` to `path` through a temporary file and a rename: a failure leaves any
// earlier file as it was.
void write_json_file(const std::string& path, const nlohmann::json& document, const std::string& option = "--json");

}  // namespace nbk
