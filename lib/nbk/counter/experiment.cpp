// Seed 003: 10^6 increments of one counter (ours) by a parallel kernel, as a plain
// read-modify-write and with Kokkos::atomic_add, on every space; the racy one's lost
// updates counted on every call.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <ostream>
#include <vector>

#include "nbk/core/compat.hpp"
#include "nbk/counter/kernels.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/notes.hpp"
#include "nbk/experiment/reduction.hpp"

namespace nbk::counter {

namespace {

// No random input: the Problem is its size alone (no --seed).
struct Problem final : exp::Problem {
  explicit Problem(std::int64_t n) : increments(n) {}
  std::int64_t increments;
  void describe(std::ostream& out) const override {
    out << fmt::format("{} increments of one 64-bit counter, which starts at 0 before every call\n", increments);
  }
  nlohmann::json to_json() const override { return {{"increments", increments}}; }
};

struct Spec : exp::ScalarSpec<Spec, Problem> {
  struct Told {
    bool atomic = false;  // the row's updates are atomic: none may be lost
    static Told atomic_updates() { return {true}; }
  };

  // The counter in the space's memory; a call leaves its count there.
  template <class Space>
  struct Data {
    explicit Data(const Problem& p) : increments(p.increments), count("nbk::counter::count") {}
    // Outside the clock: what the call counted, then the counter back to 0 for the next call.
    Count read() {
      const Count counted = count.read(exec);
      Kokkos::deep_copy(exec, count.value, Count(0));
      nbk::fence(exec, "nbk::counter reset");
      return counted;
    }

    std::int64_t increments;
    Space exec;
    exp::ValueInSpace<Space, Count> count;
  };

  // The updates every call lost: none where they are atomic or where one thread runs them; a
  // race can lose all but one (never gain one).
  template <class Space>
  static exp::Verdict check(const Problem& p, const Row& row, const Data<Space>& d, const std::vector<Count>& counts) {
    const int threads = d.exec.concurrency();
    const std::int64_t n = p.increments, calls = static_cast<std::int64_t>(counts.size());
    const std::int64_t allowed = row.told.atomic || threads == 1 ? 0 : std::max<std::int64_t>(n - 1, 0);
    std::int64_t fewest = std::numeric_limits<std::int64_t>::max(), most = -1;
    for (const Count counted : counts) {
      fewest = std::min(fewest, n - static_cast<std::int64_t>(counted));
      most = std::max(most, n - static_cast<std::int64_t>(counted));
    }
    exp::Verdict v;
    v.ok = calls > 0 && fewest >= 0 && most <= allowed;
    v.summary = v.ok ? "ok" : fmt::format("FAILED (lost {} of {}, {} allowed)", most, n, allowed);
    const double share = n > 0 ? 100.0 * static_cast<double>(most) / n : 0.0;
    v.cells = {{"lost updates", fewest == most ? fmt::format("{}", most) : fmt::format("{}-{}", fewest, most)},
               {"lost, worst call", fmt::format("{:.1f}%", share)}};
    v.details = {{"lost_fewest", fewest}, {"lost_most", most}, {"calls", calls}, {"threads", threads}};
    return v;
  }
};

std::vector<Spec::Row> table() {
  const std::string moves = "none (the counter lives in the space's memory; it is read and reset outside the clock)";
  const auto racy = [](auto& d) { counter::racy_increments(d.exec, d.count.value, d.increments); };
  const auto atomic = [](auto& d) { counter::atomic_increments(d.exec, d.count.value, d.increments); };
  const auto plain = [](auto& d) { counter::plain_increments(d.exec, d.count.value, d.increments); };
  return {Spec::Row{"plain", exp::on_spaces<Spec>(plain)}.moving(moves).telling(Spec::Told::atomic_updates()),
          Spec::Row{"racy", exp::on_spaces<Spec>(racy)}.moving(moves),
          Spec::Row{"atomic", exp::on_spaces<Spec>(atomic)}.moving(moves).telling(Spec::Told::atomic_updates())};
}

}  // namespace

exp::Experiment experiment(const exp::Notes& notes) {
  exp::Experiment e = exp::scalar_experiment<Spec>(notes);  // one counter: no bytes that scale with the size
  e.rate_in_elements = true;
  e.sizes = {{1000000}};
  e.test_sizes = {{0}, {1}, {2}, {1000}, {100003}};
  exp::on_every_space(e, table());
  return e;
}

}  // namespace nbk::counter
