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
  std::string ranks_text;  // notes.md, section "## Input under MPI"
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
      out << fmt::format(fmt::runtime(ranks_text), count, format_bytes(largest));
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

enum class Kind { builtin, tree_host, tree_device, accurate, blocked, cub };

// One reduction on one space over a copy of the samples in the space's memory; the
// with-transfers timing copies the samples in first.
template <class Space>
class OnSpace final : public exp::Case {
 public:
  OnSpace(const Problem& p, Kind kind)
      : p_(p.whole()),
        kind_(kind),
        x_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::sum::data"), p.size()),
        tree_(exec_, sum::default_tree_shape(exec_, p.size())),
        tracker_(p, kind == Kind::accurate ? unit_roundoff<double>() : unit_roundoff<float>(),
                 kind == Kind::accurate ? "double" : "float", shape_text()) {
    upload();
    nbk::fence(exec_, "nbk::sum upload");
  }
  void upload() override { Kokkos::deep_copy(exec_, x_, p_.host); }
  void run() override {
    switch (kind_) {
      case Kind::builtin: result_ = sum::builtin_sum(exec_, x_); break;
      case Kind::tree_host: result_ = tree_.finish_on_host(x_); break;
      case Kind::tree_device: result_ = tree_.finish_on_device(x_); break;
      case Kind::accurate: result_ = sum::accurate_sum(exec_, x_); break;
      case Kind::blocked: result_ = sum::blocked_sum(exec_, x_); break;
      case Kind::cub: result_ = vendor_.sum(x_); break;
    }
  }
  void record() override { tracker_.record(result_); }
  exp::Verdict verdict() override { return tracker_.verdict(); }

 private:
  std::string shape_text() const {
    switch (kind_) {
      case Kind::tree_host:
      case Kind::tree_device:
        return fmt::format("{} teams x {} thread{}", tree_.shape().league, tree_.shape().team_size,
                           tree_.shape().team_size == 1 ? "" : "s");
      case Kind::blocked: return sum::blocked_shape_text(exec_);
      case Kind::cub: return "cub::DeviceReduce::Sum";
      default: return "Kokkos";
    }
  }

  const Problem& p_;
  Kind kind_;
  Space exec_;
  Kokkos::View<float*, typename Space::memory_space> x_;
  sum::TreeSum<Space> tree_;
  VendorReduce<Space> vendor_;
  Tracker tracker_;
  double result_ = 0;
};

// The sum split across MPI ranks: each rank reduces its slice on its space, then
// MPI_Allreduce adds the partials (in the accumulator's type) and gives every rank the sum.
// The call is both; the kernel and the Allreduce are also timed apart on every rank. The
// kernel's figure is the slowest rank's. A rank that finishes its kernel early waits inside
// the Allreduce for the last one, so the communication's figure is the last rank's time in it
// (the fewest over the ranks): the exchange itself, without the wait.
template <class Space>
class AcrossRanks final : public exp::Case {
 public:
  AcrossRanks(const Problem& p, Kind kind)
      : kind_(kind),
        n_(p.size()),
        x_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::sum::slice"), p.slice.size()),
        tracker_(p, kind == Kind::accurate ? unit_roundoff<double>() : unit_roundoff<float>(),
                 kind == Kind::accurate ? "double" : "float", "slices on " + std::to_string(ranks::count()) + " ranks") {
    Kokkos::deep_copy(exec_, x_, p.host);
    nbk::fence(exec_, "nbk::sum slice upload");
  }
  void run() override {
    Kokkos::Timer timer;  // a reduction into a host value returns when it is done
    const double local = kind_ == Kind::accurate ? sum::accurate_sum(exec_, x_) : sum::builtin_sum(exec_, x_);
    kernel_ = timer.seconds();
    result_ = kind_ == Kind::accurate ? ranks::sum(local) : ranks::sum(static_cast<float>(local));
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
  Kind kind_;
  std::int64_t n_;
  Space exec_;
  Kokkos::View<float*, typename Space::memory_space> x_;
  Tracker tracker_;
  double result_ = 0, kernel_ = 0, communication_ = 0;
  double kernel_best_ = INFINITY, communication_best_ = INFINITY;
};

template <class Space>
void add_variants(std::vector<exp::Variant>& variants) {
  struct Row {
    const char* name;
    Kind kind;
    const char* moves;
    const char* document;
  };
  const bool device = is_device_space_v<Space>;
  std::vector<Row> rows = {
      {"builtin", Kind::builtin, "parallel_reduce with Kokkos' Sum, float accumulator", ""},
      {"tree-host", Kind::tree_host, "team-scratch halving tree, the partials copied to the host and added there", ""},
      {"tree-device", Kind::tree_device, "the same tree, partials added by a second reduction on the space", ""},
      {"accurate", Kind::accurate, "parallel_reduce over the floats with a double accumulator", ""},
  };
  // A CPU sum: on a GPU one thread walking 1 KiB of contiguous floats breaks coalescing, and
  // the tree and the built-in reduction are the right shapes there.
  if (!device)
    rows.push_back({"blocked", Kind::blocked,
                    "blocks of 1024 floats as 64 vectorized lanes, added pairwise; double across blocks", ""});
  if (has_vendor_reduction<Space>)
    rows.push_back({"cub", Kind::cub, "cub::DeviceReduce::Sum: the vendor's reduction, outside Kokkos", ""});
  for (const Row& row : rows) {
    exp::Variant v{row.name};
    v.moves = std::string(row.moves) + "; data resident";
    v.first_call = device ? "module load" : "";
    if (row.kind == Kind::builtin || row.kind == Kind::accurate) v.below_memcpy_because = kokkos34_reduce_launch;
    v.timed_with_transfers = true;
    v.footprint = exp::arrays_of<Space, float>(1);
    v.make = exp::case_of<OnSpace<Space>, Problem>(row.kind);
    variants.push_back(exp::on<Space>(v));
  }
  if constexpr (ranks::enabled)
    for (const Row& row : {Row{"ranks-builtin", Kind::builtin, "parallel_reduce on each rank's slice, float "
                                                               "accumulator; MPI_Allreduce of the float partials", ""},
                           Row{"ranks-accurate", Kind::accurate, "the double accumulator on each rank's slice; "
                                                                 "MPI_Allreduce of the double partials", ""}}) {
      exp::Variant v{row.name};
      v.moves = std::string(row.moves) + "; data resident";
      v.first_call = device ? "module load" : "";
      v.distributed = true;
      v.footprint = [](const Size& s) {
        return exp::arrays_of<Space, float>(1)(Size{ranks::my_slice(s.elements()).size()});
      };
      v.make = exp::case_of<AcrossRanks<Space>, Problem>(row.kind);
      variants.push_back(exp::on<Space>(v));
    }
}

void explain(std::ostream& out, const exp::Problem& problem, const exp::Notes& notes) {
  const auto& p = static_cast<const Problem&>(problem);
  out << '\n'
      << fmt::format(fmt::runtime(notes.section("## Notes with the run's figures")), p.scale.max_prefix,
                     static_cast<double>(p.value), p.scale.max_prefix * unit_roundoff<float>(),
                     static_cast<double>(p.size() - 1) * unit_roundoff<float>() * p.scale.sum_abs, std::sqrt(2048.0));
  if (ranks::enabled) out << '\n' << notes.section("## Notes under MPI");
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
    p->ranks_text = notes.section("## Input under MPI");
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
  host_loop.make = exp::case_of<HostLoop, Problem>();
  e.variants.push_back(host_loop);
  for_each_enabled_space([&](auto tag) { add_variants<typename decltype(tag)::type>(e.variants); });
  e.explain = [notes](std::ostream& out, const exp::Problem& p) { explain(out, p, notes); };
  return e;
}

}  // namespace nbk::experiments
