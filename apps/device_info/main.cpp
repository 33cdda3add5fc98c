// Seeds 001 and 004 begin by asking what hardware they run on. This program answers for
// every execution space of the build: the host CPU and its OpenMP threads, each CUDA device
// with the document's attribute list, and the Kokkos configuration.
#include <Kokkos_Core.hpp>
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <optional>

#include "nbk/cli.hpp"
#include "nbk/device_info.hpp"
#include "nbk/errors.hpp"
#include "nbk/json_file.hpp"
#include "nbk/memory.hpp"
#include "nbk/run_context.hpp"
#include "nbk/spaces.hpp"

namespace {

std::string count_or_unknown(int count) { return count > 0 ? std::to_string(count) : "unknown"; }

void print_host(const nbk::HostInfo& host) {
  std::cout << "Host\n";
  std::cout << fmt::format("  CPU: {}\n", host.cpu_model);
  std::cout << fmt::format("  sockets: {}, physical cores: {}, hardware threads: {} (this process may use {})\n",
                           count_or_unknown(host.sockets), count_or_unknown(host.physical_cores), host.hardware_threads,
                           host.affinity_cpus);
  std::cout << fmt::format("  memory: {} total, {} available\n", nbk::format_bytes(host.memory_total),
                           nbk::format_bytes(host.memory_available));
  if (!host.openmp_in_build) {
    std::cout << fmt::format("  OpenMP: not in this build (OMP_NUM_THREADS={}, OMP_PROC_BIND={}, OMP_PLACES={})\n",
                             host.env_num_threads, host.env_proc_bind, host.env_places);
    return;
  }
  std::cout << fmt::format("  OpenMP threads: {} (OMP_NUM_THREADS={})\n", host.openmp_threads, host.env_num_threads);
  std::cout << fmt::format("  OpenMP binding in effect: {} (OMP_PROC_BIND={}), places: {} (OMP_PLACES={})\n",
                           host.openmp_proc_bind, host.env_proc_bind, host.openmp_places, host.env_places);
  std::string cpus;
  for (std::size_t t = 0; t < host.thread_cpus.size(); ++t)
    cpus += fmt::format("{}{}->{}", t ? ", " : "", t, host.thread_cpus[t]);
  std::cout << fmt::format("  OpenMP thread -> CPU it ran on: {}\n", cpus);
}

void print_cuda(const nbk::CudaReport& cuda) {
  std::cout << "\nCUDA\n";
  if (!cuda.in_build) {
    std::cout << "  CUDA: not in this build (configure with the cuda preset for GPU results)\n";
    return;
  }
  auto version = [](int v) { return fmt::format("{}.{}", v / 1000, v % 1000 / 10); };
  std::cout << fmt::format("  runtime {}, driver {}\n", version(cuda.runtime_version),
                           cuda.driver_version ? version(cuda.driver_version) : std::string("none"));
  if (!cuda.error.empty()) std::cout << fmt::format("  no usable device: {}\n", cuda.error);
  std::cout << fmt::format("  {} CUDA device(s)\n", cuda.devices.size());
  for (const auto& d : cuda.devices) {
    std::cout << fmt::format("\n  Device {}: {}\n", d.id, d.name);
    std::cout << fmt::format("    compute capability: {}.{}\n", d.major, d.minor);
    std::cout << fmt::format("    multiprocessors: {}\n", d.multiprocessors);
    if (d.cores_per_multiprocessor > 0) {
      std::cout << fmt::format("    FP32 cores per multiprocessor: {}\n", d.cores_per_multiprocessor);
      std::cout << fmt::format("    FP32 cores: {}\n", d.cores_per_multiprocessor * d.multiprocessors);
    } else {
      std::cout << fmt::format("    FP32 cores per multiprocessor: unknown (compute capability {}.{} is not in the table)\n",
                               d.major, d.minor);
    }
    std::cout << fmt::format("    global memory: {} total, {} free\n", nbk::format_bytes(d.total_memory),
                             nbk::format_bytes(d.free_memory));
    std::cout << fmt::format("    memory bus: {} bits at {} MHz: {:.1f} GB/s theoretical (2 transfers per clock)\n",
                             d.memory_bus_bits, d.memory_clock_khz / 1000, d.theoretical_gb_per_s);
    std::cout << fmt::format("    GPU clock: {} MHz\n", d.clock_khz / 1000);
    std::cout << fmt::format("    L2 cache: {}\n", nbk::format_bytes(static_cast<std::uint64_t>(d.l2_bytes)));
    std::cout << fmt::format("    warp size: {}\n", d.warp_size);
    std::cout << fmt::format("    max threads per block: {}, per multiprocessor: {}\n", d.max_threads_per_block,
                             d.max_threads_per_multiprocessor);
    std::cout << fmt::format("    shared memory per block: {}\n",
                             nbk::format_bytes(static_cast<std::uint64_t>(d.shared_memory_per_block)));
    std::cout << fmt::format("    all attributes ({} reported; {} names this runtime or device does not answer):\n",
                             d.attributes.size(), d.attributes_not_reported);
    for (const auto& a : d.attributes) {
      if (a.name == "COMPUTE_MODE")
        std::cout << fmt::format("      {}: {}\n", a.name, nbk::compute_mode_name(a.value));
      else
        std::cout << fmt::format("      {}: {}\n", a.name, a.value);
    }
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  CLI::App app{"What this build runs on: the host CPU and OpenMP setup, every CUDA device (cores, clocks, memory,\n"
               "all attributes) and the Kokkos configuration. Kokkos flags (--kokkos-NAME=VALUE) pass through."};
  app.name("nbk-device-info");
  std::string json_path;
  bool verbose = false;
  app.add_option("--json", json_path, "also write everything as JSON to this file");
  app.add_flag("--verbose", verbose, "print Kokkos' verbose configuration");
  if (auto code = nbk::parse_command_line(app, argc, argv)) return *code;

  try {
    if (!json_path.empty() && !std::ofstream(json_path, std::ios::app))
      throw nbk::InputError("cannot write JSON file '" + json_path + "'");

    // The CUDA runtime is asked first: a CUDA-enabled Kokkos cannot initialize without a
    // device, and the program should still say what it found.
    const nbk::CudaReport cuda = nbk::cuda_report();
    const bool can_initialize = !cuda.in_build || !cuda.devices.empty();
    std::optional<Kokkos::ScopeGuard> kokkos;
    if (can_initialize) kokkos.emplace(argc, argv);

    const nbk::HostInfo host = nbk::host_info(can_initialize);
    print_host(host);
    print_cuda(cuda);

    std::cout << "\nKokkos\n";
    std::string spaces;
    for (const auto& name : nbk::enabled_space_names()) spaces += (spaces.empty() ? "" : " ") + name;
    std::cout << fmt::format("  version {}; execution spaces in this build: {}\n", nbk::kokkos_version(), spaces);
    std::string configuration;
    if (can_initialize) {
      configuration = nbk::kokkos_configuration(verbose);
      std::cout << configuration;
    } else {
      std::cout << "  not initialized: this Kokkos was built with CUDA and there is no usable device\n";
    }

    if (!json_path.empty()) {
      nlohmann::json doc;
      doc["experiment"] = "device_info";
      if (can_initialize) doc["context"] = nbk::run_context();
      doc["host"] = nbk::to_json(host);
      doc["cuda"] = nbk::to_json(cuda);
      doc["kokkos"] = {{"version", nbk::kokkos_version()},
                       {"execution_spaces", nbk::enabled_space_names()},
                       {"initialized", can_initialize},
                       {"configuration", configuration}};
      nbk::write_json_file(json_path, doc);
    }
    return nbk::exit_ok;
  } catch (const nbk::InputError& e) {
    return nbk::report_input_error(app.get_name(), e.what());
  }
}
