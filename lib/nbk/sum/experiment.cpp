// Seed 001: the sum of 2^27 - 157 float32 samples of N(0, 1) by one host thread, by
// parallel_reduce, by a hand-written team-scratch tree (finished on the host or on the
// space), with a double accumulator, and blocked; each timed and measured against the
// exact sum (reference.hpp).
#include <fmt/format.h>

#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/notes.hpp"
#include "notes_outline.hpp"  // generated from notes.md (lib/CMakeLists.txt)
#include "nbk/experiment/reduction.hpp"
#include "nbk/sum/kernels.hpp"
#include "nbk/sum/problem.hpp"
#include "nbk/sum/reference.hpp"
#include "nbk/sum/tuned.hpp"

namespace nbk::sum {

namespace {

using exp::Size;

// The way a row reduces, as its check reports it.
enum class Way { kokkos, launch, tree, blocked, vendor };

struct Spec : exp::ScalarSpec<Spec, Problem> {
  struct Told {
    Way way = Way::kokkos;
    bool double_accumulator = false;
    Told(Way w = Way::kokkos) : way(w) {}  // NOLINT: implicit, `.telling(Way::tree)`
    static Told in_double() {
      Told t;
      t.double_accumulator = true;
      return t;
    }
  };
  using Element = float;
  static constexpr bool timed_with_transfers = true;  // the samples copied in first

  // The samples in the space's memory (this rank's slice under MPI), and what the calls keep
  // between calls: the tree's partials and the vendor's scratch.
  template <class Space>
  struct Data : exp::ArrayInSpace<Space, float> {
    explicit Data(const Problem& p)
        : exp::ArrayInSpace<Space, float>("nbk::sum::data", p.host),
          tree(this->exec, sum::default_tree_shape(this->exec, p.slice.size())) {}
    // How `way` runs here, in words: its launch, or who chose it.
    std::string how(Way way) const {
      const auto& t = tree.shape();
      if (way == Way::blocked) return sum::blocked_shape_text(this->exec);
      if (way == Way::launch) return sum::builtin_shape_text(this->exec, static_cast<Index>(this->x.extent(0)));
      if (way != Way::tree) return way == Way::vendor ? "cub::DeviceReduce::Sum" : "Kokkos";
      return fmt::format("{} teams x {} thread{}", t.league, t.team_size, t.team_size == 1 ? "" : "s");
    }
    sum::TreeSum<Space> tree;
    VendorReduce<Space> vendor;
  };

  template <class Value>
  static exp::Verdict check(const Problem& p, const Row&, const HostData&, const std::vector<Value>& values) {
    return sum::accuracy_verdict(p.reference, false, "1 thread, in order", values);
  }
  template <class Space, class Value>
  static exp::Verdict check(const Problem& p, const Row& row, const Data<Space>& d, const std::vector<Value>& values) {
    const bool split = row.where == exp::Where::across_ranks;
    return sum::accuracy_verdict(p.reference, row.told.double_accumulator,
                                 split ? "slices on " + std::to_string(ranks::count()) + " ranks"
                                       : d.how(row.told.way),
                                 values);
  }
  // Across ranks: the partials added by MPI_Allreduce in the accumulator's type.
  static double all_ranks(double local, const Told& told) {
    return told.double_accumulator ? ranks::sum(local) : ranks::sum(static_cast<float>(local));
  }
};

std::vector<Spec::Row> table() {
  const auto builtin = exp::on_spaces<Spec>([](auto& d) { return sum::builtin_sum(d.exec, d.x); });
  const auto accurate = exp::on_spaces<Spec>([](auto& d) { return sum::accurate_sum(d.exec, d.x); });
  const auto host_loop = [](auto& h) { return sum::host_loop(h.problem.whole().host.data(), h.problem.size()); };
  const auto tree_host = [](auto& d) { return d.tree.finish_on_host(d.x); };
  const auto tree_device = [](auto& d) { return d.tree.finish_on_device(d.x); };
  const std::string resident = "; data resident";
  const Chain float_adds = chain_of<float>(ChainOp::add);  // in order: one chain a host thread (not trees, blocks)
  return {
      Spec::Row{"host-loop", exp::on_host<Spec>(host_loop)}
          .moving("one host thread, in index order, float accumulator, on the host array")
          .chained(float_adds),
      Spec::Row{"plain", exp::on_spaces<Spec>([](auto& d) { return sum::plain_sum(d.exec, d.x); })}
          .moving("parallel_reduce as Kokkos' documentation writes it: a KOKKOS_LAMBDA, Kokkos' launch, into a local "
                  "float" + resident)
          .telling(Way::kokkos)
          .chained(float_adds),
      Spec::Row{"builtin", builtin}
          .moving("parallel_reduce with Kokkos' Sum, float accumulator (on a GPU a launch sized to the device, four "
                  "16-byte loads in flight a thread)" + resident)
          .telling(Way::launch)
          .chained(float_adds),
      Spec::Row{"tree-host", exp::on_spaces<Spec>(tree_host)}
          .moving("team-scratch halving tree, the partials copied to the host and added there" + resident)
          .telling(Way::tree),
      Spec::Row{"tree-device", exp::on_spaces<Spec>(tree_device)}
          .moving("the same tree, partials added by a second reduction on the space" + resident)
          .telling(Way::tree),
      Spec::Row{"accurate", accurate}
          .moving("parallel_reduce over the floats with a double accumulator" + resident)
          .telling(Spec::Told::in_double())
          .chained(chain_of<double>(ChainOp::add)),
      // A CPU sum: on a GPU one thread walking 1 KiB of contiguous floats breaks coalescing, and
      // the tree and the built-in reduction are the right shapes there.
      Spec::Row{"blocked", exp::on_spaces<Spec>([](auto& d) { return sum::blocked_sum(d.exec, d.x); })}
          .moving("blocks of 1024 floats as 64 vectorized lanes, added pairwise; double across blocks" + resident)
          .telling(Way::blocked)
          .runs(exp::Where::cpu_spaces),
      Spec::Row{"cub", exp::on_spaces<Spec>([](auto& d) { return d.vendor.sum(d.x); })}
          .moving("cub::DeviceReduce::Sum: the vendor's reduction, outside Kokkos" + resident)
          .telling(Way::vendor)
          .runs(exp::Where::vendor_spaces),
      // Each rank reduces its slice on its space; MPI_Allreduce adds the partials (Spec::all_ranks).
      Spec::Row{"ranks-builtin", builtin}
          .moving("parallel_reduce on each rank's slice, float accumulator; MPI_Allreduce of the float partials" +
                  resident)
          .telling(Way::launch)
          .runs(exp::Where::across_ranks),
      Spec::Row{"ranks-accurate", accurate}
          .moving("the double accumulator on each rank's slice; MPI_Allreduce of the double partials" + resident)
          .telling(Spec::Told::in_double())
          .runs(exp::Where::across_ranks),
  };
}

void explain(std::ostream& out, const exp::Problem& problem, const exp::Notes& notes) {
  const auto& p = static_cast<const Problem&>(problem);
  const SumScale& scale = p.reference.scale;
  const auto figures = NBK_PROSE(notes.section, "## Notes with the run's figures");
  out << '\n'
      << figures(scale.max_prefix, static_cast<double>(p.reference.value), scale.max_prefix * unit_roundoff<float>(),
                 static_cast<double>(p.size() - 1) * unit_roundoff<float>() * scale.sum_abs, std::sqrt(2048.0));
  if (ranks::enabled) out << '\n' << notes.section(NBK_HEADING("## Notes under MPI"));
}

}  // namespace

exp::Experiment experiment(const exp::Notes& notes) {
  exp::Experiment e = exp::scalar_experiment<Spec>(notes);
  e.sizes = {Size{(std::int64_t{1} << 27) - 157}};
  e.test_sizes = {Size{0}, Size{1}, Size{2}, Size{255}, Size{257}, Size{100003}};
  e.problem_bytes = [](const Size& s) {  // this rank's slice
    return static_cast<std::uint64_t>(ranks::my_slice(s.elements()).size()) * sizeof(float);
  };
  exp::on_every_space(e, table());
  e.explain = [notes](std::ostream& out, const exp::Problem& p) { explain(out, p, notes); };
  return e;
}

}  // namespace nbk::sum
