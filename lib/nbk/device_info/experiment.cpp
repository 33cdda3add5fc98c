// Seeds 001 and 004 begin by asking what hardware they run on. This experiment answers for
// every execution space of the build: the host CPU and its OpenMP threads, each CUDA device
// with the document's attribute list, and the Kokkos configuration. It times nothing, so it
// states no variants; and it runs (without Kokkos) where a CUDA build finds no GPU.
#include <fmt/format.h>

#include <ostream>

#include "nbk/core/memory.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/notes.hpp"
#include "nbk/report/hardware.hpp"
#include "nbk/report/run_context.hpp"

namespace nbk::device_info {

namespace {

std::string count_or_unknown(int count) { return count > 0 ? std::to_string(count) : "unknown"; }

void print_host(std::ostream& out, const HostInfo& host) {
  out << "Host\n";
  out << fmt::format("  CPU: {}\n", host.cpu_model);
  out << fmt::format("  sockets: {}, physical cores: {}, hardware threads: {} (this process may use {})\n",
                           count_or_unknown(host.sockets), count_or_unknown(host.physical_cores), host.hardware_threads,
                           host.affinity_cpus);
  out << fmt::format("  memory: {} total, {} available\n", format_bytes(host.memory_total),
                           format_bytes(host.memory_available));
  if (!host.openmp_in_build) {
    out << fmt::format("  OpenMP: not in this build (OMP_NUM_THREADS={}, OMP_PROC_BIND={}, OMP_PLACES={})\n",
                             host.env_num_threads, host.env_proc_bind, host.env_places);
    return;
  }
  out << fmt::format("  OpenMP threads: {} (OMP_NUM_THREADS={})\n", host.openmp_threads, host.env_num_threads);
  out << fmt::format("  OpenMP binding in effect: {} (OMP_PROC_BIND={}), places: {} (OMP_PLACES={})\n",
                           host.openmp_proc_bind, host.env_proc_bind, host.openmp_places, host.env_places);
  std::string cpus;
  for (std::size_t t = 0; t < host.thread_cpus.size(); ++t)
    cpus += fmt::format("{}{}->{}", t ? ", " : "", t, host.thread_cpus[t]);
  out << fmt::format("  OpenMP thread -> CPU it ran on: {}\n", cpus);
}

void print_cuda(std::ostream& out, const CudaReport& cuda) {
  out << "\nCUDA\n";
  if (!cuda.in_build) {
    out << "  CUDA: not in this build (configure with the cuda preset for GPU results)\n";
    return;
  }
  auto version = [](int v) { return fmt::format("{}.{}", v / 1000, v % 1000 / 10); };
  out << fmt::format("  runtime {}, driver {}\n", version(cuda.runtime_version),
                           cuda.driver_version ? version(cuda.driver_version) : std::string("none"));
  if (!cuda.error.empty()) out << fmt::format("  no usable device: {}\n", cuda.error);
  out << fmt::format("  {} CUDA device(s)\n", cuda.devices.size());
  for (const auto& d : cuda.devices) {
    out << fmt::format("\n  Device {}: {}\n", d.id, d.name);
    out << fmt::format("    compute capability: {}.{}\n", d.major, d.minor);
    out << fmt::format("    multiprocessors: {}\n", d.multiprocessors);
    if (d.cores_per_multiprocessor > 0) {
      out << fmt::format("    FP32 cores per multiprocessor: {}\n", d.cores_per_multiprocessor);
      out << fmt::format("    FP32 cores: {}\n", d.cores_per_multiprocessor * d.multiprocessors);
    } else {
      out << fmt::format("    FP32 cores per multiprocessor: unknown (compute capability {}.{} is not in the table)\n",
                               d.major, d.minor);
    }
    out << fmt::format("    global memory: {} total, {} free\n", format_bytes(d.total_memory),
                             format_bytes(d.free_memory));
    out << fmt::format("    memory bus: {} bits at {} MHz: {:.1f} GB/s theoretical (2 transfers per clock)\n",
                             d.memory_bus_bits, d.memory_clock_khz / 1000, d.theoretical_gb_per_s);
    out << fmt::format("    GPU clock: {} MHz\n", d.clock_khz / 1000);
    out << fmt::format("    L2 cache: {}\n", format_bytes(static_cast<std::uint64_t>(d.l2_bytes)));
    out << fmt::format("    warp size: {}\n", d.warp_size);
    out << fmt::format("    max threads per block: {}, per multiprocessor: {}\n", d.max_threads_per_block,
                             d.max_threads_per_multiprocessor);
    out << fmt::format("    shared memory per block: {}\n",
                             format_bytes(static_cast<std::uint64_t>(d.shared_memory_per_block)));
    out << fmt::format("    all attributes ({} reported; {} names this runtime or device does not answer):\n",
                             d.attributes.size(), d.attributes_not_reported);
    for (const auto& a : d.attributes) {
      if (a.name == "COMPUTE_MODE")
        out << fmt::format("      {}: {}\n", a.name, compute_mode_name(a.value));
      else
        out << fmt::format("      {}: {}\n", a.name, a.value);
    }
  }
}

struct Problem final : exp::Problem {
  HostInfo host;
  CudaReport cuda;
  bool kokkos_initialized = false;
  std::string configuration;

  void describe(std::ostream& out) const override {
    print_host(out, host);
    print_cuda(out, cuda);
    out << "\nKokkos\n";
    std::string spaces;
    for (const auto& name : enabled_space_names()) spaces += (spaces.empty() ? "" : " ") + name;
    out << fmt::format("  version {}; execution spaces in this build: {}\n", kokkos_version(), spaces);
    if (kokkos_initialized)
      out << configuration;
    else
      out << "  not initialized: this Kokkos was built with CUDA and there is no usable device\n";
  }
  nlohmann::json to_json() const override {
    return {{"host", nbk::to_json(host)},
            {"cuda", nbk::to_json(cuda)},
            {"kokkos",
             {{"version", kokkos_version()},
              {"execution_spaces", enabled_space_names()},
              {"initialized", kokkos_initialized},
              {"configuration", configuration}}}};
  }
};

}  // namespace

exp::Experiment experiment(const exp::Notes& notes) {
  exp::Experiment e = exp::stated(notes);
  e.rank = 0;
  e.sizes = {exp::Size{}};
  e.test_sizes = {exp::Size{}};
  e.needs_device = false;
  e.make_problem = [](const exp::Size&, const exp::Settings& settings) {
    auto p = std::make_shared<Problem>();
    p->kokkos_initialized = settings.kokkos_initialized;
    p->host = host_info(settings.kokkos_initialized);
    p->cuda = cuda_report();
    if (settings.kokkos_initialized) p->configuration = kokkos_configuration(settings.verbose);
    return p;
  };
  return e;
}

}  // namespace nbk::device_info
