#pragma once
// Workloads whose calls write an array (the row sums, the l2 norm, the histogram, the matrix
// product, add-one's array), stated as a spec and a table of rows (row.hpp). A workload writes one
// struct Spec deriving from ArraysSpec<Spec, Problem> with
//   label                  the prefix of its arrays' labels ("nbk::<workload>")
//   in_words, out_words  what a call with transfers copies in and out, in words
//   Told                   what a row tells its data and its check besides the Problem (a bin
//                          count, an accumulator, ...)
//   check(p, row, out)     the verdict on the output, a host array (the space's output read back,
//                          or the host row's own)
// and optionally traffic(size) (what a call reads and writes: by default x read, the output
// written), first_call (what a row's first call on a device pays), timed_with_transfers
// (whether a device row is also timed with its copies) and has_vendor<Space> (the spaces of
// Where::vendor_spaces), and its data templates: a Data<Space> is what a row's calls work on in
// Space's memory, made from (Problem, row) with the case (never timed): `out`, the output the calls
// write (allocated by the workload, since its shape is the workload's), static inputs(p), the
// Problem's host arrays copied in, and optionally static footprint(s, told), what the row's case
// holds. A host row's data is the same without the inputs: `out`, a host array, and optionally
// footprint(s, told). A Data without footprint holds what a call moves: its inputs are what the
// row's traffic reads (the row's own, else Spec::traffic), its output what it writes, and an
// ArraysCase holds them as arrays_case_footprint says; a HostData, the output alone.
// A row's call is one of on_spaces<Spec, Data>(f): f(exec, in, data) on every space, `in` the
// inputs in the space's memory (on_spaces<Spec, Data, Where::...>(f): only where that holds, the
// call made nowhere else: a vendor library's, a device's transfers); cases_on<Spec, CaseOn>(args...):
// the workload's own case, CaseOn<Space>(n, args...) for n elements; on_host<Spec, HostData>(f):
// f(problem, data), one host thread. A row that runs across_ranks is split over the ranks as
// "ranks-<name>". The cases are ArraysCase and HostLoopCase (arrays_case.hpp), or the workload's own.
#include <Kokkos_Core.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "nbk/core/allocate.hpp"
#include "nbk/core/spaces.hpp"
#include "nbk/experiment/across_ranks.hpp"
#include "nbk/experiment/arrays_case.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/notes.hpp"
#include "nbk/experiment/row.hpp"
#include "nbk/experiment/where.hpp"

namespace nbk::exp {

// What an ArraysCase on Space holds: its inputs and output in the space's memory, and the output's
// host mirror (on a host space, all of them in host memory).
template <class Space>
Footprint arrays_case_footprint(std::uint64_t inputs, std::uint64_t output) {
  return is_device_space_v<Space> ? Footprint{output, inputs + output} : Footprint{inputs + 2 * output, 0};
}

template <class Spec, class ProblemType>
struct ArraysSpec {
  using Problem = ProblemType;
  using Row = exp::Row<Spec>;
  struct Told {};
  static constexpr const char *in_words = "", *out_words = "";
  static constexpr const char* first_call = "module load";
  static constexpr bool timed_with_transfers = true;
  template <class Space>
  static constexpr bool has_vendor = false;
  // How a row becomes a Variant (row.hpp's on_every_space), defined below.
  static Variant host_variant(const Row& row);
  template <class Space>
  static Variant variant_on(const Row& row);
  template <class Space>
  static bool made_on(const Row& row);
  // A row's call on Space, f(exec, in, data) on Data<Space>, and on one host thread,
  // f(problem, data) on HostData (row.hpp's on_spaces and on_host), defined below.
  template <class Space, template <class> class Data, class F>
  static auto call_on(F call);
  template <class HostData, class F>
  static auto host_call(F call);

  // The defaults a new workload may keep: the Problem's array `x` copied in, an output of one
  // element per element of the size (output_length), of the type of the Problem's `reference`,
  // which every element must match exactly.
  static std::int64_t output_length(const Size& s) { return s.elements(); }
  static Traffic traffic(const Size& s) {
    return {static_cast<std::uint64_t>(s.elements()) * sizeof(typename decltype(ProblemType::x)::value_type),
            static_cast<std::uint64_t>(Spec::output_length(s)) *
                sizeof(typename decltype(ProblemType::reference)::value_type)};
  }
  template <class Space>
  struct Data {
    using Out = Kokkos::View<typename decltype(ProblemType::reference)::value_type*, typename Space::memory_space>;
    Data(const ProblemType& p, const Row&) : out(allocate<Out>(std::string(Spec::label) + "::out", p.reference.size())) {}
    static std::array<decltype(ProblemType::x), 1> inputs(const ProblemType& p) { return {p.x}; }
    Out out;  // what the case holds: what Spec::traffic moves (no footprint of its own)
  };
  struct HostData {
    using Out = Kokkos::View<typename decltype(ProblemType::reference)::value_type*, Kokkos::HostSpace>;
    HostData(const ProblemType& p, const Row&) : out(allocate<Out>(std::string(Spec::label) + "::out", p.reference.size())) {}
    Out out;  // what the case holds: the output Spec::traffic writes
  };
  template <class Out>
  static Verdict check(const ProblemType& p, const Row&, const Out& out) {
    std::int64_t wrong = 0;
    for (std::size_t i = 0; i < p.reference.size(); ++i) wrong += out(i) != p.reference[i];
    return mismatch_verdict(wrong);
  }
};

namespace arrays_detail {
// A data type's footprint(size, told), or none where it has none (what a call moves, below).
template <class Data, class = void>
struct has_footprint : std::false_type {};
template <class Data>
struct has_footprint<Data, std::void_t<decltype(&Data::footprint)>> : std::true_type {};
template <class Spec, class Data>
typename Call<Spec>::Holds footprint_of() {
  if constexpr (has_footprint<Data>::value) return &Data::footprint;
  return nullptr;
}

// What a row's case holds: its data's footprint(size, told), else what a call moves (the row's
// traffic, else the Spec's): the inputs it reads and the output it writes, in an ArraysCase on
// a space, the output alone on one host thread.
template <class Spec, class Space>
std::function<Footprint(const Size&)> holds(const typename Call<Spec>::On& on, const Row<Spec>& row, bool host_row) {
  if (on.footprint) return [f = on.footprint, told = row.told](const Size& s) { return f(s, told); };
  std::function<Traffic(const Size&)> moved = row.traffic;
  if (!moved) moved = &Spec::traffic;
  return [moved, host_row](const Size& s) {
    const Traffic t = moved(s);
    return host_row ? Footprint{t.bytes_written, 0} : arrays_case_footprint<Space>(t.bytes_read, t.bytes_written);
  };
}

template <class Spec, template <class> class Data, class Space, class F>
typename Call<Spec>::Make case_maker(F call) {
  return [call](const typename Spec::Problem& p, const Size&, const Row<Spec>& row) -> std::unique_ptr<Case> {
    auto data = std::make_shared<Data<Space>>(p, row);
    const auto in = Data<Space>::inputs(p);
    using Out = decltype(data->out);
    using Arrays = ArraysCase<Space, typename decltype(in)::value_type, std::tuple_size_v<decltype(in)>, Out>;
    return std::make_unique<Arrays>(
        Spec::label, in, data->out,
        [call, data](const Space& exec, const typename Arrays::Ins& in, const Out&) { call(exec, in, *data); },
        [&p, row](const typename Arrays::Result& out) { return Spec::check(p, row, out); });
  };
}

// Whether a Where holds on Space for Spec (its vendor library's spaces).
template <class Spec, class Space>
constexpr bool runs_here(Where where) {
  return runs_on<Space>(where, Spec::template has_vendor<Space>);
}

}  // namespace arrays_detail

template <class Spec, class ProblemType>
Variant ArraysSpec<Spec, ProblemType>::host_variant(const Row& row) {
  Variant v{row.name};
  v.space = "host";
  take_row_fields(v, row, false);
  v.footprint = arrays_detail::holds<Spec, Kokkos::DefaultHostExecutionSpace>(row.call.host, row, true);
  v.make = exp::maker<ProblemType>([row](const ProblemType& p, const Size& s) { return row.call.host.make(p, s, row); });
  return v;
}

// A space row on Space, split over the ranks where it runs across them.
template <class Spec, class ProblemType>
template <class Space>
Variant ArraysSpec<Spec, ProblemType>::variant_on(const Row& row) {
  const auto& on = row.call.on_space[space_index<Space>(EnabledSpaces{})];
  const bool device = is_device_space_v<Space>;
  Variant v = arrays_variant<Space>(row.name, Spec::in_words, Spec::out_words);
  v.first_call = device ? Spec::first_call : "";
  v.timed_with_transfers = device && Spec::timed_with_transfers;
  take_row_fields(v, row, device);
  v.footprint = arrays_detail::holds<Spec, Space>(on, row, false);
  v.make = exp::maker<ProblemType>([row, make = on.make](const ProblemType& p, const Size& s) { return make(p, s, row); });
  return row.where == Where::across_ranks ? across_ranks(std::move(v)) : v;
}

// Whether a space row is made on Space and runs there.
template <class Spec, class ProblemType>
template <class Space>
bool ArraysSpec<Spec, ProblemType>::made_on(const Row& row) {
  return row.call.on_space[space_index<Space>(EnabledSpaces{})].make && arrays_detail::runs_here<Spec, Space>(row.where);
}

template <class Spec, class ProblemType>
template <class Space, template <class> class Data, class F>
auto ArraysSpec<Spec, ProblemType>::call_on(F call) {
  return typename Call<Spec>::On{arrays_detail::case_maker<Spec, Data, Space>(call),
                                 arrays_detail::footprint_of<Spec, Data<Space>>()};
}

template <class Spec, class ProblemType>
template <class HostData, class F>
auto ArraysSpec<Spec, ProblemType>::host_call(F call) {
  typename Call<Spec>::On on;
  on.footprint = arrays_detail::footprint_of<Spec, HostData>();
  on.make = [call](const ProblemType& p, const Size&, const Row& row) -> std::unique_ptr<Case> {
    auto data = std::make_shared<HostData>(p, row);
    using Out = decltype(data->out);
    return std::make_unique<HostLoopCase<Out>>(
        data->out, [call, data, &p](const Out&) { call(p, *data); },
        [&p, row](const Out& out) { return Spec::check(p, row, out); });
  };
  return on;
}

// A row whose case is the workload's own: CaseOn<Space>(n, args...) for the n elements of the
// size it is given (a rank's slice across ranks), on the spaces where `where` holds; it holds
// Spec::footprint<Space>(size, told).
template <class Spec, template <class> class CaseOn, Where where = Where::every_space, class... Args>
Call<Spec> cases_on(Args... args) {
  Call<Spec> c;
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    if constexpr (arrays_detail::runs_here<Spec, Space>(where))
      c.on_space[space_index<Space>(EnabledSpaces{})] = {
          [args...](const typename Spec::Problem&, const Size& s, const Row<Spec>&) -> std::unique_ptr<Case> {
            return std::make_unique<CaseOn<Space>>(s.elements(), args...);
          },
          &Spec::template footprint<Space>};
  });
  return c;
}

// The experiment of a workload before its sizes and rows: its Problem made as stated_over makes
// it (notes.hpp), a call moving Spec::traffic (by default x read, the output written once).
template <class Spec>
Experiment arrays_experiment(const Notes& notes) {
  return stated_over<typename Spec::Problem>(notes, &Spec::traffic);
}

}  // namespace nbk::exp
