#pragma once
// Steady-state timing: one first call (first touch, thread start-up, module load or JIT),
// then up to `repetitions` fenced calls, summarised by their best and their median. `after` runs
// after every call, outside the clock: that is where results are recorded and checked. With a
// Budget, calls stop once the calls so far (the first included) have taken budget.seconds and
// at least budget.at_least were timed (timeit's autorange); `repetitions` says how many were.
// A stop asked for by a signal (stop.hpp) is read before each call, outside the clock: no call
// starts after it, the call in flight ends, and the timing returns cut (`cut`: not a result).
// `label` names the calls in their fences' labels, and the first call runs in a Kokkos Profiling
// region of its own, label + "/first", pushed before its clock starts and popped after it stops.
#include <algorithm>
#include <string>
#include <vector>

#include "nbk/core/region.hpp"
#include "nbk/core/stop.hpp"
#include "nbk/core/timer.hpp"

namespace nbk {

struct RepeatedTiming {
  double first = 0;  // the first call, not counted in best and median
  double best = 0;
  double median = 0;
  int repetitions = 0;  // 0: not timed
  bool cut = false;     // a signal stopped it before its calls were made
};

// Whose clock a timing reads: this process's, or (for work split across MPI ranks) the
// slowest rank's, started after a barrier.
enum class Clock { this_process, slowest_rank };

struct Budget {
  double seconds = 0;  // 0: no budget, every repetition is timed
  int at_least = 0;    // calls timed before the budget may stop them
};

struct NoAfter {
  void operator()() const {}
};

template <class F, class After = NoAfter>
RepeatedTiming time_repeated(const std::string& label, int repetitions, F&& f, After&& after = {},
                             Clock clock = Clock::this_process, Budget budget = {},
                             Fences fences = Fences::every_space) {
  auto time = [&](const std::string& what) {
    return clock == Clock::slowest_rank ? time_slowest_rank(what, f, fences) : time_fenced(what, f, fences);
  };
  // Under several ranks the ranks stop together: whether any rank was asked to is collective.
  auto stopping = [&] {
    return clock == Clock::slowest_rank ? ranks::first_with(stop_requested()) >= 0 : stop_requested();
  };
  RepeatedTiming timing;
  if ((timing.cut = stopping())) return timing;
  {
    const Region first(label + "/first");
    timing.first = time(label + " (first call)");
  }
  after();
  double spent = timing.first;
  std::vector<double> seconds;
  const int at_least = std::min(repetitions, budget.at_least);
  for (int rep = 0; rep < repetitions; ++rep) {
    if (budget.seconds > 0 && rep >= at_least && spent >= budget.seconds) break;
    if ((timing.cut = stopping())) break;
    seconds.push_back(time(label));
    spent += seconds.back();
    after();
  }
  timing.repetitions = static_cast<int>(seconds.size());
  if (seconds.empty()) return timing;
  std::sort(seconds.begin(), seconds.end());
  timing.best = seconds.front();
  const std::size_t mid = seconds.size() / 2;
  timing.median = seconds.size() % 2 ? seconds[mid] : 0.5 * (seconds[mid - 1] + seconds[mid]);
  return timing;
}

}  // namespace nbk
