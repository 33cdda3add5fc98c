#pragma once
// Running the references on the spaces a program uses, and reporting them: the denominators
// of every "% of" figure.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <iosfwd>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "nbk/core/memory.hpp"
#include "nbk/core/spaces.hpp"
#include "nbk/core/traffic.hpp"
#include "nbk/report/stream_probe.hpp"

namespace nbk {

using Probes = std::map<std::string, ProbeResult>;  // by space name

// Probes every enabled space named in `spaces`, with `elements` doubles per array (0: each
// space's default). A device too full for the probe is left out (its figures show "-").
inline Probes probe_spaces(const std::set<std::string>& spaces, std::int64_t elements) {
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

void print_probe_table(std::ostream& out, const Probes& probes);

// What a rate is compared with.
enum class Basis {
  kokkos_copy,  // the Kokkos copy probe of the space
  vendor_copy,  // the copy outside Kokkos (cudaMemcpy, std::memcpy)
  link,         // host<->device over pageable memory: reads go up, writes come back
  fma_peak,     // the FMA probe of the space in the precision of the kernel's flops
};
// "57%" of the basis for `traffic` done in `seconds` on `space`, or "-" when that was not
// measured.
std::string percent_of(Basis basis, const Traffic& traffic, double seconds, const Probes& probes,
                       const std::string& space);
// The same as a fraction, or nothing when that was not measured.
std::optional<double> fraction_of(Basis basis, const Traffic& traffic, double seconds, const Probes& probes,
                                  const std::string& space);

nlohmann::json probes_json(const Probes& probes);
bool all_verified(const Probes& probes);

}  // namespace nbk
