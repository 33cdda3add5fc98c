#pragma once
// Workloads whose calls reduce to one value (the sum, the product, pi, the counter), stated as a
// spec and a table of rows (row.hpp). A workload writes one struct Spec deriving from
// ScalarSpec<Spec, Problem> with
//   Data<Space>            what a row's calls work on in Space's memory, made from the Problem with
//                          the case (never timed): `exec`, the arrays (ArrayInSpace, with upload())
//                          or a value a call leaves there (ValueInSpace, with read())
//   HostData               what a row on one host thread works on (by default the Problem itself,
//                          as `problem`)
//   Told                   what a row tells its check besides the Problem and the Data (an
//                          accumulator, which quantity, ...)
//   check(p, row, data, values)  the verdict on every call's value, after all of them
//   footprint<Space>(s, told)  the memory a row's case holds on Space (by default one array of
//                          Spec::Element per point; none that scales with the size without one)
// A new reduction may keep the defaults: Data<Space> the Problem's array `x` in the space's memory
// (Spec::Element, Spec::label), every call matching the Problem's `reference` exactly, and
// scalar_experiment<Spec>(notes): each call reads one Spec::Element a point (no bytes that scale
// with the size where the Spec names no Element: a counter, a random pool), and the Problem made
// as Problem(n, seed, notes) (one that prints prose of notes.md, formatted when it is made),
// Problem(size, seed), Problem(n, seed), or Problem(n) (no random input: no --seed);
// and optionally timed_with_transfers (also time the input copied in), first_call_loads_module
// and all_ranks(local, told) (how the ranks' values of an across_ranks row combine).
// A row's call is on_spaces<Spec>(f): f(data) on every space's Data, or on_host<Spec>(f): f on
// HostData, one host thread. A call returns the value (a reduction into a host value is complete
// when it returns) or returns nothing and leaves it in the space's memory, where Data::read()
// fetches it after the call, outside the clock (scalar_case.hpp).
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
#include "nbk/experiment/row.hpp"
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

// The verdict of a reduction whose every call must give exactly `expected`.
template <class T>
Verdict exact_verdict(const T& expected, const std::vector<T>& values) {
  std::int64_t wrong = 0;
  T last_wrong{};
  for (const T& value : values)
    if (value != expected) ++wrong, last_wrong = value;
  Verdict v = mismatch_verdict(wrong);
  if (!v.ok) v.summary = "FAILED (" + std::to_string(wrong) + " calls gave " + std::to_string(last_wrong) + ")";
  return v;
}

namespace scalar_detail {
template <class Spec, class Data, bool on_space, class F>
typename Call<Spec>::Make case_maker(F call);
template <class Spec, class = void>
struct has_element : std::false_type {};
template <class Spec>
struct has_element<Spec, std::void_t<typename Spec::Element>> : std::true_type {};
}  // namespace scalar_detail

template <class Spec, class ProblemType>
struct ScalarSpec {
  using Problem = ProblemType;
  using Row = exp::Row<Spec>;
  using HostData = TheProblem<ProblemType>;
  struct Told {};
  // By default a row's calls work on the Problem's array `x` copied into the space's memory
  // (d.x, d.exec), and every call must give the Problem's `reference` exactly.
  template <class Space>
  struct Data : ArrayInSpace<Space, typename Spec::Element> {
    explicit Data(const ProblemType& p) : ArrayInSpace<Space, typename Spec::Element>(std::string(Spec::label) + "::x", p.x) {}
  };
  template <class AnyData, class Value>
  static Verdict check(const ProblemType& p, const Row&, const AnyData&, const std::vector<Value>& values) {
    return exact_verdict(p.reference, values);
  }
  static constexpr bool timed_with_transfers = false;
  static constexpr bool first_call_loads_module = true;
  // One array of Spec::Element per point in the space's memory (the input copied in), or
  // nothing that scales with the size where the Spec names no Element (a counter).
  template <class Space, class AnyTold>
  static Footprint footprint(const Size& s, const AnyTold&) {
    if constexpr (scalar_detail::has_element<Spec>::value)
      return arrays_of<Space, typename Spec::Element>(1)(s);
    else
      return {};
  }
  template <class Value, class AnyTold>
  static Value all_ranks(Value local, const AnyTold&) {
    return ranks::sum(local);
  }
  // How a row becomes a Variant (row.hpp's on_every_space), defined below.
  static Variant host_variant(const Row& row);
  template <class Space>
  static Variant variant_on(const Row& row);
  template <class Space>
  static bool made_on(const Row& row);
  // A row's call on Space, f(data) on Data (row.hpp's on_spaces), and on one host thread, f on
  // HostData (on_host), defined below.
  template <class Space>
  static constexpr bool has_vendor = has_vendor_reduction<Space>;
  template <class Space, template <class> class Data, class F>
  static auto call_on(F call) {
    return typename Call<Spec>::On{scalar_detail::case_maker<Spec, Data<Space>, true>(call)};
  }
  template <class HostData, class F>
  static auto host_call(F call) {
    return typename Call<Spec>::On{scalar_detail::case_maker<Spec, HostData, false>(call)};
  }
};

// A row split across the MPI ranks: each rank calls it on its own slice, then the ranks' values
// combine (Spec::all_ranks, an Allreduce) and every rank has the result. The call is both; the
// kernel and the combination are also timed apart. The kernel's figure is the slowest rank's; a
// rank that finishes early waits inside the Allreduce for the last one, so the communication's
// figure is the last rank's time in it (the fewest over the ranks): the exchange without the wait.
template <class Spec, class Data, class Call, class Check>
class AcrossRanksCase final : public Case {
  using Value = decltype(Spec::all_ranks(std::declval<Call&>()(std::declval<Data&>()),
                                         std::declval<const typename Spec::Told&>()));

 public:
  AcrossRanksCase(std::unique_ptr<Data> data, Call call, Check check, typename Spec::Told told, std::int64_t n)
      : data_(std::move(data)), call_(std::move(call)), check_(std::move(check)), told_(std::move(told)), n_(n) {}
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
    values_.push_back(result_);
  }
  Verdict verdict() override {
    Verdict v = merged_over_ranks(check_(*data_, values_));
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
  Check check_;
  typename Spec::Told told_;
  std::int64_t n_;
  Value result_{};
  std::vector<Value> values_;
  double kernel_ = 0, communication_ = 0, kernel_best_ = INFINITY, communication_best_ = INFINITY;
};

namespace scalar_detail {
// The maker of a case of `call` on Data: the data made from the Problem, checked by Spec::check.
// Only a call on a space that returns its value can be split across ranks.
template <class Spec, class Data, bool on_space, class F>
typename Call<Spec>::Make case_maker(F call) {
  return [call](const typename Spec::Problem& p, const Size& s, const Row<Spec>& row) -> std::unique_ptr<Case> {
    auto data = std::make_unique<Data>(p);
    const auto check = [&p, row](const Data& d, const auto& values) { return Spec::check(p, row, d, values); };
    if (row.where != Where::across_ranks) return scalar_case(std::move(data), call, check);
    if constexpr (!on_space || std::is_void_v<std::invoke_result_t<F&, Data&>>) {
      throw std::logic_error(row.name + ": only a call on a space that returns its value is split across ranks");
    } else {
      return std::make_unique<AcrossRanksCase<Spec, Data, F, decltype(check)>>(std::move(data), call, check, row.told,
                                                                               s.elements());
    }
  };
}
}  // namespace scalar_detail

template <class Spec, class ProblemType>
Variant ScalarSpec<Spec, ProblemType>::host_variant(const Row& row) {
  Variant v{row.name};
  v.space = "host";
  take_row_fields(v, row, false);
  v.make = exp::maker<ProblemType>([row](const ProblemType& p, const Size& s) { return row.call.host.make(p, s, row); });
  return v;
}

template <class Spec, class ProblemType>
template <class Space>
Variant ScalarSpec<Spec, ProblemType>::variant_on(const Row& row) {
  const bool split = row.where == Where::across_ranks;
  Variant v{row.name};
  v.first_call = Spec::first_call_loads_module && is_device_space_v<Space> ? "module load" : "";
  v.timed_with_transfers = Spec::timed_with_transfers && !split;
  v.distributed = split;
  take_row_fields(v, row, is_device_space_v<Space>);
  v.footprint = [told = row.told, split](const Size& s) {
    return Spec::template footprint<Space>(split ? Size{ranks::my_slice(s.elements()).size()} : s, told);
  };
  v.make = exp::maker<ProblemType>([row](const ProblemType& p, const Size& s) {
    return row.call.on_space[space_index<Space>(EnabledSpaces{})].make(p, s, row);
  });
  return on<Space>(v);
}

template <class Spec, class ProblemType>
template <class Space>
bool ScalarSpec<Spec, ProblemType>::made_on(const Row& row) {
  return row.call.on_space[space_index<Space>(EnabledSpaces{})].make && runs_on<Space>(row.where, has_vendor<Space>);
}

namespace scalar_detail {

// What a call moves by default: one Spec::Element read a point, or nothing that scales with the size.
template <class Spec>
Traffic traffic_of(const Size& s) {
  if constexpr (has_element<Spec>::value)
    return read_traffic<typename Spec::Element>(s.elements());
  else
    return Traffic{};
}
}  // namespace scalar_detail

// The experiment of a reduction before its sizes and rows: its Problem made as stated_over makes
// it (notes.hpp), a call moving what this header's top comment says.
template <class Spec>
Experiment scalar_experiment(const Notes& notes) {
  return stated_over<typename Spec::Problem>(notes, scalar_detail::traffic_of<Spec>);
}

}  // namespace nbk::exp
