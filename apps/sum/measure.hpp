#pragma once
// Runs the sum variants on one execution space: times each (resident, and with the upload),
// and measures every result it returns against the exact sum.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "nbk/exact_sum.hpp"
#include "nbk/memory.hpp"
#include "nbk/repeat.hpp"
#include "nbk/spaces.hpp"
#include "nbk/sum.hpp"
#include "nbk/sum_accuracy.hpp"

namespace nbk::sum_app {

using HostData = Kokkos::View<const float*, Kokkos::HostSpace>;

struct Reference {
  ExactSum exact;
  long double value = 0;
  SumScale scale;
};

struct Row {
  std::string variant, space, accumulator, shape;
  std::string skipped;          // why it did not run; empty when it did
  RepeatedTiming resident;      // the reduction alone, data already in the space's memory
  RepeatedTiming upload;        // deep_copy host -> space, then the reduction (repetitions 0: n/a)
  double result = 0;            // the call whose error was largest (all calls are checked)
  long double error = 0;        // result - exact
  bool reproducible = true;     // every call returned the same bits
  double digits = 0;            // -log10 |error / exact|
  double tolerance = 0;
  bool ok = false;
};

// Collects the results of every call of one variant and keeps the worst.
class Tracker {
 public:
  explicit Tracker(const Reference& reference) : reference_(reference) {}
  void record(double value) {
    const long double error = reference_.exact.error_of(value);
    if (calls_ == 0) first_ = value;
    if (calls_ > 0 && !(value == first_ || (std::isnan(value) && std::isnan(first_)))) reproducible_ = false;
    if (calls_ == 0 || !(std::fabs(error) <= std::fabs(worst_error_))) {
      worst_error_ = error;
      worst_ = value;
    }
    ++calls_;
  }
  void finish(Row& row, double unit_roundoff) const {
    row.result = worst_;
    row.error = worst_error_;
    row.reproducible = reproducible_;
    row.digits = correct_digits(worst_error_, reference_.value);
    row.tolerance = sum_tolerance(reference_.scale, unit_roundoff);
    row.ok = calls_ > 0 && std::fabs(worst_error_) <= row.tolerance;
  }

 private:
  const Reference& reference_;
  int calls_ = 0;
  double first_ = 0, worst_ = 0;
  long double worst_error_ = 0;
  bool reproducible_ = true;
};

inline constexpr const char* host_space_label = "host";

// The document's CPU line, on the host array itself.
inline Row run_host_loop(const HostData& host, const Reference& reference, int repetitions) {
  Row row{"host-loop", host_space_label, "float", "1 thread, in order"};
  Tracker tracker(reference);
  const Index n = static_cast<Index>(host.extent(0));
  row.resident = time_repeated("sum host-loop", repetitions, [&] { tracker.record(sum::host_loop(host.data(), n)); });
  tracker.finish(row, unit_roundoff<float>());
  return row;
}

template <class Space>
std::vector<Row> run_space(const HostData& host, const Reference& reference, const std::set<std::string>& wanted,
                           int repetitions) {
  const std::string space(space_name<Space>());
  const Index n = static_cast<Index>(host.extent(0));
  Space exec;
  const sum::TreeShape shape = sum::default_tree_shape(exec, n);
  const std::string shape_text = std::to_string(shape.league) + " teams x " + std::to_string(shape.team_size) + (shape.team_size == 1 ? " thread" : " threads");
  struct Plan {
    const char* name;
    const char* accumulator;
    std::string shape;
  };
  std::vector<Plan> plans;
  for (Plan p : {Plan{"builtin", "float", "Kokkos"}, Plan{"tree-host", "float", shape_text},
                 Plan{"tree-device", "float", shape_text}, Plan{"accurate", "double", "Kokkos"}})
    if (wanted.count(p.name)) plans.push_back(p);

  std::vector<Row> rows;
  if (plans.empty()) return rows;
  if constexpr (is_device_space_v<Space>) {
    const auto bytes = static_cast<std::uint64_t>(n) * sizeof(float) + static_cast<std::uint64_t>(shape.league) * sizeof(float);
    if (auto why = device_shortfall(bytes); !why.empty()) {
      for (const auto& p : plans) rows.push_back(Row{p.name, space, p.accumulator, p.shape, why});
      return rows;
    }
  }

  Kokkos::View<float*, typename Space::memory_space> x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::sum::data"), n);
  Kokkos::deep_copy(exec, x, host);
  nbk::fence(exec, "nbk::sum upload");
  sum::TreeSum<Space> tree(exec, shape);

  for (const auto& p : plans) {
    const std::string variant = p.name;
    auto reduce = [&]() -> double {
      if (variant == "builtin") return sum::builtin_sum(exec, x);
      if (variant == "tree-host") return tree.finish_on_host(x);
      if (variant == "tree-device") return tree.finish_on_device(x);
      return sum::accurate_sum(exec, x);
    };
    Row row{variant, space, p.accumulator, p.shape};
    Tracker tracker(reference);
    const std::string label = "sum " + variant + " " + space;
    row.resident = time_repeated(label, repetitions, [&] { tracker.record(reduce()); });
    row.upload = time_repeated(label + " with upload", repetitions, [&] {
      Kokkos::deep_copy(exec, x, host);
      tracker.record(reduce());
    });
    tracker.finish(row, variant == "accurate" ? unit_roundoff<double>() : unit_roundoff<float>());
    rows.push_back(row);
  }
  return rows;
}

}  // namespace nbk::sum_app
