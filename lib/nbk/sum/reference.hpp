#pragma once
// What every sum is checked against: the exact sum of the whole array and its scale, made on the
// host from this rank's slice (collective under MPI ranks), and the judge that measures every
// call's result against them (the tolerance and the digits are accuracy.hpp's).
#include <fmt/format.h>

#include <cmath>
#include <string>
#include <utility>

#include "nbk/core/compat.hpp"
#include "nbk/core/exact_sum.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/ranks/ranks.hpp"
#include "nbk/sum/accuracy.hpp"

namespace nbk::sum {

struct Reference {
  ExactSum exact;
  long double value = 0;
  SumScale scale;
};

// The exact sum and the scale of the whole array of `total` samples, from this rank's slice x[0, m)
// (collective). The ranks' exact accumulators add limb by limb, without rounding; each rank's
// prefix sums start from the sum of the slices below it.
inline Reference reference_of(const float* x, Index m, Index total) {
  ExactSum::State state = exact_sum(x, m).state();
  ranks::sum(state.limbs.data(), ExactSum::limb_count);
  state.nonfinite = ranks::sum(state.nonfinite);
  state.has_nonfinite = !ranks::all(!state.has_nonfinite);
  Reference r;
  r.exact = ExactSum::from_state(state);
  r.value = r.exact.value();
  double below = 0;
  if (ranks::count() > 1) {
    double mine = 0;
    for (Index i = 0; i < m; ++i) mine += static_cast<double>(x[i]);
    below = ranks::exclusive_sum(mine);
  }
  const SumScale local = sum_scale(x, m, below);
  r.scale = {total, ranks::sum(local.sum_abs), ranks::max(local.max_prefix)};
  return r;
}

inline std::string digits_text(double digits) {
  if (std::isinf(digits)) return "exact";
  if (std::isnan(digits)) return "-";
  return fmt::format("{:.1f}", digits);
}

// Every result of every call is measured against the exact sum; the worst one is reported.
class Judge {
 public:
  Judge(const Reference& reference, bool double_accumulator, std::string shape)
      : reference_(reference),
        u_(double_accumulator ? unit_roundoff<double>() : unit_roundoff<float>()),
        accumulator_(double_accumulator ? "double" : "float"),
        shape_(std::move(shape)) {}

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

  exp::Verdict verdict() const {
    exp::Verdict v;
    const double digits = correct_digits(worst_error_, reference_.value);
    const double tolerance = sum_tolerance(reference_.scale, u_);
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
  const Reference& reference_;
  double u_;
  std::string accumulator_, shape_;
  int calls_ = 0;
  double first_ = 0, worst_ = 0;
  long double worst_error_ = 0;
  bool reproducible_ = true;
};

}  // namespace nbk::sum
