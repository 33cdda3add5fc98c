// The driver, estimating the work a request asks for before it starts (driver.hpp).
#include "nbk/experiment/driver.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace nbk::exp {

namespace {

// A call's time at the assumed rates: its bytes or its flops, whichever takes longer; where it
// counts no flops, also its elements (a random draw, a bin: work that neither counts). A size's
// elements are not always data: matmul's are its m n p terms, two flops each, which the flops
// already weigh (at 1e8 elements a second, 10.7 s a call of 1024^3 where the GPU takes 78 us).
double seconds_of_calls(const Experiment& experiment, const Variant& variant, const Size& size, int repetitions) {
  const Traffic t = traffic_of(experiment, variant, size);
  const double elements = t.flops ? 0.0 : static_cast<double>(size.elements()) / assumed_elements_per_s;
  const double call = std::max({static_cast<double>(t.total()) / assumed_bytes_per_s,
                                static_cast<double>(t.flops) / assumed_flops_per_s, elements});
  return call * (repetitions + 1) * (variant.timed_with_transfers ? 2 : 1);
}

}  // namespace

std::string assumed_rates_text() {
  return fmt::format("{:g} GB/s or {:g} GFLOP/s, whichever is slowest ({:g} elements/s where no flops are counted)",
                     assumed_bytes_per_s * 1e-9, assumed_flops_per_s * 1e-9, assumed_elements_per_s);
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
