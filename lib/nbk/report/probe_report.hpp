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
#include <vector>

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
// Each probe is marked probed_by `program`, now.
Probes probe_spaces(const std::set<std::string>& spaces, std::int64_t elements, const std::string& program = "");

// Prints the references, their spread and where they come from (this program, or a probe file).
void print_probe_table(std::ostream& out, const Probes& probes);

// ---- the probe file (--probes FILE): one run probes each space once, every program reads it ----

// How long a probe file's figures stand for this machine: a program finds them older (or the
// file made elsewhere, for another thread count or probe size) and probes again, then writes
// its own figures into the file for the programs after it. A run of the main job takes a few
// minutes (scripts/run-experiments.sh, .device/run.sh apps), well inside it.
inline constexpr double probe_file_valid_s = 15 * 60;

struct ProbeFile {
  std::string path;              // empty: no file given
  nlohmann::json document;       // its content; null when the file does not exist yet
};

// Checked before any work, as --json is: a name ending in ".json", a path this process can
// write (require_writable_json), and where the file exists, a probe file this code wrote.
// InputError (exit 2, one line naming --probes) otherwise.
ProbeFile open_probe_file(const std::string& path);

// The probes of `spaces` that `file` holds for this machine (host, CPU model, the space's
// concurrency, OMP_PROC_BIND and OMP_PLACES), at this probe size (`elements`, 0: each space's
// default), verified, and probed less than probe_file_valid_s ago; each other space named in
// `spaces` gets a line in `why_not` saying why it is probed again. Kokkos must be initialized.
Probes probes_from_file(const ProbeFile& file, const std::set<std::string>& spaces, std::int64_t elements,
                        std::vector<std::string>& why_not);

// Writes `probed` (this program's own probes) into `file` beside what it held: the programs
// after this one read them.
void save_probe_file(ProbeFile& file, const Probes& probed);

// How long the ceilings stand before a program measures them again (a run's probe file keeps the
// fastest of every measurement: nbk::keep_fastest): a shared machine's bandwidth moves within
// minutes, and a ceiling taken while it was slow does not bound a row run while it is fast.
inline constexpr double ceilings_fresh_s = 60;

// Which ceilings refresh_ceilings measures again, and how closely.
struct Refresh {
  double older_than_s = ceilings_fresh_s;  // those measured longer ago than this
  std::set<std::string> only;              // of these spaces (none named: every space)
  int memory_calls = 3;                    // timed calls a form at memory (a cache's: 40 or more)
};

// Measures again the ceilings and FMA probes of the spaces in `probes` that `refresh` names (three
// FMA runs), keeps the fastest of old and new, and writes them into `file` for the programs after
// this one.
void refresh_ceilings(Probes& probes, ProbeFile& file, std::int64_t elements, const Refresh& refresh = {});

// A probe as probes_json writes it, read back (the probe file, the tests).
ProbeResult probe_from_json(const nlohmann::json& doc);

// What a rate is compared with.
enum class Basis {
  kokkos_copy,  // the Kokkos copy probe of the space
  vendor_copy,  // the copy outside Kokkos (cudaMemcpy, std::memcpy)
  link,         // host<->device over pageable memory: reads go up, writes come back
  fma_peak,     // the FMA probe of the space in the precision of the kernel's flops
  in_place,     // the Kokkos in-place probe (b = b + 1): read and write one array
  dot,          // the Kokkos Dot probe: read-only
};

// The memory probe whose traffic fits a kernel's: in place for a kernel that updates its
// array (`in_place`), Dot for one that reads and writes (next to) nothing, copy otherwise.
Basis fitting_basis(const Traffic& traffic, bool in_place);
// "copy", "in place", "Dot": the name of a memory basis in tables (JSON: "copy", "in_place", "dot").
std::string basis_name(Basis basis);
std::string basis_key(Basis basis);
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
