#pragma once
// Writing and reading the programs' JSON files, with InputError (exit 2) for a path that
// cannot be written, a file that is missing, or text that is not JSON.
#include <nlohmann/json.hpp>

#include <string>

namespace nbk {

void write_json_file(const std::string& path, const nlohmann::json& document);
nlohmann::json read_json_file(const std::string& path);

}  // namespace nbk
