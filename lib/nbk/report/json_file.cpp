#include "nbk/report/json_file.hpp"

#include <fstream>

#include "nbk/core/errors.hpp"

namespace nbk {

void write_json_file(const std::string& path, const nlohmann::json& document) {
  std::ofstream out(path);
  if (!out) throw InputError("cannot write JSON file '" + path + "'");
  out << document.dump(2) << '\n';
  if (!out.flush()) throw InputError("failed writing JSON file '" + path + "'");
}

}  // namespace nbk
