#include "nbk/report/ceilings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace nbk {

std::string kind_key(TrafficKind kind) {
  switch (kind) {
    case TrafficKind::read: return "read";
    case TrafficKind::update: return "update";
    case TrafficKind::copy: return "copy";
    case TrafficKind::add: return "add";
    case TrafficKind::copy_streaming: return "copy_nt";
    case TrafficKind::add_streaming: return "add_nt";
  }
  return "";
}

std::optional<TrafficKind> kind_from_key(const std::string& key) {
  for (const TrafficKind kind : traffic_kinds)
    if (kind_key(kind) == key) return kind;
  return std::nullopt;
}

std::string traffic_text(const Traffic& t) {
  const TrafficKind kind = kind_of(t);
  if (kind == TrafficKind::read) return "read-only";
  if (kind == TrafficKind::update) return "in place";
  const auto reads = t.bytes_written > 0
                         ? std::max<long long>(1, std::llround(static_cast<double>(t.bytes_read) /
                                                               static_cast<double>(t.bytes_written)))
                         : 0;
  std::string text = t.bytes_read == 0 ? "write-only" : fmt::format("{} read{} 1 write", reads, reads > 1 ? "s" : "");
  if (t.streaming) text += ", streaming stores";
  return text;
}

std::string Ceilings::above_theoretical() const {
  if (!theoretical || theoretical->memory_gb_per_s <= 0) return "";
  for (const LevelCeilings& level : levels) {
    if (level.level.capacity != 0) continue;  // caches may pass the memory's peak; memory may not
    for (const auto& [kind, c] : level.kinds)
      if (c.gb_per_s > theoretical->memory_gb_per_s)
        return fmt::format("{} {} at {:.0f} GB/s passes the theoretical {:.0f} GB/s ({})", level.level.name,
                           kind_key(kind), c.gb_per_s, theoretical->memory_gb_per_s, c.by);
  }
  return "";
}

CeilingVerdict judge(const Ceilings& ceilings, const Traffic& traffic, double seconds, bool launches) {
  CeilingVerdict v;
  v.kind = kind_of(traffic);
  v.kind_text = traffic_text(traffic);
  v.working_set = traffic.total();
  v.moved = moved_bytes(traffic, ceilings.stores_allocate);
  if (traffic.total() == 0) {
    v.missing = "no bytes counted";
    return v;
  }
  std::vector<MemoryLevel> levels;
  for (const LevelCeilings& l : ceilings.levels) levels.push_back(l.level);
  const MemoryLevel* level = level_for(levels, v.working_set);
  if (!level) {
    v.missing = "no ceilings in this run";
    return v;
  }
  v.level = level->name;
  const LevelCeilings& at = ceilings.levels[static_cast<std::size_t>(level - levels.data())];
  auto rate = [&](TrafficKind k) {
    const auto found = at.kinds.find(k);
    return found == at.kinds.end() ? 0.0 : found->second.gb_per_s;
  };
  v.gb_per_s = rate(v.kind);
  // Three or more reads a write: between add's traffic and read-only's, so the faster of the two bounds it.
  if (v.kind == TrafficKind::add && traffic.bytes_read >= 3 * traffic.bytes_written)
    v.gb_per_s = std::max(v.gb_per_s, rate(TrafficKind::read));
  if (const auto floor = ceilings.floor_s.find(v.kind); floor != ceilings.floor_s.end()) v.floor_s = floor->second;
  if (!launches) v.floor_s = 0;
  // No rate at the level: its probe calls were mostly their floor (probe_level), so the floor alone
  // bounds the row; without a floor (plain code on one thread) nothing does.
  if (v.gb_per_s <= 0 && v.floor_s <= 0) {
    v.missing = fmt::format("no ceiling for {} ({}) at {} in this run", kind_key(v.kind), v.kind_text, v.level);
    return v;
  }
  const double at_ceiling = v.gb_per_s > 0 ? static_cast<double>(v.moved) * 1e-9 / v.gb_per_s : 0.0;
  v.floor_binds = v.floor_s > at_ceiling;
  if (seconds > 0) v.fraction = std::max(v.floor_s, at_ceiling) / seconds;
  return v;
}

void keep_fastest(Ceilings& kept, const Ceilings& fresher) {
  if (kept.empty()) {
    kept = fresher;
    return;
  }
  for (const LevelCeilings& f : fresher.levels) {
    auto same = std::find_if(kept.levels.begin(), kept.levels.end(),
                             [&](const LevelCeilings& k) { return k.level.name == f.level.name; });
    if (same == kept.levels.end()) continue;  // another shape of levels: the kept one's stand
    for (const auto& [kind, c] : f.kinds) {
      KindCeiling& k = same->kinds[kind];
      if (c.gb_per_s > k.gb_per_s) k = c;
    }
  }
  for (const auto& [kind, floor] : fresher.floor_s) {
    const auto k = kept.floor_s.find(kind);
    if (k == kept.floor_s.end() || floor < k->second) kept.floor_s[kind] = floor;
  }
  kept.verified = kept.verified && fresher.verified;
  kept.measured_at_epoch_s = std::max(kept.measured_at_epoch_s, fresher.measured_at_epoch_s);
}

nlohmann::json to_json(const Ceilings& c) {
  // Every kind probed anywhere is a key at every level (null where that level has no figure of its
  // own), so the shape of the record does not depend on which probe calls a floor hid.
  std::set<TrafficKind> probed;
  for (const auto& [kind, floor] : c.floor_s) probed.insert(kind);
  for (const LevelCeilings& l : c.levels)
    for (const auto& [kind, k] : l.kinds) probed.insert(kind);
  nlohmann::json levels = nlohmann::json::array();
  for (const LevelCeilings& l : c.levels) {
    nlohmann::json rates = nlohmann::json::object(), by = nlohmann::json::object(), spread = nlohmann::json::object();
    for (const TrafficKind kind : probed) {
      const auto k = l.kinds.find(kind);
      const bool here = k != l.kinds.end() && k->second.gb_per_s > 0;
      rates[kind_key(kind)] = here ? nlohmann::json(k->second.gb_per_s) : nlohmann::json(nullptr);
      by[kind_key(kind)] = here ? nlohmann::json(k->second.by) : nlohmann::json(nullptr);
      spread[kind_key(kind)] = here ? nlohmann::json(k->second.spread) : nlohmann::json(nullptr);
    }
    levels.push_back({{"level", l.level.name},
                      {"capacity_bytes", l.level.capacity},
                      {"probe_bytes", l.level.probe_bytes},
                      {"gb_per_s", rates},
                      {"by", by},
                      {"spread", spread}});
  }
  nlohmann::json floors = nlohmann::json::object();
  for (const auto& [kind, floor] : c.floor_s) floors[kind_key(kind)] = floor;
  nlohmann::json doc = {{"levels", levels},
                        {"floor_s", floors},
                        {"stores_allocate", c.stores_allocate},
                        {"verified", c.verified},
                        {"measured_at_epoch_s", c.measured_at_epoch_s},
                        {"rates_are", "bytes as the memory moves them (a store's read of its line included where "
                                      "stores_allocate) per second past the kind's floor_s (its fastest call over "
                                      "a few lines), decimal GB; capacity_bytes 0: memory; null: no figure of the kind's own at "
                                      "that level (its calls were mostly their floor, or its check failed: "
                                      "verified); a row cannot beat max(floor_s, bytes moved / rate)"}};
  if (c.theoretical)
    doc["theoretical"] = {{"memory_gb_per_s", c.theoretical->memory_gb_per_s},
                          {"fp32_gflop_per_s", c.theoretical->fp32_gflop_per_s},
                          {"fp64_gflop_per_s", c.theoretical->fp64_gflop_per_s},
                          {"from", c.theoretical->from}};
  nlohmann::json sweep = nlohmann::json::array();
  for (const SweepRate& s : c.sweep) sweep.push_back({{"bytes", s.bytes}, {"kind", "copy"}, {"gb_per_s", s.gb_per_s}});
  doc["sweep"] = sweep;
  return doc;
}

Ceilings ceilings_from_json(const nlohmann::json& doc) {
  Ceilings c;
  if (!doc.is_object()) return c;
  c.stores_allocate = doc.value("stores_allocate", true);
  c.verified = doc.value("verified", false);
  c.measured_at_epoch_s = doc.value("measured_at_epoch_s", 0.0);
  if (const auto levels = doc.find("levels"); levels != doc.end() && levels->is_array())
    for (const auto& l : *levels) {
      if (!l.is_object()) continue;
      LevelCeilings level;
      level.level = {l.value("level", ""), l.value("capacity_bytes", std::uint64_t{0}),
                     l.value("probe_bytes", std::uint64_t{0})};
      const auto rates = l.value("gb_per_s", nlohmann::json::object());
      const auto by = l.value("by", nlohmann::json::object());
      const auto spread = l.value("spread", nlohmann::json::object());
      for (const auto& [key, value] : rates.items()) {
        const auto kind = kind_from_key(key);
        if (!kind || !value.is_number()) continue;
        const auto text = by.find(key);
        const auto spread_of = spread.find(key);
        level.kinds[*kind] = {value.get<double>(), text != by.end() && text->is_string() ? text->get<std::string>() : "",
                              spread_of != spread.end() && spread_of->is_number() ? spread_of->get<double>() : 0.0};
      }
      c.levels.push_back(level);
    }
  if (const auto floors = doc.find("floor_s"); floors != doc.end() && floors->is_object())
    for (const auto& [key, value] : floors->items())
      if (const auto kind = kind_from_key(key); kind && value.is_number()) c.floor_s[*kind] = value.get<double>();
  if (const auto t = doc.find("theoretical"); t != doc.end() && t->is_object())
    c.theoretical = TheoreticalPeaks{t->value("memory_gb_per_s", 0.0), t->value("fp32_gflop_per_s", 0.0),
                                     t->value("fp64_gflop_per_s", 0.0), t->value("from", "")};
  if (const auto sweep = doc.find("sweep"); sweep != doc.end() && sweep->is_array())
    for (const auto& s : *sweep)
      if (s.is_object()) c.sweep.push_back({s.value("bytes", std::uint64_t{0}), s.value("gb_per_s", 0.0)});
  return c;
}

nlohmann::json to_json(const CeilingVerdict& v) {
  if (v.level.empty()) return nullptr;
  return {{"level", v.level},
          {"kind", kind_key(v.kind)},
          {"kind_text", v.kind_text},
          {"working_set_bytes", v.working_set},
          {"bytes_moved_per_call", v.moved},
          {"gb_per_s", v.gb_per_s > 0 ? nlohmann::json(v.gb_per_s) : nlohmann::json(nullptr)},
          {"floor_s", v.floor_s},
          {"floor_binds", v.floor_binds},
          {"fraction", v.fraction ? nlohmann::json(*v.fraction) : nlohmann::json(nullptr)}};
}

}  // namespace nbk
