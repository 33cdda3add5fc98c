#include "nbk/report/run_context.hpp"

#include <Kokkos_Core.hpp>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "nbk/core/host_vector_math.hpp"
#include "nbk/core/spaces.hpp"

namespace nbk {

std::string kokkos_configuration(bool verbose) {
  std::ostringstream text;
  Kokkos::print_configuration(text, verbose);
  return text.str();
}

std::string kokkos_version() {
  const int v = KOKKOS_VERSION;
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

std::vector<std::string> enabled_space_names() {
  std::vector<std::string> names;
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    names.emplace_back(space_name<Space>());
  });
  return names;
}

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown";
}

std::string env_or_unset(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "unset";
}

nlohmann::json run_context() {
  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char when[64];
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return {
      {"host_name", host},
      {"cpu_model", cpu_model()},
      {"date_utc", when},
      {"kokkos_version", kokkos_version()},
      {"execution_spaces", enabled_space_names()},
      {"default_execution_space", Kokkos::DefaultExecutionSpace::name()},
      {"host_concurrency", Kokkos::DefaultHostExecutionSpace().concurrency()},
      {"OMP_PROC_BIND", env_or_unset("OMP_PROC_BIND")},
      {"OMP_PLACES", env_or_unset("OMP_PLACES")},
      {"OMP_NUM_THREADS", env_or_unset("OMP_NUM_THREADS")},
      {"host_math", host_math_name},
      {"kokkos_configuration", kokkos_configuration(false)},
  };
}

}  // namespace nbk
