#pragma once
// The sum's problem (its statement: experiment.cpp): float32 N(0, 1) samples for a seed, this
// process's slice of them under MPI ranks, and their exact sum (reference.hpp).
#include <fmt/format.h>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>

#include "nbk/core/memory.hpp"
#include "nbk/core/random_data.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/notes.hpp"
#include "notes_outline.hpp"  // generated from notes.md (lib/CMakeLists.txt)
#include "nbk/ranks/ranks.hpp"
#include "nbk/sum/kernels.hpp"
#include "nbk/sum/reference.hpp"

namespace nbk::sum {

// The samples of this process: under MPI ranks, only this rank's slice of the array (each
// rank draws its own from the seed, so memory shrinks with ranks), on one process all of it.
// The exact sum and the scale are the whole array's on every rank.
struct Problem final : exp::Problem {
  Problem(Index n, std::uint64_t seed_, const exp::Notes& notes)
      : seed(seed_),
        total(n),
        slice(ranks::my_slice(n)),
        host(standard_normal_floats(slice.begin, slice.end, seed)),
        reference(sum::reference_of(host.data(), slice.size(), total)) {
    if (const int count = ranks::count(); count > 1) {
      const auto largest = static_cast<std::uint64_t>(ranks::slice_of(total, 0, count).size()) * sizeof(float);
      ranks_text = NBK_PROSE(notes.section, "## Input under MPI")(count, format_bytes(largest));
    }
  }
  std::uint64_t seed;
  Index total;          // samples in the whole array
  ranks::Slice slice;   // this rank's part of it
  Kokkos::View<float*, Kokkos::HostSpace> host;  // the slice's samples
  sum::Reference reference;
  std::string ranks_text;  // notes.md, section "## Input under MPI": the ranks and the largest slice

  Index size() const { return total; }
  // The one-process variants need every sample (under MPI they run only on one rank).
  const Problem& whole() const {
    if (slice.size() != total) throw std::logic_error("nbk-sum: a one-process variant given one rank's slice");
    return *this;
  }
  void describe(std::ostream& out) const override {
    const auto exact_value = static_cast<double>(reference.value);
    const SumScale& scale = reference.scale;
    out << fmt::format("sum of {} float32 samples of N(0,1), seed {} ({})\n", size(), seed,
                       format_bytes(static_cast<std::uint64_t>(size()) * sizeof(float)));
    out << ranks_text;
    out << fmt::format("exact sum (integer fixed-point accumulator on the host): {:.15g}\n", exact_value);
    out << fmt::format("sum |x| = {:.6g}; largest |prefix sum| = {:.6g}; condition number sum|x| / |sum| = {:.3g}\n",
                       scale.sum_abs, scale.max_prefix,
                       exact_value != 0 ? scale.sum_abs / std::fabs(exact_value) : INFINITY);
  }
  nlohmann::json to_json() const override {
    return {{"element_type", "float32"},
            {"distribution", "N(0,1), Marsaglia polar method on std::mt19937_64 blocks"},
            {"seed", seed},
            {"exact_sum", static_cast<double>(reference.value)},
            {"sum_abs", reference.scale.sum_abs},
            {"max_abs_prefix_sum", reference.scale.max_prefix}};
  }
};

}  // namespace nbk::sum
