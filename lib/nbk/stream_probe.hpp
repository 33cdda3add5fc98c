#pragma once
// What bandwidth this space can actually reach: BabelStream's copy (c = a) and triad
// (a = b + s*c) kernels on doubles, best of several runs, checked on the host afterwards.
// Every "% of achievable" figure in the programs divides by the copy figure measured here,
// in the same run, on the same space.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

#include "nbk/add_one.hpp"
#include "nbk/compat.hpp"
#include "nbk/policy.hpp"
#include "nbk/timer.hpp"
#include "nbk/traffic.hpp"
#include "nbk/verify.hpp"

namespace nbk {

struct ProbeResult {
  std::int64_t elements = 0;  // per array
  int repetitions = 0;
  double copy_gb_per_s = 0;   // best run
  double triad_gb_per_s = 0;  // best run
  bool verified = false;
};

// Arrays big enough to defeat any cache: 256 MiB each on a CPU, 1 GiB on a GPU.
template <class ExecSpace>
constexpr std::int64_t default_probe_elements() {
  return is_device_space_v<ExecSpace> ? (std::int64_t{1} << 27) : (std::int64_t{1} << 25);
}

namespace probe_detail {
inline constexpr double scalar = 0.4;
inline constexpr double a0 = 0.1, b0 = 0.2, c0 = 0.0;
}  // namespace probe_detail

template <class ExecSpace>
void stream_copy(const ExecSpace& exec, const Kokkos::View<const double*, typename ExecSpace::memory_space>& a,
                 const Kokkos::View<double*, typename ExecSpace::memory_space>& c) {
  Kokkos::parallel_for(
      "nbk::probe::copy", range(exec, 0, static_cast<Index>(a.extent(0))),
      KOKKOS_LAMBDA(Index i) { c(i) = a(i); });
}

template <class ExecSpace>
void stream_triad(const ExecSpace& exec, const Kokkos::View<double*, typename ExecSpace::memory_space>& a,
                  const Kokkos::View<const double*, typename ExecSpace::memory_space>& b,
                  const Kokkos::View<const double*, typename ExecSpace::memory_space>& c) {
  const double s = probe_detail::scalar;
  Kokkos::parallel_for(
      "nbk::probe::triad", range(exec, 0, static_cast<Index>(a.extent(0))),
      KOKKOS_LAMBDA(Index i) { a(i) = b(i) + s * c(i); });
}

template <class ExecSpace>
ProbeResult probe_bandwidth(const ExecSpace& exec, std::int64_t n = default_probe_elements<ExecSpace>(),
                            int repetitions = 10) {
  using View = Kokkos::View<double*, typename ExecSpace::memory_space>;
  View a(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::probe::a"), n);
  View b(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::probe::b"), n);
  View c(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::probe::c"), n);
  fill(exec, a, probe_detail::a0);
  fill(exec, b, probe_detail::b0);
  fill(exec, c, probe_detail::c0);

  // One untimed round first: page faults, thread start-up and PTX JIT stay out of the figures.
  double best_copy = 1e300, best_triad = 1e300;
  for (int rep = 0; rep <= repetitions; ++rep) {
    const double t_copy = time_fenced("probe copy", [&] { stream_copy<ExecSpace>(exec, a, c); });
    const double t_triad = time_fenced("probe triad", [&] { stream_triad<ExecSpace>(exec, a, b, c); });
    if (rep == 0) continue;
    best_copy = std::min(best_copy, t_copy);
    best_triad = std::min(best_triad, t_triad);
  }

  // The same recurrence on the host, then every element of a and c compared with it.
  double a_ref = probe_detail::a0, c_ref = probe_detail::c0;
  for (int rep = 0; rep <= repetitions; ++rep) {
    c_ref = a_ref;
    a_ref = probe_detail::b0 + probe_detail::scalar * c_ref;
  }
  auto a_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  auto c_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
  std::int64_t bad = 0;
  for (std::int64_t i = 0; i < n; ++i)
    bad += !close_relative(a_host(i), a_ref, 1e-12) || !close_relative(c_host(i), c_ref, 1e-12);

  ProbeResult result;
  result.elements = n;
  result.repetitions = repetitions;
  result.copy_gb_per_s = copy_traffic<double>(n).gb_per_s(best_copy);
  result.triad_gb_per_s = triad_traffic<double>(n).gb_per_s(best_triad);
  result.verified = (bad == 0);
  return result;
}

}  // namespace nbk
