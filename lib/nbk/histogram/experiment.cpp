// Seed 003: a histogram of 10^7 float32 N(0, 1) samples (ours) in 1, 16, 100 (the document's
// kind of use) and 4096 bins over [-4, 4), by atomics on one histogram, by a ScatterView, by
// private team histograms in scratch memory, and by several private int32 copies per CPU
// thread (ours, tuned for a CPU), on every space, each matched exactly against
// one host thread; the bin counts show what contention on few bins costs.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <ostream>
#include <vector>

#include "nbk/core/compat.hpp"
#include "nbk/core/random_data.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/notes.hpp"
#include "nbk/experiment/arrays_case.hpp"
#include "nbk/histogram/kernels.hpp"

namespace nbk::experiments {

namespace {

using exp::Size;
using histogram::Bins;
using Samples = Kokkos::View<float*, Kokkos::HostSpace>;
using HostHistogram = Kokkos::View<Count*, Kokkos::HostSpace>;

inline constexpr int bin_counts[] = {1, 16, 100, 4096};

struct Problem final : exp::Problem {
  std::uint64_t seed = 0;
  Samples x;
  std::map<int, std::vector<Count>> references;  // by bin count, by one host thread
  std::int64_t size() const { return static_cast<std::int64_t>(x.extent(0)); }
  const std::vector<Count>& reference(int bins) const { return references.at(bins); }
  void describe(std::ostream& out) const override {
    const auto& hundred = reference(100);
    Count inside = 0;
    for (Count c : hundred) inside += c;
    out << fmt::format("histograms of {} float32 N(0, 1) samples over [-4, 4), seed {}; {} samples fall outside\n",
                       size(), seed, size() - static_cast<std::int64_t>(inside));
  }
  nlohmann::json to_json() const override {
    return {{"element_type", "float32"}, {"seed", seed}, {"range", {-4, 4}}, {"bin_counts", bin_counts}};
  }
};

exp::Verdict check(const std::vector<Count>& reference, const Count* counts) {
  std::int64_t wrong = 0;
  for (std::size_t b = 0; b < reference.size(); ++b) wrong += counts[b] != reference[b];
  exp::Verdict v = exp::mismatch_verdict(wrong);
  if (!v.ok) v.summary = fmt::format("FAILED ({} bins differ)", wrong);
  return v;
}

template <class Space>
using Counts = histogram::Histogram<typename Space::memory_space>;
template <class Space>
using HistogramCase = exp::ArraysCase<Space, Samples, 1, Counts<Space>>;
template <class Space>
using Call = typename HistogramCase<Space>::Kernel;

// A kernel of histogram/kernels.hpp, kernel(exec, x, bins, counts), as a case's call.
template <class Space>
using Kernel = void (*)(const Space&, const typename HistogramCase<Space>::In&, const Bins&, const Counts<Space>&);
template <class Space>
Call<Space> call_of(Kernel<Space> kernel, const Bins& bins) {
  return [kernel, bins](const Space& exec, const typename HistogramCase<Space>::Ins& in, const Counts<Space>& out) {
    kernel(exec, in[0], bins, out);
  };
}

// A way for the threads to share the counts: its name, and its call on the case's samples and
// `counts`, made with the case.
template <class Space>
struct Sharing {
  const char* name;
  Call<Space> (*call)(const Bins& bins, const Counts<Space>& counts);
  // The document's unchecked kernel, injected: on a GPU its counts get an allocation of their own.
  bool injected_bug = false;
};

// The variants, one row each, in the order of the table.
template <class Space>
std::vector<Sharing<Space>> sharings() {
  using X = typename HistogramCase<Space>::In;
  using C = Counts<Space>;
  return {
      {"atomic", [](const Bins& b, const C&) { return call_of<Space>(histogram::atomic_histogram<Space, X, C>, b); }},
      {"scatter",
       [](const Bins& b, const C& counts) -> Call<Space> {
         // Made once, with the case: on a CPU it holds a copy of the counts per thread.
         auto scatter = std::make_shared<histogram::Scatter<Space>>(counts);
         return [b, scatter](const Space& exec, const typename HistogramCase<Space>::Ins& in, const C& out) {
           histogram::scatter_histogram(exec, in[0], b, out, *scatter);
         };
       }},
      {"team", [](const Bins& b, const C&) { return call_of<Space>(histogram::team_histogram<Space, X, C>, b); }},
      {"private", [](const Bins& b, const C&) { return call_of<Space>(histogram::private_histogram<Space, X, C>, b); }},
  };
}

template <class Space>
Sharing<Space> unchecked_document() {
  using X = typename HistogramCase<Space>::In;
  using C = Counts<Space>;
  return {"unchecked-document",
          [](const Bins& b, const C&) { return call_of<Space>(histogram::unchecked_document_histogram<Space, X, C>, b); },
          true};
}

template <class Space>
exp::Variant variant_on(const Sharing<Space>& sharing, int bins, const exp::Variant& host) {
  exp::Variant v = exp::arrays_variant<Space>(fmt::format("{}-{}", sharing.name, bins), "x", "the counts");
  v.footprint = exp::arrays_of<Space, float>(1);  // x (the counts are a few KiB)
  v.speedup_against = host;
  v.make = exp::maker<Problem>([sharing, bins](const Problem& p, const Size&) {
    // The injected bug's counts on a GPU: an allocation of their own, so that memcheck sees the
    // writes below them. On a CPU they stay a Kokkos View: the debug preset's bounds check names
    // the View by its label, which only Kokkos' allocations carry.
    const char* label = "nbk::histogram::counts";
    exp::BareAllocation<Counts<Space>> bare;
    if (sharing.injected_bug && is_device_space_v<Space>)
      bare = exp::bare_allocation<Counts<Space>>(label, bins);
    else
      bare.view = exp::allocate<Counts<Space>>(label, bins);
    auto call = sharing.call(Bins{-4, 4, bins}, bare.view);
    if (bare.allocation)  // the call keeps the allocation for as long as the case runs it
      call = [call, owner = bare.allocation](const Space& exec, const auto& in, const Counts<Space>& out) {
        call(exec, in, out);
      };
    return std::make_unique<HistogramCase<Space>>(
        "nbk::histogram", std::array{p.x}, bare.view, std::move(call),
        [&p, bins](const typename Counts<Space>::HostMirror& out) { return check(p.reference(bins), out.data()); });
  });
  return v;
}

exp::Variant host_loop(int bins) {
  exp::Variant v{fmt::format("host-{}", bins)};
  v.space = "host";
  v.moves = "one host thread, host memory";
  v.footprint = [](const Size&) { return exp::Footprint{}; };
  v.make = exp::maker<Problem>([bins](const Problem& p, const Size&) {
    return std::make_unique<exp::HostLoopCase<HostHistogram>>(
        HostHistogram("nbk::histogram::counts", bins),
        [&p, bins](const HostHistogram& counts) {
          histogram::host_histogram(p.x.data(), p.size(), Bins{-4, 4, bins}, counts.data());
        },
        [&p, bins](const HostHistogram& counts) { return check(p.reference(bins), counts.data()); });
  });
  return v;
}

}  // namespace

exp::Experiment histogram(const exp::Notes& notes) {
  exp::Experiment e = exp::stated(notes);
  e.rate_in_elements = true;
  e.sizes = {Size{10000000}};
  e.test_sizes = {Size{0}, Size{1}, Size{1000}, Size{65537}, Size{200003}};
  e.seeded = true;
  e.traffic = [](const Size& s) { return read_traffic<float>(s.elements()); };
  e.problem_bytes = [](const Size& s) { return static_cast<std::uint64_t>(s.elements()) * sizeof(float); };
  e.make_problem = [](const Size& s, const exp::Settings& settings) {
    auto p = std::make_shared<Problem>();
    p->seed = settings.seed;
    p->x = standard_normal_floats(s.elements(), settings.seed);
    // The references: a loop of their own over the View, not histogram::host_histogram (the
    // host rows' code); the bin is the kernels' definition, float arithmetic included.
    for (const int bins : bin_counts) {
      const Bins range{-4, 4, bins};
      const float per_unit = static_cast<float>(bins) / (range.xmax - range.xmin);
      std::vector<Count> reference(static_cast<std::size_t>(bins), 0);
      for (std::int64_t i = 0; i < s.elements(); ++i) {
        const float x = p->x(i);
        if (!(x >= range.xmin && x < range.xmax)) continue;
        reference[static_cast<std::size_t>(std::min(static_cast<int>((x - range.xmin) * per_unit), bins - 1))] += 1;
      }
      p->references[bins] = std::move(reference);
    }
    return p;
  };
  std::map<int, exp::Variant> hosts;
  for (const int bins : bin_counts) e.variants.push_back(hosts[bins] = host_loop(bins));
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    for (const int bins : bin_counts)
      for (const Sharing<Space>& sharing : sharings<Space>())
        e.variants.push_back(variant_on<Space>(sharing, bins, hosts[bins]));
    e.injected_bugs.push_back(variant_on<Space>(unchecked_document<Space>(), 100, hosts[100]));
  });
  return e;
}

}  // namespace nbk::experiments
