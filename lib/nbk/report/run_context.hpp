#pragma once
// Where and how a run happened: the facts every report and benchmark JSON carries so that
// numbers from different machines and backends can be compared honestly.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace nbk {

// Kokkos::print_configuration as text (call after Kokkos::initialize).
std::string kokkos_configuration(bool verbose = false);
// "3.4.1"
std::string kokkos_version();
// Names of the enabled execution spaces, e.g. {"serial", "openmp", "cuda"}.
std::vector<std::string> enabled_space_names();
// The CPU model from /proc/cpuinfo.
std::string cpu_model();
// OMP_PROC_BIND, OMP_PLACES, OMP_NUM_THREADS as set in the environment ("unset" if not).
std::string env_or_unset(const char* name);

// All of the above plus host name, thread count of the default host space, and the time.
nlohmann::json run_context();

}  // namespace nbk
