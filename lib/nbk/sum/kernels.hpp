#pragma once
// Seed 001's workload: the sum of a float32 array, six ways.
//   plain_sum      the document's cuda.reduce as Kokkos' documentation writes it: parallel_reduce
//                  with a KOKKOS_LAMBDA into a local float;
//   host_loop      the document's CPU line: one host thread, float accumulator, in order;
//   builtin_sum    parallel_reduce with the built-in sum (the document's cuda.reduce); on a
//                  GPU in a launch sized to the device (launch_for);
//   TreeSum        the document's hand-written kernel, the Kokkos way: teams reduce their
//                  slice through team scratch in a halving tree, one partial per team; the
//                  partials are finished on the host (as the document does) or on the space;
//   accurate_sum   float data, double accumulator: the same traffic, 2^29 times finer
//                  rounding (floats convert to double exactly);
//   blocked_sum    for CPUs: blocks of 1024 floats, each added as 64 independent lanes then
//                  pairwise; the blocks' partials summed in double. Fast and accurate at once.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
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
// KOKKOS_LAMBDA adding x(i) into a local float, Kokkos' own launch. The tuned forms below reduce into a
// host View (nbk/core/reduce.hpp: a scalar result keeps Serial's running sum in memory) from functors.
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

// ---- the built-in sum ----
// parallel_reduce with Kokkos' built-in sum, float accumulator. Host code: a RangePolicy over
// the elements, Kokkos' own launch. GPU code: a launch sized to the device, as CUB sizes its
// own (notes.md, "Speed."): one wave of teams filling every SM, each thread a grid-stride
// loop over 16-byte packs with four independent loads in flight and its own register sum, one
// partial a thread added by Kokkos' reduction. Kokkos 3.4 launches a RangePolicy reduction on
// CUDA as at most 256 blocks of 256 threads (Kokkos_Cuda_Parallel.hpp, ParallelReduce's
// local_block_size and execute; the launch-shape patch leaves it alone), a quarter of an H100's
// resident threads: the first H100 record had the built-in float sum at 62% of CUB's speed. The
// rows that keep that launch say so in notes.md ("## Below memcpy").

// What the launch needs to know of the GPU, read from it at run time (device_shape).
struct DeviceShape {
  int sms = 1;                         // streaming multiprocessors
  int threads_per_sm = 2048;           // resident threads an SM holds at most
  std::int64_t shared_bytes_per_sm = 228 * 1024;  // shared memory of an SM
};

// The launch of the GPU code over `items` items (16-byte packs, or floats where x has no packs)
// followed by `extra` < width floats. Thread g of `threads` (g = team * block + rank) reads, in
// each of `rounds` full rounds r, the items r * stride + g + k * threads for k < loads (a warp's
// loads are consecutive items), then the items from rounds * stride + g on, `threads` apart,
// below `items` (fewer than `loads`), then the floats past the items from items * width + g on,
// `threads` apart. walk() is that order, the kernel's and the tests': it hands `visit` each
// round's four items (visit.round(a, b, c, d)), then the rest one at a time (visit.one(i)), then
// the floats' indices (visit.tail(j)). A visitor, not lambdas: a host lambda called from this
// __host__ __device__ function draws nvcc's warnings.
struct SumLaunch {
  static constexpr int loads = 4;  // independent 16-byte loads in flight a thread
  Index grid = 0;                  // teams (blocks)
  int block = 0;                   // threads a team
  Index threads = 0;               // grid * block
  int width = 1;                   // floats an item
  Index items = 0;
  Index stride = 0;                // loads * threads: items a round reads
  Index rounds = 0;                // full rounds: rounds * stride <= items
  Index extra = 0;                 // the floats past the items

  template <class Visit>
  KOKKOS_INLINE_FUNCTION void walk(Index g, Visit& visit) const {
    Index i = g;
    for (Index r = 0; r < rounds; ++r, i += stride) visit.round(i, i + threads, i + 2 * threads, i + 3 * threads);
    for (; i < items; i += threads) visit.one(i);
    for (Index j = items * width + g; j < items * width + extra; j += threads) visit.tail(j);
  }
};
static_assert(SumLaunch::loads == 4, "walk() hands a round four items");

// Threads a team on a GPU: 256, as CUB's reduction takes; the kernel's launch bounds promise
// 2048 / 256 = 8 teams an SM (registers for all of them).
inline constexpr int sum_block = 256;
inline constexpr int sum_blocks_per_sm = 8;

// Shared memory Kokkos' team reduction takes a team (ParallelReduce<TeamPolicy>'s m_shmem_begin,
// 3.4 and 4.6: sizeof(double) * (team_size + 2)), and what CUDA reserves a block (1 KiB, sm_80 on).
constexpr std::int64_t sum_shared_bytes_per_team(int block) { return 8 * (static_cast<std::int64_t>(block) + 2) + 1024; }

// A pure function of the device's shape and the data's size: the teams that fill every SM once
// (resident threads / block, fewer if shared memory holds fewer), never more than the data
// needs for one full round of every thread (so small arrays get few teams), at least one for
// any data, none for none. For any positive int fields every product here fits in 64 bits (the
// largest, sms * teams an SM, is below 2^62) and the threads in an int; for n + threads below
// 2^63 so does every index walk() computes (tests/test_sum.cpp, SumLaunch.*).
inline SumLaunch launch_for(const DeviceShape& shape, Index n, int width = pack_width<float>) {
  SumLaunch l;
  l.width = width < 1 ? 1 : width;
  l.items = n < 0 ? 0 : n / l.width;
  l.extra = n < 0 ? 0 : n - l.items * l.width;
  l.block = std::max(1, std::min(sum_block, shape.threads_per_sm));
  const Index by_threads = std::max(1, shape.threads_per_sm / l.block);
  const Index by_shared = std::max<std::int64_t>(1, shape.shared_bytes_per_sm / sum_shared_bytes_per_team(l.block));
  const Index full = static_cast<Index>(std::max(1, shape.sms)) * std::min(by_threads, by_shared);
  const Index round = static_cast<Index>(SumLaunch::loads) * l.block;  // items one team reads a round
  const Index needed = l.items / round + (l.items % round != 0 || (l.items == 0 && l.extra > 0));
  // The teams are Kokkos' league, an int.
  l.grid = std::min({full, needed, Index{std::numeric_limits<int>::max()} / l.block});
  l.threads = l.grid * l.block;
  l.stride = l.threads * SumLaunch::loads;
  l.rounds = l.stride > 0 ? l.items / l.stride : 0;
  return l;
}

// The shape of the GPU that runs `exec`, from the CUDA runtime (Kokkos keeps its properties). A
// host space has none: its stand-in is one H100-like SM a thread, for GPU code run on the host.
template <class Space>
DeviceShape device_shape(const Space& exec) {
  static_assert(!is_device_space_v<Space>, "a GPU's shape comes from its runtime");
  return {std::max(1, exec.concurrency()), 2048, 228 * 1024};
}
#if defined(KOKKOS_ENABLE_CUDA)
inline DeviceShape device_shape(const Kokkos::Cuda& exec) {
  const cudaDeviceProp& prop = exec.cuda_device_prop();
  return {prop.multiProcessorCount, prop.maxThreadsPerMultiProcessor,
          static_cast<std::int64_t>(prop.sharedMemPerMultiprocessor)};
}
#endif

namespace detail {
KOKKOS_INLINE_FUNCTION float item_sum(float v) { return v; }
KOKKOS_INLINE_FUNCTION float item_sum(const Pack<float, 4>& v) { return (v.at[0] + v.at[1]) + (v.at[2] + v.at[3]); }

// A thread's register sum of the items SumLaunch::walk hands it: a round's four loads are issued
// before any of them is added (64 bytes in flight a thread with packs).
template <class Items, class View>
struct AddItems {
  const Items& items;
  const View& x;
  float sum = 0.0f;
  KOKKOS_INLINE_FUNCTION void round(Index a, Index b, Index c, Index d) {
    const auto v0 = items(a), v1 = items(b), v2 = items(c), v3 = items(d);
    sum += (item_sum(v0) + item_sum(v1)) + (item_sum(v2) + item_sum(v3));
  }
  KOKKOS_INLINE_FUNCTION void one(Index i) { sum += item_sum(items(i)); }
  KOKKOS_INLINE_FUNCTION void tail(Index j) { sum += x(j); }
};

// Host code's: a RangePolicy over the elements.
template <class View>
struct ElementSum {
  View x;
  KOKKOS_INLINE_FUNCTION void operator()(Index i, float& partial) const { partial += x(i); }
};

template <class Space, class View>
float element_sum(const Space& exec, const View& x, Index n) {
  return reduce_into_host<Kokkos::Sum, float>("nbk::sum::builtin", range(exec, 0, n), ElementSum<View>{x});
}

}  // namespace detail

// A thread's share of the GPU code's reduction: the items launch.walk hands thread g, summed in a
// register, then one partial a thread.
template <class Member, class Items, class View>
struct LaunchedSum {
  Items items;
  View x;
  SumLaunch launch;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& member, float& partial) const {
    const Index g = static_cast<Index>(member.league_rank()) * member.team_size() + member.team_rank();
    detail::AddItems<Items, View> add{items, x};
    launch.walk(g, add);
    partial += add.sum;
  }
};

// The GPU code's reduction over `items` (x's packs, or x itself), as `launch` says. A team of
// `launch.block` threads on a GPU; on a host space teams of one thread, `launch.threads` of them. Its kernel's
// name holds nbk::sum::LaunchedSum: CI finds the kernel by it in the PTX (tests/ptx_atomics.sh).
template <class Space, class Items, class View>
float builtin_launched_sum(const Space& exec, const Items& items, const View& x, const SumLaunch& launch) {
  if (launch.threads == 0) return 0.0f;
  using Policy = Kokkos::TeamPolicy<Space, Kokkos::LaunchBounds<sum_block, sum_blocks_per_sm>>;
  using Member = typename Policy::member_type;
  const int team = is_device_space_v<Space> ? launch.block : 1;
  const Policy policy(exec, static_cast<int>(launch.threads / team), team);
  return reduce_into_host<Kokkos::Sum, float>("nbk::sum::builtin", policy,
                                              LaunchedSum<Member, Items, View>{items, x, launch});
}

// The built-in sum; GPU code takes the launch for `shape` (the device's own by default).
template <class Space, class View, class Code = CodeFor<Space>>
float builtin_sum(const Space& exec, const View& x, Code, const DeviceShape& shape) {
  detail::check_input<Space, View>();
  static_assert(pack_width<float> == 4);
  const auto n = static_cast<Index>(x.extent(0));
  if constexpr (!is_gpu_code_v<Code>) {
    return detail::element_sum(exec, x, n);
  } else {
    // 16-byte packs where x allows them (nbk/core/packed.hpp), x's floats where it does not.
    const auto p = packs_of<Code>(x);
    if (p.extent(0) > 0) return builtin_launched_sum(exec, p, x, launch_for(shape, n, pack_width<float>));
    return builtin_launched_sum(exec, x, x, launch_for(shape, n, 1));
  }
}

template <class Space, class View, class Code = CodeFor<Space>>
float builtin_sum(const Space& exec, const View& x, Code code = {}) {
  if constexpr (is_gpu_code_v<Code>)
    return builtin_sum(exec, x, code, device_shape(exec));
  else
    return builtin_sum(exec, x, code, DeviceShape{});
}

// The launch builtin_sum's GPU code takes on `exec` for n floats, in words.
template <class Space>
std::string builtin_shape_text(const Space& exec, Index n) {
  if constexpr (!is_device_space_v<Space>) return "Kokkos";
  const SumLaunch l = launch_for(device_shape(exec), n);
  return std::to_string(l.grid) + " teams x " + std::to_string(l.block) + " threads, " +
         std::to_string(SumLaunch::loads) + " 16-byte loads in flight a thread";
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

// ---- blocked summation ----
// A CPU thread adding floats into one accumulator waits for each add to finish before the
// next (3-4 cycles), and without -ffast-math the compiler may not reorder them: such loops
// run at a fraction of memory bandwidth. Here each block of `block` floats is added as
// `lanes` independent running sums (lane k takes elements k, k + lanes, ...; the adds of
// different lanes overlap and the compiler vectorizes them, keeping every lane's order),
// then the lanes are added pairwise. A lane adds only block / lanes = 16 elements, so its
// partial sum stays small and so does its rounding error; the blocks' partials go into a
// double accumulator (one add per 1024 elements costs nothing). 64 lanes are four AVX-512
// (eight AVX2) vectors of independent adds: with 16 lanes, one vector's add latency held a
// core to ~75% of its copy bandwidth (measured on the development VM).
namespace blocked {
inline constexpr int lanes = 64;
inline constexpr Index block = 1024;
}  // namespace blocked

// Sum of x[first, last) (at most blocked::block elements), as described above.
template <class View>
KOKKOS_INLINE_FUNCTION float block_partial(const View& x, Index first, Index last) {
  float acc[blocked::lanes] = {};
  Index i = first;
  for (; i + blocked::lanes <= last; i += blocked::lanes)
    for (int k = 0; k < blocked::lanes; ++k) acc[k] += x(i + k);
  for (int k = 0; i + k < last; ++k) acc[k] += x(i + k);
  for (int width = blocked::lanes / 2; width > 0; width /= 2)
    for (int k = 0; k < width; ++k) acc[k] += acc[k + width];
  return acc[0];
}

// Block b's partial, added in double.
template <class View>
struct BlockedSum {
  View x;
  Index n;
  KOKKOS_INLINE_FUNCTION void operator()(Index b, double& partial) const {
    const Index first = b * blocked::block;
    const Index last = detail::smaller(n, first + blocked::block);
    partial += static_cast<double>(block_partial(x, first, last));
  }
};

template <class Space, class View>
double blocked_sum(const Space& exec, const View& x) {
  detail::check_input<Space, View>();
  const Index n = static_cast<Index>(x.extent(0));
  const Index blocks = (n + blocked::block - 1) / blocked::block;
  return reduce_into_host<Kokkos::Sum, double>("nbk::sum::blocked", range(exec, 0, blocks), BlockedSum<View>{x, n});
}

template <class Space>
std::string blocked_shape_text(const Space&) {
  return std::to_string(blocked::block) + "-float blocks, " + std::to_string(blocked::lanes) + " lanes, double across blocks";
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
