#pragma once
// Monte-Carlo pi's problem (its statement: experiment.cpp): the streams and the points of each for
// a seed, and the verdict on every call's count of points inside, against pi itself.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "nbk/experiment/experiment.hpp"
#include "nbk/pi/kernels.hpp"

namespace nbk::pi {

// Five standard errors: a correct generator misses it once in 1.7 million calls.
inline constexpr double bound_in_errors = 5;

// A size is S x K: S streams of K points each.
struct Problem final : exp::Problem {
  Problem(const exp::Size& s, std::uint64_t seed_)
      : seed(seed_), streams(static_cast<int>(s[0])), samples_per_stream(s[1]) {}
  std::uint64_t seed;
  int streams;
  std::int64_t samples_per_stream;
  std::int64_t samples() const { return streams * samples_per_stream; }
  void describe(std::ostream& out) const override {
    out << fmt::format("pi from {} streams x {} points = {} points, seed {}; standard error {:.2e}\n", streams,
                       samples_per_stream, samples(), seed, pi::standard_error(samples()));
  }
  nlohmann::json to_json() const override {
    return {{"seed", seed}, {"streams", streams}, {"samples_per_stream", samples_per_stream},
            {"standard_error", pi::standard_error(samples())}, {"bound_in_standard_errors", bound_in_errors}};
  }
};

// Every call's estimate, judged against pi itself: the one reference no generator can share a
// defect with. `details` and `cells`: what the verdict adds to the estimates (the pool's creation time).
exp::Verdict estimates_verdict(std::int64_t samples, const std::vector<Count>& counts, nlohmann::json details,
                               std::vector<std::pair<std::string, std::string>> cells) {
  bool impossible = false;
  std::int64_t calls = 0;
  double first = 0, worst = 0;
  for (const Count inside : counts) {
    if (inside > static_cast<Count>(samples)) impossible = true;  // (unsigned: never below 0)
    if (samples == 0) continue;
    const double estimate = 4.0 * static_cast<double>(inside) / static_cast<double>(samples);
    if (calls++ == 0) first = estimate;
    worst = std::max(worst, std::abs(estimate - M_PI));
  }
  const double error = pi::standard_error(samples), bound = bound_in_errors * error;
  exp::Verdict v;
  v.ok = !impossible && worst <= bound;
  v.summary = v.ok ? "ok" : impossible ? "FAILED (count out of range)"
                                       : fmt::format("FAILED ({:.1f} standard errors off)", worst / error);
  if (samples == 0) {
    v.cells = {{"pi estimate", "-"}, {"error", "-"}, {"bound", "-"}};
  } else {
    v.cells = {{"pi estimate", fmt::format("{:.6f}", first)},
               {"error", fmt::format("{:+.1e}", first - M_PI)},
               {"bound", fmt::format("{:.1e}", bound)}};
    details["estimate_first_call"] = first;
    details["worst_error"] = worst;
  }
  v.cells.insert(v.cells.end(), cells.begin(), cells.end());
  details["bound"] = bound;
  details["calls"] = calls;
  v.details = std::move(details);
  return v;
}

}  // namespace nbk::pi
