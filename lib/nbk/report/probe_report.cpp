#include "nbk/report/probe_report.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <ostream>
#include <sstream>

#include "nbk/core/errors.hpp"
#include "nbk/core/region.hpp"
#include "nbk/report/ceiling_probe.hpp"
#include "nbk/report/hardware.hpp"
#include "nbk/report/json_file.hpp"
#include "nbk/report/run_context.hpp"
#include "nbk/report/table.hpp"

namespace nbk {

namespace {

double now_epoch_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string utc_text(double epoch_s) {
  const auto seconds = static_cast<std::time_t>(epoch_s);
  char when[64];
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&seconds));
  return when;
}

std::string host_name() {
  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  return host;
}

// What must agree for a probe to stand for a space of this process.
nlohmann::json machine_of(int concurrency, std::int64_t elements) {
  return {{"host_name", host_name()},       {"cpu_model", cpu_model()},
          {"concurrency", concurrency},     {"elements_per_array", elements},
          {"OMP_PROC_BIND", env_or_unset("OMP_PROC_BIND")}, {"OMP_PLACES", env_or_unset("OMP_PLACES")}};
}

constexpr const char* probe_file_format = "nbk probes 2";

// Memory's probe when no size is given: at least 64 MiB on a CPU (and twice its last cache,
// memory_levels.cpp), 1 GiB on a GPU (and twice its L2).
template <class Space>
constexpr std::uint64_t default_memory_probe_bytes() {
  return is_device_space_v<Space> ? std::uint64_t{1} << 30 : std::uint64_t{64} << 20;
}

// The levels of `exec` and their probes' working sets: the machine's, or with a probe size given
// (the tests' small runs), none larger than three arrays of that many doubles.
template <class Space>
std::vector<MemoryLevel> levels_of(const Space& exec, std::int64_t elements, const DevicePeaks& peaks) {
  const std::uint64_t memory = elements > 0 ? 3 * sizeof(double) * static_cast<std::uint64_t>(elements)
                                            : default_memory_probe_bytes<Space>();
  std::vector<MemoryLevel> levels = is_device_space_v<Space>
                                        ? device_memory_levels(peaks.l2_bytes, memory)
                                        : host_memory_levels(host_caches(), exec.concurrency(), memory);
  if (elements > 0)
    for (MemoryLevel& level : levels) level.probe_bytes = std::min(level.probe_bytes, memory);
  return levels;
}

template <class Space>
int device_of(const Space& exec) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>) return exec.cuda_device();
#endif
  (void)exec;
  return -1;
}

// The ceilings of `exec`, with a GPU's theoretical peaks: a memory ceiling above them is a probe
// that counts bytes it does not move, and fails the probe.
template <class Space>
Ceilings measure_ceilings(const Space& exec, std::int64_t elements, int memory_calls, bool sweep) {
  DevicePeaks peaks;
  if constexpr (is_device_space_v<Space>) peaks = device_peaks(device_of(exec));
  Ceilings c = probe_ceilings(exec, levels_of(exec, elements, peaks), memory_calls, sweep && elements == 0);
  c.measured_at_epoch_s = now_epoch_s();
  if constexpr (is_device_space_v<Space>) {
    if (peaks.memory_gb_per_s > 0)
      c.theoretical = TheoreticalPeaks{peaks.memory_gb_per_s, peaks.fp32_gflop_per_s, peaks.fp64_gflop_per_s, peaks.from};
    if (const std::string above = c.above_theoretical(); !above.empty()) {
      std::cerr << "probe: " << above << ": a probe that counts more bytes than it moves\n";
      c.verified = false;
    }
  }
  return c;
}

}  // namespace

Probes probe_spaces(const std::set<std::string>& spaces, std::int64_t elements, const std::string& program) {
  Probes probes;
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    const std::string name(space_name<Space>());
    if (!spaces.count(name)) return;
    const std::int64_t n = elements > 0 ? elements : default_probe_elements<Space>();
    if (is_device_space_v<Space> && !device_shortfall(3 * sizeof(double) * static_cast<std::uint64_t>(n)).empty())
      return;
    std::cerr << "probing " << name << " ...\n";
    const Region region("nbk::probe::" + name);  // the probes' kernels apart from the rows' (docs/profiling.md)
    ProbeResult& probe = probes[name] = probe_bandwidth(Space(), n);
    // A probe size given (the tests' small runs) scales the FMA probe down with it.
    const std::uint64_t flops = elements > 0 ? static_cast<std::uint64_t>(elements) << 7 : default_fma_flops<Space>();
    probe.fma_f32 = probe_fma<Space, float>(Space(), flops, probe.repetitions);
    probe.fma_f64 = probe_fma<Space, double>(Space(), flops, probe.repetitions);
    probe.ceilings = measure_ceilings(Space(), elements, 5, true);
    probe.chains = probe_chains(Space(), chain_links_for(elements));
    probe.verified = probe.verified && probe.fma_f32.verified && probe.fma_f64.verified && probe.ceilings.verified &&
                     (is_device_space_v<Space> || probe.chains.verified);
    probe.probed_by = program;
    probe.probed_at_epoch_s = now_epoch_s();
    probe.probed_at_utc = utc_text(probe.probed_at_epoch_s);
  });
  return probes;
}

void refresh_ceilings(Probes& probes, ProbeFile& file, std::int64_t elements, const Refresh& refresh) {
  Probes refreshed;
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    const std::string name(space_name<Space>());
    const auto found = probes.find(name);
    if (found == probes.end() || (!refresh.only.empty() && !refresh.only.count(name)) ||
        now_epoch_s() - found->second.ceilings.measured_at_epoch_s <= refresh.older_than_s)
      return;
    std::cerr << "probing " << found->first << "'s ceilings again ...\n";
    const Region region("nbk::probe::" + found->first);  // as probe_spaces' (docs/profiling.md)
    ProbeResult& kept = found->second;
    keep_fastest(kept.ceilings, measure_ceilings(Space(), elements, refresh.memory_calls, false));
    // The FMA probes too, with as few runs of a quarter of the flops: the fastest of old and new.
    const std::uint64_t flops = elements > 0 ? static_cast<std::uint64_t>(elements) << 7 : default_fma_flops<Space>() / 4;
    for (auto [fma, made] : {std::pair{&kept.fma_f32, probe_fma<Space, float>(Space(), flops, 3)},
                             std::pair{&kept.fma_f64, probe_fma<Space, double>(Space(), flops, 3)}})
      if (made.verified && made.gflop_per_s > fma->gflop_per_s) *fma = made;
    keep_fastest(kept.chains, probe_chains(Space(), chain_links_for(elements)));
    ProbeResult p = found->second;
    p.from_file.clear();  // written back as this program's
    refreshed[found->first] = p;
  });
  save_probe_file(file, refreshed);
}

ProbeFile open_probe_file(const std::string& path) {
  ProbeFile file;
  file.path = path;
  if (path.empty()) return file;
  const auto refuse = [&](const std::string& why) { throw InputError("--probes '" + path + "': " + why); };
  if (path.size() < 6 || path.compare(path.size() - 5, 5, ".json") != 0)
    refuse("a probe file's name ends in .json");
  require_writable_json(path, "--probes");
  std::ifstream in(path);
  if (!in) return file;  // not there yet: this program probes and writes it
  std::stringstream text;
  text << in.rdbuf();
  if (text.str().empty()) return file;  // as good as absent
  try {
    file.document = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::exception&) {
    refuse("not JSON (a probe file is written by the programs' --probes)");
  }
  if (!file.document.is_object() || file.document.value("format", "") != probe_file_format ||
      !file.document.contains("spaces") || !file.document["spaces"].is_object())
    refuse(std::string("not a probe file (no \"format\": \"") + probe_file_format + "\" and \"spaces\")");
  return file;
}

ProbeResult probe_from_json(const nlohmann::json& doc) {
  ProbeResult p;
  p.copy_gb_per_s = doc.value("copy_gb_per_s", 0.0);
  p.triad_gb_per_s = doc.value("triad_gb_per_s", 0.0);
  p.memcpy_gb_per_s = doc.value("memcpy_gb_per_s", 0.0);
  p.in_place_gb_per_s = doc.value("in_place_gb_per_s", 0.0);
  p.dot_gb_per_s = doc.value("dot_gb_per_s", 0.0);
  p.memcpy_name = doc.value("memcpy", "");
  p.elements = doc.value("elements_per_array", std::int64_t{0});
  p.repetitions = doc.value("repetitions", 0);
  p.fma_f32.gflop_per_s = doc.value("fma_f32_gflop_per_s", 0.0);
  p.fma_f64.gflop_per_s = doc.value("fma_f64_gflop_per_s", 0.0);
  if (const auto flops = doc.find("fma_flops_per_run"); flops != doc.end() && flops->is_object()) {
    p.fma_f32.flops = flops->value("f32", std::uint64_t{0});
    p.fma_f64.flops = flops->value("f64", std::uint64_t{0});
  }
  p.verified = doc.value("verified", false);
  p.fma_f32.verified = p.fma_f64.verified = p.verified;
  if (const auto chains = doc.find("chain_link_ns"); chains != doc.end() && chains->is_object())
    p.chains = {chains->value("add_f32", 0.0), chains->value("add_f64", 0.0), chains->value("multiply_f32", 0.0),
                chains->value("multiply_f64", 0.0), p.verified};
  if (const auto spread = doc.find("spread"); spread != doc.end() && spread->is_object())
    p.spread = {spread->value("copy", 0.0), spread->value("triad", 0.0), spread->value("memcpy", 0.0),
                spread->value("in_place", 0.0), spread->value("dot", 0.0)};
  p.concurrency = doc.value("concurrency", 0);
  if (const auto c = doc.find("ceilings"); c != doc.end()) p.ceilings = ceilings_from_json(*c);
  p.probed_by = doc.value("probed_by", "");
  p.probed_at_utc = doc.value("probed_at_utc", "");
  p.probed_at_epoch_s = doc.value("probed_at_epoch_s", 0.0);
  if (const auto link = doc.find("link"); link != doc.end() && link->is_object())
    p.link = LinkBandwidth{link->value("bytes", std::uint64_t{0}), link->value("h2d_pageable_gb_per_s", 0.0),
                           link->value("h2d_pinned_gb_per_s", 0.0), link->value("d2h_pageable_gb_per_s", 0.0),
                           link->value("d2h_pinned_gb_per_s", 0.0)};
  return p;
}

Probes probes_from_file(const ProbeFile& file, const std::set<std::string>& spaces, std::int64_t elements,
                        std::vector<std::string>& why_not) {
  Probes found;
  if (file.path.empty()) return found;
  const double now = now_epoch_s();
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    const std::string name(space_name<Space>());
    if (!spaces.count(name)) return;
    const std::int64_t n = elements > 0 ? elements : default_probe_elements<Space>();
    const nlohmann::json* entry = nullptr;
    if (!file.document.is_null()) {
      const auto& all = file.document["spaces"];
      if (const auto at = all.find(name); at != all.end() && at->is_object()) entry = &*at;
    }
    std::string why;
    if (!entry) {
      why = file.document.is_null() ? "the file is new" : "not in the file";
    } else if (entry->value("machine", nlohmann::json::object()) != machine_of(Space().concurrency(), n)) {
      why = "the file's was probed on another machine, thread count, binding or probe size";
    } else if (!entry->value("verified", false)) {
      why = "the file's failed its checks";
    } else if (!entry->contains("ceilings")) {
      why = "the file's has no ceilings";
    } else if (!is_device_space_v<Space> && !entry->contains("chain_link_ns")) {
      why = "the file's has no chain probe";
    } else {
      const double age = now - entry->value("probed_at_epoch_s", 0.0);
      if (!(age >= -60 && age <= probe_file_valid_s))
        why = fmt::format("the file's is {:.0f} s old, past the {:.0f} s a probe stands for", age, probe_file_valid_s);
    }
    if (!why.empty()) {
      why_not.push_back(name + ": " + why);
      return;
    }
    ProbeResult p = probe_from_json(*entry);
    p.from_file = file.path;
    found[name] = p;
  });
  return found;
}

void save_probe_file(ProbeFile& file, const Probes& probed) {
  if (file.path.empty() || probed.empty()) return;
  if (file.document.is_null())
    file.document = {{"format", probe_file_format},
                     {"valid_for_s", probe_file_valid_s},
                     {"note", "the programs' references (--probes): each space probed once and read by the programs "
                              "after it, on this machine, for valid_for_s seconds"},
                     {"spaces", nlohmann::json::object()}};
  const nlohmann::json docs = probes_json(probed);
  for (const auto& [space, probe] : probed) {
    if (!probe.from_file.empty()) continue;  // read from this file: nothing new
    nlohmann::json entry = docs[space];
    entry.erase("source");
    entry["machine"] = machine_of(probe.concurrency, probe.elements);
    file.document["spaces"][space] = entry;
  }
  write_json_file(file.path, file.document, "--probes");
}

namespace {
std::string percent(double fraction) { return fmt::format("{:.0f}%", 100.0 * fraction); }
std::string rate(double gb_per_s) { return gb_per_s > 0 ? fmt::format("{:.1f}", gb_per_s) : "-"; }

// Where a space's figures come from, in words.
std::string source_text(const ProbeResult& p) {
  if (p.from_file.empty())
    return "probed by this program" + (p.probed_at_utc.empty() ? std::string() : " at " + p.probed_at_utc);
  return fmt::format("from {}, probed at {} by {} (a probe file's figures stand for {:.0f} s)", p.from_file,
                     p.probed_at_utc.empty() ? "an unknown time" : p.probed_at_utc,
                     p.probed_by.empty() ? "a program" : p.probed_by, probe_file_valid_s);
}
}  // namespace

namespace {
// The ceilings every row is judged by, a line per space and level, and each space's sweep.
void print_ceilings(std::ostream& out, const Probes& probes) {
  Table table({"space", "level", "holds", "probed with", "read-only", "in place", "1 read 1 write",
               "2 reads 1 write", "1 read 1 write, streaming", "2 reads 1 write, streaming", "check"});
  bool any = false;
  for (const auto& [space, probe] : probes)
    for (const LevelCeilings& level : probe.ceilings.levels) {
      std::vector<std::string> row = {space, level.level.name,
                                      level.level.capacity ? format_bytes(level.level.capacity) : "-",
                                      format_bytes(level.level.probe_bytes)};
      for (const TrafficKind kind : traffic_kinds) {
        const auto found = level.kinds.find(kind);
        row.push_back(found == level.kinds.end() ? "-" : rate(found->second.gb_per_s));
      }
      row.push_back(probe.ceilings.verified ? "ok" : "FAILED");
      table.add_row(row);
      any = true;
    }
  if (!any) return;
  out << "Ceilings: GB/s as the memory moves them (a store's read of its line counted on a CPU), the best of each "
         "kind's forms, best of its calls; a row is judged at the level its working set fits in:\n";
  table.print(out);
  for (const auto& [space, probe] : probes) {
    if (probe.ceilings.theoretical)
      out << fmt::format("  {}: theoretical {:.0f} GB/s memory, {:.0f} GFLOP/s FP32 ({})\n", space,
                         probe.ceilings.theoretical->memory_gb_per_s, probe.ceilings.theoretical->fp32_gflop_per_s,
                         probe.ceilings.theoretical->from);
    if (probe.ceilings.sweep.empty()) continue;
    std::string line;
    for (const SweepRate& s : probe.ceilings.sweep)
      line += fmt::format("{}{} {:.0f}", line.empty() ? "" : ", ", format_bytes(s.bytes), s.gb_per_s);
    out << "  " << space << " sweep, a copy at each working set (GB/s moved): " << line << "\n";
  }
}
}  // namespace

void print_probe_table(std::ostream& out, const Probes& probes) {
  if (probes.empty()) return;
  Table table({"space", "Kokkos copy GB/s", "Kokkos triad GB/s", "outside Kokkos: copy GB/s", "by", "arrays",
               "FMA f32 GFLOP/s", "FMA f64 GFLOP/s", "check", "in place GB/s", "Dot GB/s"});
  bool any_link = false;
  for (const auto& [space, probe] : probes) {
    table.add_row({space, fmt::format("{:.1f}", probe.copy_gb_per_s), fmt::format("{:.1f}", probe.triad_gb_per_s),
                   fmt::format("{:.1f}", probe.memcpy_gb_per_s), probe.memcpy_name,
                   fmt::format("3 x {}", format_bytes(static_cast<std::uint64_t>(probe.elements) * sizeof(double))),
                   fmt::format("{:.1f}", probe.fma_f32.gflop_per_s), fmt::format("{:.1f}", probe.fma_f64.gflop_per_s),
                   probe.verified ? "ok" : "FAILED", rate(probe.in_place_gb_per_s), rate(probe.dot_gb_per_s)});
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
  print_ceilings(out, probes);
  out << "FMA: independent chains of x = x * a + b in registers, 2 flops each: the space's arithmetic limit.\n";
  for (const auto& [space, p] : probes)
    if (p.chains.measured())
      out << fmt::format("  {}: a dependent chain a thread (an in-order reduction's limit), ns a link: add f32 {:.2f}, "
                         "f64 {:.2f}; multiply f32 {:.2f}, f64 {:.2f}\n",
                         space, p.chains.add_f32_ns, p.chains.add_f64_ns, p.chains.multiply_f32_ns,
                         p.chains.multiply_f64_ns);
  out << "In place: b = b + 1, one array read and written (add-one's traffic); Dot: sum of a * c, two arrays read "
         "(a reduction's). Every figure is the best run; spread, the median run's time over the best's, minus 1:\n";
  for (const auto& [space, p] : probes)
    out << fmt::format("  {}: copy {}, triad {}, outside Kokkos {}, in place {}, Dot {}\n", space,
                       percent(p.spread.copy), percent(p.spread.triad), percent(p.spread.memcpy),
                       percent(p.spread.in_place), percent(p.spread.dot));
  // One line per source: "serial, openmp: probed by this program at ...".
  std::vector<std::pair<std::string, std::string>> sources;
  for (const auto& [space, p] : probes) {
    const std::string text = source_text(p);
    auto same = std::find_if(sources.begin(), sources.end(), [&](const auto& s) { return s.second == text; });
    if (same == sources.end())
      sources.emplace_back(space, text);
    else
      same->first += ", " + space;
  }
  for (const auto& [spaces, text] : sources) out << "Source: " << spaces << ": " << text << ".\n";
  out << "\n";
}

Basis fitting_basis(const Traffic& traffic, bool in_place) {
  if (in_place) return Basis::in_place;
  // Writes that do not scale with the reads (a sum, a row's sum): a reduction, read-only.
  if (traffic.bytes_read > 0 && traffic.bytes_written * 16 <= traffic.bytes_read) return Basis::dot;
  return Basis::kokkos_copy;
}

std::string basis_name(Basis basis) {
  switch (basis) {
    case Basis::in_place: return "in place";
    case Basis::dot: return "Dot";
    case Basis::kokkos_copy: return "copy";
    case Basis::vendor_copy: return "memcpy";
    case Basis::link: return "link";
    case Basis::fma_peak: return "FMA";
  }
  return "";
}

std::string basis_key(Basis basis) {
  std::string key = basis_name(basis);
  std::transform(key.begin(), key.end(), key.begin(), [](char c) { return c == ' ' ? '_' : static_cast<char>(std::tolower(c)); });
  return key;
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
    case Basis::in_place:
      return p.in_place_gb_per_s > 0 ? traffic.gb_per_s(seconds) / p.in_place_gb_per_s : std::optional<double>{};
    case Basis::dot:
      return p.dot_gb_per_s > 0 ? traffic.gb_per_s(seconds) / p.dot_gb_per_s : std::optional<double>{};
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
                  {"verified", probe.verified},
                  {"in_place_gb_per_s", probe.in_place_gb_per_s},
                  {"dot_gb_per_s", probe.dot_gb_per_s},
                  {"spread",
                   {{"copy", probe.spread.copy},
                    {"triad", probe.spread.triad},
                    {"memcpy", probe.spread.memcpy},
                    {"in_place", probe.spread.in_place},
                    {"dot", probe.spread.dot}}},
                  {"spread_is", "median time / best time - 1 of the timed runs"},
                  {"concurrency", probe.concurrency},
                  {"ceilings", to_json(probe.ceilings)},
                  {"probed_by", probe.probed_by},
                  {"probed_at_utc", probe.probed_at_utc},
                  {"probed_at_epoch_s", probe.probed_at_epoch_s},
                  {"source", source_text(probe)}};
    if (!probe.from_file.empty()) doc[space]["from_file"] = probe.from_file;
    if (probe.chains.measured())
      doc[space]["chain_link_ns"] = {{"add_f32", probe.chains.add_f32_ns},
                                     {"add_f64", probe.chains.add_f64_ns},
                                     {"multiply_f32", probe.chains.multiply_f32_ns},
                                     {"multiply_f64", probe.chains.multiply_f64_ns}};
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
