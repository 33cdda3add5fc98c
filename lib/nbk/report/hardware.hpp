#pragma once
// What hardware a run is on: the host CPU and its OpenMP setup, and every CUDA device with
// the figures seed 001 and seed 004 print (cores, clocks, memory, and the whole attribute
// list). CUDA attributes are read with cudaDeviceGetAttribute, never from cudaDeviceProp
// fields, so the code builds on CUDA 11 to 13 (13 removed clockRate, memoryClockRate, ...).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace nbk {

struct HostInfo {
  std::string cpu_model;
  int sockets = 0;           // 0: /proc/cpuinfo does not say
  int physical_cores = 0;    // 0: /proc/cpuinfo does not say
  int hardware_threads = 0;  // online logical CPUs
  int affinity_cpus = 0;     // logical CPUs this process may run on
  bool openmp_in_build = false;
  int openmp_threads = 0;          // Kokkos::OpenMP's pool (omp_get_max_threads before init)
  std::string openmp_proc_bind;    // the binding policy in effect (omp_get_proc_bind)
  int openmp_places = 0;           // omp_get_num_places
  std::vector<int> thread_cpus;    // CPU each OpenMP thread ran on, in thread order
  std::string env_proc_bind, env_places, env_num_threads;
  std::uint64_t memory_total = 0, memory_available = 0;
};

// Host facts. With kokkos_initialized, the OpenMP thread count is Kokkos' own pool.
HostInfo host_info(bool kokkos_initialized);

struct CudaAttribute {
  std::string name;  // the driver's name without CU_DEVICE_ATTRIBUTE_, as pycuda prints it
  int value = 0;
};

struct CudaDeviceInfo {
  int id = 0;
  std::string name;
  int major = 0, minor = 0;
  int multiprocessors = 0;
  int cores_per_multiprocessor = 0;  // 0: compute capability not in the table
  std::uint64_t total_memory = 0, free_memory = 0;
  int memory_bus_bits = 0;
  int memory_clock_khz = 0;
  int clock_khz = 0;
  double theoretical_gb_per_s = 0;
  int l2_bytes = 0;
  int warp_size = 0;
  int max_threads_per_block = 0;
  int max_threads_per_multiprocessor = 0;
  int shared_memory_per_block = 0;
  std::vector<CudaAttribute> attributes;  // every attribute the runtime answered, by name
  int attributes_not_reported = 0;        // names this runtime or device did not answer
};

struct CudaReport {
  bool in_build = false;
  std::string error;  // why there are no devices, if that is the case
  int runtime_version = 0, driver_version = 0;
  std::vector<CudaDeviceInfo> devices;
};

// Queries the CUDA runtime directly (works before Kokkos::initialize, and on a machine
// without a GPU, where it reports the runtime's error instead).
CudaReport cuda_report();

// Why this build cannot use a GPU: "" when it can, or when CUDA is not in the build. Asks
// only cudaGetDeviceCount, so no context is created on any device (cuda_report() makes
// one on each).
std::string cuda_unusable_reason();
// The CUDA devices this process sees (cudaGetDeviceCount, no context made); 0 when CUDA is not
// in the build or the runtime reports an error.
int cuda_device_count();

// FP32 cores per multiprocessor for compute capability major.minor, Kepler to Blackwell;
// 0 when the table does not know it.
int fp32_cores_per_multiprocessor(int major, int minor);

// 2 transfers per clock x clock x bus width: the peak DRAM bandwidth in decimal GB/s.
double theoretical_bandwidth_gb_per_s(int memory_clock_khz, int bus_width_bits);

// What a CUDA device can do at most, from its attributes (zeros where CUDA is not in the build or
// the device does not answer): the roofs no measured ceiling may pass (nbk/report/ceilings.hpp).
struct DevicePeaks {
  std::uint64_t l2_bytes = 0;
  double memory_gb_per_s = 0;   // 2 x memory clock x bus width
  double fp32_gflop_per_s = 0;  // SMs x FP32 lanes x 2 flops x clock
  double fp64_gflop_per_s = 0;  // half of that on the data-centre parts with half-rate FP64, else 0 (not known)
  std::string from;             // the attributes, in words
};
DevicePeaks device_peaks(int device);

// "DEFAULT", "PROHIBITED", ... for CU_DEVICE_ATTRIBUTE_COMPUTE_MODE.
std::string compute_mode_name(int mode);

nlohmann::json to_json(const HostInfo& host);
nlohmann::json to_json(const CudaReport& cuda);

}  // namespace nbk
