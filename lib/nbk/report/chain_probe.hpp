#pragma once
// The latency limit of an in-order reduction on a host space, measured in the same run as the rows
// it judges, as the FMA probe measures the arithmetic limit: every thread of the space runs one
// dependent chain x = x + a or x = x * a at once (a work item a thread), so a link takes the
// operation's latency, not its throughput. A row whose operations are such chains (Chain,
// nbk/core/traffic.hpp: the document's float sum, Kokkos' Prod) can take no less than its
// longest thread's share of links times a link. With a = 1, passed at run time so the compiler
// cannot fold it, an add chain counts its links exactly (below 2^24 in float) and a multiply
// chain stays at 1, so each result is checked exactly. A device space's reductions are trees,
// never one chain a thread: it is not probed (zeros: no chain ceiling).
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <initializer_list>

#include "nbk/core/compat.hpp"
#include "nbk/core/policy.hpp"
#include "nbk/core/spaces.hpp"
#include "nbk/core/timer.hpp"
#include "nbk/core/traffic.hpp"

namespace nbk {

// Nanoseconds a link of one chain a thread, best of the timed runs; 0: not measured.
struct ChainLatency {
  double add_f32_ns = 0, add_f64_ns = 0, multiply_f32_ns = 0, multiply_f64_ns = 0;
  bool verified = false;

  double link_ns(const Chain& chain) const {
    if (chain.empty()) return 0.0;
    const bool f64 = chain.bytes == sizeof(double);
    if (chain.op == ChainOp::add) return f64 ? add_f64_ns : add_f32_ns;
    return f64 ? multiply_f64_ns : multiply_f32_ns;
  }
  bool measured() const { return add_f32_ns > 0 && add_f64_ns > 0 && multiply_f32_ns > 0 && multiply_f64_ns > 0; }
};

// The faster link of each chain, of two measurements: a chain, like a bandwidth, only slows
// when the machine is shared (probe_report.hpp's refresh_ceilings).
inline void keep_fastest(ChainLatency& kept, const ChainLatency& fresher) {
  for (auto field : {&ChainLatency::add_f32_ns, &ChainLatency::add_f64_ns, &ChainLatency::multiply_f32_ns,
                     &ChainLatency::multiply_f64_ns})
    if (fresher.*field > 0 && (kept.*field <= 0 || fresher.*field < kept.*field)) kept.*field = fresher.*field;
  kept.verified = kept.measured();
}

// Each work item of the probe: one chain of `links` operations, its end in ends(i).
template <class Space, class T, ChainOp op>
struct ChainLinks {
  Kokkos::View<double*, typename Space::memory_space> ends;
  std::int64_t links;
  T a;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const {
    T x = op == ChainOp::add ? T(0) : T(1);
    for (std::int64_t k = 0; k < links; ++k) x = op == ChainOp::add ? x + a : x * a;
    ends(i) = static_cast<double>(x);
  }
};

// Links of the shorter chain: 2^20, a millisecond at a few cycles a link, exact in float (the
// longer has twice as many, still below 2^24).
inline constexpr std::int64_t chain_probe_links = std::int64_t{1} << 20;

namespace chain_detail {
// The best of `repetitions` runs of one chain a thread of `exec`, `links` links each, after an
// untimed first run; negative where a chain ended anywhere but where it must.
template <class Space, class T, ChainOp op>
double best_time(const Space& exec, std::int64_t links, int repetitions) {
  const auto threads = static_cast<Index>(std::max(1, static_cast<int>(exec.concurrency())));
  Kokkos::View<double*, typename Space::memory_space> ends("nbk::probe::chain_ends", threads);
  volatile T one = T(1);  // a run-time value: every operation must happen
  const ChainLinks<Space, T, op> chains{ends, links, one};
  const Range<Space> policy(exec, 0, threads, Kokkos::ChunkSize(1));  // a chain a thread, all at once
  double best = 1e300;
  for (int rep = 0; rep <= repetitions; ++rep) {
    const double t = time_fenced(
        "probe chain", [&] { Kokkos::parallel_for("nbk::probe::chain", policy, chains); }, fences_for<Space>);
    if (rep > 0) best = std::min(best, t);
  }
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ends);
  const double expected = op == ChainOp::add ? static_cast<double>(links) : 1.0;
  for (Index i = 0; i < threads; ++i)
    if (host(i) != expected) return -1.0;
  return best;
}
}  // namespace chain_detail

// The ns a link, from chains of `links` and of twice as many: the difference of their best times
// over `links`, so that the launch, the threads' fork and join and the fence, which a row pays
// once a call and not once a link, are not counted as links (a row at its chain's limit would
// otherwise beat it by that much). 0 where a chain did not end where it must.
template <class Space, class T, ChainOp op>
double probe_chain(const Space& exec, std::int64_t links, int repetitions) {
  const double shorter = chain_detail::best_time<Space, T, op>(exec, links, repetitions);
  const double longer = chain_detail::best_time<Space, T, op>(exec, 2 * links, repetitions);
  if (shorter < 0 || longer < 0) return 0.0;
  const double slope = longer > shorter ? longer - shorter : longer / 2;
  return slope / static_cast<double>(links) * 1e9;
}

// The chains' links for a probe of `probe_elements` doubles an array (0: the default size): a probe
// size given, as the tests' small runs give one, shortens them as it shrinks the FMA probe (at
// least 2^14 links: some 16 us, well above a fork and a fence), so that a sanitized debug build's
// programs do not spend their time here.
inline std::int64_t chain_links_for(std::int64_t probe_elements) {
  return probe_elements > 0 ? std::clamp<std::int64_t>(4 * probe_elements, std::int64_t{1} << 14, chain_probe_links)
                            : chain_probe_links;
}

// The four chains of a host space (nothing on a device space).
template <class Space>
ChainLatency probe_chains(const Space& exec, std::int64_t links = chain_probe_links, int repetitions = 5) {
  ChainLatency c;
  if constexpr (!is_device_space_v<Space>) {
    c.add_f32_ns = probe_chain<Space, float, ChainOp::add>(exec, links, repetitions);
    c.add_f64_ns = probe_chain<Space, double, ChainOp::add>(exec, links, repetitions);
    c.multiply_f32_ns = probe_chain<Space, float, ChainOp::multiply>(exec, links, repetitions);
    c.multiply_f64_ns = probe_chain<Space, double, ChainOp::multiply>(exec, links, repetitions);
    c.verified = c.measured();
  }
  return c;
}

}  // namespace nbk
