#pragma once
// Running the bandwidth probe on the spaces a program uses, and reporting it: the
// denominator of every "% of copy" figure.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <iosfwd>
#include <iostream>
#include <map>
#include <string>

#include "nbk/memory.hpp"
#include "nbk/spaces.hpp"
#include "nbk/stream_probe.hpp"

namespace nbk {

using Probes = std::map<std::string, ProbeResult>;  // by space name

// Probes every enabled space whose name `wanted` accepts, with `elements` doubles per array
// (0: each space's default). A device too full for the probe is left out (its figures then
// show "-").
template <class Wanted>
Probes probe_spaces(Wanted&& wanted, std::int64_t elements) {
  Probes probes;
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    const std::string name(space_name<Space>());
    if (!wanted(name)) return;
    const std::int64_t n = elements > 0 ? elements : default_probe_elements<Space>();
    if (is_device_space_v<Space> && !device_shortfall(3 * sizeof(double) * static_cast<std::uint64_t>(n)).empty())
      return;
    std::cerr << "probing " << name << " ...\n";
    probes[name] = probe_bandwidth(Space(), n);
  });
  return probes;
}

void print_probe_table(std::ostream& out, const Probes& probes);
// "57%" of the copy probe of `space`, or "-" when that space was not probed.
std::string percent_of_copy(double gb_per_s, const Probes& probes, const std::string& space);
nlohmann::json probes_json(const Probes& probes);
bool all_verified(const Probes& probes);

}  // namespace nbk
