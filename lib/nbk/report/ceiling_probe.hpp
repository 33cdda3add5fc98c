#pragma once
// Probing one space's ceilings (nbk/report/ceilings.hpp): at each memory level, every kind of
// traffic by every form that moves it (ceiling_kernels.hpp: Kokkos' kernels; on a CPU the plain
// loops and the streaming stores; on a GPU also cudaMemcpy and CUB's sum), each timed as the rows
// are (fenced, one call a sample, best of the timed calls after an untimed first), each result
// checked on the host afterwards. The ceiling of a kind is the fastest of its forms, in bytes as
// the memory moves them, past the call's floor (its fastest call over a few lines). Then a sweep of working sets (a copy at each power of two) that shows
// where each level ends, against the sizes the machine reported.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "nbk/core/allocate.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/cuda_check.hpp"
#include "nbk/core/timer.hpp"
#include "nbk/core/traffic.hpp"
#include "nbk/core/vendor_reduce.hpp"
#include "nbk/report/ceiling_kernels.hpp"
#include "nbk/report/ceilings.hpp"

namespace nbk {

namespace ceiling_detail {

// The traffic of one call of `kind` over arrays of n doubles (nbk/core/traffic.hpp's).
inline Traffic kind_traffic(TrafficKind kind, std::uint64_t n) {
  switch (kind) {
    case TrafficKind::read: return read_traffic<double>(n);
    case TrafficKind::update: return read_modify_write_traffic<double>(n);
    case TrafficKind::copy: return copy_traffic<double>(n);
    case TrafficKind::add: return binary_map_traffic<double>(n);
    case TrafficKind::copy_streaming: return copy_traffic<double>(n).streaming_stores();
    case TrafficKind::add_streaming: return binary_map_traffic<double>(n).streaming_stores();
  }
  return {};
}

// A form of a kind: its name, one call, and the check of its result after its last call.
struct Form {
  TrafficKind kind;
  std::string by;
  Index n;  // doubles of each array a call runs over
  std::function<void()> call;
  std::function<bool()> check;
};

// The best and the median/best - 1 of `calls` fenced calls after an untimed first one.
inline std::pair<double, double> time_form(const std::function<void()>& call, int calls, Fences fences) {
  std::vector<double> seconds;
  time_fenced("nbk::probe ceiling (first call)", call, fences);
  for (int k = 0; k < calls; ++k) seconds.push_back(time_fenced("nbk::probe ceiling", call, fences));
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  return {seconds.front(), seconds.front() > 0 ? median / seconds.front() - 1 : 0};
}

}  // namespace ceiling_detail

// Three arrays of doubles in Space's memory, each as large as the working set, and every form of
// every kind over them: a kind of k arrays runs over the first working set / (8 k) doubles of each,
// so that every kind's call touches the same working set (the `Form::bytes` it moves, counted).
template <class Space>
class CeilingArrays {
 public:
  using View = Kokkos::View<double*, typename Space::memory_space>;
  static constexpr double a0 = 1.0, b0 = 2.0;

  CeilingArrays(const Space& exec, std::uint64_t working_set)
      : exec_(exec), length_(ceiling::round_length(static_cast<Index>(working_set / sizeof(double)))),
        a_(allocate<View>("nbk::probe::ceiling::a", length_)),
        b_(allocate<View>("nbk::probe::ceiling::b", length_)),
        c_(allocate<View>("nbk::probe::ceiling::c", length_)) {
    Kokkos::deep_copy(exec_, a_, a0);
    Kokkos::deep_copy(exec_, b_, b0);
    Kokkos::deep_copy(exec_, c_, 0.0);
    nbk::fence(exec_, "nbk::probe ceiling first touch");
  }
  // The doubles of each array a kind of `arrays` arrays runs over.
  Index length(int arrays) const { return ceiling::round_length(length_ / arrays); }

  // Every form this space has: Kokkos' kernels in the space's code (or `Code`, for the tests),
  // and the forms outside Kokkos.
  template <class Code = CodeFor<Space>>
  std::vector<ceiling_detail::Form> forms(Code code = {}) {
    using ceiling_detail::Form;
    const double* a = a_.data();
    double* b = b_.data();
    double* c = c_.data();
    const Index n1 = length(1), n2 = length(2), n3 = length(3);
    const Space exec = exec_;
    std::vector<Form> all;
    auto read_sum = std::make_shared<double>(0);
    const auto sum_ok = [=] { return *read_sum == a0 * static_cast<double>(n1); };
    const auto copied = [this, n2] { return c_is(a0, n2); };
    const auto added = [this, n3] { return c_is(a0 + b0, n3); };
    all.push_back({TrafficKind::read, "Kokkos sum of a", n1, [=] { *read_sum = ceiling::read(exec, a, n1, code); },
                   sum_ok});
    all.push_back(update_form("Kokkos b = b + 1", n1, [=] { ceiling::update(exec, b, n1, code); }));
    all.push_back({TrafficKind::copy, "Kokkos c = a", n2, [=] { ceiling::copy(exec, a, c, n2, code); }, copied});
    all.push_back({TrafficKind::add, "Kokkos c = a + b", n3, [=] { ceiling::add(exec, a, b, c, n3, code); }, added});
    if constexpr (!is_device_space_v<Space>) {
      const int threads = exec.concurrency();
      const std::string plain = "plain loop (BabelStream's)";
      all.push_back({TrafficKind::read, plain, n1, [=] { *read_sum = ceiling::plain_read(a, n1, threads); }, sum_ok});
      all.push_back(update_form(plain, n1, [=] { ceiling::plain_update(b, n1, threads); }));
      all.push_back({TrafficKind::copy, plain, n2, [=] { ceiling::plain_copy(a, c, n2, threads); }, copied});
      all.push_back({TrafficKind::add, plain, n3, [=] { ceiling::plain_add(a, b, c, n3, threads); }, added});
      all.push_back({TrafficKind::copy_streaming, "streaming stores", n2,
                     [=] { ceiling::streaming_copy(a, c, n2, threads); }, copied});
      all.push_back({TrafficKind::add_streaming, "streaming stores", n3,
                     [=] { ceiling::streaming_add(a, b, c, n3, threads); }, added});
    }
#if defined(KOKKOS_ENABLE_CUDA)
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
      all.push_back({TrafficKind::copy, "cudaMemcpy device-to-device", n2,
                     [=] {
                       NBK_CUDA(cudaMemcpyAsync(c, a, static_cast<std::size_t>(n2) * sizeof(double),
                                                cudaMemcpyDeviceToDevice, exec.cuda_stream()));
                     },
                     copied});
      auto vendor = std::make_shared<VendorReduce<Space>>();
      const auto av = Kokkos::subview(a_, std::make_pair(Index{0}, n1));
      all.push_back({TrafficKind::read, "CUB DeviceReduce::Sum", n1, [=] { *read_sum = vendor->sum(av); }, sum_ok});
    }
#endif
    return all;
  }

  // The output before a form runs: c = 0, b = b0 (so that each form's check sees its own work).
  void reset() {
    Kokkos::deep_copy(exec_, b_, b0);
    Kokkos::deep_copy(exec_, c_, 0.0);
    nbk::fence(exec_, "nbk::probe ceiling reset");
    updates_ = 0;
  }

 private:
  ceiling_detail::Form update_form(const std::string& by, Index n, std::function<void()> call) {
    return {TrafficKind::update, by, n,
            [this, call] {
              call();
              ++updates_;
            },
            [this, n] {
              double expected = b0;
              for (int k = 0; k < updates_; ++k) expected += 1.0;
              return updates_ > 0 && all_equal(b_, expected, n);
            }};
  }
  bool c_is(double value, Index n) const { return all_equal(c_, value, n); }
  static bool all_equal(const View& v, double value, Index n) {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    for (Index i = 0; i < n; ++i)
      if (host(i) != value) return false;
    return true;
  }

  Space exec_;
  Index length_;
  View a_, b_, c_;
  int updates_ = 0;
};

// The working set a floor is measured with: 24 doubles, 8 an array for the kinds of two and three
// (four pairs in flight, the GPU code's least), smaller than any call a row makes of its kind.
inline constexpr std::uint64_t floor_working_set = 24 * sizeof(double);

// Each form's floor: its fastest call over a few lines, in the order forms() gives them, after
// `calls` timed calls each.
// With `by_kind`, also each kind's floor: the fastest of its forms'.
template <class Space, class Code = CodeFor<Space>>
std::vector<double> form_floors(const Space& exec, int calls, Code code = {},
                                std::map<TrafficKind, double>* by_kind = nullptr) {
  CeilingArrays<Space> tiny(exec, floor_working_set);
  std::vector<double> floors;
  for (const auto& form : tiny.forms(code)) {
    tiny.reset();
    floors.push_back(ceiling_detail::time_form(form.call, calls, fences_for<Space>).first);
    if (!by_kind) continue;
    const auto kept = by_kind->find(form.kind);
    if (kept == by_kind->end() || floors.back() < kept->second) (*by_kind)[form.kind] = floors.back();
  }
  return floors;
}

// The ceilings of one level: each form timed `calls` times (after a first), checked; the fastest
// verified form of each kind is its ceiling, its bytes over its time less its floor (`floors`, by
// form; empty: measured here). `verified` turns false where a form's check fails.
template <class Space, class Code = CodeFor<Space>>
LevelCeilings probe_level(const Space& exec, const MemoryLevel& level, int calls, bool& verified,
                          std::vector<double> floors = {}, Code code = {}) {
  if (floors.empty()) floors = form_floors(exec, std::max(calls, 20), code);
  CeilingArrays<Space> arrays(exec, level.probe_bytes);
  LevelCeilings result;
  result.level = level;
  const bool allocate = !is_device_space_v<Space>;
  const auto forms = arrays.forms(code);
  for (std::size_t k = 0; k < forms.size(); ++k) {
    const auto& form = forms[k];
    arrays.reset();
    const auto [best, spread] = ceiling_detail::time_form(form.call, calls, fences_for<Space>);
    if (!form.check()) {
      verified = false;
      continue;
    }
    // A call that is mostly its floor says nothing of the bandwidth (its remainder is noise): no
    // figure of its own; the level takes the next one's (probe_ceilings), and the floor binds its rows.
    const double moving = best - (k < floors.size() ? floors[k] : 0.0);
    if (moving < 0.2 * best) continue;
    const Traffic t = ceiling_detail::kind_traffic(form.kind, static_cast<std::uint64_t>(form.n));
    const double rate = static_cast<double>(moved_bytes(t, allocate)) / moving * 1e-9;
    KindCeiling& kept = result.kinds[form.kind];
    if (rate > kept.gb_per_s) kept = {rate, form.by, spread};
  }
  return result;
}

// A copy (Kokkos, the space's code) at working sets from 16 KiB by powers of two up to `largest`
// bytes: where its rate steps down, a level ends.
template <class Space>
std::vector<SweepRate> sweep_working_sets(const Space& exec, std::uint64_t largest, int calls) {
  std::vector<SweepRate> sweep;
  for (std::uint64_t bytes = 16 << 10; bytes <= largest; bytes *= 2) {
    CeilingArrays<Space> arrays(exec, bytes);
    auto forms = arrays.forms();
    const auto copy = std::find_if(forms.begin(), forms.end(), [](const auto& f) { return f.kind == TrafficKind::copy; });
    const double best = ceiling_detail::time_form(copy->call, calls, fences_for<Space>).first;
    const Traffic t = ceiling_detail::kind_traffic(TrafficKind::copy, static_cast<std::uint64_t>(copy->n));
    sweep.push_back({t.total(), best > 0 ? static_cast<double>(moved_bytes(t, !is_device_space_v<Space>)) / best * 1e-9 : 0});
  }
  return sweep;
}

// Calls a level's forms are timed with: many for a cache (their calls take microseconds, and a
// row's best of five may fall on a lucky one), `memory_calls` for memory.
inline int calls_at(const MemoryLevel& level, int memory_calls) {
  return level.capacity == 0 ? memory_calls : std::max(memory_calls, 40);
}

// Every level's ceilings of `exec`, and (with `sweep`) the sweep up to four times the largest cache.
template <class Space>
Ceilings probe_ceilings(const Space& exec, const std::vector<MemoryLevel>& levels, int memory_calls, bool sweep) {
  Ceilings c;
  c.stores_allocate = !is_device_space_v<Space>;
  c.verified = true;
  std::uint64_t largest_cache = 0;
  // Many calls: a floor a busy moment raised would bound no row run in a quiet one.
  const std::vector<double> floors = form_floors(exec, 200, CodeFor<Space>{}, &c.floor_s);
  for (const MemoryLevel& level : levels) {
    c.levels.push_back(probe_level(exec, level, calls_at(level, memory_calls), c.verified, floors));
    largest_cache = std::max(largest_cache, level.capacity);
  }
  // A level holds at least what the levels outside it do: a probe a small cache's floor hides (or
  // noise) leaves no inner ceiling below an outer one.
  for (std::size_t i = c.levels.size(); i-- > 1;)
    for (const auto& [kind, outer] : c.levels[i].kinds) {
      KindCeiling& inner = c.levels[i - 1].kinds[kind];
      if (outer.gb_per_s > inner.gb_per_s) inner = {outer.gb_per_s, outer.by + " (" + c.levels[i].level.name + ")", outer.spread};
    }
  if (sweep && largest_cache > 0) c.sweep = sweep_working_sets(exec, 4 * largest_cache, 10);
  return c;
}

}  // namespace nbk
