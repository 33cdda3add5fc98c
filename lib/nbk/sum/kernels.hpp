#pragma once
// Seed 001's workload: the sum of a float32 array, the document's ways and ours beside them.
//   plain_sum      the document's cuda.reduce as Kokkos' documentation writes it: parallel_reduce
//                  with a KOKKOS_LAMBDA into a local float;
//   host_loop      the document's CPU line: one host thread, float accumulator, in order;
//   TreeSum        the document's hand-written kernel, the Kokkos way: teams reduce their
//                  slice through team scratch in a halving tree, one partial per team; the
//                  partials are finished on the host (as the document does) or on the space;
//   accurate_sum   float data, double accumulator: the same traffic, 2^29 times finer
//                  rounding (floats convert to double exactly): written for accuracy, not speed.
// The tuned forms, builtin_sum (a launch sized to the device) and blocked_sum (a CPU's 64 lanes),
// are in tuned.hpp.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "nbk/core/code.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/packed.hpp"
#include "nbk/core/policy.hpp"
#include "nbk/core/reduce.hpp"

namespace nbk::sum {

namespace detail {
KOKKOS_INLINE_FUNCTION Index smaller(Index a, Index b) { return a < b ? a : b; }

template <class Space, class View>
constexpr void check_input() {
  check_1d_arguments<Space, View>();
  static_assert(std::is_same_v<typename View::non_const_value_type, float>, "the sums read float32 data");
}
}  // namespace detail

// The document's cuda.reduce as Kokkos' documentation writes it: a RangePolicy (64-bit indices), a
// KOKKOS_LAMBDA adding x(i) into a local float, Kokkos' own launch. The kernels below and the tuned
// forms (tuned.hpp) reduce into a host View (nbk/core/reduce.hpp: a scalar result keeps Serial's
// running sum in memory) from functors.
template <class Space, class View>
float plain_sum(const Space& exec, const View& x) {
  const std::int64_t n = x.extent(0);
  float result = 0.0f;
  Kokkos::parallel_reduce(
      "nbk::sum::plain", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i, float& partial) { partial += x(i); }, result);
  return result;
}

// One host thread, in index order, accumulating in float (no reassociation: without
// -ffast-math the compiler must keep the order, so this is also the slow, latency-bound loop).
inline float host_loop(const float* x, Index n) {
  float total = 0.0f;
  for (Index i = 0; i < n; ++i) total += x[i];
  return total;
}

// parallel_reduce with a double accumulator over the float data.
template <class View>
struct DoubleSum {
  View x;
  KOKKOS_INLINE_FUNCTION void operator()(Index i, double& partial) const { partial += static_cast<double>(x(i)); }
};

template <class Space, class View>
double accurate_sum(const Space& exec, const View& x) {
  detail::check_input<Space, View>();
  return reduce_into_host<Kokkos::Sum, double>("nbk::sum::accurate", range(exec, 0, static_cast<Index>(x.extent(0))),
                                               DoubleSum<View>{x});
}

// How the hand-written tree splits the work: `league` teams of `team_size` threads; team r
// reduces the slice [r*s, min(n, (r+1)*s)) with s = ceil(n / league).
struct TreeShape {
  int team_size = 1;
  int league = 1;
};

// ---- the tree's launch shape as pure arithmetic: tree_partials runs these functions, and the tests
// check them at a GPU's shapes (tests/test_gpu_code.cpp) ----

// A GPU's teams: 256 threads, a team per 256 floats, at most 2^16 teams (each thread adding ~8
// elements at the document's size before the tree), at least one.
inline constexpr int gpu_tree_team = 256;
inline constexpr Index max_gpu_tree_league = Index{1} << 16;
inline TreeShape gpu_tree_shape(Index n) {
  const Index league = std::min<Index>(max_gpu_tree_league, (n + gpu_tree_team - 1) / gpu_tree_team);
  return {gpu_tree_team, static_cast<int>(std::max<Index>(1, league))};
}

// Each of `league` teams' slice of n floats: ceil(n / league), rounded up to whole items of `width`
// floats (16-byte packs for GPU code where x has them, else floats).
KOKKOS_INLINE_FUNCTION Index tree_slice(Index n, Index league, Index width) {
  return ((n + league - 1) / league + width - 1) / width * width;
}

// Team `rank`'s floats [begin, end); a team past the data has none (begin = end = n).
struct TreeRange {
  Index begin = 0, end = 0;
};
KOKKOS_INLINE_FUNCTION TreeRange tree_range(Index rank, Index slice, Index n) {
  const Index begin = detail::smaller(n, rank * slice);
  const Index end = detail::smaller(n, begin + slice);
  return {begin, end};
}

// What thread t of a team's `threads` adds of its range: the packs pack_first, pack_first + step, ...
// below pack_end, then the floats first, first + step, ... below last. GPU code is strided
// (step = threads: a warp reads consecutive packs, or floats where x has no packs), the floats past
// the range's last whole pack after its packs; host code takes a chunk of consecutive floats.
struct TreeShare {
  Index pack_first = 0, pack_end = 0, first = 0, last = 0, step = 1;
};
KOKKOS_INLINE_FUNCTION TreeShare tree_share(const TreeRange& r, int t, int threads, bool packed, bool strided) {
  constexpr Index width = pack_width<float>;
  TreeShare s;
  if (packed) {
    s.step = threads;
    s.pack_first = r.begin / width + t;
    s.pack_end = r.end / width;
    // A range past the data is empty (begin = end = n, not a whole pack): its tail starts at
    // begin, not at n's last pack.
    const Index tail = r.end / width * width > r.begin ? r.end / width * width : r.begin;
    s.first = tail + t;
    s.last = r.end;
  } else if (strided) {
    s.step = threads;
    s.first = r.begin + t;
    s.last = r.end;
  } else {
    const Index chunk = (r.end - r.begin + threads - 1) / threads;
    s.first = detail::smaller(r.end, r.begin + t * chunk);
    s.last = detail::smaller(r.end, s.first + chunk);
  }
  return s;
}

// A step of the team's tree over `width` values: thread t < width - half adds in value t + half,
// leaving `half` (any width, odd ones included).
KOKKOS_INLINE_FUNCTION int tree_half(int width) { return (width + 1) / 2; }

// A GPU gets gpu_tree_shape. A CPU gets the
// recommended team size (one thread, or one per hyperthread of a core) and four teams for
// each team's worth of threads, so every slice is large and contiguous. Never more teams
// than the elements need.
template <class Space>
TreeShape default_tree_shape(const Space& exec, Index n) {
  TreeShape shape;
  Index league = 1;
  if constexpr (is_device_space_v<Space>) {
    return gpu_tree_shape(n);
  } else {
    shape.team_size = host_team_size(exec);
    const Index threads = std::max(1, exec.concurrency());
    const Index needed = (n + shape.team_size - 1) / shape.team_size;
    league = std::min<Index>(4 * std::max<Index>(1, threads / shape.team_size), needed);
  }
  shape.league = static_cast<int>(std::max<Index>(1, league));
  return shape;
}

// The largest team size the tree may be given on `exec`: the size of the thread pool's
// teams on a CPU; on a GPU a conservative 256 (asking Kokkos would need the kernel's functor).
template <class Space>
int max_team_size(const Space& exec) {
  if constexpr (is_device_space_v<Space>) {
    return 256;
  } else {
    return Kokkos::TeamPolicy<Space>(exec, 1, 1).team_size_max([](const auto&) {}, Kokkos::ParallelForTag());
  }
}

// Team r's sum of its slice into partials(r), through `threads` floats of team scratch (tree_partials).
template <class Policy, class Packs, class View, class Partials>
struct TreePartials {
  using Member = typename Policy::member_type;
  using Scratch =
      Kokkos::View<float*, typename Policy::execution_space::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  View x;
  Packs p;
  Partials partials;
  Index n;
  Index slice;
  Index width;
  bool strided;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int t = team.team_rank();
    const int threads = team.team_size();
    const TreeShare share = tree_share(tree_range(team.league_rank(), slice, n), t, threads, width > 1, strided);

    float mine = 0.0f;
    for (Index c = share.pack_first; c < share.pack_end; c += share.step) {
      const auto v = p(c);
      mine += (v.at[0] + v.at[1]) + (v.at[2] + v.at[3]);
    }
    for (Index i = share.first; i < share.last; i += share.step) mine += x(i);

    Scratch scratch(team.team_scratch(0), threads);
    scratch(t) = mine;
    team.team_barrier();
    for (int width = threads; width > 1;) {
      const int half = tree_half(width);
      if (t < width - half) scratch(t) += scratch(t + half);
      team.team_barrier();
      width = half;
    }
    if (t == 0) partials(team.league_rank()) = scratch(0);
  }
};

// partials(r) = sum of team r's slice. Each thread adds its share of the slice in a
// register (GPU code: strided, so that a warp reads consecutive 16-byte packs of floats; host
// code: a contiguous chunk), stores it in team scratch, and the team halves the scratch array
// until one value is left: thread t adds in element t + half while t < width - half (any team
// size works).
// The document's kernel (its tree in shared memory, one partial a block) with our launch shapes and, for
// GPU code, 16-byte packs: a document's kernel, so it stays here, not among the tuned forms.
template <class Space, class View, class Partials, class Code = CodeFor<Space>>
void tree_partials(const Space& exec, const View& x, const Partials& partials, int team_size, Code = {}) {
  detail::check_input<Space, View>();
  static_assert(Kokkos::SpaceAccessibility<Space, typename Partials::memory_space>::accessible);
  using Policy = Kokkos::TeamPolicy<Space>;

  const Index n = static_cast<Index>(x.extent(0));
  const int league = static_cast<int>(partials.extent(0));
  if (league == 0) return;
  // GPU code: 16-byte packs where x allows them (nbk/core/packed.hpp): slices of whole packs,
  // a warp reading 512 contiguous bytes per step; the last slice's odd floats one at a time.
  static_assert(pack_width<float> == 4, "a pack holds four floats");
  const auto p = packs_of<Code>(x);
  const Index width = p.extent(0) > 0 ? pack_width<float> : 1;
  const Index slice = tree_slice(n, league, width);
  const bool strided = is_gpu_code_v<Code>;
  using Kernel = TreePartials<Policy, PacksOf<View>, View, Partials>;
  const auto policy = Policy(exec, league, team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(Kernel::Scratch::shmem_size(team_size)));

  Kokkos::parallel_for("nbk::sum::tree_partials", policy, Kernel{x, p, partials, n, slice, width, strided});
}

namespace detail {
// The sum of the tree's partials, on the space (TreeSum::finish_on_device).
template <class Partials>
struct PartialsSum {
  Partials partials;
  KOKKOS_INLINE_FUNCTION void operator()(Index r, float& partial) const { partial += partials(r); }
};
}  // namespace detail

// The tree with its partials array allocated once, so that timed calls allocate nothing.
template <class Space, class Code = CodeFor<Space>>
class TreeSum {
 public:
  using Partials = Kokkos::View<float*, typename Space::memory_space>;

  TreeSum(const Space& exec, TreeShape shape)
      : exec_(exec),
        shape_(shape),
        partials_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::sum::partials"), shape.league),
        host_partials_(create_mirror_view_uninit(Kokkos::HostSpace(), partials_)) {}

  const TreeShape& shape() const { return shape_; }

  // The document's way: copy the partials to the host and add them there, in order, in float.
  template <class View>
  float finish_on_host(const View& x) {
    tree_partials(exec_, x, partials_, shape_.team_size, Code{});
    Kokkos::deep_copy(exec_, host_partials_, partials_);
    nbk::fence(exec_, "nbk::sum::tree partials to host");
    float total = 0.0f;
    for (int r = 0; r < shape_.league; ++r) total += host_partials_(r);
    return total;
  }

  // A second reduction on the space adds the partials; only one float comes back.
  template <class View>
  float finish_on_device(const View& x) {
    tree_partials(exec_, x, partials_, shape_.team_size, Code{});
    return reduce_into_host<Kokkos::Sum, float>("nbk::sum::tree_finish",
                                                range(exec_, 0, static_cast<Index>(shape_.league)),
                                                detail::PartialsSum<Partials>{partials_});
  }

 private:
  Space exec_;
  TreeShape shape_;
  Partials partials_;
  HostMirrorOf<Partials> host_partials_;
};

}  // namespace nbk::sum
