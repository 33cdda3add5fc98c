#pragma once
// Seed 003's Monte-Carlo pi: streams of points (x, y) uniform in the unit square, each stream
// drawing from its own state of a Kokkos random pool; the share of points inside the quarter
// disc x^2 + y^2 <= 1 estimates pi / 4.
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>

#include <cmath>
#include <cstdint>
#include <random>

#include "nbk/core/policy.hpp"

namespace nbk::pi {

using Count = long long;

template <class ExecSpace>
using Device = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
template <class ExecSpace>
using XorShift64 = Kokkos::Random_XorShift64_Pool<Device<ExecSpace>>;
template <class ExecSpace>
using XorShift1024 = Kokkos::Random_XorShift1024_Pool<Device<ExecSpace>>;

// Bytes of one state, with its lock (and XorShift1024's position): what a pool of n streams
// holds in the space's memory, and once more on the host while it is seeded.
inline constexpr std::uint64_t xorshift64_state_bytes = sizeof(std::uint64_t) + sizeof(int);
inline constexpr std::uint64_t xorshift1024_state_bytes = 16 * sizeof(std::uint64_t) + 2 * sizeof(int);

// Points inside the quarter disc, `samples_per_stream` from each of the pool's first `streams`
// states, into the rank-0 View `inside`. Stream s always draws from state s: the pool's
// get_state() without an index hands a thread whichever state is free, and which stream
// continues which sequence would then depend on scheduling. The states advance: the next call
// draws new points.
template <class ExecSpace, class Pool, class Inside>
void count_inside(const ExecSpace& exec, const Pool& pool, int streams, Index samples_per_stream,
                  const Inside& inside) {
  static_assert(Kokkos::is_execution_space<ExecSpace>::value, "the first argument must be an execution space");
  static_assert(Kokkos::is_view<Inside>::value && Inside::rank == 0, "the count must be a rank-0 View");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename Inside::memory_space>::accessible,
                "the count's memory is not accessible from this execution space");
  Kokkos::parallel_reduce(
      "nbk::pi::count_inside", Kokkos::RangePolicy<ExecSpace>(exec, 0, streams),
      KOKKOS_LAMBDA(int stream, Count& total) {
        auto generator = pool.get_state(stream);
        Count mine = 0;
        for (Index k = 0; k < samples_per_stream; ++k) {
          const float x = generator.frand();
          const float y = generator.frand();
          mine += x * x + y * y <= 1.0f;
        }
        pool.free_state(generator);
        total += mine;
      },
      inside);
}

// The reference: one host thread, std::mt19937_64 (a generator Kokkos' pools do not share),
// one draw per point: x from its top 24 bits, y from the next 24.
inline Count host_count_inside(std::mt19937_64& engine, std::int64_t samples) {
  Count inside = 0;
  for (std::int64_t k = 0; k < samples; ++k) {
    const std::uint64_t bits = engine();
    const float x = static_cast<float>(bits >> 40) * 0x1.0p-24f;
    const float y = static_cast<float>((bits >> 16) & 0xffffff) * 0x1.0p-24f;
    inside += x * x + y * y <= 1.0f;
  }
  return inside;
}

// The estimate's standard deviation for n points: 4 sqrt(p (1 - p) / n), p = pi / 4.
inline double standard_error(std::int64_t samples) {
  const double p = M_PI / 4;
  return samples > 0 ? 4 * std::sqrt(p * (1 - p) / static_cast<double>(samples)) : 0.0;
}

}  // namespace nbk::pi
