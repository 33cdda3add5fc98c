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
// Defined in probe_report.cpp, which is compiled for speed (the option parsing that calls it is
// compiled for size).
Probes probe_spaces(const std::set<std::string>& spaces, std::int64_t elements);

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
