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

// Host arrays of this many bytes or more are asked to sit on transparent huge pages.
inline constexpr std::uint64_t huge_page_threshold = std::uint64_t{4} << 20;

// madvise(MADV_HUGEPAGE) over the whole pages of [data, data + bytes), for host memory of at
// least huge_page_threshold bytes that nothing has touched yet (a fault in an advised range then
// maps 2 MiB at once); true when advised. Why: where the kernel's THP setting is "madvise" (Debian
// and Ubuntu's default, and this project's VM), only advised memory gets huge pages. NumPy
// advises every array of 4 MiB or more, Kokkos' HostSpace (malloc) does not: on the 2-core VM a
// one-thread c = a + b over three 64 MiB arrays took 11-15 ms on 4 KiB pages and 6.3 ms on huge
// pages (a TLB miss every 4 KiB, each a two-level page walk in a VM), and NumPy's 4.6 ms mat-add
// against our 4.7 ms was that difference. Linux only; elsewhere false and nothing done.
// The experiments' allocations (nbk::exp::allocate, host_array) call it for every host View.
bool advise_huge_pages(void* data, std::uint64_t bytes);

// Whether the mapping that holds `data` is advised to take huge pages (VmFlags "hg" in
// /proc/self/smaps); false where that cannot be read.
bool huge_pages_advised(const void* data);

}  // namespace nbk
