#pragma once
// Options several programs share, parsed and checked the same way everywhere
// (host code only; errors are InputError, exit code 2).
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace nbk {

// Adds --probe-size, the doubles per array of the bandwidth probe.
void add_probe_size_option(CLI::App& app, std::string& text);
// Elements per probe array; 0 (each space's default) when `text` is empty. Refuses a size
// whose three arrays cannot fit in host memory.
std::int64_t parse_probe_size(const std::string& text);
// Host bytes the probe needs for `elements` per array (0: the CPU default).
std::uint64_t probe_host_bytes(std::int64_t elements);

// Timed calls after the warm-up: 1 to 1000.
int parse_repetitions(const std::string& text);

// Refuses a --json path that cannot be written, before any work is done.
void require_writable(const std::string& json_path);

// The options of the programs that time reductions over generated samples (nbk-sum,
// nbk-product): --size, --seed, --repetitions, --probe-size and --json.
struct SampleOptions {
  std::int64_t n = 0;
  std::uint64_t seed = 0;
  int repetitions = 0;
  std::int64_t probe_elements = 0;  // 0: the probe's default for each space
  std::string json_path;

  // Registers the five options; `default_size` is the document's size, described by `size_help`.
  void add_to(CLI::App& app, const std::string& default_size, const std::string& size_help);
  // Parses and checks them (InputError otherwise). The host holds the samples and, at a time,
  // one copy of them per CPU space or the probe's arrays: a size for which that cannot fit
  // is refused, naming `type_name` ("float32").
  void parse(std::uint64_t sample_bytes, const std::string& type_name);

 private:
  std::string size_text_, seed_text_ = "1", repetitions_text_ = "5", probe_text_;
};

// A CUDA-enabled Kokkos aborts in Kokkos::initialize when no device is usable; this asks the
// CUDA runtime first and refuses with the reason (and the preset to use instead). No-op in
// a build without CUDA.
void require_usable_device();

}  // namespace nbk
