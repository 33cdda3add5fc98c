#include "nbk/report/app_options.hpp"

#include <algorithm>

#include "nbk/core/cli.hpp"
#include "nbk/report/hardware.hpp"
#include "nbk/core/errors.hpp"
#include "nbk/core/memory.hpp"

namespace nbk {

namespace {
constexpr std::int64_t default_cpu_probe_elements = std::int64_t{1} << 25;  // as stream_probe.hpp
constexpr std::int64_t max_repetitions = 1000;
}  // namespace

void add_probe_size_option(CLI::App& app, std::string& text) {
  app.add_option("--probe-size", text, "doubles per array of the bandwidth probe (default 2^25 on a CPU, 2^27 on a GPU); "
                 "a size given also scales the FMA probe to 2^7 flops per double");
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

bool device_usable() { return cuda_unusable_reason().empty(); }

void require_usable_device() {
  if (const std::string why = cuda_unusable_reason(); !why.empty())
    throw InputError("this build enables CUDA but no device is usable (" + why +
                     "); run it on a machine with a GPU, or use the openmp preset");
}

}  // namespace nbk
