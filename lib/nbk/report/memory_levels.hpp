#pragma once
// The memory levels a space's kernels can stream from, and how much each holds for that space:
// on a CPU its data caches (from sysfs: size, level, and the CPUs that share each) and memory;
// on a GPU its L2 (the device's attribute) and device memory. A row is judged by the ceiling of
// the level its working set fits in, or of the level below where it lies within twice that one
// (level_for). So each level's ceiling is probed with the smallest working set it judges: twice
// the level below (a larger working set reaches no faster), the first level with half of itself
// (a GPU's L2 with a quarter), so that every row it judges moves at least the probe's bytes.
#include <cstdint>
#include <string>
#include <vector>

namespace nbk {

struct MemoryLevel {
  std::string name;             // "L1", "L2", "L3" (a CPU's caches by their number), "DRAM" (a GPU's HBM too)
  std::uint64_t capacity = 0;   // bytes the space's threads hold at this level; 0: memory, unbounded
  std::uint64_t probe_bytes = 0;  // the working set its ceiling is probed with
};

// One data (or unified) cache of cpu0 as sysfs describes it.
struct HostCache {
  int level = 0;
  std::uint64_t bytes = 0;      // one instance
  int cpus_sharing = 1;         // logical CPUs that share one instance
  int instances = 1;            // instances across the machine's online CPUs
};

// cpu0's data and unified caches under `sysfs_cpu` (/sys/devices/system/cpu: index*/level, size,
// type, shared_cpu_list), one per level, smallest level first; empty where sysfs says nothing.
std::vector<HostCache> host_caches(const std::string& sysfs_cpu = "/sys/devices/system/cpu");

// "0-3,8-11" -> 8: the CPUs a sysfs CPU list names (0 for text that is no list).
int cpu_list_count(const std::string& list);

// A host space of `threads` threads: each cache level holds one instance per `cpus_sharing`
// threads (up to the instances there are), so two threads on a private L2 hold twice one L2;
// memory's probe is `memory_probe_bytes`, at least twice the last cache. Where sysfs says
// nothing: memory alone.
std::vector<MemoryLevel> host_memory_levels(const std::vector<HostCache>& caches, int threads,
                                            std::uint64_t memory_probe_bytes);

// A GPU with an L2 of `l2_bytes` (0: not known, memory alone): the L2 probed with a quarter of it
// (the L2 is split in two partitions, and data read from the far one may be held in both), device
// memory with `memory_probe_bytes` (at least twice the L2).
std::vector<MemoryLevel> device_memory_levels(std::uint64_t l2_bytes, std::uint64_t memory_probe_bytes);

// The level whose ceiling judges a working set of `bytes`: the first that holds it, or, where it
// lies within twice the level before that one (part of it may still be found there), the level
// before: a ceiling that bounds, never one the row can beat by its cache. nullptr: no levels.
const MemoryLevel* level_for(const std::vector<MemoryLevel>& levels, std::uint64_t bytes);

}  // namespace nbk
