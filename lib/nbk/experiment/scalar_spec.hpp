#pragma once
// Workloads whose calls reduce to one value (the sum, the product, pi, the counter), stated as a
// spec and a table of rows, as element-wise maps are (map_spec.hpp). A workload writes one struct
// Spec deriving from ScalarSpec<Spec, Problem> with
//   Data<Space>            what a row's calls work on in Space's memory, made from the Problem with
//                          the case (never timed): `exec`, the arrays (ArrayInSpace, with upload())
//                          or a value a call leaves there (ValueInSpace, with read())
//   HostData               what a row on one host thread works on (by default the Problem itself,
//                          as `problem`)
//   Told                   what a row tells the judge besides the Problem and the Data (an
//                          accumulator, which quantity, ...)
//   judge(p, row, data)    the one judge hook: an object with record(value) after every call and
//                          verdict() after all of them (by convention the workload's class Judge)
//   footprint<Space>(s, told)  the memory a row's case holds on Space (by default one array of
//                          Spec::Element per point)
// A new reduction may keep the defaults: Data<Space> the Problem's array `x` in the space's memory
// (Spec::Element, Spec::label), judge the Problem's `reference` matched exactly (Exactly), and
// scalar_experiment<Spec>(notes) for the traffic and a Problem(n, seed);
// and optionally timed_with_transfers (also time the input copied in), first_call_loads_module,
// against_host_row (the speed-ups of the rows on spaces are taken against the first host row) and
// all_ranks(local, told) (how the ranks' values of an across_ranks row combine).
// The statement then lists its variants as one table of ScalarRow<Spec> (a workload's Row): a name, what a
// call moves, the call (on_spaces<Spec>(f): f(data) on every space's Data; on_host<Spec>(f): f on
// HostData, one host thread), what the judge is told, where the row runs (Where), why it cannot
// reach memcpy, and its traffic where it differs from the experiment's; on_every_space(e, rows) adds
// the host rows, then every other row space after space. A call returns the value (a reduction into
// a host value is complete when it returns) or returns nothing and leaves it in the space's memory,
// where Data::read() fetches it after the call, outside the clock (scalar_case.hpp).
#include <Kokkos_Core.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "nbk/core/spaces.hpp"
#include "nbk/core/vendor_reduce.hpp"
#include "nbk/experiment/across_ranks.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/notes.hpp"
#include "nbk/experiment/scalar_case.hpp"
#include "nbk/experiment/where.hpp"
#include "nbk/ranks/ranks.hpp"
#include "nbk/report/table.hpp"

namespace nbk::exp {

// What a host row works on by default: the Problem.
template <class ProblemType>
struct TheProblem {
  explicit TheProblem(const ProblemType& p) : problem(p) {}
  const ProblemType& problem;
};

// The judge of a reduction whose every call must give exactly the Problem's `reference`.
template <class T>
class Exactly {
 public:
  explicit Exactly(T expected) : expected_(expected) {}
  void record(T value) {
    wrong_ += value != expected_;
    if (value != expected_) last_wrong_ = value;
  }
  Verdict verdict() const {
    Verdict v = mismatch_verdict(wrong_);
    if (!v.ok) v.summary = "FAILED (" + std::to_string(wrong_) + " calls gave " + std::to_string(last_wrong_) + ")";
    return v;
  }

 private:
  T expected_;
  T last_wrong_{};
  std::int64_t wrong_ = 0;
};

template <class Spec, class ProblemType>
struct ScalarSpec {
  using SpecShape = ScalarShape;
  using Problem = ProblemType;
  using HostData = TheProblem<ProblemType>;
  struct Told {};
  // By default a row's calls work on the Problem's array `x` copied into the space's memory
  // (d.x, d.exec), and every call must give the Problem's `reference` exactly.
  template <class Space>
  struct Data : ArrayInSpace<Space, typename Spec::Element> {
    explicit Data(const ProblemType& p) : ArrayInSpace<Space, typename Spec::Element>(std::string(Spec::label) + "::x", p.x) {}
  };
  template <class Row, class AnyData>
  static auto judge(const ProblemType& p, const Row&, const AnyData&) {
    return Exactly<decltype(p.reference)>(p.reference);
  }
  static constexpr bool timed_with_transfers = false;
  static constexpr bool first_call_loads_module = true;
  static constexpr bool against_host_row = false;
  // One array of Spec::Element per point in the space's memory (the input copied in).
  template <class Space, class AnyTold>
  static Footprint footprint(const Size& s, const AnyTold&) {
    return arrays_of<Space, typename Spec::Element>(1)(s);
  }
  template <class Value, class AnyTold>
  static Value all_ranks(Value local, const AnyTold&) {
    return ranks::sum(local);
  }
};

template <class Spec>
struct ScalarRow;

// A row's call: how to make its case on each enabled space, or on one host thread.
template <class Spec>
struct ScalarCall {
  using Make = std::function<std::unique_ptr<Case>(const typename Spec::Problem&, const Size&,
                                                   const ScalarRow<Spec>&)>;
  Make host;  // set for a row on one host thread
  std::array<Make, space_count(EnabledSpaces{})> on_space;  // in EnabledSpaces' order
};

template <class Spec>
struct ScalarRow {
  std::string name;
  std::string moves;  // what one call moves between host and space, in words
  ScalarCall<Spec> call;
  ToldBy<Spec> told = {};
  Where where = Where::every_space;
  std::string below_memcpy_because = {};
  std::function<Traffic(const Size&)> traffic = {};  // where it is not the experiment's
};

// A row split across the MPI ranks: each rank calls it on its own slice, then the ranks' values
// combine (Spec::all_ranks, an Allreduce) and every rank has the result. The call is both; the
// kernel and the combination are also timed apart. The kernel's figure is the slowest rank's; a
// rank that finishes early waits inside the Allreduce for the last one, so the communication's
// figure is the last rank's time in it (the fewest over the ranks): the exchange without the wait.
template <class Spec, class Data, class Call, class Judge>
class AcrossRanksCase final : public Case {
 public:
  AcrossRanksCase(std::unique_ptr<Data> data, Call call, Judge judge, typename Spec::Told told, std::int64_t n)
      : data_(std::move(data)), call_(std::move(call)), judge_(std::move(judge)), told_(std::move(told)), n_(n) {}
  void run() override {
    Kokkos::Timer timer;  // a reduction into a host value returns when it is done
    const auto local = call_(*data_);
    kernel_ = timer.seconds();
    result_ = Spec::all_ranks(local, told_);
    communication_ = timer.seconds() - kernel_;
  }
  void record() override {
    kernel_best_ = std::min(kernel_best_, ranks::max(kernel_));
    communication_best_ = std::min(communication_best_, ranks::min(communication_));
    judge_.record(result_);
  }
  Verdict verdict() override {
    Verdict v = merged_over_ranks(judge_.verdict());
    describe_split(v, ranks::slice_of(n_, 0, ranks::count()).size());
    v.cells.emplace_back("kernel", format_seconds(kernel_best_));
    v.cells.emplace_back("comm", format_seconds(communication_best_));
    v.details["kernel_best_s"] = kernel_best_;
    v.details["communication_best_s"] = communication_best_;
    return v;
  }

 private:
  std::unique_ptr<Data> data_;
  Call call_;
  Judge judge_;
  typename Spec::Told told_;
  std::int64_t n_;
  decltype(Spec::all_ranks(std::declval<Call&>()(std::declval<Data&>()), std::declval<const typename Spec::Told&>()))
      result_{};
  double kernel_ = 0, communication_ = 0, kernel_best_ = INFINITY, communication_best_ = INFINITY;
};

namespace scalar_detail {
// The maker of a case of `call` on Data: the data made from the Problem, then its judge. Only a
// call on a space that returns its value can be split across ranks.
template <class Spec, class Data, bool on_space, class F>
typename ScalarCall<Spec>::Make case_maker(F call) {
  return [call](const typename Spec::Problem& p, const Size& s, const ScalarRow<Spec>& row) -> std::unique_ptr<Case> {
    auto data = std::make_unique<Data>(p);
    auto judge = Spec::judge(p, row, static_cast<const Data&>(*data));
    if (row.where != Where::across_ranks) return scalar_case(std::move(data), call, std::move(judge));
    if constexpr (!on_space || std::is_void_v<std::invoke_result_t<F&, Data&>>) {
      throw std::logic_error(row.name + ": only a call on a space that returns its value is split across ranks");
    } else {
      return std::make_unique<AcrossRanksCase<Spec, Data, F, decltype(judge)>>(std::move(data), call, std::move(judge),
                                                                              row.told, s.elements());
    }
  };
}

template <class Spec>
Variant host_variant(const ScalarRow<Spec>& row) {
  Variant v{row.name};
  v.space = "host";
  v.moves = row.moves;
  v.traffic = row.traffic;
  v.make = exp::maker<typename Spec::Problem>([row](const typename Spec::Problem& p, const Size& s) {
    return row.call.host(p, s, row);
  });
  return v;
}

template <class Spec, class Space>
Variant variant_on(const ScalarRow<Spec>& row, const VariantRef& host) {
  const bool split = row.where == Where::across_ranks;
  Variant v{row.name};
  v.moves = row.moves;
  v.first_call = Spec::first_call_loads_module && is_device_space_v<Space> ? "module load" : "";
  v.timed_with_transfers = Spec::timed_with_transfers && !split;
  v.distributed = split;
  v.below_memcpy_because = row.below_memcpy_because;
  v.traffic = row.traffic;
  if (Spec::against_host_row) v.speedup_against = host;
  v.footprint = [told = row.told, split](const Size& s) {
    return Spec::template footprint<Space>(split ? Size{ranks::my_slice(s.elements()).size()} : s, told);
  };
  v.make = exp::maker<typename Spec::Problem>([row](const typename Spec::Problem& p, const Size& s) {
    return row.call.on_space[space_index<Space>(EnabledSpaces{})](p, s, row);
  });
  return on<Space>(v);
}
}  // namespace scalar_detail

// The experiment of a reduction over a Problem made as Problem(n, seed) from a size's element
// count and the run's seed, each call reading one Spec::Element a point, before its sizes and
// rows (the statement may still set any of it).
template <class Spec>
Experiment scalar_experiment(const Notes& notes) {
  return stated_over<typename Spec::Problem>(
      notes, [](const Size& s) { return read_traffic<typename Spec::Element>(s.elements()); });
}

// A row's call on every enabled space: call(data) on the space's Data (Spec::Data<Space>, or
// another data template of the workload's).
template <class Spec, template <class> class Data = Spec::template Data, class F, IfShape<Spec, ScalarShape> = 0>
ScalarCall<Spec> on_spaces(F call) {
  ScalarCall<Spec> c;
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    c.on_space[space_index<Space>(EnabledSpaces{})] =
        scalar_detail::case_maker<Spec, Data<Space>, true>(call);
  });
  return c;
}

// A row's call on one host thread: call(host_data), host_data made from the Problem (Spec::HostData).
template <class Spec, class F, IfShape<Spec, ScalarShape> = 0>
ScalarCall<Spec> on_host(F call) {
  ScalarCall<Spec> c;
  c.host = scalar_detail::case_maker<Spec, typename Spec::HostData, false>(call);
  return c;
}

// Adds the table's host rows, then its other rows on every enabled space where they run
// (Where), space after space.
template <class Spec, IfShape<Spec, ScalarShape> = 0>
void on_every_space(Experiment& e, const std::vector<ScalarRow<Spec>>& rows) {
  VariantRef host;
  for (const ScalarRow<Spec>& row : rows) {
    if (!row.call.host) continue;
    e.variants.push_back(scalar_detail::host_variant(row));
    if (host.empty()) host = e.variants.back();
  }
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    for (const ScalarRow<Spec>& row : rows)
      if (!row.call.host && runs_on<Space>(row.where, has_vendor_reduction<Space>))
        e.variants.push_back(scalar_detail::variant_on<Spec, Space>(row, host));
  });
}

}  // namespace nbk::exp
