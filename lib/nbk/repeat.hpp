#pragma once
// Steady-state timing: one untimed warm-up call (first-touch, thread start-up, module load),
// then `repetitions` fenced calls, summarised by their best and their median.
#include <algorithm>
#include <string>
#include <vector>

#include "nbk/timer.hpp"

namespace nbk {

struct RepeatedTiming {
  double warm_up = 0;  // the first call, not counted in best and median
  double best = 0;
  double median = 0;
  int repetitions = 0;
};

template <class F>
RepeatedTiming time_repeated(const std::string& label, int repetitions, F&& f) {
  RepeatedTiming timing;
  timing.repetitions = repetitions;
  timing.warm_up = time_fenced(label + " (warm-up)", f);
  std::vector<double> seconds;
  for (int rep = 0; rep < repetitions; ++rep) seconds.push_back(time_fenced(label, f));
  if (seconds.empty()) return timing;
  std::sort(seconds.begin(), seconds.end());
  timing.best = seconds.front();
  const std::size_t mid = seconds.size() / 2;
  timing.median = seconds.size() % 2 ? seconds[mid] : 0.5 * (seconds[mid - 1] + seconds[mid]);
  return timing;
}

}  // namespace nbk
