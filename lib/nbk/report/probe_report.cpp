#include "nbk/report/probe_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "nbk/report/table.hpp"

namespace nbk {

Probes probe_spaces(const std::set<std::string>& spaces, std::int64_t elements) {
  Probes probes;
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    const std::string name(space_name<Space>());
    if (!spaces.count(name)) return;
    const std::int64_t n = elements > 0 ? elements : default_probe_elements<Space>();
    if (is_device_space_v<Space> && !device_shortfall(3 * sizeof(double) * static_cast<std::uint64_t>(n)).empty())
      return;
    std::cerr << "probing " << name << " ...\n";
    ProbeResult& probe = probes[name] = probe_bandwidth(Space(), n);
    // A probe size given (the tests' small runs) scales the FMA probe down with it.
    const std::uint64_t flops = elements > 0 ? static_cast<std::uint64_t>(elements) << 7 : default_fma_flops<Space>();
    probe.fma_f32 = probe_fma<Space, float>(Space(), flops, probe.repetitions);
    probe.fma_f64 = probe_fma<Space, double>(Space(), flops, probe.repetitions);
    probe.verified = probe.verified && probe.fma_f32.verified && probe.fma_f64.verified;
  });
  return probes;
}

void print_probe_table(std::ostream& out, const Probes& probes) {
  if (probes.empty()) return;
  Table table({"space", "Kokkos copy GB/s", "Kokkos triad GB/s", "outside Kokkos: copy GB/s", "by", "arrays",
               "FMA f32 GFLOP/s", "FMA f64 GFLOP/s", "check"});
  bool any_link = false;
  for (const auto& [space, probe] : probes) {
    table.add_row({space, fmt::format("{:.1f}", probe.copy_gb_per_s), fmt::format("{:.1f}", probe.triad_gb_per_s),
                   fmt::format("{:.1f}", probe.memcpy_gb_per_s), probe.memcpy_name,
                   fmt::format("3 x {}", format_bytes(static_cast<std::uint64_t>(probe.elements) * sizeof(double))),
                   fmt::format("{:.1f}", probe.fma_f32.gflop_per_s), fmt::format("{:.1f}", probe.fma_f64.gflop_per_s),
                   probe.verified ? "ok" : "FAILED"});
    any_link = any_link || probe.link.has_value();
  }
  out << "References (best of " << probes.begin()->second.repetitions << ", this run):\n";
  table.print(out);
  if (any_link) {
    Table link({"space", "host->device pageable", "pinned", "device->host pageable", "pinned", "buffer"});
    for (const auto& [space, probe] : probes)
      if (probe.link)
        link.add_row({space, fmt::format("{:.1f} GB/s", probe.link->h2d_pageable),
                      fmt::format("{:.1f} GB/s", probe.link->h2d_pinned),
                      fmt::format("{:.1f} GB/s", probe.link->d2h_pageable),
                      fmt::format("{:.1f} GB/s", probe.link->d2h_pinned), format_bytes(probe.link->bytes)});
    out << "Host<->device link (cudaMemcpy, best of " << probes.begin()->second.repetitions << "):\n";
    link.print(out);
  }
  out << "FMA: independent chains of x = x * a + b in registers, 2 flops each: the space's arithmetic limit.\n\n";
}

std::optional<double> fraction_of(Basis basis, const Traffic& traffic, double seconds, const Probes& probes,
                                  const std::string& space) {
  const auto probe = probes.find(space);
  if (probe == probes.end() || seconds <= 0) return std::nullopt;
  const ProbeResult& p = probe->second;
  if (basis == Basis::fma_peak) {
    const FmaThroughput& peak = traffic.flop_bytes == sizeof(double) ? p.fma_f64 : p.fma_f32;
    if (traffic.flops == 0 || traffic.flop_bytes == 0 || peak.gflop_per_s <= 0) return std::nullopt;
    return traffic.gflop_per_s(seconds) / peak.gflop_per_s;
  }
  if (traffic.total() == 0) return std::nullopt;  // no bytes: no fraction
  switch (basis) {
    case Basis::fma_peak:
      return std::nullopt;  // above
    case Basis::kokkos_copy:
      return p.copy_gb_per_s > 0 ? traffic.gb_per_s(seconds) / p.copy_gb_per_s : std::optional<double>{};
    case Basis::vendor_copy:
      return p.memcpy_gb_per_s > 0 ? traffic.gb_per_s(seconds) / p.memcpy_gb_per_s : std::optional<double>{};
    case Basis::link: {
      if (!p.link || p.link->h2d_pageable <= 0 || p.link->d2h_pageable <= 0) return std::nullopt;
      // The time the link needs for the reads to go up and the writes to come back.
      const double bound = static_cast<double>(traffic.bytes_read) * 1e-9 / p.link->h2d_pageable +
                           static_cast<double>(traffic.bytes_written) * 1e-9 / p.link->d2h_pageable;
      return bound / seconds;
    }
  }
  return std::nullopt;
}

std::string percent_of(Basis basis, const Traffic& traffic, double seconds, const Probes& probes,
                       const std::string& space) {
  const auto f = fraction_of(basis, traffic, seconds, probes, space);
  return f ? fmt::format("{:.0f}%", 100.0 * *f) : "-";
}

nlohmann::json probes_json(const Probes& probes) {
  nlohmann::json doc = nlohmann::json::object();
  for (const auto& [space, probe] : probes) {
    doc[space] = {{"copy_gb_per_s", probe.copy_gb_per_s},
                  {"triad_gb_per_s", probe.triad_gb_per_s},
                  {"memcpy_gb_per_s", probe.memcpy_gb_per_s},
                  {"memcpy", probe.memcpy_name},
                  {"elements_per_array", probe.elements},
                  {"repetitions", probe.repetitions},
                  {"fma_f32_gflop_per_s", probe.fma_f32.gflop_per_s},
                  {"fma_f64_gflop_per_s", probe.fma_f64.gflop_per_s},
                  {"fma_flops_per_run", {{"f32", probe.fma_f32.flops}, {"f64", probe.fma_f64.flops}}},
                  {"verified", probe.verified}};
    if (probe.link)
      doc[space]["link"] = {{"bytes", probe.link->bytes},
                            {"h2d_pageable_gb_per_s", probe.link->h2d_pageable},
                            {"h2d_pinned_gb_per_s", probe.link->h2d_pinned},
                            {"d2h_pageable_gb_per_s", probe.link->d2h_pageable},
                            {"d2h_pinned_gb_per_s", probe.link->d2h_pinned}};
  }
  return doc;
}

bool all_verified(const Probes& probes) {
  return std::all_of(probes.begin(), probes.end(), [](const auto& p) { return p.second.verified; });
}

}  // namespace nbk
