#include "nbk/core/memory.hpp"

#include <Kokkos_Macros.hpp>
#include <unistd.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

#include "nbk/core/errors.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace nbk {

MemoryStatus host_memory() {
  MemoryStatus status;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemTotal:") status.total = kib * 1024;
    if (key == "MemAvailable:") status.available = kib * 1024;
  }
  if (status.total == 0) {
    const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
    status.total = page * static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES));
    status.available = page * static_cast<std::uint64_t>(sysconf(_SC_AVPHYS_PAGES));
  }
  return status;
}

std::optional<MemoryStatus> device_memory() {
#if defined(KOKKOS_ENABLE_CUDA)
  std::size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) return std::nullopt;
  return MemoryStatus{total_bytes, free_bytes};
#else
  return std::nullopt;
#endif
}

std::string format_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 6) {
    value /= 1024.0;
    ++unit;
  }
  char text[32];
  if (unit == 0)
    std::snprintf(text, sizeof text, "%llu B", static_cast<unsigned long long>(bytes));
  else
    std::snprintf(text, sizeof text, "%.2f %s", value, units[unit]);
  return text;
}

std::uint64_t checked_bytes(std::int64_t count, std::uint64_t element_bytes, const std::string& what) {
  if (count < 0) throw InputError(what + " is negative");
  const auto n = static_cast<std::uint64_t>(count);
  if (element_bytes != 0 && n > std::numeric_limits<std::uint64_t>::max() / element_bytes)
    throw InputError(what + " needs more than 2^64 bytes");
  return n * element_bytes;
}

std::string host_shortfall(std::uint64_t bytes) {
  const MemoryStatus host = host_memory();
  if (bytes <= host.available) return {};
  return "needs " + format_bytes(bytes) + " of host memory, " + format_bytes(host.available) +
         " available (of " + format_bytes(host.total) + ")";
}

std::string device_shortfall(std::uint64_t bytes) {
  const auto device = device_memory();
  if (!device) return {};
  if (bytes <= device->available) return {};
  return "needs " + format_bytes(bytes) + " of device memory, " + format_bytes(device->available) +
         " free (of " + format_bytes(device->total) + ")";
}

void require_host_memory(std::uint64_t bytes, const std::string& what) {
  if (auto why = host_shortfall(bytes); !why.empty()) throw InputError(what + " " + why);
}

bool advise_huge_pages(void* data, std::uint64_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (data == nullptr || bytes < huge_page_threshold) return false;
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto address = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t begin = (address + page - 1) / page * page, end = (address + bytes) / page * page;
  if (end <= begin) return false;
  return madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE) == 0;
#else
  (void)data;
  (void)bytes;
  return false;
#endif
}

bool huge_pages_advised(const void* data) {
  // smaps: a header "start-end perms offset dev inode path" for each mapping, then its fields,
  // the last of them "VmFlags: rd wr mr mw me ac hg ...".
  std::ifstream smaps("/proc/self/smaps");
  const auto address = reinterpret_cast<std::uintptr_t>(data);
  bool inside = false;
  std::string line;
  while (std::getline(smaps, line)) {
    unsigned long long start = 0, end = 0;
    char dash = 0;
    std::istringstream fields(line);
    if (line.rfind("VmFlags:", 0) == 0) {
      if (!inside) continue;
      std::string flag;
      while (fields >> flag)
        if (flag == "hg") return true;
      return false;
    }
    if (fields >> std::hex >> start >> dash >> end && dash == '-' && fields.peek() == ' ')
      inside = start <= address && address < end;
  }
  return false;
}

void require_device_memory(std::uint64_t bytes, const std::string& what) {
  if (auto why = device_shortfall(bytes); !why.empty()) throw InputError(what + " " + why);
}

}  // namespace nbk
