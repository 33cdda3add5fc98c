#pragma once
// Seed 003's Monte-Carlo pi: streams of points (x, y) uniform in the unit square, each stream
// drawing from its own state of a Kokkos random pool; the share of points inside the quarter
// disc x^2 + y^2 <= 1 estimates pi / 4.
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>

#include <cmath>
#include <cstdint>
#include <random>

#include "nbk/core/code.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/policy.hpp"

namespace nbk::pi {

template <class Space>
using Device = Kokkos::Device<Space, typename Space::memory_space>;
template <class Space>
using XorShift64 = Kokkos::Random_XorShift64_Pool<Device<Space>>;
template <class Space>
using XorShift1024 = Kokkos::Random_XorShift1024_Pool<Device<Space>>;

// Bytes of one state, with its lock (and XorShift1024's position): what a pool of n streams
// holds in the space's memory, and once more on the host while it is seeded.
inline constexpr std::uint64_t xorshift64_state_bytes = sizeof(std::uint64_t) + sizeof(int);
inline constexpr std::uint64_t xorshift1024_state_bytes = 16 * sizeof(std::uint64_t) + 2 * sizeof(int);

// One point from 64 random bits, as the reference takes it: x from the top 24 bits, y from
// the next 24, each exact in float. One draw per point, and no division: the pools' frand()
// draws 64 bits per coordinate and divides by 2^64 - 1, which cost more than the draw.
KOKKOS_INLINE_FUNCTION bool inside_quarter_disc(std::uint64_t bits) {
  const float x = static_cast<float>(static_cast<std::int32_t>(bits >> 40)) * 0x1.0p-24f;
  const float y = static_cast<float>(static_cast<std::int32_t>((bits >> 16) & 0xffffff)) * 0x1.0p-24f;
  return x * x + y * y <= 1.0f;
}

// Points inside the quarter disc among `samples` drawn from one generator.
template <class Generator>
KOKKOS_INLINE_FUNCTION Count count_stream(Generator& generator, Index samples) {
  Count inside = 0;
  for (Index k = 0; k < samples; ++k) inside += inside_quarter_disc(generator.urand64());
  return inside;
}

// The document's compute_pi as Kokkos' random-number documentation writes it: a parallel_reduce over
// the streams, each call's state from get_state() (on a host space its thread's, so a state a thread;
// on a GPU a free one); the tuned forms below draw stream s from state s (get_state(s)), in functors.
template <class Space, class Pool>
Count plain_count_inside(const Space& exec, const Pool& pool, int streams, std::int64_t samples_per_stream) {
  const std::int64_t n = streams;
  Count inside = 0;
  Kokkos::parallel_reduce(
      "nbk::pi::plain", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
      KOKKOS_LAMBDA(const std::int64_t, Count& count) {
        auto gen = pool.get_state();
        Count hits = 0;
        for (std::int64_t k = 0; k < samples_per_stream; ++k)
          if (inside_quarter_disc(gen.urand64())) ++hits;
        pool.free_state(gen);
        count += hits;
      },
      inside);
  return inside;
}

// GPU code's kernel: a thread per stream. The pool is held by value, as in Kokkos' tutorial (a
// functor, not a lambda: under nvcc a lambda's host code is called through a wrapper that a host
// space's loop cannot inline, kokkos/kokkos issue 8141).
template <class Pool>
struct StreamCount {
  Pool pool;
  Index samples_per_stream;
  KOKKOS_INLINE_FUNCTION void operator()(int stream, Count& total) const {
    auto generator = pool.get_state(stream);
    total += count_stream(generator, samples_per_stream);
    pool.free_state(generator);
  }
};

// Host code's kernel: a thread per pair of streams, drawn side by side.
template <class Pool>
struct StreamPairCount {
  Pool pool;
  int streams;
  Index samples_per_stream;
  KOKKOS_INLINE_FUNCTION void operator()(int pair, Count& total) const {
    const int first = 2 * pair;
    auto one = pool.get_state(first);
    Count mine = 0;
    if (first + 1 < streams) {
      auto other = pool.get_state(first + 1);
      for (Index k = 0; k < samples_per_stream; ++k)
        mine += inside_quarter_disc(one.urand64()) + inside_quarter_disc(other.urand64());
      pool.free_state(other);
    } else {
      mine = count_stream(one, samples_per_stream);
    }
    pool.free_state(one);
    total += mine;
  }
};

// Points inside the quarter disc, `samples_per_stream` from each of the pool's first `streams`
// states, into the rank-0 View `inside`. Stream s always draws from state s: the pool's
// get_state() without an index hands a thread whichever state is free, and which stream
// continues which sequence would then depend on scheduling. The states advance: the next call
// draws new points. GPU code gives a thread one stream, host code two (nbk/core/code.hpp): both
// draw the same points from the same states.
template <class Space, class Pool, class Inside, class Code = CodeFor<Space>>
void count_inside(const Space& exec, const Pool& pool, int streams, Index samples_per_stream,
                  const Inside& inside, Code = {}) {
  static_assert(Kokkos::is_execution_space<Space>::value, "the first argument must be an execution space");
  static_assert(Kokkos::is_view<Inside>::value && Inside::rank == 0, "the count must be a rank-0 View");
  static_assert(Kokkos::SpaceAccessibility<Space, typename Inside::memory_space>::accessible,
                "the count's memory is not accessible from this execution space");
  if constexpr (is_gpu_code_v<Code>) {
    Kokkos::parallel_reduce("nbk::pi::count_inside", Kokkos::RangePolicy<Space>(exec, 0, streams),
                            StreamCount<Pool>{pool, samples_per_stream}, inside);
  } else {
    // A CPU core runs two streams side by side: each xorshift step waits on the one before,
    // so one stream leaves the core idle most of the time. The same states draw the same
    // points as on a GPU, where the threads themselves are the parallelism.
    Kokkos::parallel_reduce("nbk::pi::count_inside", Kokkos::RangePolicy<Space>(exec, 0, (streams + 1) / 2),
                            StreamPairCount<Pool>{pool, streams, samples_per_stream}, inside);
  }
}

// The reference: one host thread, std::mt19937_64 (a generator Kokkos' pools do not share),
// one draw per point: x from its top 24 bits, y from the next 24.
inline Count host_count_inside(std::mt19937_64& engine, std::int64_t samples) {
  Count inside = 0;
  for (std::int64_t k = 0; k < samples; ++k) inside += inside_quarter_disc(engine());
  return inside;
}

// The estimate's standard deviation for n points: 4 sqrt(p (1 - p) / n), p = pi / 4.
inline double standard_error(std::int64_t samples) {
  const double p = M_PI / 4;
  return samples > 0 ? 4 * std::sqrt(p * (1 - p) / static_cast<double>(samples)) : 0.0;
}

}  // namespace nbk::pi
