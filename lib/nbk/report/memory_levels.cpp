#include "nbk/report/memory_levels.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace nbk {

namespace {

std::string read_word(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  in >> word;
  return word;
}

// "48K", "1024K", "32M", "32768" (bytes) -> bytes; 0 for anything else.
std::uint64_t size_bytes(const std::string& text) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return 0;
  char* end = nullptr;
  const std::uint64_t value = std::strtoull(text.c_str(), &end, 10);
  const std::string unit(end);
  if (unit.empty()) return value;
  if (unit == "K") return value << 10;
  if (unit == "M") return value << 20;
  if (unit == "G") return value << 30;
  return 0;
}

// The distinct shared_cpu_list texts of `index` over every cpuN: how many instances of it exist.
int instances_of(const std::string& sysfs_cpu, const std::string& index) {
  std::set<std::string> lists;
  for (int cpu = 0; cpu < 4096; ++cpu) {
    std::ifstream in(sysfs_cpu + "/cpu" + std::to_string(cpu) + "/cache/" + index + "/shared_cpu_list");
    if (!in) {
      if (cpu > 0) break;
      continue;
    }
    std::string list;
    std::getline(in, list);
    lists.insert(list);
  }
  return std::max<int>(1, static_cast<int>(lists.size()));
}

}  // namespace

int cpu_list_count(const std::string& list) {
  int count = 0;
  std::stringstream parts(list);
  std::string part;
  while (std::getline(parts, part, ',')) {
    if (part.empty() || !std::isdigit(static_cast<unsigned char>(part[0]))) return 0;
    char* end = nullptr;
    const long first = std::strtol(part.c_str(), &end, 10);
    long last = first;
    if (*end == '-') last = std::strtol(end + 1, &end, 10);
    if (*end != '\0' && !std::isspace(static_cast<unsigned char>(*end))) return 0;
    if (last < first) return 0;
    count += static_cast<int>(last - first + 1);
  }
  return count;
}

std::vector<HostCache> host_caches(const std::string& sysfs_cpu) {
  std::map<int, HostCache> by_level;
  for (int i = 0; i < 16; ++i) {
    const std::string index = "index" + std::to_string(i);
    const std::string dir = sysfs_cpu + "/cpu0/cache/" + index + "/";
    const std::string level_text = read_word(dir + "level");
    if (level_text.empty()) continue;
    const std::string type = read_word(dir + "type");
    if (type == "Instruction") continue;
    HostCache cache;
    cache.level = std::atoi(level_text.c_str());
    cache.bytes = size_bytes(read_word(dir + "size"));
    std::ifstream list_file(dir + "shared_cpu_list");
    std::string list;
    std::getline(list_file, list);
    cache.cpus_sharing = std::max(1, cpu_list_count(list));
    cache.instances = instances_of(sysfs_cpu, index);
    if (cache.level > 0 && cache.bytes > 0) by_level[cache.level] = cache;
  }
  std::vector<HostCache> caches;
  for (const auto& [level, cache] : by_level) caches.push_back(cache);
  return caches;
}

std::vector<MemoryLevel> host_memory_levels(const std::vector<HostCache>& caches, int threads,
                                            std::uint64_t memory_probe_bytes) {
  std::vector<MemoryLevel> levels;
  threads = std::max(threads, 1);
  std::uint64_t largest = 0;
  for (const HostCache& c : caches) {
    // Threads spread over the instances: as many instances as threads fill, never more than exist.
    const int used = std::min(c.instances, std::max(1, (threads + c.cpus_sharing - 1) / c.cpus_sharing));
    const std::uint64_t capacity = c.bytes * static_cast<std::uint64_t>(used);
    if (capacity <= largest) continue;  // a level that holds no more than the one below it adds nothing
    levels.push_back({"L" + std::to_string(c.level), capacity, largest == 0 ? capacity / 2 : 2 * largest});
    largest = capacity;
  }
  levels.push_back({"DRAM", 0, std::max(memory_probe_bytes, 2 * largest)});
  return levels;
}

std::vector<MemoryLevel> device_memory_levels(std::uint64_t l2_bytes, std::uint64_t memory_probe_bytes) {
  std::vector<MemoryLevel> levels;
  if (l2_bytes > 0) levels.push_back({"L2", l2_bytes, l2_bytes / 4});
  levels.push_back({"DRAM", 0, std::max(memory_probe_bytes, 2 * l2_bytes)});
  return levels;
}

const MemoryLevel* level_for(const std::vector<MemoryLevel>& levels, std::uint64_t bytes) {
  for (std::size_t i = 0; i < levels.size(); ++i) {
    if (levels[i].capacity != 0 && bytes > levels[i].capacity) continue;
    if (i > 0 && bytes <= 2 * levels[i - 1].capacity) return &levels[i - 1];
    return &levels[i];
  }
  return nullptr;
}

}  // namespace nbk
