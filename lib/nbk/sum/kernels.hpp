#pragma once
// Seed 001's workload: the sum of a float32 array, four ways.
//   host_loop      the document's CPU line: one host thread, float accumulator, in order;
//   builtin_sum    parallel_reduce with the built-in sum (the document's cuda.reduce);
//   TreeSum        the document's hand-written kernel, the Kokkos way: teams reduce their
//                  slice through team scratch in a halving tree, one partial per team; the
//                  partials are finished on the host (as the document does) or on the space;
//   accurate_sum   float data, double accumulator: the same traffic, 2^29 times finer
//                  rounding (floats convert to double exactly);
//   blocked_sum    for CPUs: blocks of 1024 floats, each added as 64 independent lanes then
//                  pairwise; the blocks' partials summed in double. Fast and accurate at once.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <string>
#include <type_traits>

#include "nbk/core/code.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/lambda.hpp"
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

// One host thread, in index order, accumulating in float (no reassociation: without
// -ffast-math the compiler must keep the order, so this is also the slow, latency-bound loop).
inline float host_loop(const float* x, Index n) {
  float total = 0.0f;
  for (Index i = 0; i < n; ++i) total += x[i];
  return total;
}

// parallel_reduce with Kokkos' built-in sum, float accumulator. On a GPU a call reads four
// 16-byte packs a quarter of the packs apart (nbk/core/packed.hpp), so that a warp's loads are
// consecutive packs and a thread has 64 bytes in flight at once: Kokkos 3.4 launches at most
// 256 x 256 threads for a RangePolicy reduction (kokkos34_reduce_launch), and its loop over a
// thread's indices, which nvcc unrolls four times around a scalar load, stays rolled around a
// body with a branch: one pack a call left a thread 16 bytes in flight, as four floats did.
// The calls' four loads are in bounds by construction, so nvcc issues them without a branch;
// one more call adds the packs and floats that the quarters leave over.
template <class Space, class View, class Code = CodeFor<Space>>
float builtin_sum(const Space& exec, const View& x, Code = {}) {
  detail::check_input<Space, View>();
  static_assert(pack_width<float> == 4);
  const auto n = static_cast<Index>(x.extent(0));
  const auto p = packs_of<Code>(x);
  const auto packs = static_cast<Index>(p.extent(0));
  if (packs == 0)
    return reduce_into_host<Kokkos::Sum, float>("nbk::sum::builtin", range(exec, 0, n),
                                                NBK_LAMBDA(exec, (Index i, float& partial) { partial += x(i); }));
  const Index quarter = packs / 4;
  return reduce_into_host<Kokkos::Sum, float>(
      "nbk::sum::builtin", range(exec, 0, quarter + (n > quarter * 16)), NBK_LAMBDA(exec, (Index c, float& partial) {
        const auto sum = [](const auto& v) { return (v.at[0] + v.at[1]) + (v.at[2] + v.at[3]); };
        if (c < quarter) {
          const auto v0 = p(c), v1 = p(c + quarter), v2 = p(c + 2 * quarter), v3 = p(c + 3 * quarter);
          partial += (sum(v0) + sum(v1)) + (sum(v2) + sum(v3));
        } else {
          for (Index q = 4 * quarter; q < packs; ++q) partial += sum(p(q));
          for (Index i = packs * 4; i < n; ++i) partial += x(i);
        }
      }));
}

// parallel_reduce with a double accumulator over the float data.
template <class Space, class View>
double accurate_sum(const Space& exec, const View& x) {
  detail::check_input<Space, View>();
  return reduce_into_host<Kokkos::Sum, double>(
      "nbk::sum::accurate", range(exec, 0, static_cast<Index>(x.extent(0))),
      NBK_LAMBDA(exec, (Index i, double& partial) { partial += static_cast<double>(x(i)); }));
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

template <class Space, class View>
double blocked_sum(const Space& exec, const View& x) {
  detail::check_input<Space, View>();
  const Index n = static_cast<Index>(x.extent(0));
  const Index blocks = (n + blocked::block - 1) / blocked::block;
  return reduce_into_host<Kokkos::Sum, double>(
      "nbk::sum::blocked", range(exec, 0, blocks), NBK_LAMBDA(exec, (Index b, double& partial) {
        const Index first = b * blocked::block;
        const Index last = detail::smaller(n, first + blocked::block);
        partial += static_cast<double>(block_partial(x, first, last));
      }));
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

// A GPU gets teams of 256 threads and enough of them to fill it (at most 2^16 teams, each
// thread adding ~8 elements at the document's size before the tree). A CPU gets the
// recommended team size (one thread, or one per hyperthread of a core) and four teams for
// each team's worth of threads, so every slice is large and contiguous. Never more teams
// than the elements need.
template <class Space>
TreeShape default_tree_shape(const Space& exec, Index n) {
  TreeShape shape;
  Index league = 1;
  if constexpr (is_device_space_v<Space>) {
    shape.team_size = 256;
    league = std::min<Index>(Index{1} << 16, (n + shape.team_size - 1) / shape.team_size);
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
  using Member = typename Policy::member_type;
  using Scratch = Kokkos::View<float*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  const Index n = static_cast<Index>(x.extent(0));
  const int league = static_cast<int>(partials.extent(0));
  if (league == 0) return;
  // GPU code: 16-byte packs where x allows them (nbk/core/packed.hpp): slices of whole packs,
  // a warp reading 512 contiguous bytes per step; the last slice's odd floats one at a time.
  static_assert(pack_width<float> == 4, "a pack holds four floats");
  const auto p = packs_of<Code>(x);
  const Index width = p.extent(0) > 0 ? pack_width<float> : 1;
  const Index slice = ((n + league - 1) / league + width - 1) / width * width;
  // A plain bool, not `if constexpr` in the lambda: nvcc rejects a lambda whose first use of
  // a captured variable sits inside a constexpr-if.
  const bool strided = is_gpu_code_v<Code>;
  const auto policy =
      Policy(exec, league, team_size).set_scratch_size(0, Kokkos::PerTeam(Scratch::shmem_size(team_size)));

  Kokkos::parallel_for(
      "nbk::sum::tree_partials", policy, NBK_LAMBDA(exec, (const Member& team) {
        const int t = team.team_rank();
        const int threads = team.team_size();
        const Index begin = detail::smaller(n, static_cast<Index>(team.league_rank()) * slice);
        const Index end = detail::smaller(n, begin + slice);

        float mine = 0.0f;
        if (width > 1) {
          for (Index c = begin / 4 + t; c < end / 4; c += threads) {
            const auto v = p(c);
            mine += (v.at[0] + v.at[1]) + (v.at[2] + v.at[3]);
          }
          // The floats past the slice's last whole pack. A slice past the data is empty
          // (begin = end = n, not a whole pack): its tail starts at begin, not at n's last pack.
          const Index tail = end / 4 * 4 > begin ? end / 4 * 4 : begin;
          for (Index i = tail + t; i < end; i += threads) mine += x(i);
        } else if (strided) {
          for (Index i = begin + t; i < end; i += threads) mine += x(i);
        } else {
          const Index chunk = (end - begin + threads - 1) / threads;
          const Index first = detail::smaller(end, begin + t * chunk);
          const Index last = detail::smaller(end, first + chunk);
          for (Index i = first; i < last; ++i) mine += x(i);
        }

        Scratch scratch(team.team_scratch(0), threads);
        scratch(t) = mine;
        team.team_barrier();
        for (int width = threads; width > 1;) {
          const int half = (width + 1) / 2;
          if (t < width - half) scratch(t) += scratch(t + half);
          team.team_barrier();
          width = half;
        }
        if (t == 0) partials(team.league_rank()) = scratch(0);
      }));
}

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
    const Partials partials = partials_;
    return reduce_into_host<Kokkos::Sum, float>(
        "nbk::sum::tree_finish", range(exec_, 0, static_cast<Index>(shape_.league)),
        NBK_LAMBDA(exec_, (Index r, float& partial) { partial += partials(r); }));
  }

 private:
  Space exec_;
  TreeShape shape_;
  Partials partials_;
  typename Partials::HostMirror host_partials_;
};

}  // namespace nbk::sum
