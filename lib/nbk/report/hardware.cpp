#include "nbk/report/hardware.hpp"

#include <Kokkos_Core.hpp>
#include <fmt/format.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <utility>
#include <vector>

#include "nbk/core/memory.hpp"
#include "nbk/report/run_context.hpp"

#if defined(KOKKOS_ENABLE_OPENMP)
#include <omp.h>
#endif
#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace nbk {

namespace {

// Sockets and physical cores from the "physical id" and "core id" lines of /proc/cpuinfo.
std::pair<int, int> sockets_and_cores() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, physical;
  std::set<std::string> sockets;
  std::set<std::pair<std::string, std::string>> cores;
  while (std::getline(cpuinfo, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.pop_back();
    const std::string value = colon + 2 <= line.size() ? line.substr(colon + 2) : std::string();
    if (key == "physical id") {
      physical = value;
      sockets.insert(value);
    } else if (key == "core id") {
      cores.insert({physical, value});
    }
  }
  return {static_cast<int>(sockets.size()), static_cast<int>(cores.size())};
}

// CPUs the process may run on. With OpenMP binding on, the calling thread's own mask has
// already shrunk to its place, so the union of all places is the answer.
int usable_cpus() {
#if defined(KOKKOS_ENABLE_OPENMP)
  if (const int places = omp_get_num_places(); places > 0) {
    std::set<int> cpus;
    for (int p = 0; p < places; ++p) {
      std::vector<int> ids(static_cast<std::size_t>(omp_get_place_num_procs(p)));
      omp_get_place_proc_ids(p, ids.data());
      cpus.insert(ids.begin(), ids.end());
    }
    return static_cast<int>(cpus.size());
  }
#endif
  cpu_set_t mask;
  return sched_getaffinity(0, sizeof mask, &mask) == 0 ? CPU_COUNT(&mask) : 0;
}

#if defined(KOKKOS_ENABLE_OPENMP)
std::string proc_bind_name(omp_proc_bind_t bind) {
  switch (bind) {
    case omp_proc_bind_false: return "false";
    case omp_proc_bind_true: return "true";
    case omp_proc_bind_master: return "master/primary";
    case omp_proc_bind_close: return "close";
    case omp_proc_bind_spread: return "spread";
  }
  return "unknown (" + std::to_string(static_cast<int>(bind)) + ")";
}
#endif

#if defined(KOKKOS_ENABLE_CUDA)
// One attribute of `device`, 0 where the runtime does not answer (its error cleared).
int device_attribute(int device, cudaDeviceAttr which) {
  int value = 0;
  if (cudaDeviceGetAttribute(&value, which, device) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return value;
}
#endif

}  // namespace

HostInfo host_info(bool kokkos_initialized) {
  HostInfo host;
  host.cpu_model = cpu_model();
  std::tie(host.sockets, host.physical_cores) = sockets_and_cores();
  host.hardware_threads = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  host.affinity_cpus = usable_cpus();
  host.env_proc_bind = env_or_unset("OMP_PROC_BIND");
  host.env_places = env_or_unset("OMP_PLACES");
  host.env_num_threads = env_or_unset("OMP_NUM_THREADS");
  const MemoryStatus memory = host_memory();
  host.memory_total = memory.total;
  host.memory_available = memory.available;
#if defined(KOKKOS_ENABLE_OPENMP)
  host.openmp_in_build = true;
  host.openmp_threads = kokkos_initialized ? Kokkos::OpenMP().concurrency() : omp_get_max_threads();
  host.openmp_proc_bind = proc_bind_name(omp_get_proc_bind());
  host.openmp_places = omp_get_num_places();
  // Where the threads actually run: one parallel region of the pool's size.
  host.thread_cpus.assign(host.openmp_threads, -1);
  std::vector<int>& cpus = host.thread_cpus;
#pragma omp parallel num_threads(host.openmp_threads)
  {
    const int t = omp_get_thread_num();
    if (t < static_cast<int>(cpus.size())) cpus[t] = sched_getcpu();
  }
#else
  (void)kokkos_initialized;
#endif
  return host;
}

int fp32_cores_per_multiprocessor(int major, int minor) {
  struct Entry {
    int major, minor, cores;
  };
  // From NVIDIA's architecture whitepapers and the CUDA programming guide's throughput table.
  static const Entry table[] = {
      {3, 0, 192}, {3, 2, 192}, {3, 5, 192}, {3, 7, 192},   // Kepler
      {5, 0, 128}, {5, 2, 128}, {5, 3, 128},                // Maxwell
      {6, 0, 64},  {6, 1, 128}, {6, 2, 128},                // Pascal
      {7, 0, 64},  {7, 2, 64},                              // Volta
      {7, 5, 64},                                           // Turing
      {8, 0, 64},  {8, 6, 128}, {8, 7, 128},                // Ampere
      {8, 9, 128},                                          // Ada Lovelace
      {9, 0, 128},                                          // Hopper
      {10, 0, 128}, {10, 1, 128}, {10, 3, 128}, {11, 0, 128}, // Blackwell datacenter, Thor
      {12, 0, 128}, {12, 1, 128},                           // Blackwell consumer/workstation, GB10
  };
  for (const auto& e : table)
    if (e.major == major && e.minor == minor) return e.cores;
  return 0;
}

double theoretical_bandwidth_gb_per_s(int memory_clock_khz, int bus_width_bits) {
  return 2.0 * static_cast<double>(memory_clock_khz) * 1e3 * (static_cast<double>(bus_width_bits) / 8.0) * 1e-9;
}

DevicePeaks device_peaks(int device) {
  DevicePeaks peaks;
#if defined(KOKKOS_ENABLE_CUDA)
  auto attribute = [device](cudaDeviceAttr which) { return device_attribute(device, which); };
  const int major = attribute(cudaDevAttrComputeCapabilityMajor), minor = attribute(cudaDevAttrComputeCapabilityMinor);
  const int sms = attribute(cudaDevAttrMultiProcessorCount), clock_khz = attribute(cudaDevAttrClockRate);
  const int memory_khz = attribute(cudaDevAttrMemoryClockRate), bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth);
  const int lanes = fp32_cores_per_multiprocessor(major, minor);
  peaks.l2_bytes = static_cast<std::uint64_t>(std::max(0, attribute(cudaDevAttrL2CacheSize)));
  peaks.memory_gb_per_s = theoretical_bandwidth_gb_per_s(memory_khz, bus_bits);
  peaks.fp32_gflop_per_s = 2.0 * sms * lanes * (clock_khz * 1e3) * 1e-9;
  const bool half_rate_fp64 = minor == 0 && (major == 6 || major == 7 || major == 8 || major == 9 || major == 10);
  peaks.fp64_gflop_per_s = half_rate_fp64 ? peaks.fp32_gflop_per_s / 2 : 0;
  peaks.from = fmt::format("sm_{}{}: {} SMs x {} FP32 lanes x 2 x {:.0f} MHz; memory 2 x {:.0f} MHz x {} bits; L2 {} bytes",
                           major, minor, sms, lanes, clock_khz * 1e-3, memory_khz * 1e-3, bus_bits, peaks.l2_bytes);
#else
  (void)device;
#endif
  return peaks;
}

std::string compute_mode_name(int mode) {
  switch (mode) {
    case 0: return "DEFAULT";
    case 1: return "EXCLUSIVE_THREAD";
    case 2: return "PROHIBITED";
    case 3: return "EXCLUSIVE_PROCESS";
  }
  return std::to_string(mode);
}

#if defined(KOKKOS_ENABLE_CUDA)
namespace {

// Every CUdevice_attribute of CUDA 13 by number (the runtime's cudaDeviceAttr uses the same
// numbers). Numbers keep older toolkits compiling; a runtime that does not know one answers
// with an error and it is left out of the list.
struct AttributeName {
  int id;
  const char* name;
};
const AttributeName attribute_names[] = {
    {1, "MAX_THREADS_PER_BLOCK"}, {2, "MAX_BLOCK_DIM_X"}, {3, "MAX_BLOCK_DIM_Y"},
    {4, "MAX_BLOCK_DIM_Z"}, {5, "MAX_GRID_DIM_X"}, {6, "MAX_GRID_DIM_Y"},
    {7, "MAX_GRID_DIM_Z"}, {8, "MAX_SHARED_MEMORY_PER_BLOCK"}, {9, "TOTAL_CONSTANT_MEMORY"},
    {10, "WARP_SIZE"}, {11, "MAX_PITCH"}, {12, "MAX_REGISTERS_PER_BLOCK"},
    {13, "CLOCK_RATE"}, {14, "TEXTURE_ALIGNMENT"}, {15, "GPU_OVERLAP"},
    {16, "MULTIPROCESSOR_COUNT"}, {17, "KERNEL_EXEC_TIMEOUT"}, {18, "INTEGRATED"},
    {19, "CAN_MAP_HOST_MEMORY"}, {20, "COMPUTE_MODE"}, {21, "MAXIMUM_TEXTURE1D_WIDTH"},
    {22, "MAXIMUM_TEXTURE2D_WIDTH"}, {23, "MAXIMUM_TEXTURE2D_HEIGHT"}, {24, "MAXIMUM_TEXTURE3D_WIDTH"},
    {25, "MAXIMUM_TEXTURE3D_HEIGHT"}, {26, "MAXIMUM_TEXTURE3D_DEPTH"}, {27, "MAXIMUM_TEXTURE2D_LAYERED_WIDTH"},
    {28, "MAXIMUM_TEXTURE2D_LAYERED_HEIGHT"}, {29, "MAXIMUM_TEXTURE2D_LAYERED_LAYERS"}, {30, "SURFACE_ALIGNMENT"},
    {31, "CONCURRENT_KERNELS"}, {32, "ECC_ENABLED"}, {33, "PCI_BUS_ID"},
    {34, "PCI_DEVICE_ID"}, {35, "TCC_DRIVER"}, {36, "MEMORY_CLOCK_RATE"},
    {37, "GLOBAL_MEMORY_BUS_WIDTH"}, {38, "L2_CACHE_SIZE"}, {39, "MAX_THREADS_PER_MULTIPROCESSOR"},
    {40, "ASYNC_ENGINE_COUNT"}, {41, "UNIFIED_ADDRESSING"}, {42, "MAXIMUM_TEXTURE1D_LAYERED_WIDTH"},
    {43, "MAXIMUM_TEXTURE1D_LAYERED_LAYERS"}, {44, "CAN_TEX2D_GATHER"}, {45, "MAXIMUM_TEXTURE2D_GATHER_WIDTH"},
    {46, "MAXIMUM_TEXTURE2D_GATHER_HEIGHT"}, {47, "MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE"}, {48, "MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE"},
    {49, "MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE"}, {50, "PCI_DOMAIN_ID"}, {51, "TEXTURE_PITCH_ALIGNMENT"},
    {52, "MAXIMUM_TEXTURECUBEMAP_WIDTH"}, {53, "MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH"}, {54, "MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS"},
    {55, "MAXIMUM_SURFACE1D_WIDTH"}, {56, "MAXIMUM_SURFACE2D_WIDTH"}, {57, "MAXIMUM_SURFACE2D_HEIGHT"},
    {58, "MAXIMUM_SURFACE3D_WIDTH"}, {59, "MAXIMUM_SURFACE3D_HEIGHT"}, {60, "MAXIMUM_SURFACE3D_DEPTH"},
    {61, "MAXIMUM_SURFACE1D_LAYERED_WIDTH"}, {62, "MAXIMUM_SURFACE1D_LAYERED_LAYERS"}, {63, "MAXIMUM_SURFACE2D_LAYERED_WIDTH"},
    {64, "MAXIMUM_SURFACE2D_LAYERED_HEIGHT"}, {65, "MAXIMUM_SURFACE2D_LAYERED_LAYERS"}, {66, "MAXIMUM_SURFACECUBEMAP_WIDTH"},
    {67, "MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH"}, {68, "MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS"}, {69, "MAXIMUM_TEXTURE1D_LINEAR_WIDTH"},
    {70, "MAXIMUM_TEXTURE2D_LINEAR_WIDTH"}, {71, "MAXIMUM_TEXTURE2D_LINEAR_HEIGHT"}, {72, "MAXIMUM_TEXTURE2D_LINEAR_PITCH"},
    {73, "MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH"}, {74, "MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT"}, {75, "COMPUTE_CAPABILITY_MAJOR"},
    {76, "COMPUTE_CAPABILITY_MINOR"}, {77, "MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH"}, {78, "STREAM_PRIORITIES_SUPPORTED"},
    {79, "GLOBAL_L1_CACHE_SUPPORTED"}, {80, "LOCAL_L1_CACHE_SUPPORTED"}, {81, "MAX_SHARED_MEMORY_PER_MULTIPROCESSOR"},
    {82, "MAX_REGISTERS_PER_MULTIPROCESSOR"}, {83, "MANAGED_MEMORY"}, {84, "MULTI_GPU_BOARD"},
    {85, "MULTI_GPU_BOARD_GROUP_ID"}, {86, "HOST_NATIVE_ATOMIC_SUPPORTED"}, {87, "SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO"},
    {88, "PAGEABLE_MEMORY_ACCESS"}, {89, "CONCURRENT_MANAGED_ACCESS"}, {90, "COMPUTE_PREEMPTION_SUPPORTED"},
    {91, "CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM"}, {92, "CAN_USE_STREAM_MEM_OPS_V1"}, {93, "CAN_USE_64_BIT_STREAM_MEM_OPS_V1"},
    {94, "CAN_USE_STREAM_WAIT_VALUE_NOR_V1"}, {95, "COOPERATIVE_LAUNCH"}, {96, "COOPERATIVE_MULTI_DEVICE_LAUNCH"},
    {97, "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN"}, {98, "CAN_FLUSH_REMOTE_WRITES"}, {99, "HOST_REGISTER_SUPPORTED"},
    {100, "PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES"}, {101, "DIRECT_MANAGED_MEM_ACCESS_FROM_HOST"}, {102, "VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED"},
    {103, "HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED"}, {104, "HANDLE_TYPE_WIN32_HANDLE_SUPPORTED"}, {105, "HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED"},
    {106, "MAX_BLOCKS_PER_MULTIPROCESSOR"}, {107, "GENERIC_COMPRESSION_SUPPORTED"}, {108, "MAX_PERSISTING_L2_CACHE_SIZE"},
    {109, "MAX_ACCESS_POLICY_WINDOW_SIZE"}, {110, "GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED"}, {111, "RESERVED_SHARED_MEMORY_PER_BLOCK"},
    {112, "SPARSE_CUDA_ARRAY_SUPPORTED"}, {113, "READ_ONLY_HOST_REGISTER_SUPPORTED"}, {114, "TIMELINE_SEMAPHORE_INTEROP_SUPPORTED"},
    {115, "MEMORY_POOLS_SUPPORTED"}, {116, "GPU_DIRECT_RDMA_SUPPORTED"}, {117, "GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS"},
    {118, "GPU_DIRECT_RDMA_WRITES_ORDERING"}, {119, "MEMPOOL_SUPPORTED_HANDLE_TYPES"}, {120, "CLUSTER_LAUNCH"},
    {121, "DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED"}, {122, "CAN_USE_64_BIT_STREAM_MEM_OPS"}, {123, "CAN_USE_STREAM_WAIT_VALUE_NOR"},
    {124, "DMA_BUF_SUPPORTED"}, {125, "IPC_EVENT_SUPPORTED"}, {126, "MEM_SYNC_DOMAIN_COUNT"},
    {127, "TENSOR_MAP_ACCESS_SUPPORTED"}, {128, "HANDLE_TYPE_FABRIC_SUPPORTED"}, {129, "UNIFIED_FUNCTION_POINTERS"},
    {130, "NUMA_CONFIG"}, {131, "NUMA_ID"}, {132, "MULTICAST_SUPPORTED"},
    {133, "MPS_ENABLED"}, {134, "HOST_NUMA_ID"}, {135, "D3D12_CIG_SUPPORTED"},
    {136, "MEM_DECOMPRESS_ALGORITHM_MASK"}, {137, "MEM_DECOMPRESS_MAXIMUM_LENGTH"}, {138, "VULKAN_CIG_SUPPORTED"},
    {139, "GPU_PCI_DEVICE_ID"}, {140, "GPU_PCI_SUBSYSTEM_ID"}, {141, "HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED"},
    {142, "HOST_NUMA_MEMORY_POOLS_SUPPORTED"}, {143, "HOST_NUMA_MULTINODE_IPC_SUPPORTED"}, {144, "HOST_MEMORY_POOLS_SUPPORTED"},
    {145, "HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED"}, {146, "HOST_ALLOC_DMA_BUF_SUPPORTED"}, {147, "ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED"},
};

// What CUDA says of device `id`: its properties, attributes and memory (it is made the current device).
CudaDeviceInfo cuda_device_info(int id) {
  CudaDeviceInfo d;
  d.id = id;
  auto attribute = [id](cudaDeviceAttr which) { return device_attribute(id, which); };
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, id) == cudaSuccess) {
    d.name = prop.name;
    d.total_memory = prop.totalGlobalMem;
  }
  d.major = attribute(cudaDevAttrComputeCapabilityMajor);
  d.minor = attribute(cudaDevAttrComputeCapabilityMinor);
  d.multiprocessors = attribute(cudaDevAttrMultiProcessorCount);
  d.cores_per_multiprocessor = fp32_cores_per_multiprocessor(d.major, d.minor);
  d.memory_bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth);
  d.memory_clock_khz = attribute(cudaDevAttrMemoryClockRate);
  d.clock_khz = attribute(cudaDevAttrClockRate);
  d.theoretical_gb_per_s = theoretical_bandwidth_gb_per_s(d.memory_clock_khz, d.memory_bus_bits);
  d.l2_bytes = attribute(cudaDevAttrL2CacheSize);
  d.warp_size = attribute(cudaDevAttrWarpSize);
  d.max_threads_per_block = attribute(cudaDevAttrMaxThreadsPerBlock);
  d.max_threads_per_multiprocessor = attribute(cudaDevAttrMaxThreadsPerMultiProcessor);
  d.shared_memory_per_block = attribute(cudaDevAttrMaxSharedMemoryPerBlock);
  if (cudaSetDevice(id) == cudaSuccess) {
    std::size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
      d.free_memory = free_bytes;
      d.total_memory = total_bytes;
    }
  }
  cudaGetLastError();
  for (const auto& a : attribute_names) {
    int value = 0;
    if (cudaDeviceGetAttribute(&value, static_cast<cudaDeviceAttr>(a.id), id) == cudaSuccess) {
      d.attributes.push_back({a.name, value});
    } else {
      cudaGetLastError();
      ++d.attributes_not_reported;
    }
  }
  std::sort(d.attributes.begin(), d.attributes.end(),
            [](const CudaAttribute& a, const CudaAttribute& b) { return a.name < b.name; });
  return d;
}

}  // namespace
#endif

std::string cuda_unusable_reason() {
#if defined(KOKKOS_ENABLE_CUDA)
  int count = 0;
  if (const cudaError_t status = cudaGetDeviceCount(&count); status != cudaSuccess) {
    cudaGetLastError();
    return std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
  }
  if (count == 0) return "no CUDA device";
#endif
  return "";
}

int cuda_device_count() {
  int count = 0;
#if defined(KOKKOS_ENABLE_CUDA)
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    count = 0;
  }
#endif
  return count;
}

CudaReport cuda_report() {
  CudaReport report;
#if defined(KOKKOS_ENABLE_CUDA)
  report.in_build = true;
  cudaRuntimeGetVersion(&report.runtime_version);
  cudaDriverGetVersion(&report.driver_version);
  int count = 0;
  if (const cudaError_t status = cudaGetDeviceCount(&count); status != cudaSuccess) {
    report.error = std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
    cudaGetLastError();
    return report;
  }
  if (count == 0) report.error = "no CUDA device";
  int current = 0;
  cudaGetDevice(&current);
  for (int id = 0; id < count; ++id) report.devices.push_back(cuda_device_info(id));
  if (count > 0) cudaSetDevice(current);
#endif
  return report;
}

nlohmann::json to_json(const HostInfo& host) {
  nlohmann::json j = {
      {"cpu_model", host.cpu_model},
      {"sockets", host.sockets},
      {"physical_cores", host.physical_cores},
      {"hardware_threads", host.hardware_threads},
      {"affinity_cpus", host.affinity_cpus},
      {"memory_total_bytes", host.memory_total},
      {"memory_available_bytes", host.memory_available},
      {"OMP_PROC_BIND", host.env_proc_bind},
      {"OMP_PLACES", host.env_places},
      {"OMP_NUM_THREADS", host.env_num_threads},
      {"openmp_in_build", host.openmp_in_build},
  };
  if (host.openmp_in_build) {
    j["openmp_threads"] = host.openmp_threads;
    j["openmp_proc_bind"] = host.openmp_proc_bind;
    j["openmp_places"] = host.openmp_places;
    j["openmp_thread_cpus"] = host.thread_cpus;
  }
  return j;
}

nlohmann::json to_json(const CudaReport& cuda) {
  nlohmann::json j = {{"in_build", cuda.in_build}};
  if (!cuda.in_build) {
    j["note"] = "CUDA is not in this build";
    return j;
  }
  j["runtime_version"] = cuda.runtime_version;
  j["driver_version"] = cuda.driver_version;
  if (!cuda.error.empty()) j["error"] = cuda.error;
  j["devices"] = nlohmann::json::array();
  for (const auto& d : cuda.devices) {
    nlohmann::json attributes = nlohmann::json::object();
    for (const auto& a : d.attributes) attributes[a.name] = a.value;
    j["devices"].push_back({
        {"id", d.id},
        {"name", d.name},
        {"compute_capability", std::to_string(d.major) + "." + std::to_string(d.minor)},
        {"multiprocessors", d.multiprocessors},
        {"fp32_cores_per_multiprocessor", d.cores_per_multiprocessor},
        {"fp32_cores", d.cores_per_multiprocessor * d.multiprocessors},
        {"total_memory_bytes", d.total_memory},
        {"free_memory_bytes", d.free_memory},
        {"memory_bus_bits", d.memory_bus_bits},
        {"memory_clock_khz", d.memory_clock_khz},
        {"theoretical_gb_per_s", d.theoretical_gb_per_s},
        {"clock_khz", d.clock_khz},
        {"l2_bytes", d.l2_bytes},
        {"warp_size", d.warp_size},
        {"max_threads_per_block", d.max_threads_per_block},
        {"max_threads_per_multiprocessor", d.max_threads_per_multiprocessor},
        {"shared_memory_per_block_bytes", d.shared_memory_per_block},
        {"attributes", attributes},
        {"attributes_not_reported", d.attributes_not_reported},
    });
  }
  return j;
}

}  // namespace nbk
