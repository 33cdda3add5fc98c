// Seed 003: a histogram of 10^7 float32 N(0, 1) samples (ours) in 1, 16, 100 (the document's
// kind of use) and 4096 bins over [-4, 4), by atomics on one histogram, by a ScatterView, by
// private team histograms in scratch memory, and by several private int32 copies per CPU
// thread (ours, tuned for a CPU), on every space, each matched exactly against
// one host thread; the bin counts show what contention on few bins costs.
#include <fmt/format.h>

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

enum class Sharing { atomic, scatter, team, private_copies, unchecked_document };

template <class Space>
using Counts = histogram::Histogram<typename Space::memory_space>;
template <class Space>
using HistogramCase = exp::ArraysCase<Space, Samples, 1, Counts<Space>>;

// A kernel of histogram/kernels.hpp, kernel(exec, x, bins, counts), as a case's call.
template <class Space>
using Kernel = void (*)(const Space&, const typename HistogramCase<Space>::In&, const Bins&, const Counts<Space>&);
template <class Space>
typename HistogramCase<Space>::Kernel call_of(Kernel<Space> kernel, const Bins& bins) {
  return [kernel, bins](const Space& exec, const typename HistogramCase<Space>::Ins& in, const Counts<Space>& out) {
    kernel(exec, in[0], bins, out);
  };
}

// A variant's call on the case's samples and `counts`.
template <class Space>
typename HistogramCase<Space>::Kernel call_of(Sharing sharing, const Bins& bins, const Counts<Space>& counts) {
  using X = typename HistogramCase<Space>::In;
  switch (sharing) {
    case Sharing::atomic: return call_of<Space>(histogram::atomic_histogram<Space, X, Counts<Space>>, bins);
    case Sharing::team: return call_of<Space>(histogram::team_histogram<Space, X, Counts<Space>>, bins);
    case Sharing::private_copies: return call_of<Space>(histogram::private_histogram<Space, X, Counts<Space>>, bins);
    case Sharing::unchecked_document:
      return call_of<Space>(histogram::unchecked_document_histogram<Space, X, Counts<Space>>, bins);
    case Sharing::scatter: {
      // Made once, with the case: on a CPU it holds a copy of the counts per thread.
      auto scatter = std::make_shared<histogram::Scatter<Space>>(counts);
      return [bins, scatter](const Space& exec, const typename HistogramCase<Space>::Ins& in, const Counts<Space>& out) {
        histogram::scatter_histogram(exec, in[0], bins, out, *scatter);
      };
    }
  }
  return {};
}

const char* name_of(Sharing sharing) {
  switch (sharing) {
    case Sharing::atomic: return "atomic";
    case Sharing::scatter: return "scatter";
    case Sharing::team: return "team";
    case Sharing::private_copies: return "private";
    case Sharing::unchecked_document: return "unchecked-document";
  }
  return "";
}

template <class Space>
exp::Variant on_space(Sharing sharing, int bins, const exp::Variant& host) {
  exp::Variant v = exp::map_variant<Space>(fmt::format("{}-{}", name_of(sharing), bins), "x", "the counts");
  v.footprint = exp::arrays_of<Space, float>(1);  // x (the counts are a few KiB)
  v.speedup_against = host;
  v.make = exp::maker<Problem>([sharing, bins](const Problem& p, const Size&) {
    // The injected bug's counts on a GPU: an allocation of their own, so that memcheck sees the
    // writes below them. On a CPU they stay a Kokkos View: the debug preset's bounds check names
    // the View by its label, which only Kokkos' allocations carry.
    const char* label = "nbk::histogram::counts";
    exp::BareAllocation<Counts<Space>> bare;
    if (sharing == Sharing::unchecked_document && is_device_space_v<Space>)
      bare = exp::bare_allocation<Counts<Space>>(label, bins);
    else
      bare.view = exp::allocate<Counts<Space>>(label, bins);
    auto call = call_of<Space>(sharing, Bins{-4, 4, bins}, bare.view);
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
    for (const int bins : bin_counts) {
      std::vector<Count> reference(static_cast<std::size_t>(bins));
      histogram::host_histogram(p->x.data(), p->size(), Bins{-4, 4, bins}, reference.data());
      p->references[bins] = std::move(reference);
    }
    return p;
  };
  std::map<int, exp::Variant> hosts;
  for (const int bins : bin_counts) e.variants.push_back(hosts[bins] = host_loop(bins));
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    for (const int bins : bin_counts)
      for (const Sharing sharing : {Sharing::atomic, Sharing::scatter, Sharing::team, Sharing::private_copies})
        e.variants.push_back(on_space<Space>(sharing, bins, hosts[bins]));
    e.injected_bugs.push_back(on_space<Space>(Sharing::unchecked_document, 100, hosts[100]));
  });
  return e;
}

}  // namespace nbk::experiments
