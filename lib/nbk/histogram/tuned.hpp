#pragma once
// The histogram's tuned forms, written for speed beside the document's kernels (kernels.hpp): a
// ScatterView, private team histograms in scratch memory, and several private int32 copies per CPU
// thread (per team on a GPU). Each is measured against the plain row in notes.md's "## Tuned forms".
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "nbk/core/code.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/packed.hpp"
#include "nbk/core/policy.hpp"
#include "nbk/histogram/kernels.hpp"

namespace nbk::histogram {

// bin_of with the samples it drops sent to one more bin, `count`, without a branch, in a
// form a compiler turns into vector code. Inside the range it is bin_of's bin: the same
// scaled offset, clamped to [0, the float just below count] before the conversion, which
// truncates to bin_of's bin or, for an offset that rounds up to count, to count - 1 as
// bin_of's clamp does. Outside (and NaN) the converted value is `count` itself, so nothing
// outside int's range is ever converted. Written as compare-and-select: GCC, under its
// default -ftrapping-math, will not vectorize a conversion it can only reach through a branch.
struct Slots {
  float xmin, xmax, per_unit;
  float below;  // the largest float below count
  float spare;  // count, as a float
};

inline Slots slots_of(const Bins& bins) {
  const float spare = static_cast<float>(bins.count);
  return {bins.xmin, bins.xmax, bins.per_unit(), std::nextafter(spare, 0.0f), spare};
}

KOKKOS_INLINE_FUNCTION int slot_of(float x, const Slots& s) {
  const float offset = (x - s.xmin) * s.per_unit;
  const float low = offset > 0.0f ? offset : 0.0f;
  const float clamped = low < s.below ? low : s.below;
  const int inside = (x >= s.xmin) & (x < s.xmax);
  return static_cast<int>(inside ? clamped : s.spare);
}

template <class Space>
using Scatter = Kokkos::Experimental::ScatterView<Count*, Kokkos::LayoutRight, Space>;

template <class X, class S>
struct ScatterCount {
  X x;
  Bins bins;
  S scatter;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const {
    const int bin = bin_of(x(i), bins);
    if (bin >= 0) scatter.access()(bin) += 1;
  }
};

// `scatter` wraps `histogram` (made once: on a CPU it holds a copy per thread).
// Tuned form: scatter_histogram: a Kokkos ScatterView, a private copy of the counts a CPU thread; gains on a CPU.
template <class Space, class X, class H>
void scatter_histogram(const Space& exec, const X& x, const Bins& bins, const H& histogram,
                       Scatter<Space>& scatter) {
  check_1d_arguments<Space, X>();
  check_1d_arguments<Space, H>();
  Kokkos::deep_copy(exec, histogram, Count(0));
  scatter.reset_except(exec, histogram);
  Kokkos::parallel_for("nbk::histogram::scatter", range(exec, 0, static_cast<Index>(x.extent(0))),
                       ScatterCount<X, Scatter<Space>>{x, bins, scatter});
  scatter.contribute_into(exec, histogram);
}

// How a team kernel splits n samples: `league` teams of `team_size` threads, team r counting
// the slice [r * slice, min(n, (r + 1) * slice)), a whole number of 16-byte packs of floats.
struct Split {
  int league = 0;
  int team_size = 1;
  Index slice = 0;
};

// Samples a CPU team takes at a time (its threads take the teams in turn); on a GPU, the fewest
// a thread should count before its team's histogram is merged.
inline constexpr Index samples_per_host_team = Index{1} << 16;
inline constexpr Index min_samples_per_gpu_thread = 8;
inline constexpr int gpu_team_size = 256;

// GPU code: teams of `team_size` (256 on a GPU), as many as the GPU holds at once (`at_once`,
// its concurrency over 256: 1,056 on an H100, one wave where 8 teams fit an SM, as the kernels'
// launch bounds ask of the compiler), fewer where a thread would count fewer than 8 samples. A
// team per 2^16 samples (this code before) gave 10^7 samples 153 teams: one or two on each of an
// H100's 132 SMs, where 8 fit, so 8 to 16 of the 64 warps an SM holds were there to keep loads
// in flight. Slices are whole 16-byte packs of floats.
// The slice of each of `league` teams over n samples: a whole number of 16-byte packs of floats.
inline Index slice_of(Index n, Index league) {
  constexpr Index width = pack_width<float>;
  return league == 0 ? 0 : ((n + league - 1) / league + width - 1) / width * width;
}

inline Split gpu_split(Index n, int team_size, Index at_once) {
  Split s;
  s.team_size = team_size;
  const Index league =
      n == 0 ? 0 : std::clamp<Index>(n / (Index{team_size} * min_samples_per_gpu_thread), 1, std::max<Index>(1, at_once));
  s.league = static_cast<int>(league);
  s.slice = slice_of(n, league);
  return s;
}

// Host code: a team per 2^16 samples, of Kokkos' recommended size.
inline Split host_split(Index n, int team_size) {
  Split s;
  s.team_size = team_size;
  s.league = static_cast<int>((n + samples_per_host_team - 1) / samples_per_host_team);
  s.slice = slice_of(n, s.league);
  return s;
}

// The samples team `rank` of a split counts (for_team_samples), as pure arithmetic the tests check
// at a GPU's shapes: packs [pack_begin, pack_end) of `pack_width<float>` samples, then the samples
// [loose_begin, loose_end) one at a time. `packed` is how many of the n samples the packs hold (a
// whole number of packs; 0 where x has none, and then every sample is loose). A slice starts on a
// pack, so where x has packs only the slice that holds sample `packed` has loose samples, and a
// slice past the data has nothing.
struct TeamSamples {
  Index pack_begin = 0, pack_end = 0, loose_begin = 0, loose_end = 0;
};

KOKKOS_INLINE_FUNCTION TeamSamples team_samples(Index rank, Index slice, Index n, Index packed) {
  constexpr Index width = pack_width<float>;
  const Index start = rank * slice;
  const Index first = start < n ? start : n;
  const Index last = first + slice < n ? first + slice : n;
  const Index packed_last = last < packed ? last : packed;
  TeamSamples s;
  s.pack_begin = first / width;
  s.pack_end = first < packed_last ? packed_last / width : s.pack_begin;
  s.loose_begin = first > packed_last ? first : packed_last;
  s.loose_end = last;
  return s;
}

// The private copy that thread `team_rank` of a GPU team counts into (private_histogram_device):
// consecutive threads, consecutive copies, so a warp's 32 threads spread over all `copies`.
KOKKOS_INLINE_FUNCTION int copy_of(int team_rank, int copies) { return team_rank % copies; }

// The split of n samples on `exec` for `Code`. GPU code on a host space (the tests) gets teams
// as large as the pool allows, at most 256.
template <class Space, class Code = CodeFor<Space>>
Split split_samples(const Space& exec, Index n, Code = {}) {
  if constexpr (is_gpu_code_v<Code>) {
    int team = gpu_team_size;
    if constexpr (!is_device_space_v<Space>)
      team = std::clamp(Kokkos::TeamPolicy<Space>(exec, 1, 1).team_size_max([](const auto&) {},
                                                                                Kokkos::ParallelForTag()),
                        1, gpu_team_size);
    return gpu_split(n, team, exec.concurrency() / team);
  } else {
    return host_split(n, host_team_size(exec));
  }
}

// The team policy of a split on a GPU: 256-thread teams, 8 of them an SM (launch bounds: the
// compiler keeps a thread to 32 registers so that 8 teams fit).
template <class Space>
using CountingPolicy =
    std::conditional_t<is_device_space_v<Space>,
                       Kokkos::TeamPolicy<Space, Kokkos::LaunchBounds<gpu_team_size, 8>>,
                       Kokkos::TeamPolicy<Space>>;

// f(x(i)) for every i of the team's slice of `split`, the team's threads in turn: a thread
// reads a 16-byte pack of four samples at a time where `packs` (packs_of x) has them, and the
// samples past the last whole pack one at a time.
template <class Member, class X, class Packs, class F>
KOKKOS_INLINE_FUNCTION void for_team_samples(const Member& team, const X& x, const Packs& packs, const Split& split,
                                             const F& f) {
  constexpr Index width = pack_width<float>;
  const TeamSamples s = team_samples(team.league_rank(), split.slice, static_cast<Index>(x.extent(0)),
                                     static_cast<Index>(packs.extent(0)) * width);
  if (s.pack_begin < s.pack_end)
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, s.pack_begin, s.pack_end), [&](Index c) {
      const auto v = packs(c);
      for (int k = 0; k < width; ++k) f(v.at[k]);
    });
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, s.loose_begin, s.loose_end), [&](Index i) { f(x(i)); });
}

// A team's histogram in scratch: zeroed, counted into, then added into the one histogram.
template <class Member, class X, class Packs, class H>
struct TeamCount {
  using Local = Kokkos::View<int*, typename Member::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  X x;
  Packs packs;
  Bins bins;
  Split split;
  H histogram;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const Local local(team.team_scratch(0), bins.count);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, bins.count), [&](int b) { local(b) = 0; });
    team.team_barrier();
    for_team_samples(team, x, packs, split, [&](float v) {
      const int bin = bin_of(v, bins);
      if (bin >= 0) Kokkos::atomic_add(&local(bin), 1);
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, bins.count), [&](int b) {
      if (local(b) != 0) Kokkos::atomic_add(&histogram(b), Count(local(b)));
    });
  }
};

// The team kernel over a given split (the tests give host spaces GPU code's splits of many teams).
// Tuned form: team_histogram: a team counts its slice into a histogram in scratch, then merges it; gains on a GPU.
template <class Space, class X, class H, class Code = CodeFor<Space>>
void team_histogram(const Space& exec, const X& x, const Bins& bins, const H& histogram, const Split& split,
                    Code = {}) {
  check_1d_arguments<Space, X>();
  check_1d_arguments<Space, H>();
  using Policy = CountingPolicy<Space>;
  using Member = typename Policy::member_type;
  using Local = Kokkos::View<int*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  Kokkos::deep_copy(exec, histogram, Count(0));
  if (split.league == 0) return;
  using Packs = decltype(packs_of<Code>(x));
  const Packs packs = packs_of<Code>(x);
  const Policy policy = Policy(exec, split.league, split.team_size)
                            .set_scratch_size(0, Kokkos::PerTeam(Local::shmem_size(bins.count)));
  Kokkos::parallel_for("nbk::histogram::team", policy,
                       TeamCount<Member, X, Packs, H>{x, packs, bins, split, histogram});
}

// "private": every CPU thread counts a chunk of samples into `copies` private int32
// histograms in scratch memory, interleaved bin by bin (bin b, copy c at b * copies + c),
// sample j of a block going to copy j % copies, then adds them into the one histogram with
// one atomic per bin. With one histogram, two samples in a row in the same bin (often, with
// few bins) make the second increment wait for the first one's store; spread over copies
// the increments are independent. The bins of a block of samples are computed first,
// branch-free (slot_of, vector code), the samples outside the range counted in one spare
// bin that is never merged; the increments then run on their own. On a GPU, where a team
// is many threads, each team keeps its copies in shared memory, thread t counting into copy
// t % copies with shared-memory atomics (the team kernel with fewer collisions).
inline constexpr int private_max_copies = 8;           // a power of two
inline constexpr int private_scratch_ints = 8 * 1024;  // 32 KiB: one core's L1 data cache
inline constexpr int private_block = 256;              // samples whose bins are computed at once
inline constexpr Index private_host_chunk = Index{1} << 18;  // samples per CPU thread's turn

// Copies of `count` bins (+ the spare) within the scratch budget, at least one.
inline int private_copies(int count) {
  int copies = private_max_copies;
  while (copies > 1 && copies * (count + 1) > private_scratch_ints) copies /= 2;
  return copies;
}

// m samples from `start` into the copies: their slots first (vector code), then the
// increments. The Slots come by value, so the compiler sees no store that could change them.
template <class X, class Local>
KOKKOS_INLINE_FUNCTION void private_count_block(const X& x, Index start, int m, const Slots s, int copies,
                                                const Local& local) {
  int slot[private_block];
  const int lane = copies - 1;
  for (int j = 0; j < m; ++j) slot[j] = slot_of(x(start + j), s) * copies + (j & lane);
  for (int j = 0; j < m; ++j) ++local(slot[j]);
}

// A CPU thread's chunk of samples into the private copies, then their sums into the one histogram.
template <class Member, class X, class H>
struct PrivateHostCount {
  using Local = Kokkos::View<int*, typename Member::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  X x;
  Bins bins;
  H histogram;
  Index chunk, n;
  int copies, size;
  Slots slots;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const Local local(team.team_scratch(0), size);
    for (int s = 0; s < size; ++s) local(s) = 0;
    const int count = bins.count;
    const Index first = team.league_rank() * chunk;
    const Index last = first + chunk < n ? first + chunk : n;
    for (Index start = first; start < last; start += private_block) {
      const int m = last - start < private_block ? static_cast<int>(last - start) : private_block;
      private_count_block(x, start, m, slots, copies, local);
    }
    for (int b = 0; b < count; ++b) {
      int sum = 0;
      for (int c = 0; c < copies; ++c) sum += local(b * copies + c);
      if (sum != 0) Kokkos::atomic_add(&histogram(b), Count(sum));
    }
  }
};

// `chunk`: samples a turn (the tests take a few, for many merges at once: they must be atomic).
template <class Space, class X, class H>
void private_histogram_host(const Space& exec, const X& x, const Bins& bins, const H& histogram,
                            Index chunk = private_host_chunk) {
  using Policy = Kokkos::TeamPolicy<Space, Kokkos::Schedule<Kokkos::Dynamic>>;
  using Member = typename Policy::member_type;
  using Local = Kokkos::View<int*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  const auto n = static_cast<Index>(x.extent(0));
  const int chunks = static_cast<int>((n + chunk - 1) / chunk);
  if (chunks == 0) return;
  const int copies = private_copies(bins.count);
  const int size = copies * (bins.count + 1);
  const Slots slots = slots_of(bins);
  const Policy policy = Policy(exec, chunks, 1).set_scratch_size(0, Kokkos::PerTeam(Local::shmem_size(size)));
  Kokkos::parallel_for("nbk::histogram::private", policy,
                       PrivateHostCount<Member, X, H>{x, bins, histogram, chunk, n, copies, size, slots});
}

// A GPU team's samples into its private copies in scratch, thread t into copy t % copies, then
// the copies' sums into the one histogram.
template <class Member, class X, class Packs, class H>
struct PrivateTeamCount {
  using Local = Kokkos::View<int*, typename Member::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  X x;
  Packs packs;
  Bins bins;
  Split split;
  H histogram;
  int copies, size;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const Local local(team.team_scratch(0), size);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, size), [&](int s) { local(s) = 0; });
    team.team_barrier();
    const int copy = copy_of(team.team_rank(), copies);
    for_team_samples(team, x, packs, split, [&](float v) {
      const int bin = bin_of(v, bins);
      if (bin >= 0) Kokkos::atomic_add(&local(bin * copies + copy), 1);
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, bins.count), [&](int b) {
      int sum = 0;
      for (int c = 0; c < copies; ++c) sum += local(b * copies + c);
      if (sum != 0) Kokkos::atomic_add(&histogram(b), Count(sum));
    });
  }
};

template <class Space, class X, class H>
void private_histogram_device(const Space& exec, const X& x, const Bins& bins, const H& histogram,
                              const Split& split) {
  using Policy = CountingPolicy<Space>;
  using Member = typename Policy::member_type;
  using Local = Kokkos::View<int*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  if (split.league == 0) return;
  using Packs = decltype(packs_of<GpuCode>(x));
  const Packs packs = packs_of<GpuCode>(x);
  const int copies = private_copies(bins.count);
  const int size = copies * bins.count;
  const Policy policy =
      Policy(exec, split.league, split.team_size).set_scratch_size(0, Kokkos::PerTeam(Local::shmem_size(size)));
  Kokkos::parallel_for("nbk::histogram::private", policy,
                       PrivateTeamCount<Member, X, Packs, H>{x, packs, bins, split, histogram, copies, size});
}

template <class Space, class X, class H>
void team_histogram(const Space& exec, const X& x, const Bins& bins, const H& histogram) {
  team_histogram(exec, x, bins, histogram, split_samples(exec, static_cast<Index>(x.extent(0))));
}

// GPU code counts over `split` (the tests give host spaces splits of many teams); host code
// ignores it and takes its chunks.
// Tuned form: private_histogram: private int32 copies a CPU thread (a GPU team), branch-free bins; gains on a CPU.
template <class Space, class X, class H, class Code = CodeFor<Space>>
void private_histogram(const Space& exec, const X& x, const Bins& bins, const H& histogram, const Split& split,
                       Code = {}) {
  check_1d_arguments<Space, X>();
  check_1d_arguments<Space, H>();
  Kokkos::deep_copy(exec, histogram, Count(0));
  if constexpr (is_gpu_code_v<Code>)
    private_histogram_device(exec, x, bins, histogram, split);
  else
    private_histogram_host(exec, x, bins, histogram);
}

template <class Space, class X, class H>
void private_histogram(const Space& exec, const X& x, const Bins& bins, const H& histogram) {
  private_histogram(exec, x, bins, histogram, split_samples(exec, static_cast<Index>(x.extent(0))));
}

}  // namespace nbk::histogram
