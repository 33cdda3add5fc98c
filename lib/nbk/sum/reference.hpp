#pragma once
// What every sum is checked against: the exact sum of the whole array and its scale, made on the
// host from this rank's slice (collective under MPI ranks), and the verdict that measures every
// call's result against them (the tolerance and the digits are accuracy.hpp's).
#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

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

// Every result of every call measured against the exact sum; the worst one is reported. `shape`:
// how the row reduced, for the JSON.
template <class Value>
exp::Verdict accuracy_verdict(const Reference& reference, bool double_accumulator, const std::string& shape,
                              const std::vector<Value>& values) {
  long double worst_error = 0;
  double worst = 0;
  bool reproducible = true;
  for (std::size_t k = 0; k < values.size(); ++k) {
    const auto value = static_cast<double>(values[k]), first = static_cast<double>(values[0]);
    const long double error = reference.exact.error_of(value);
    if (k > 0 && !(value == first || (std::isnan(value) && std::isnan(first)))) reproducible = false;
    if (k == 0 || !(std::fabs(error) <= std::fabs(worst_error))) {
      worst_error = error;
      worst = value;
    }
  }
  const std::string accumulator = double_accumulator ? "double" : "float";
  const double digits = correct_digits(worst_error, reference.value);
  const double tolerance =
      sum_tolerance(reference.scale, double_accumulator ? unit_roundoff<double>() : unit_roundoff<float>());
  exp::Verdict v;
  v.ok = !values.empty() && std::fabs(worst_error) <= tolerance;
  v.summary = std::string(v.ok ? "ok" : "FAILED") + (reproducible ? "" : " (varies)");
  v.cells = {{"acc", accumulator},
             {"result", fmt::format("{:.{}f}", worst, double_accumulator ? 10 : 4)},
             {"error", fmt::format("{:+.2e}", static_cast<double>(worst_error))},
             {"digits", digits_text(digits)},
             {"tolerance", fmt::format("{:.1e}", tolerance)}};
  v.details = {{"accumulator", accumulator},  {"shape", shape},          {"result", worst},
               {"error", static_cast<double>(worst_error)}, {"tolerance", tolerance},
               {"reproducible", reproducible}};
  if (std::isfinite(digits)) v.details["digits"] = digits;
  return v;
}

}  // namespace nbk::sum
