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

#include "nbk/core/allocate.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/random_data.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/notes.hpp"
#include "nbk/experiment/arrays.hpp"
#include "nbk/histogram/kernels.hpp"
#include "nbk/histogram/problem.hpp"
#include "nbk/histogram/tuned.hpp"

namespace nbk::histogram {

namespace {

using exp::Size;
using histogram::Bins;
template <class Space>
using Counts = histogram::Histogram<typename Space::memory_space>;

struct Spec : exp::ArraysSpec<Spec, Problem> {
  static constexpr const char* label = "nbk::histogram";
  static constexpr const char *in_words = "x", *out_words = "the counts";
  static Traffic traffic(const Size& s) { return read_traffic<float>(s.elements()); }  // the counts are a few KiB
  struct Told {
    int bins = 0;
    Told(int bin_count = 0) : bins(bin_count) {}  // NOLINT: implicit, `.telling(bins)`
  };

  // The samples in Space's memory (copied in by the case), the range's bins and their counts.
  template <class Space>
  struct Data {
    Data(const Problem&, const Row& row) : bins{-4, 4, row.told.bins} {
      // The injected bug's counts on a GPU: an allocation of their own, so that memcheck sees the
      // writes below them. On a CPU they stay a Kokkos View: the debug preset's bounds check names
      // the View by its label, which only Kokkos' allocations carry.
      const char* label = "nbk::histogram::counts";
      if (row.injected_bug && is_device_space_v<Space>)
        bare = exp::BareAllocation<Counts<Space>>(label, row.told.bins);
      else
        bare.view = allocate<Counts<Space>>(label, row.told.bins);
      out = bare.view;
    }
    static std::array<Samples, 1> inputs(const Problem& p) { return {p.x}; }
    Bins bins;
    exp::BareAllocation<Counts<Space>> bare;  // owns the counts where they are a bare allocation
    Counts<Space> out;
  };
  // Data with a ScatterView over the counts, made once with the case: on a CPU it holds a copy of
  // the counts per thread.
  template <class Space>
  struct ScatterData : Data<Space> {
    ScatterData(const Problem& p, const Row& row) : Data<Space>(p, row), scatter(this->out) {}
    histogram::Scatter<Space> scatter;
  };
  struct HostData {
    HostData(const Problem&, const Row& row) : bins{-4, 4, row.told.bins}, out("nbk::histogram::counts", bins.count) {}
    Bins bins;
    HostHistogram out;
  };

  template <class Out>
  static exp::Verdict check(const Problem& p, const Row& row, const Out& counts) {
    const std::vector<Count>& reference = p.reference(row.told.bins);
    std::int64_t wrong = 0;
    for (std::size_t b = 0; b < reference.size(); ++b) wrong += counts(b) != reference[b];
    exp::Verdict v = exp::mismatch_verdict(wrong);
    if (!v.ok) v.summary = fmt::format("FAILED ({} bins differ)", wrong);
    return v;
  }
};

// The ways for the threads to share the counts, each a call on the case's samples and counts, at
// each bin count against one host thread at the same bin count; and the document's unchecked
// kernel, injected (on a GPU its counts get an allocation of their own).
std::vector<Spec::Row> table() {
  using Row = Spec::Row;
  const auto host = [](int bins) {
    return Row{fmt::format("host-{}", bins), exp::on_host<Spec>([](const Problem& p, auto& d) {
                 histogram::host_histogram(p.x.data(), p.size(), d.bins, d.out.data());
               })}
        .telling(bins)
        .moving("one host thread, host memory");
  };
  // A way for the threads to share the counts, at a bin count, against the host at that count.
  const auto sharing = [&](const char* way, const auto& call) {
    return [=](int bins) { return Row{fmt::format("{}-{}", way, bins), call}.telling(bins).against(host(bins)); };
  };
  const auto plain = sharing("plain", exp::on_spaces<Spec>([](auto& exec, auto& in, auto& d) {
                               histogram::plain_histogram(exec, in[0], d.bins, d.out);
                             }));
  const auto atomic = sharing("atomic", exp::on_spaces<Spec>([](auto& exec, auto& in, auto& d) {
                                histogram::atomic_histogram(exec, in[0], d.bins, d.out);
                              }));
  const auto scatter = sharing("scatter", exp::on_spaces<Spec, Spec::ScatterData>([](auto& exec, auto& in, auto& d) {
                                 histogram::scatter_histogram(exec, in[0], d.bins, d.out, d.scatter);
                               }));
  const auto team = sharing("team", exp::on_spaces<Spec>([](auto& exec, auto& in, auto& d) {
                              histogram::team_histogram(exec, in[0], d.bins, d.out);
                            }));
  const auto private_copies = sharing("private", exp::on_spaces<Spec>([](auto& exec, auto& in, auto& d) {
                                        histogram::private_histogram(exec, in[0], d.bins, d.out);
                                      }));
  const Row unchecked = Row{"unchecked-document-100", exp::on_spaces<Spec>([](auto& exec, auto& in, auto& d) {
                               histogram::unchecked_document_histogram(exec, in[0], d.bins, d.out);
                             })}
                            .telling(100)
                            .against(host(100))
                            .injected();
  static_assert(std::size(bin_counts) == 4, "the table below lists 1, 16, 100 and 4096 bins");
  return {host(1),      host(16),     host(100),     host(4096),
          plain(1),     atomic(1),    scatter(1),    team(1),    private_copies(1),
          plain(16),    atomic(16),   scatter(16),   team(16),   private_copies(16),
          plain(100),   atomic(100),  scatter(100),  team(100),  private_copies(100),
          plain(4096),  atomic(4096), scatter(4096), team(4096), private_copies(4096),
          unchecked};
}

}  // namespace

exp::Experiment experiment(const exp::Notes& notes) {
  exp::Experiment e = exp::arrays_experiment<Spec>(notes);
  e.rate_in_elements = true;
  e.sizes = {Size{10000000}};
  e.test_sizes = {Size{0}, Size{1}, Size{1000}, Size{65537}, Size{200003}};
  exp::on_every_space(e, table());
  return e;
}

}  // namespace nbk::histogram
