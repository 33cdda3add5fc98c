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

// A CUDA-enabled Kokkos aborts in Kokkos::initialize when no device is usable; this asks the
// CUDA runtime first and refuses with the reason (and the preset to use instead). No-op in
// a build without CUDA.
void require_usable_device();
// False only in a CUDA build without a usable device (Kokkos could not initialize).
bool device_usable();

}  // namespace nbk
