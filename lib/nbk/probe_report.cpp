#include "nbk/probe_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "nbk/table.hpp"

namespace nbk {

void print_probe_table(std::ostream& out, const Probes& probes) {
  if (probes.empty()) return;
  Table table({"space", "copy GB/s", "triad GB/s", "probe arrays", "check"});
  for (const auto& [space, probe] : probes)
    table.add_row({space, fmt::format("{:.1f}", probe.copy_gb_per_s), fmt::format("{:.1f}", probe.triad_gb_per_s),
                   fmt::format("3 x {}", format_bytes(static_cast<std::uint64_t>(probe.elements) * sizeof(double))),
                   probe.verified ? "ok" : "FAILED"});
  out << "Achievable bandwidth (copy/triad probe, best of " << probes.begin()->second.repetitions
      << ", same run):\n";
  table.print(out);
  out << '\n';
}

std::string percent_of_copy(double gb_per_s, const Probes& probes, const std::string& space) {
  const auto probe = probes.find(space);
  if (probe == probes.end() || probe->second.copy_gb_per_s <= 0) return "-";
  return fmt::format("{:.0f}%", 100.0 * gb_per_s / probe->second.copy_gb_per_s);
}

nlohmann::json probes_json(const Probes& probes) {
  nlohmann::json doc = nlohmann::json::object();
  for (const auto& [space, probe] : probes)
    doc[space] = {{"copy_gb_per_s", probe.copy_gb_per_s},
                  {"triad_gb_per_s", probe.triad_gb_per_s},
                  {"elements_per_array", probe.elements},
                  {"repetitions", probe.repetitions},
                  {"verified", probe.verified}};
  return doc;
}

bool all_verified(const Probes& probes) {
  return std::all_of(probes.begin(), probes.end(), [](const auto& p) { return p.second.verified; });
}

}  // namespace nbk
