#pragma once
// Writing the programs' JSON files, with InputError (exit 2) for a path that cannot be written.
#include <nlohmann/json.hpp>

#include <string>

namespace nbk {

void write_json_file(const std::string& path, const nlohmann::json& document);

}  // namespace nbk
