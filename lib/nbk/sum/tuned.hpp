#pragma once
// The sum's tuned forms, written for speed beside the document's kernels (kernels.hpp): builtin_sum,
// whose GPU code takes a launch sized to the device over 16-byte packs, and blocked_sum, a CPU's
// blocks of 64 lanes. Each is measured against the plain row in notes.md's "## Tuned forms".
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "nbk/core/code.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/packed.hpp"
#include "nbk/core/policy.hpp"
#include "nbk/core/reduce.hpp"
#include "nbk/sum/kernels.hpp"

namespace nbk::sum {

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
// Tuned form: builtin_sum: GPU code in one device-sized wave of 256-thread teams over 16-byte packs; gains on a GPU.
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

// Tuned form: blocked_sum: 1024-float blocks as 64 vectorized lanes, double across blocks; gains on a CPU.
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

}  // namespace nbk::sum
