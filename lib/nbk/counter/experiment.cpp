// Seed 003: 10^6 increments of one counter (ours) by a parallel kernel, as a plain
// read-modify-write and with Kokkos::atomic_increment, on every space; the racy one's lost
// updates counted on every call.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <ostream>

#include "nbk/core/compat.hpp"
#include "nbk/counter/kernels.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/notes.hpp"

namespace nbk::experiments {

namespace {

using exp::Size;

struct Problem final : exp::Problem {
  std::int64_t increments = 0;
  void describe(std::ostream& out) const override {
    out << fmt::format("{} increments of one 64-bit counter, which starts at 0 before every call\n", increments);
  }
  nlohmann::json to_json() const override { return {{"increments", increments}}; }
};

template <class Space>
class CounterCase final : public exp::Case {
 public:
  CounterCase(const Problem& p, bool atomic)
      : increments_(p.increments),
        atomic_(atomic),
        counter_("nbk::counter::count"),
        host_(Kokkos::create_mirror_view(Kokkos::HostSpace(), counter_)) {}
  void run() override {
    if (atomic_)
      counter::atomic_increments(exec_, counter_, increments_);
    else
      counter::racy_increments(exec_, counter_, increments_);
  }
  // Outside the clock: what the call counted, then the counter back to 0 for the next call.
  void record() override {
    Kokkos::deep_copy(exec_, host_, counter_);
    nbk::fence(exec_, "nbk::counter read");
    const std::int64_t lost = increments_ - static_cast<std::int64_t>(host_());
    fewest_lost_ = std::min(fewest_lost_, lost);
    most_lost_ = std::max(most_lost_, lost);
    ++calls_;
    Kokkos::deep_copy(exec_, counter_, counter::Count(0));
    nbk::fence(exec_, "nbk::counter reset");
  }
  exp::Verdict verdict() override {
    // Atomics lose nothing; a race can lose all but one update (never gain one), and with one
    // thread there is nothing to race with.
    const bool alone = exec_.concurrency() == 1;
    const std::int64_t allowed = atomic_ || alone ? 0 : std::max<std::int64_t>(increments_ - 1, 0);
    exp::Verdict v;
    v.ok = calls_ > 0 && fewest_lost_ >= 0 && most_lost_ <= allowed;
    v.summary = v.ok ? "ok" : fmt::format("FAILED (lost {} of {}, {} allowed)", most_lost_, increments_, allowed);
    const double share = increments_ > 0 ? 100.0 * static_cast<double>(most_lost_) / increments_ : 0.0;
    v.cells = {{"lost updates", fewest_lost_ == most_lost_ ? fmt::format("{}", most_lost_)
                                                          : fmt::format("{}-{}", fewest_lost_, most_lost_)},
               {"lost, worst call", fmt::format("{:.1f}%", share)}};
    v.details = {{"lost_fewest", fewest_lost_}, {"lost_most", most_lost_}, {"calls", calls_},
                 {"threads", exec_.concurrency()}};
    return v;
  }

 private:
  std::int64_t increments_;
  bool atomic_;
  Space exec_;
  counter::Counter<typename Space::memory_space> counter_;
  typename counter::Counter<typename Space::memory_space>::HostMirror host_;
  std::int64_t fewest_lost_ = std::numeric_limits<std::int64_t>::max(), most_lost_ = -1, calls_ = 0;
};

template <class Space>
exp::Variant on_space(bool atomic) {
  exp::Variant v{atomic ? "atomic" : "racy"};
  v.moves = "none (the counter lives in the space's memory; it is read and reset outside the clock)";
  v.first_call = is_device_space_v<Space> ? "module load" : "";
  v.footprint = [](const Size&) { return exp::Footprint{sizeof(counter::Count), 0}; };
  v.make = exp::case_of<CounterCase<Space>, Problem>(atomic);
  return exp::on<Space>(v);
}

}  // namespace

exp::Experiment counter(const exp::Notes& notes) {
  exp::Experiment e = exp::stated(notes);
  e.rate_in_elements = true;
  e.sizes = {Size{1000000}};
  e.test_sizes = {Size{0}, Size{1}, Size{2}, Size{1000}, Size{100003}};
  e.traffic = [](const Size&) { return Traffic{}; };  // one counter: no bytes that scale with the size
  e.problem_bytes = [](const Size&) { return std::uint64_t{0}; };
  e.make_problem = [](const Size& s, const exp::Settings&) {
    auto p = std::make_shared<Problem>();
    p->increments = s.elements();
    return p;
  };
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    e.variants.push_back(on_space<Space>(false));
    e.variants.push_back(on_space<Space>(true));
  });
  return e;
}

}  // namespace nbk::experiments
