#include "nbk/app_options.hpp"

#include <algorithm>
#include <fstream>

#include "nbk/cli.hpp"
#include "nbk/device_info.hpp"
#include "nbk/errors.hpp"
#include "nbk/memory.hpp"

namespace nbk {

namespace {
constexpr std::int64_t default_cpu_probe_elements = std::int64_t{1} << 25;  // as stream_probe.hpp
constexpr std::int64_t max_repetitions = 1000;
}  // namespace

void add_probe_size_option(CLI::App& app, std::string& text) {
  app.add_option("--probe-size", text, "doubles per array of the bandwidth probe (default 2^25 on a CPU, 2^27 on a GPU)");
}

std::int64_t parse_probe_size(const std::string& text) {
  if (text.empty()) return 0;
  const std::int64_t elements = parse_count(text, "--probe-size");
  require_host_memory(checked_bytes(elements, 3 * sizeof(double), "--probe-size " + text),
                      "--probe-size " + text + " (3 arrays of double)");
  return elements;
}

std::uint64_t probe_host_bytes(std::int64_t elements) {
  return 3 * sizeof(double) * static_cast<std::uint64_t>(elements > 0 ? elements : default_cpu_probe_elements);
}

int parse_repetitions(const std::string& text) {
  const std::int64_t repetitions = parse_count(text, "--repetitions");
  if (repetitions > max_repetitions)
    throw InputError("--repetitions '" + text + "' is too large (at most " + std::to_string(max_repetitions) + ")");
  return static_cast<int>(repetitions);
}

void require_writable(const std::string& json_path) {
  if (!json_path.empty() && !std::ofstream(json_path, std::ios::app))
    throw InputError("cannot write JSON file '" + json_path + "'");
}

void SampleOptions::add_to(CLI::App& app, const std::string& default_size, const std::string& size_help) {
  size_text_ = default_size;
  app.add_option("--size", size_text_, "samples (digits or 2^K); " + size_help)->capture_default_str();
  app.add_option("--seed", seed_text_, "seed of the generator")->capture_default_str();
  app.add_option("--repetitions", repetitions_text_, "timed calls (per variant) after one warm-up")
      ->capture_default_str();
  add_probe_size_option(app, probe_text_);
  app.add_option("--json", json_path, "also write the results as JSON to this file");
}

void SampleOptions::parse(std::uint64_t sample_bytes, const std::string& type_name) {
  n = parse_count(size_text_, "--size");
  seed = parse_seed(seed_text_, "--seed");
  repetitions = parse_repetitions(repetitions_text_);
  probe_elements = parse_probe_size(probe_text_);
  const auto two_copies = checked_bytes(n, 2 * sample_bytes, "--size " + size_text_);
  require_host_memory(std::max(two_copies, two_copies / 2 + probe_host_bytes(probe_elements)),
                      "--size " + size_text_ + " (" + type_name + ")");
  require_writable(json_path);
}

void require_usable_device() {
  const CudaReport cuda = cuda_report();
  if (cuda.in_build && cuda.devices.empty())
    throw InputError("this build enables CUDA but no device is usable (" + cuda.error +
                     "); run it on a machine with a GPU, or use the openmp preset");
}

}  // namespace nbk
