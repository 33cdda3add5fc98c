// The driver, sweeping sizes for the crossover of host and device (driver.hpp).
#include "nbk/experiment/driver.hpp"

#include <iostream>
#include <stdexcept>

namespace nbk::exp {

namespace {

const Variant* find_variant(const Experiment& experiment, const std::string& name, const std::string& space) {
  for (const auto& v : experiment.variants)
    if (v.name == name && v.space == space) return &v;
  return nullptr;
}

}  // namespace

std::pair<const Variant*, const Variant*> sweep_variants(const Experiment& experiment, const Sweep& plan) {
  const Variant* host = find_variant(experiment, plan.host_variant.name(), has_openmp ? "openmp" : "serial");
  if (!host) throw std::logic_error("sweep: no variant " + plan.host_variant.name() + " on a host space");
  return {host, has_cuda ? find_variant(experiment, plan.device_variant.name(), "cuda") : nullptr};
}

namespace {

double transfers_best(const Result& r) { return r.with_transfers.best; }
double steady_best(const Result& r) { return r.steady.best; }

// The smallest size from which `device` beats `host` at every larger size.
template <class Time>
std::optional<Size> crossover(const std::vector<SweepPoint>& points, bool with_transfers, Time device_time) {
  std::optional<Size> from;
  for (const auto& p : points) {
    const Result& d = with_transfers ? p.device_with_transfers : p.device;
    const bool wins = d.skipped.empty() && p.host.skipped.empty() && device_time(d) < p.host.steady.best;
    if (!wins)
      from.reset();
    else if (!from)
      from = p.size;
  }
  return from;
}

}  // namespace

std::vector<Size> sweep_sizes(const Experiment& experiment, const Sweep& plan, std::int64_t max_elements) {
  std::vector<Size> sizes;
  for (const Size& size : plan.sizes)
    if (max_elements == 0 || size.elements() <= max_elements) sizes.push_back(size);
  if (max_elements == 0 || plan.sizes.empty()) return sizes;
  int k = 0;
  while (k < 62 && (std::int64_t{1} << k) <= plan.sizes.back().elements()) ++k;
  for (; k <= 62 && (std::int64_t{1} << k) <= max_elements; ++k) sizes.push_back(power_of_two_size(k, experiment.rank));
  return sizes;
}

SweepResult run_sweep(const Experiment& experiment, const Sweep& plan, const Settings& settings,
                      std::int64_t max_elements, double budget_s) {
  SweepResult sweep;
  sweep.plan = plan;
  const auto [host, device] = sweep_variants(experiment, plan);
  sweep.host_space = host->space;
  if (device) sweep.device_space = "cuda";

  for (const Size& size : sweep_sizes(experiment, plan, max_elements)) {
    std::cerr << "sweep " << experiment.name << " " << plan.host_variant.name() << " " << size.text() << " ...\n";
    const auto problem = problem_in_region(experiment, size, settings);
    SweepPoint point;
    point.size = size;
    point.host = run_variant(experiment, *host, *problem, size, plan.repetitions, budget_s);
    if (device) {
      // One case gives both device series: its steady state is resident, and its
      // with-transfers timing adds the copies in and out.
      point.device = run_variant(experiment, *device, *problem, size, plan.repetitions, budget_s);
      point.device_with_transfers = point.device;
    } else {
      point.device.skipped = point.device_with_transfers.skipped = "no device in this build";
    }
    for (const Result* r : {&point.host, &point.device})
      if (r->skipped.empty() && !r->verdict.ok) sweep.verified = false;
    sweep.points.push_back(std::move(point));
  }
  if (device) {
    sweep.resident_crossover = crossover(sweep.points, false, steady_best);
    sweep.transfers_crossover = crossover(sweep.points, true, transfers_best);
  }
  return sweep;
}

}  // namespace nbk::exp
