#pragma once
// The histogram's problem (its statement: experiment.cpp): n float32 N(0, 1) samples from a seed
// and, for every bin count of the table, their counts by a plain loop.
#include <fmt/format.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <ostream>
#include <vector>

#include "nbk/core/random_data.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/histogram/kernels.hpp"

namespace nbk::histogram {

using Samples = Kokkos::View<float*, Kokkos::HostSpace>;
using HostHistogram = Kokkos::View<Count*, Kokkos::HostSpace>;

inline constexpr int bin_counts[] = {1, 16, 100, 4096};

struct Problem final : exp::Problem {
  Problem(std::int64_t n, std::uint64_t seed_) : seed(seed_), x(standard_normal_floats(n, seed_)) {
    // The references: a loop of their own over the View, not histogram::host_histogram (the
    // host rows' code); the bin is the kernels' definition, float arithmetic included.
    for (const int bins : bin_counts) {
      const Bins range{-4, 4, bins};
      const float per_unit = static_cast<float>(bins) / (range.xmax - range.xmin);
      std::vector<Count> reference(static_cast<std::size_t>(bins), 0);
      for (std::int64_t i = 0; i < n; ++i) {
        if (!(x(i) >= range.xmin && x(i) < range.xmax)) continue;
        reference[static_cast<std::size_t>(std::min(static_cast<int>((x(i) - range.xmin) * per_unit), bins - 1))] += 1;
      }
      references[bins] = std::move(reference);
    }
  }
  std::uint64_t seed = 0;
  Samples x;
  std::map<int, std::vector<Count>> references;  // by bin count, by one host thread
  std::int64_t size() const { return static_cast<std::int64_t>(x.extent(0)); }
  const std::vector<Count>& reference(int bins) const { return references.at(bins); }
  void describe(std::ostream& out) const override {
    const auto& hundred = reference(100);
    Count inside = 0;
    for (Count c : hundred) inside += c;
    out << fmt::format("histograms of {} float32 N(0, 1) samples over [-4, 4), seed {}; {} samples fall outside\n",
                       size(), seed, size() - static_cast<std::int64_t>(inside));
  }
  nlohmann::json to_json() const override {
    return {{"element_type", "float32"}, {"seed", seed}, {"range", {-4, 4}}, {"bin_counts", bin_counts}};
  }
};

}  // namespace nbk::histogram
