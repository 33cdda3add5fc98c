// The driver, estimating the work a request asks for before it starts (driver.hpp).
#include "nbk/experiment/driver.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace nbk::exp {

namespace {

double seconds_of_calls(const Experiment& experiment, const Variant& variant, const Size& size, int repetitions) {
  const Traffic t = traffic_of(experiment, variant, size);
  const double call = std::max({static_cast<double>(t.total()) / assumed_bytes_per_s,
                                static_cast<double>(t.flops) / assumed_flops_per_s,
                                static_cast<double>(size.elements()) / assumed_elements_per_s});
  return call * (repetitions + 1) * (variant.timed_with_transfers ? 2 : 1);
}

}  // namespace

std::string assumed_rates_text() {
  return fmt::format("{:g} GB/s, {:g} GFLOP/s or {:g} elements/s, whichever is slowest", assumed_bytes_per_s * 1e-9,
                     assumed_flops_per_s * 1e-9, assumed_elements_per_s);
}

double estimated_seconds(const Experiment& experiment, const std::vector<const Variant*>& variants,
                         const std::vector<Size>& sizes, int repetitions, std::optional<std::int64_t> sweep_max) {
  double seconds = 0;
  for (const Size& size : sizes)
    for (const Variant* v : variants) seconds += seconds_of_calls(experiment, *v, size, repetitions);
  if (sweep_max)
    for (const Sweep& plan : experiment.sweeps) {
      const auto [host, device] = sweep_variants(experiment, plan);
      for (const Size& size : sweep_sizes(experiment, plan, *sweep_max))
        for (const Variant* v : {host, device})
          if (v) seconds += seconds_of_calls(experiment, *v, size, plan.repetitions);
    }
  return seconds;
}

}  // namespace nbk::exp
