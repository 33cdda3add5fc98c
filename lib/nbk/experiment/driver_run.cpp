// The driver, running one variant: a case made, its calls timed and checked (driver.hpp).
#include "nbk/experiment/driver.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include "nbk/core/memory.hpp"
#include "nbk/core/region.hpp"
#include "nbk/ranks/ranks.hpp"

namespace nbk::exp {

std::string shortfall(const Variant& variant, const Size& size) {
  const Footprint footprint = variant.footprint ? variant.footprint(size) : Footprint{};
  std::string why = host_shortfall(footprint.host_bytes);
  if (why.empty() && variant.device) why = device_shortfall(footprint.device_bytes);
  return why;
}

std::string row_region(const Experiment& experiment, const Variant& variant, const Size& size) {
  const std::string text = size.text();
  return "nbk::" + experiment.name + "::" + variant.name + "@" + variant.space + (text.empty() ? "" : "/" + text);
}

std::shared_ptr<const Problem> problem_in_region(const Experiment& experiment, const Size& size,
                                                 const Settings& settings) {
  const Region region("nbk::" + experiment.name + "::problem" + (experiment.rank > 0 ? "/" + size.text() : ""));
  return experiment.make_problem(size, settings);
}

Result run_variant(const Experiment& experiment, const Variant& variant, const Problem& problem, const Size& size,
                   int repetitions, double budget_s) {
  Result result;
  result.variant = &variant;
  result.size = size;
  result.traffic = traffic_of(experiment, variant, size);
  result.skipped = shortfall(variant, size);
  // The ranks of a distributed variant run it together or not at all.
  if (variant.distributed && ranks::first_with(!result.skipped.empty()) >= 0 && result.skipped.empty())
    result.skipped = "another rank lacks the memory for its slice";
  if (!result.skipped.empty()) return result;

  // Every region is pushed and popped outside the clocks: a timed call runs inside its row's
  // region, which time_repeated's fences and clock sit within (nbk/core/region.hpp).
  const std::string label = row_region(experiment, variant, size);
  const Region row(label);
  std::unique_ptr<Case> instance;
  {
    const Region setup(label + "/setup");
    instance = variant.make(problem, size);
  }
  const Clock clock = variant.distributed ? Clock::slowest_rank : Clock::this_process;
  auto record = [&] { instance->record(); };
  result.planned_repetitions = repetitions;
  result.budget_s = budget_s;
  const Budget budget{budget_s, min_budget_repetitions};
  const Fences fences = fences_of(variant);
  result.steady = time_repeated(label, repetitions, [&] { instance->run(); }, record, clock, budget, fences);
  if (variant.timed_with_transfers) {
    const Region transfers(label + "/transfers");
    result.with_transfers = time_repeated(
        label + "/transfers", repetitions,
        [&] {
          instance->upload();
          instance->run();
          instance->download();
        },
        record, clock, budget);
  }
  const Region check(label + "/check");
  result.verdict = instance->verdict();
  return result;
}

std::vector<const Variant*> select_variants(const Experiment& experiment, const std::vector<std::string>& names,
                                            const std::vector<std::string>& spaces, bool injected_bugs) {
  auto wanted = [](const std::vector<std::string>& list, const std::string& value) {
    return list.empty() || std::find(list.begin(), list.end(), value) != list.end();
  };
  std::vector<const Variant*> selected;
  for (const auto& v : injected_bugs ? experiment.injected_bugs : experiment.variants)
    if (wanted(names, v.name) && wanted(spaces, v.space)) selected.push_back(&v);
  return selected;
}

std::string reference_space(const Variant& variant) {
  if (!variant.judged_on.empty()) return variant.judged_on;
  return variant.space == "host" ? "serial" : variant.space;
}

}  // namespace nbk::exp
