// Seed 003: Monte-Carlo pi from 24 x 64 = 1,536 streams of 10,000 points each (the document's
// launch) and from 2^30 points in 2^17 streams (ours), with Kokkos' XorShift64 and
// XorShift1024 pools on every space and std::mt19937_64 on one host thread; every estimate
// must lie within five standard errors of pi, and the pool's creation is timed apart.
#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <ostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "nbk/core/compat.hpp"
#include "nbk/core/timer.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/notes.hpp"
#include "nbk/experiment/reduction.hpp"
#include "nbk/pi/kernels.hpp"
#include "nbk/pi/problem.hpp"

namespace nbk::pi {

namespace {

using exp::Size;

// A pool of streams in the space's memory, and the count of points inside, which a call
// leaves there. A state a thread too where `per_thread` (the plain row: a host space's get_state()
// takes the state of the calling thread).
template <class Space, class Pool, bool per_thread = false>
struct Data {
  explicit Data(const Problem& p)
      : streams(p.streams), samples_per_stream(p.samples_per_stream), inside("nbk::pi::inside") {
    const int states = std::max(streams, per_thread && !is_device_space_v<Space> ? exec.concurrency() : 1);
    // Timed apart from the calls: seeding walks every state on the host, then copies them in.
    pool_seconds = time_fenced("nbk::pi pool", [&] { pool = random_pool<Pool>(p.seed, states); });
  }
  Count read() const { return inside.read(exec); }

  int streams;
  std::int64_t samples_per_stream;
  Space exec;
  Pool pool;
  exp::ValueInSpace<Space, Count> inside;
  double pool_seconds = 0;
};
template <class Space>
using XorShift64s = Data<Space, pi::XorShift64<Space>>;
template <class Space>
using ThreadXorShift64s = Data<Space, pi::XorShift64<Space>, true>;
template <class Space>
using XorShift1024s = Data<Space, pi::XorShift1024<Space>>;

// One std::mt19937_64 on one host thread.
struct HostDraws {
  explicit HostDraws(const Problem& p) : samples(p.samples()), engine(p.seed) {}
  std::int64_t samples;
  std::mt19937_64 engine;
};

struct Spec : exp::ScalarSpec<Spec, Problem> {
  struct Told {
    std::uint64_t state_bytes = 0;  // of one stream of the row's pool
  };
  using HostData = HostDraws;

  static exp::Verdict check(const Problem& p, const Row&, const HostDraws&, const std::vector<Count>& counts) {
    return estimates_verdict(p.samples(), counts, nlohmann::json::object(), {{"pool creation", "-"}});
  }
  template <class Space, class Pool, bool per_thread>
  static exp::Verdict check(const Problem& p, const Row&, const pi::Data<Space, Pool, per_thread>& d,
                            const std::vector<Count>& counts) {
    return estimates_verdict(p.samples(), counts, {{"pool_creation_seconds", d.pool_seconds}},
                             {{"pool creation", fmt::format("{:.2f} ms", d.pool_seconds * 1e3)}});
  }
  // How the ranks' counts would combine (asked of a call that returns its value, as plain's does): they add.
  static Count all_ranks(Count local, const Told&) { return static_cast<Count>(ranks::sum(std::int64_t(local))); }
  template <class Space>
  static exp::Footprint footprint(const Size& s, const Told& told) {
    const std::uint64_t states = static_cast<std::uint64_t>(std::max<std::int64_t>(s[0], 1)) * told.state_bytes;
    return is_device_space_v<Space> ? exp::Footprint{states, states} : exp::Footprint{2 * states, 0};
  }
};

std::vector<Spec::Row> table() {
  const auto count_inside = [](auto& d) {
    pi::count_inside(d.exec, d.pool, d.streams, d.samples_per_stream, d.inside.value);
  };
  const std::string moves = "none (the states live in the space's memory; the count is read outside the clock)";
  const auto draw = [](auto& h) { return pi::host_count_inside(h.engine, h.samples); };
  const auto host =
      Spec::Row{"mt19937", exp::on_host<Spec>(draw)}.moving("one host thread, one std::mt19937_64 draw per point");
  const auto plain = [](auto& d) { return pi::plain_count_inside(d.exec, d.pool, d.streams, d.samples_per_stream); };
  return {host,
          Spec::Row{"plain", exp::on_spaces<Spec, ThreadXorShift64s>(plain)}
              .moving("none (the states live in the space's memory; the count comes back inside the call); "
                      "parallel_reduce as Kokkos' documentation writes it: a KOKKOS_LAMBDA, get_state() a stream")
              .telling(Spec::Told{pi::xorshift64_state_bytes})
              .against(host),
          Spec::Row{"xorshift64", exp::on_spaces<Spec, XorShift64s>(count_inside)}
              .moving(moves)
              .telling(Spec::Told{pi::xorshift64_state_bytes})
              .against(host),
          Spec::Row{"xorshift1024", exp::on_spaces<Spec, XorShift1024s>(count_inside)}
              .moving(moves)
              .telling(Spec::Told{pi::xorshift1024_state_bytes})
              .against(host)};
}

}  // namespace

exp::Experiment experiment(const exp::Notes& notes) {
  // The states stay put: no bytes scale with the points (the default where the Spec names no Element).
  exp::Experiment e = exp::scalar_experiment<Spec>(notes);
  e.rank = 2;
  e.rate_in_elements = true;
  e.repetitions = 3;
  // The document's 24 x 64 streams of 10,000 points; in a build with a GPU also 2^30 points in 2^17
  // streams (ours), sized to fill one, for the CPU-GPU comparison. A CPU alone gains nothing from it:
  // every row's rate was the same at both sizes on the 2-core VM (xorshift64 on OpenMP 1.23 Gelem/s,
  // mt19937 0.47) while its one-thread rows took 20 s of the main job (--size 131072x8192 runs it).
  e.sizes = {Size{1536, 10000}};
  if (has_cuda) e.sizes.push_back(Size{131072, 8192});
  // 2^27 points in 2^17 streams: as many streams as the 2^30 run (they fill a GPU), an eighth of
  // its points (one call at 2^30 takes 6-14 s on a CPU space here).
  e.bench_sizes = {Size{1536, 10000}, Size{131072, 1024}};
  e.test_sizes = {Size{0, 100}, Size{3, 0}, Size{1, 1}, Size{7, 1001}, Size{1536, 100}};
  e.refuse = [](const Size& s) {
    return s[0] > INT_MAX ? fmt::format("at most {} streams (a pool's states are counted in int)", INT_MAX)
                          : std::string();
  };
  exp::on_every_space(e, table());
  return e;
}

}  // namespace nbk::pi
