#pragma once
// The row sums' problem (its statement: experiment.cpp): an int32 and a float32 matrix of a size
// rows x columns from a seed, their rows' sums by plain loops, and the check of computed sums.
#include <fmt/format.h>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <ostream>
#include <random>
#include <type_traits>
#include <vector>

#include "nbk/core/allocate.hpp"
#include "nbk/core/memory.hpp"
#include "nbk/core/random_data.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/row_sum/kernels.hpp"

namespace nbk::row_sum {

template <class T>
using HostMatrix = row_sum::Matrix<T, Kokkos::HostSpace>;
template <class T>
using HostSums = Kokkos::View<Sum<T>*, Kokkos::HostSpace>;

// int32 draws uniform over its whole range, from random_data.hpp's blocks and engines.
inline void fill_int32(std::int32_t* out, Index n, std::uint64_t seed) {
  random_detail::for_each_block(n, seed, [out](Index first, Index last, std::mt19937_64& g) {
    for (Index i = first; i < last; ++i)
      out[i] = static_cast<std::int32_t>(static_cast<std::int64_t>(g() >> 32) - (std::int64_t{1} << 31));
  });
}

struct Problem final : exp::Problem {
  Problem(const exp::Size& s, std::uint64_t seed_)
      : size(s), seed(seed_), ints(allocate<HostMatrix<std::int32_t>>("nbk::row_sum::ints", s[0], s[1])),
        floats(allocate<HostMatrix<float>>("nbk::row_sum::floats", s[0], s[1])),
        int_sums(static_cast<std::size_t>(s[0]), 0), float_sums(static_cast<std::size_t>(s[0]), 0.0) {
    fill_int32(ints.data(), s.elements(), seed);
    fill_uniform(floats.data(), s.elements(), seed + 1);
    // The references: plain loops of their own, not row_sum::host_row_sums (the host rows' code).
    for (std::int64_t i = 0; i < s[0]; ++i)
      for (std::int64_t j = 0; j < s[1]; ++j) {
        int_sums[static_cast<std::size_t>(i)] += ints(i, j);
        float_sums[static_cast<std::size_t>(i)] += floats(i, j);
      }
  }
  exp::Size size;
  std::uint64_t seed = 0;
  HostMatrix<std::int32_t> ints;  // uniform over all of int32
  HostMatrix<float> floats;       // U[0, 1), the document's np.random.random(...).astype(np.float32)
  std::vector<std::int64_t> int_sums;  // exact, by one host thread
  std::vector<double> float_sums;      // in double, by one host thread
  std::int64_t rows() const { return size[0]; }
  std::int64_t columns() const { return size[1]; }
  template <class T>
  const HostMatrix<T>& matrix() const {
    if constexpr (std::is_same_v<T, float>) return floats; else return ints;
  }
  void describe(std::ostream& out) const override {
    std::int64_t beyond = 0;
    for (const auto s : int_sums)
      beyond += s < std::numeric_limits<std::int32_t>::min() || s > std::numeric_limits<std::int32_t>::max();
    out << fmt::format("row sums of {} row-major matrices ({} each): int32 uniform over its range, summed in int64 "
                       "({} of {} sums lie outside int32); float32 U[0,1), seed {}\n",
                       size.text(), format_bytes(static_cast<std::uint64_t>(size.elements()) * 4), beyond, rows(),
                       seed);
  }
  nlohmann::json to_json() const override {
    return {{"element_types", {"int32", "float32"}}, {"sum_types", {"int64", "float32"}}, {"shape", size.extents},
            {"seed", seed}};
  }
};

// The float32 tolerance in units of u: any order of the m - 1 adds of a row errs by at most
// gamma_(m-1) = (m-1)u / (1 - (m-1)u) times the sum of the magnitudes (Higham, Accuracy and
// Stability, 4.2), at most 2(m-1)u while (m-1)u <= 1/2 (rows of up to 2^23 columns); the data
// are not negative, so that sum is the row's sum. One more u covers the double reference's
// own rounding, below (m-1) 2^-53 relative.
inline double float_tolerance_in_u(std::int64_t columns) { return 2.0 * static_cast<double>(columns > 1 ? columns - 1 : 0) + 1; }

inline exp::Verdict sums_verdict(const Problem& p, const std::int64_t* sums) {
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < p.rows(); ++i) wrong += sums[i] != p.int_sums[static_cast<std::size_t>(i)];
  return exp::mismatch_verdict(wrong);
}

inline exp::Verdict sums_verdict(const Problem& p, const float* sums) {
  return exp::relative_error_verdict(
      p.rows(), [sums](std::int64_t i) { return sums[i]; },
      [&p](std::int64_t i) { return p.float_sums[static_cast<std::size_t>(i)]; }, float_tolerance_in_u(p.columns()),
      std::numeric_limits<float>::epsilon() / 2);
}

}  // namespace nbk::row_sum
