// A Kokkos Tools library of the project's own (the C interface Kokkos loads from KOKKOS_TOOLS_LIBS,
// or KOKKOS_PROFILE_LIBRARY in 3.4): it counts, for every Kokkos Profiling region, how often it was
// entered and how many kernels (parallel_for, parallel_reduce, parallel_scan) began while it was
// the innermost region open, and writes them at finalize to the file NBK_REGION_TOOL_OUT names
// (else stderr), one tab-separated line each:
//   region <entered> <kernels> <name>
//   outside <kernels>                          kernels begun with no region open
//   unbalanced <pops with none open> <regions left open at finalize>
// tests/kokkos_regions.py reads it beside a program's JSON (every row a region, its kernels in it).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct Counts {
  std::uint64_t entered = 0;
  std::uint64_t kernels = 0;
};

struct State {
  std::mutex mutex;
  std::vector<std::string> open;
  std::map<std::string, Counts> regions;
  std::uint64_t outside = 0;
  std::uint64_t stray_pops = 0;
  std::uint64_t next_kernel = 0;
};

State& state() {
  static State s;
  return s;
}

void kernel_begins(std::uint64_t* id) {
  State& s = state();
  const std::lock_guard<std::mutex> lock(s.mutex);
  if (s.open.empty())
    ++s.outside;
  else
    ++s.regions[s.open.back()].kernels;
  *id = s.next_kernel++;
}

}  // namespace

extern "C" {

void kokkosp_init_library(const int /*load_sequence*/, const std::uint64_t /*interface_version*/,
                          const std::uint32_t /*device_count*/, void* /*device_info*/) {}

void kokkosp_finalize_library() {
  State& s = state();
  const std::lock_guard<std::mutex> lock(s.mutex);
  const char* path = std::getenv("NBK_REGION_TOOL_OUT");
  std::FILE* out = path && *path ? std::fopen(path, "w") : stderr;
  if (!out) {
    std::fprintf(stderr, "nbk region tool: cannot write %s\n", path);
    return;
  }
  for (const auto& [name, counts] : s.regions)
    std::fprintf(out, "region\t%llu\t%llu\t%s\n", static_cast<unsigned long long>(counts.entered),
                 static_cast<unsigned long long>(counts.kernels), name.c_str());
  std::fprintf(out, "outside\t%llu\n", static_cast<unsigned long long>(s.outside));
  std::fprintf(out, "unbalanced\t%llu\t%zu\n", static_cast<unsigned long long>(s.stray_pops), s.open.size());
  if (out != stderr) std::fclose(out);
}

void kokkosp_push_profile_region(const char* name) {
  State& s = state();
  const std::lock_guard<std::mutex> lock(s.mutex);
  s.open.emplace_back(name);
  ++s.regions[s.open.back()].entered;
}

void kokkosp_pop_profile_region() {
  State& s = state();
  const std::lock_guard<std::mutex> lock(s.mutex);
  if (s.open.empty())
    ++s.stray_pops;
  else
    s.open.pop_back();
}

void kokkosp_begin_parallel_for(const char* /*name*/, const std::uint32_t /*device*/, std::uint64_t* id) {
  kernel_begins(id);
}
void kokkosp_begin_parallel_reduce(const char* /*name*/, const std::uint32_t /*device*/, std::uint64_t* id) {
  kernel_begins(id);
}
void kokkosp_begin_parallel_scan(const char* /*name*/, const std::uint32_t /*device*/, std::uint64_t* id) {
  kernel_begins(id);
}
void kokkosp_end_parallel_for(const std::uint64_t /*id*/) {}
void kokkosp_end_parallel_reduce(const std::uint64_t /*id*/) {}
void kokkosp_end_parallel_scan(const std::uint64_t /*id*/) {}

}  // extern "C"
