// Device information: the cores-per-multiprocessor table, the bandwidth formula, and host and
// CUDA reports that hold together on whatever machine runs the tests.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include "nbk/report/hardware.hpp"
#include "nbk/core/spaces.hpp"

namespace {

TEST(DeviceInfo, CoresPerMultiprocessorKnowsPascalThroughBlackwell) {
  EXPECT_EQ(nbk::fp32_cores_per_multiprocessor(5, 0), 128);  // the document's GTX 850M
  EXPECT_EQ(nbk::fp32_cores_per_multiprocessor(6, 0), 64);
  EXPECT_EQ(nbk::fp32_cores_per_multiprocessor(6, 1), 128);  // the document's GTX 1060 / 1080 Ti
  EXPECT_EQ(nbk::fp32_cores_per_multiprocessor(7, 0), 64);
  EXPECT_EQ(nbk::fp32_cores_per_multiprocessor(7, 5), 64);
  EXPECT_EQ(nbk::fp32_cores_per_multiprocessor(8, 0), 64);
  EXPECT_EQ(nbk::fp32_cores_per_multiprocessor(8, 6), 128);
  EXPECT_EQ(nbk::fp32_cores_per_multiprocessor(8, 9), 128);
  EXPECT_EQ(nbk::fp32_cores_per_multiprocessor(9, 0), 128);
  EXPECT_EQ(nbk::fp32_cores_per_multiprocessor(10, 0), 128);
  EXPECT_EQ(nbk::fp32_cores_per_multiprocessor(12, 0), 128);
  EXPECT_EQ(nbk::fp32_cores_per_multiprocessor(2, 0), 0);
  EXPECT_EQ(nbk::fp32_cores_per_multiprocessor(99, 9), 0);
}

TEST(DeviceInfo, TheoreticalBandwidth) {
  // The document's GTX 850M: 1001 MHz memory clock, 128-bit bus -> 32.0 GB/s.
  EXPECT_NEAR(nbk::theoretical_bandwidth_gb_per_s(1001000, 128), 32.032, 1e-9);
}

TEST(DeviceInfo, ComputeModeNames) {
  EXPECT_EQ(nbk::compute_mode_name(0), "DEFAULT");
  EXPECT_EQ(nbk::compute_mode_name(3), "EXCLUSIVE_PROCESS");
  EXPECT_EQ(nbk::compute_mode_name(42), "42");
}

TEST(DeviceInfo, HostReport) {
  const nbk::HostInfo host = nbk::host_info(true);
  EXPECT_FALSE(host.cpu_model.empty());
  EXPECT_GE(host.hardware_threads, 1);
  EXPECT_GE(host.affinity_cpus, 1);
  EXPECT_GT(host.memory_total, 0u);
  EXPECT_LE(host.memory_available, host.memory_total);
  EXPECT_EQ(host.openmp_in_build, nbk::has_openmp);
#if defined(KOKKOS_ENABLE_OPENMP)
  EXPECT_EQ(host.openmp_threads, Kokkos::OpenMP().concurrency());
  EXPECT_EQ(host.thread_cpus.size(), static_cast<std::size_t>(host.openmp_threads));
#endif
  const auto json = nbk::to_json(host);
  EXPECT_TRUE(json.contains("cpu_model"));
  EXPECT_TRUE(json.contains("OMP_PROC_BIND"));
}

TEST(DeviceInfo, CudaReportMatchesTheBuild) {
  const nbk::CudaReport cuda = nbk::cuda_report();
  EXPECT_EQ(cuda.in_build, nbk::has_cuda);
  const auto json = nbk::to_json(cuda);
  EXPECT_EQ(json.at("in_build").get<bool>(), nbk::has_cuda);
  if (!cuda.in_build) {
    EXPECT_TRUE(cuda.devices.empty());
    EXPECT_TRUE(json.contains("note"));
  }
  for (const auto& d : cuda.devices) {
    EXPECT_GT(d.multiprocessors, 0);
    EXPECT_EQ(d.warp_size, 32);
    EXPECT_FALSE(d.attributes.empty());
  }
}

}  // namespace
