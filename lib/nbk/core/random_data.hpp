#pragma once
// Seeded input data, made on the host so that every backend reduces the very same numbers
// and their results can be compared bit for bit.
//
// The array is cut into blocks of `random_block` elements; block b draws from its own
// std::mt19937_64 (whose output sequence the C++ standard fixes) seeded from (seed, b).
// Blocks are filled in parallel on the host, and the data do not depend on the thread count.
// Normals use Marsaglia's polar method written out here (std::normal_distribution is
// implementation-defined); the only libm calls are log and sqrt.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include "nbk/core/allocate.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/policy.hpp"

namespace nbk {

inline constexpr Index random_block = Index{1} << 16;

namespace random_detail {

// SplitMix64 finalizer: decorrelates the seeds of neighbouring blocks.
constexpr std::uint64_t mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

inline std::mt19937_64 block_engine(std::uint64_t seed, Index block) {
  return std::mt19937_64(mix(seed ^ mix(static_cast<std::uint64_t>(block))));
}

// The top 53 bits as a double in [0, 1).
inline double unit(std::mt19937_64& g) { return static_cast<double>(g() >> 11) * 0x1.0p-53; }

// Calls fill_block(begin, end, engine) for every block that holds elements of [first, last),
// in parallel on the host: begin is the block's first element, where its engine starts, and
// end the block's end or `last`, whichever comes first. No element depends on `last`, so a
// slice of the sequence (an MPI rank's) holds the very numbers the whole array holds there.
template <class FillBlock>
void for_each_block(Index first, Index last, std::uint64_t seed, const FillBlock& fill_block) {
  const Index first_block = first / random_block;
  const Index end_block = last > first ? (last + random_block - 1) / random_block : first_block;
  // A plain host lambda: the work is host-only (std::mt19937_64, libm).
  Kokkos::parallel_for(
      "nbk::random::blocks", range(Kokkos::DefaultHostExecutionSpace(), first_block, end_block), [&](Index b) {
        auto engine = block_engine(seed, b);
        const Index begin = b * random_block;
        const Index end = begin + random_block < last ? begin + random_block : last;
        fill_block(begin, end, engine);
      });
  nbk::fence(Kokkos::DefaultHostExecutionSpace(), "nbk::random::blocks");
}

template <class FillBlock>
void for_each_block(Index n, std::uint64_t seed, const FillBlock& fill_block) {
  for_each_block(0, n, seed, fill_block);
}

}  // namespace random_detail

// out[0, last - first) = samples first to last - 1 of N(0, 1), computed in double and rounded
// to float. A block's samples before `first` are drawn and dropped.
inline void fill_standard_normal(float* out, Index first, Index last, std::uint64_t seed) {
  random_detail::for_each_block(first, last, seed, [out, first](Index begin, Index end, std::mt19937_64& g) {
    auto put = [&](Index i, double value) {
      if (i >= first) out[i - first] = static_cast<float>(value);
    };
    Index i = begin;
    while (i < end) {
      double u, v, s;
      do {
        u = 2.0 * random_detail::unit(g) - 1.0;
        v = 2.0 * random_detail::unit(g) - 1.0;
        s = u * u + v * v;
      } while (s >= 1.0 || s == 0.0);
      const double f = std::sqrt(-2.0 * std::log(s) / s);
      put(i++, u * f);
      if (i < end) put(i++, v * f);
    }
  });
}

// out[0, n) = samples of N(0, 1).
inline void fill_standard_normal(float* out, Index n, std::uint64_t seed) {
  fill_standard_normal(out, 0, n, seed);
}

// out[0, n) = samples of U[0, 1) with 53 random bits each (numpy.random.random's range),
// rounded to T as NumPy's astype does (a float may round up to 1.0f).
template <class T>
void fill_uniform(T* out, Index n, std::uint64_t seed) {
  random_detail::for_each_block(n, seed, [out](Index first, Index last, std::mt19937_64& g) {
    for (Index i = first; i < last; ++i) out[i] = static_cast<T>(random_detail::unit(g));
  });
}

// The same, into new host Views (first touched by the host threads that fill them): samples
// first to last - 1, or the first n.
inline Kokkos::View<float*, Kokkos::HostSpace> standard_normal_floats(Index first, Index last, std::uint64_t seed) {
  const Index n = last > first ? last - first : 0;
  auto v = allocate<Kokkos::View<float*, Kokkos::HostSpace>>("nbk::normal_floats", n);
  fill_standard_normal(v.data(), first, first + n, seed);
  return v;
}

inline Kokkos::View<float*, Kokkos::HostSpace> standard_normal_floats(Index n, std::uint64_t seed) {
  return standard_normal_floats(0, n, seed);
}

inline Kokkos::View<double*, Kokkos::HostSpace> uniform_doubles(Index n, std::uint64_t seed) {
  auto v = allocate<Kokkos::View<double*, Kokkos::HostSpace>>("nbk::uniform_doubles", n);
  fill_uniform(v.data(), n, seed);
  return v;
}

}  // namespace nbk
