#pragma once
// How much memory the host and the device have free, and the checks every program makes
// before it allocates: a size that cannot fit is refused with a message naming the size
// and what is free, instead of an allocation failure or the OOM killer.
#include <cstdint>
#include <optional>
#include <string>

namespace nbk {

struct MemoryStatus {
  std::uint64_t total = 0;
  std::uint64_t available = 0;
};

// MemTotal and MemAvailable from /proc/meminfo (sysconf as a fallback).
MemoryStatus host_memory();
// cudaMemGetInfo on the current device; nullopt in a build without CUDA.
std::optional<MemoryStatus> device_memory();

// "8.00 GiB", "512 B": binary units for capacities.
std::string format_bytes(std::uint64_t bytes);

// count * element_bytes, or an InputError when the product overflows 64 bits.
std::uint64_t checked_bytes(std::int64_t count, std::uint64_t element_bytes, const std::string& what);

// Throws InputError when `bytes` exceed what is available on the host (or device), naming
// `what` (e.g. "--size 99999999999999 (int32)").
void require_host_memory(std::uint64_t bytes, const std::string& what);
void require_device_memory(std::uint64_t bytes, const std::string& what);

// The same tests without throwing: an empty string when it fits, else the reason.
std::string host_shortfall(std::uint64_t bytes);
std::string device_shortfall(std::uint64_t bytes);

}  // namespace nbk
