// Seed 001: the sum of 2^27 - 157 float32 samples of N(0, 1) by one host thread, by
// parallel_reduce, by a hand-written team-scratch tree (finished on the host or on the
// space), with a double accumulator, and blocked; each timed and measured against the
// exact sum.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <stdexcept>

#include "nbk/core/exact_sum.hpp"
#include "nbk/core/memory.hpp"
#include "nbk/core/random_data.hpp"
#include "nbk/core/vendor_reduce.hpp"
#include "nbk/experiment/across_ranks.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/notes.hpp"
#include "notes_outline.hpp"  // generated from notes.md (lib/CMakeLists.txt)
#include "nbk/experiment/scalar_case.hpp"
#include "nbk/report/table.hpp"
#include "nbk/sum/accuracy.hpp"
#include "nbk/sum/kernels.hpp"

namespace nbk::experiments {

namespace {

using exp::Size;

// The samples of this process: under MPI ranks, only this rank's slice of the array (each
// rank draws its own from the seed, so memory shrinks with ranks), on one process all of it.
// The exact sum and the scale are the whole array's on every rank.
struct Problem final : exp::Problem {
  exp::Prose<2> ranks_text;  // notes.md, section "## Input under MPI": the ranks and the largest slice
  std::uint64_t seed = 0;
  Index total = 0;      // samples in the whole array
  ranks::Slice slice;   // this rank's part of it
  Kokkos::View<float*, Kokkos::HostSpace> host;  // the slice's samples
  ExactSum exact;
  long double value = 0;
  SumScale scale;

  Index size() const { return total; }
  // The one-process variants need every sample (under MPI they run only on one rank).
  const Problem& whole() const {
    if (slice.size() != total) throw std::logic_error("nbk-sum: a one-process variant given one rank's slice");
    return *this;
  }
  void describe(std::ostream& out) const override {
    const auto exact_value = static_cast<double>(value);
    out << fmt::format("sum of {} float32 samples of N(0,1), seed {} ({})\n", size(), seed,
                       format_bytes(static_cast<std::uint64_t>(size()) * sizeof(float)));
    if (const int count = ranks::count(); count > 1) {
      const auto largest = static_cast<std::uint64_t>(ranks::slice_of(total, 0, count).size()) * sizeof(float);
      out << ranks_text(count, format_bytes(largest));
    }
    out << fmt::format("exact sum (integer fixed-point accumulator on the host): {:.15g}\n", exact_value);
    out << fmt::format("sum |x| = {:.6g}; largest |prefix sum| = {:.6g}; condition number sum|x| / |sum| = {:.3g}\n",
                       scale.sum_abs, scale.max_prefix,
                       exact_value != 0 ? scale.sum_abs / std::fabs(exact_value) : INFINITY);
  }
  nlohmann::json to_json() const override {
    return {{"element_type", "float32"},
            {"distribution", "N(0,1), Marsaglia polar method on std::mt19937_64 blocks"},
            {"seed", seed},
            {"exact_sum", static_cast<double>(value)},
            {"sum_abs", scale.sum_abs},
            {"max_abs_prefix_sum", scale.max_prefix}};
  }
};

// The exact sum and the scale of the whole array, from this rank's slice (collective). The
// ranks' exact accumulators add limb by limb, without rounding; each rank's prefix sums start
// from the sum of the slices below it.
void set_reference(Problem& p) {
  const float* x = p.host.data();
  const Index m = p.slice.size();
  ExactSum::State state = exact_sum(x, m).state();
  ranks::sum(state.limbs.data(), ExactSum::limb_count);
  state.nonfinite = ranks::sum(state.nonfinite);
  state.has_nonfinite = !ranks::all(!state.has_nonfinite);
  p.exact = ExactSum::from_state(state);
  p.value = p.exact.value();
  double below = 0;
  if (ranks::count() > 1) {
    double mine = 0;
    for (Index i = 0; i < m; ++i) mine += static_cast<double>(x[i]);
    below = ranks::exclusive_sum(mine);
  }
  const SumScale local = sum_scale(x, m, below);
  p.scale = {p.total, ranks::sum(local.sum_abs), ranks::max(local.max_prefix)};
}

std::string digits_text(double digits) {
  if (std::isinf(digits)) return "exact";
  if (std::isnan(digits)) return "-";
  return fmt::format("{:.1f}", digits);
}

// Every result of every call is measured against the exact sum; the worst one is reported.
class Tracker {
 public:
  Tracker(const Problem& problem, double unit_roundoff, std::string accumulator, std::string shape)
      : problem_(problem), u_(unit_roundoff), accumulator_(std::move(accumulator)), shape_(std::move(shape)) {}

  void record(double value) {
    const long double error = problem_.exact.error_of(value);
    if (calls_ == 0) first_ = value;
    if (calls_ > 0 && !(value == first_ || (std::isnan(value) && std::isnan(first_)))) reproducible_ = false;
    if (calls_ == 0 || !(std::fabs(error) <= std::fabs(worst_error_))) {
      worst_error_ = error;
      worst_ = value;
    }
    ++calls_;
  }

  exp::Verdict verdict() const {
    exp::Verdict v;
    const double digits = correct_digits(worst_error_, problem_.value);
    const double tolerance = sum_tolerance(problem_.scale, u_);
    v.ok = calls_ > 0 && std::fabs(worst_error_) <= tolerance;
    v.summary = std::string(v.ok ? "ok" : "FAILED") + (reproducible_ ? "" : " (varies)");
    v.cells = {{"acc", accumulator_},
               {"result", fmt::format("{:.{}f}", worst_, accumulator_ == "float" ? 4 : 10)},
               {"error", fmt::format("{:+.2e}", static_cast<double>(worst_error_))},
               {"digits", digits_text(digits)},
               {"tolerance", fmt::format("{:.1e}", tolerance)}};
    v.details = {{"accumulator", accumulator_},  {"shape", shape_},        {"result", worst_},
                 {"error", static_cast<double>(worst_error_)}, {"tolerance", tolerance},
                 {"reproducible", reproducible_}};
    if (std::isfinite(digits)) v.details["digits"] = digits;
    return v;
  }

 private:
  const Problem& problem_;
  double u_;
  std::string accumulator_, shape_;
  int calls_ = 0;
  double first_ = 0, worst_ = 0;
  long double worst_error_ = 0;
  bool reproducible_ = true;
};

// The document's CPU line, on the host array itself.
class HostLoop final : public exp::Case {
 public:
  explicit HostLoop(const Problem& p)
      : p_(p.whole()), tracker_(p, unit_roundoff<float>(), "float", "1 thread, in order") {}
  void run() override { result_ = sum::host_loop(p_.host.data(), p_.size()); }
  void record() override { tracker_.record(result_); }
  exp::Verdict verdict() override { return tracker_.verdict(); }

 private:
  const Problem& p_;
  Tracker tracker_;
  double result_ = 0;
};

// The samples in the space's memory, and what the variants' calls keep between calls: the
// tree's partials and the vendor's scratch.
template <class Space>
struct Data : exp::ArrayInSpace<Space, float> {
  explicit Data(const Problem& p)
      : exp::ArrayInSpace<Space, float>("nbk::sum::data", p.whole().host),
        tree(this->exec, sum::default_tree_shape(this->exec, p.size())) {}
  sum::TreeSum<Space> tree;
  VendorReduce<Space> vendor;
};

// What the Tracker says a variant runs as.
template <class Space>
std::string kokkos_shape(const Data<Space>&) {
  return "Kokkos";
}
template <class Space>
std::string tree_shape(const Data<Space>& d) {
  const auto& shape = d.tree.shape();
  return fmt::format("{} teams x {} thread{}", shape.league, shape.team_size, shape.team_size == 1 ? "" : "s");
}

// A variant on one space: its name, its call, and what it is measured as.
template <class Space>
struct Row {
  const char* name;
  const char* moves;
  double (*call)(Data<Space>&);
  std::string (*shape)(const Data<Space>&);
  bool double_accumulator = false;
};

// The tracker of a float or a double accumulator.
Tracker tracker(const Problem& p, bool double_accumulator, std::string shape) {
  return double_accumulator ? Tracker(p, unit_roundoff<double>(), "double", std::move(shape))
                            : Tracker(p, unit_roundoff<float>(), "float", std::move(shape));
}

// One reduction on one space over a copy of the samples in the space's memory; the
// with-transfers timing copies the samples in first.
template <class Space>
exp::Variant variant_on(const Row<Space>& row) {
  exp::Variant v{row.name};
  v.moves = std::string(row.moves) + "; data resident";
  v.first_call = is_device_space_v<Space> ? "module load" : "";
  v.timed_with_transfers = true;
  v.footprint = exp::arrays_of<Space, float>(1);
  v.make = exp::maker<Problem>([row](const Problem& p, const Size&) {
    auto data = std::make_unique<Data<Space>>(p);
    Tracker judge = tracker(p, row.double_accumulator, row.shape(*data));
    return exp::scalar_case(std::move(data), row.call, std::move(judge));
  });
  return exp::on<Space>(v);
}

// The sum split across MPI ranks: each rank reduces its slice on its space, then
// MPI_Allreduce adds the partials (in the accumulator's type, Acc) and gives every rank the
// sum. The call is both; the kernel and the Allreduce are also timed apart on every rank. The
// kernel's figure is the slowest rank's. A rank that finishes its kernel early waits inside
// the Allreduce for the last one, so the communication's figure is the last rank's time in it
// (the fewest over the ranks): the exchange itself, without the wait.
template <class Space, class Acc>
class AcrossRanks final : public exp::Case {
 public:
  AcrossRanks(const Problem& p, double (*local)(exp::ArrayInSpace<Space, float>&))
      : local_(local),
        n_(p.size()),
        slice_(std::make_unique<exp::ArrayInSpace<Space, float>>("nbk::sum::slice", p.host)),
        tracker_(tracker(p, std::is_same_v<Acc, double>, "slices on " + std::to_string(ranks::count()) + " ranks")) {}
  void run() override {
    Kokkos::Timer timer;  // a reduction into a host value returns when it is done
    const Acc local = static_cast<Acc>(local_(*slice_));
    kernel_ = timer.seconds();
    result_ = ranks::sum(local);
    communication_ = timer.seconds() - kernel_;
  }
  void record() override {
    kernel_best_ = std::min(kernel_best_, ranks::max(kernel_));
    communication_best_ = std::min(communication_best_, ranks::min(communication_));
    tracker_.record(result_);
  }
  exp::Verdict verdict() override {
    exp::Verdict v = exp::merged_over_ranks(tracker_.verdict());
    exp::describe_split(v, ranks::slice_of(n_, 0, ranks::count()).size());
    v.cells.emplace_back("kernel", format_seconds(kernel_best_));
    v.cells.emplace_back("comm", format_seconds(communication_best_));
    v.details["kernel_best_s"] = kernel_best_;
    v.details["communication_best_s"] = communication_best_;
    return v;
  }

 private:
  double (*local_)(exp::ArrayInSpace<Space, float>&);
  std::int64_t n_;
  std::unique_ptr<exp::ArrayInSpace<Space, float>> slice_;
  Tracker tracker_;
  double result_ = 0, kernel_ = 0, communication_ = 0;
  double kernel_best_ = INFINITY, communication_best_ = INFINITY;
};

template <class Space>
double builtin(exp::ArrayInSpace<Space, float>& d) {
  return sum::builtin_sum(d.exec, d.x);
}
template <class Space>
double accurate(exp::ArrayInSpace<Space, float>& d) {
  return sum::accurate_sum(d.exec, d.x);
}

template <class Space, class Acc>
exp::Variant across_ranks(const char* name, const char* moves) {
  exp::Variant v{name};
  v.moves = std::string(moves) + "; data resident";
  v.first_call = is_device_space_v<Space> ? "module load" : "";
  v.distributed = true;
  v.footprint = [](const Size& s) {
    return exp::arrays_of<Space, float>(1)(Size{ranks::my_slice(s.elements()).size()});
  };
  v.make = exp::maker<Problem>([](const Problem& p, const Size&) {
    return std::make_unique<AcrossRanks<Space, Acc>>(p, std::is_same_v<Acc, double> ? accurate<Space> : builtin<Space>);
  });
  return exp::on<Space>(v);
}

template <class Space>
void add_variants(std::vector<exp::Variant>& variants) {
  std::vector<Row<Space>> rows = {
      {"builtin", "parallel_reduce with Kokkos' Sum, float accumulator (four 16-byte loads a call on a GPU)", [](Data<Space>& d) { return builtin<Space>(d); },
       kokkos_shape<Space>},
      {"tree-host", "team-scratch halving tree, the partials copied to the host and added there",
       [](Data<Space>& d) { return double(d.tree.finish_on_host(d.x)); }, tree_shape<Space>},
      {"tree-device", "the same tree, partials added by a second reduction on the space",
       [](Data<Space>& d) { return double(d.tree.finish_on_device(d.x)); }, tree_shape<Space>},
      {"accurate", "parallel_reduce over the floats with a double accumulator",
       [](Data<Space>& d) { return accurate<Space>(d); }, kokkos_shape<Space>, true},
  };
  // A CPU sum: on a GPU one thread walking 1 KiB of contiguous floats breaks coalescing, and
  // the tree and the built-in reduction are the right shapes there.
  if (!is_device_space_v<Space>)
    rows.push_back({"blocked", "blocks of 1024 floats as 64 vectorized lanes, added pairwise; double across blocks",
                    [](Data<Space>& d) { return sum::blocked_sum(d.exec, d.x); },
                    [](const Data<Space>& d) { return sum::blocked_shape_text(d.exec); }});
  if (has_vendor_reduction<Space>)
    rows.push_back({"cub", "cub::DeviceReduce::Sum: the vendor's reduction, outside Kokkos",
                    [](Data<Space>& d) { return double(d.vendor.sum(d.x)); },
                    [](const Data<Space>&) { return std::string("cub::DeviceReduce::Sum"); }});
  for (const Row<Space>& row : rows) {
    exp::Variant v = variant_on(row);
    if (row.shape == kokkos_shape<Space>) v.below_memcpy_because = kokkos34_reduce_launch;
    variants.push_back(v);
  }
  if constexpr (ranks::enabled) {
    variants.push_back(across_ranks<Space, float>(
        "ranks-builtin", "parallel_reduce on each rank's slice, float accumulator; MPI_Allreduce of the float partials"));
    variants.push_back(across_ranks<Space, double>(
        "ranks-accurate", "the double accumulator on each rank's slice; MPI_Allreduce of the double partials"));
  }
}

void explain(std::ostream& out, const exp::Problem& problem, const exp::Notes& notes) {
  const auto& p = static_cast<const Problem&>(problem);
  const auto figures = NBK_PROSE(notes.section, "## Notes with the run's figures");
  out << '\n'
      << figures(p.scale.max_prefix, static_cast<double>(p.value), p.scale.max_prefix * unit_roundoff<float>(),
                 static_cast<double>(p.size() - 1) * unit_roundoff<float>() * p.scale.sum_abs, std::sqrt(2048.0));
  if (ranks::enabled) out << '\n' << notes.section(NBK_HEADING("## Notes under MPI"));
}

}  // namespace

exp::Experiment sum(const exp::Notes& notes) {
  exp::Experiment e = exp::stated(notes);
  e.sizes = {Size{(std::int64_t{1} << 27) - 157}};
  e.test_sizes = {Size{0}, Size{1}, Size{2}, Size{255}, Size{257}, Size{100003}};
  e.seeded = true;
  e.traffic = [](const Size& s) { return read_traffic<float>(s.elements()); };
  e.problem_bytes = [](const Size& s) {
    return static_cast<std::uint64_t>(ranks::my_slice(s.elements()).size()) * sizeof(float);
  };
  e.make_problem = [notes](const Size& s, const exp::Settings& settings) {
    auto p = std::make_shared<Problem>();
    p->ranks_text = NBK_PROSE(notes.section, "## Input under MPI");
    p->seed = settings.seed;
    p->total = s.elements();
    p->slice = ranks::my_slice(p->total);
    p->host = standard_normal_floats(p->slice.begin, p->slice.end, settings.seed);
    set_reference(*p);
    return p;
  };
  exp::Variant host_loop{"host-loop"};
  host_loop.space = "host";
  host_loop.moves = "one host thread, in index order, float accumulator, on the host array";
  host_loop.make = exp::maker<Problem>([](const Problem& p, const Size&) { return std::make_unique<HostLoop>(p); });
  e.variants.push_back(host_loop);
  for_each_enabled_space([&](auto tag) { add_variants<typename decltype(tag)::type>(e.variants); });
  e.explain = [notes](std::ostream& out, const exp::Problem& p) { explain(out, p, notes); };
  return e;
}

}  // namespace nbk::experiments
