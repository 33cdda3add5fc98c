#pragma once
// The ceilings a row is judged by: for one space, a bandwidth per memory level and kind of
// traffic, each the best of the probes that move that kind at that level (Kokkos' kernel; on a
// CPU also a plain loop as BabelStream writes it and std::memcpy; on a GPU also cudaMemcpy and
// CUB's reduction), in bytes as the memory moves them (nbk::moved_bytes). A row's working set
// chooses the level (nbk::level_for), its traffic the kind (nbk::kind_of); a GPU also carries
// the theoretical peaks its attributes give, the roofs no measured ceiling may pass. Probed by
// nbk/report/ceiling_probe.hpp; this file is what every space shares: the figures and the verdict.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "nbk/core/traffic.hpp"
#include "nbk/report/memory_levels.hpp"

namespace nbk {

// "read", "update", "copy", "add", "copy_nt", "add_nt": a kind's key in JSON.
std::string kind_key(TrafficKind kind);
std::optional<TrafficKind> kind_from_key(const std::string& key);
// The kind in words, from the row's own streams: "read-only", "in place", "1 read 1 write",
// "2 reads 1 write", "4 reads 1 write, streaming stores".
std::string traffic_text(const Traffic& traffic);

struct KindCeiling {
  double gb_per_s = 0;  // moved bytes a second past the call's floor (below), the best of the probes
  std::string by;       // which probe gave it
  double spread = 0;    // that probe's median run over its best, minus 1
};

struct LevelCeilings {
  MemoryLevel level;
  std::map<TrafficKind, KindCeiling> kinds;  // a kind absent: not probed here
};

// What a GPU's attributes say it can do at most (0: not known).
struct TheoreticalPeaks {
  double memory_gb_per_s = 0;    // 2 x memory clock x bus width
  double fp32_gflop_per_s = 0;   // SMs x FP32 lanes x 2 x clock
  double fp64_gflop_per_s = 0;   // half of it where the device has half-rate FP64, else 0
  std::string from;              // the attributes, in words
};

// One point of the working-set sweep that checks the levels' sizes: a copy at `bytes`.
struct SweepRate {
  std::uint64_t bytes = 0;
  double gb_per_s = 0;
};

// A call's time has a floor as well as a bandwidth: the launch, fork and fence of a call that moves
// almost nothing (a few microseconds for OpenMP's fork and join, tens of nanoseconds for a loop on
// one thread). The time a row cannot beat is the larger of its floor and its bytes at the ceiling,
// and each level's bandwidth is its probe's bytes over the probe's time less that form's floor: a
// probe of a small cache, whose calls are mostly floor, then still bounds the larger calls of rows.
struct Ceilings {
  std::vector<LevelCeilings> levels;  // fastest first
  std::map<TrafficKind, double> floor_s;  // the fastest call of each kind's forms over a few lines
  bool stores_allocate = true;        // a CPU's stores read the line first (write-allocate); a GPU's do not
  std::optional<TheoreticalPeaks> theoretical;
  std::vector<SweepRate> sweep;
  bool verified = false;
  double measured_at_epoch_s = 0;     // the latest probe merged in (keep_fastest)
  bool empty() const { return levels.empty(); }
  // The largest ceiling above its space's theoretical memory peak, in words ("" if none).
  std::string above_theoretical() const;
};

// A row's verdict against the ceilings: which level and kind judge it, and its fraction.
struct CeilingVerdict {
  std::string level;        // "" where no level could be chosen
  TrafficKind kind = TrafficKind::copy;
  std::string kind_text;    // traffic_text of the row
  std::uint64_t working_set = 0, moved = 0;
  double gb_per_s = 0;      // the ceiling's rate; 0: none at that level for that kind
  double floor_s = 0;       // the kind's floor
  bool floor_binds = false; // the floor takes longer than the bytes at the ceiling: latency binds
  std::optional<double> fraction;  // max(floor, moved at the ceiling) over the row's time
  std::string missing;      // why there is no fraction, in words ("" when there is one)
};

// The row that moves `traffic` (working set: its bytes, each array once) in `seconds`: the larger of
// the kind's floor and its moved bytes at the ceiling, over `seconds`.
// Kinds with more reads per write than two are judged by the faster of add's and read's ceiling.
CeilingVerdict judge(const Ceilings& ceilings, const Traffic& traffic, double seconds);

// Merges `fresher` into `kept`, level by level and kind by kind, keeping the faster figure:
// ceilings probed twice in one run bound the rows of both moments.
void keep_fastest(Ceilings& kept, const Ceilings& fresher);

nlohmann::json to_json(const Ceilings& ceilings);
Ceilings ceilings_from_json(const nlohmann::json& doc);
nlohmann::json to_json(const CeilingVerdict& verdict);

}  // namespace nbk
