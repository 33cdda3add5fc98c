#pragma once
// Workloads whose calls write an array (the row sums, the l2 norm, the histogram), stated as a
// spec and a table of rows, as scalar reductions are (scalar_spec.hpp). A workload writes one
// struct Spec deriving from ArraysSpec<Spec, Problem> with
//   label                  the prefix of its arrays' labels ("nbk::<workload>")
//   inputs_moved, output_moved  what a call with transfers copies in and out, in words
//   Told                   what a row tells its data and the judge besides the Problem (a bin
//                          count, an accumulator, ...)
//   judge(p, row, out)     the one judge hook: the verdict on the output, a host array (the
//                          space's output read back, or the host row's own)
// and its data templates: a Data<Space> is what a row's calls work on in Space's memory, made
// from (Problem, row) with the case (never timed): `out`, the output the calls write (allocated
// by the workload, since its shape is the workload's), static inputs(p), the Problem's host arrays
// copied in, and static footprint(s, told), what the row's case holds. A host row's data is the
// same without the inputs: `out`, a host array, and footprint(s, told).
// The statement then lists its variants as one table of ArraysRow<Spec> (a workload's Row): a
// name, the call (on_spaces<Spec, Data>(f): f(exec, in, data) on every space, `in` the inputs in
// the space's memory; on_host<Spec, HostData>(f): f(problem, data), one host thread), what the
// data and the judge are told, the host row its speed-up is taken against (the row itself), what a
// host row's call moves, its traffic where it differs from the experiment's, and whether it is an
// injected bug (Experiment::injected_bugs); on_every_space(e, rows) adds the host rows, then every
// other row space after space. The cases are ArraysCase and HostLoopCase (arrays_case.hpp).
#include <Kokkos_Core.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "nbk/core/spaces.hpp"
#include "nbk/experiment/arrays_case.hpp"
#include "nbk/experiment/experiment.hpp"

namespace nbk::exp {

template <class Spec, class ProblemType>
struct ArraysSpec {
  using Shape = ArraysShape;
  using Problem = ProblemType;
  struct Told {};
};

template <class Spec>
struct ArraysRow;

// A row's call: how to make its case, and what the case holds, on each enabled space or on one
// host thread.
template <class Spec>
struct ArraysCall {
  using Make = std::function<std::unique_ptr<Case>(const typename Spec::Problem&, const ArraysRow<Spec>&)>;
  using Holds = Footprint (*)(const Size&, const typename Spec::Told&);
  struct On {
    Make make;
    Holds footprint = nullptr;
  };
  On host;  // set for a row on one host thread
  std::array<On, space_count(EnabledSpaces{})> on_space;  // in EnabledSpaces' order
};

template <class Spec>
struct ArraysRow {
  std::string name;
  ArraysCall<Spec> call;
  typename Spec::Told told = {};
  VariantRef against = {};  // the host row of this table its speed-up is taken against
  std::string moves = {};   // a host row's, in words (a space row's: Spec's inputs_moved, output_moved)
  std::function<Traffic(const Size&)> traffic = {};  // where it is not the experiment's
  bool injected_bug = false;  // a fault for the tests to find, never run by the program
  operator VariantRef() const { return Variant{name}; }  // NOLINT: implicit, `against = host_row`
};

// What an ArraysCase on Space holds: its inputs and output in the space's memory, and the output's
// host mirror (on a host space, all of them in host memory).
template <class Space>
Footprint arrays_case_footprint(std::uint64_t inputs, std::uint64_t output) {
  return is_device_space_v<Space> ? Footprint{output, inputs + output} : Footprint{inputs + 2 * output, 0};
}

namespace arrays_detail {
template <class Spec, template <class> class Data, class Space, class F>
typename ArraysCall<Spec>::Make case_maker(F call) {
  return [call](const typename Spec::Problem& p, const ArraysRow<Spec>& row) -> std::unique_ptr<Case> {
    auto data = std::make_shared<Data<Space>>(p, row);
    const auto in = Data<Space>::inputs(p);
    using Out = decltype(data->out);
    using Arrays = ArraysCase<Space, typename decltype(in)::value_type, std::tuple_size_v<decltype(in)>, Out>;
    return std::make_unique<Arrays>(
        Spec::label, in, data->out,
        [call, data](const Space& exec, const typename Arrays::Ins& in, const Out&) { call(exec, in, *data); },
        [&p, row](const typename Arrays::Result& out) { return Spec::judge(p, row, out); });
  };
}

template <class Spec>
Variant host_variant(const ArraysRow<Spec>& row) {
  Variant v{row.name};
  v.space = "host";
  v.moves = row.moves;
  v.footprint = [f = row.call.host.footprint, told = row.told](const Size& s) { return f(s, told); };
  v.traffic = row.traffic;
  v.make = exp::maker<typename Spec::Problem>([row](const typename Spec::Problem& p, const Size&) {
    return row.call.host.make(p, row);
  });
  return v;
}

template <class Spec, class Space>
Variant variant_on(const ArraysRow<Spec>& row) {
  const auto& on = row.call.on_space[space_index<Space>(EnabledSpaces{})];
  Variant v = arrays_variant<Space>(row.name, Spec::inputs_moved, Spec::output_moved);
  v.footprint = [f = on.footprint, told = row.told](const Size& s) { return f(s, told); };
  v.traffic = row.traffic;
  v.speedup_against = row.against;
  v.make = exp::maker<typename Spec::Problem>([row, make = on.make](const typename Spec::Problem& p, const Size&) {
    return make(p, row);
  });
  return v;
}
}  // namespace arrays_detail

// A row's call on every enabled space: call(exec, in, data) on the space's Data<Space>.
template <class Spec, template <class> class Data, class F>
ArraysCall<Spec> on_spaces(F call) {
  ArraysCall<Spec> c;
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    c.on_space[space_index<Space>(EnabledSpaces{})] = {
        arrays_detail::case_maker<Spec, Data, Space>(call), &Data<Space>::footprint};
  });
  return c;
}

// A row's call on one host thread: call(problem, data), its HostData made with the case.
template <class Spec, class HostData, class F>
ArraysCall<Spec> on_host(F call) {
  ArraysCall<Spec> c;
  c.host.footprint = &HostData::footprint;
  c.host.make = [call](const typename Spec::Problem& p, const ArraysRow<Spec>& row) -> std::unique_ptr<Case> {
    auto data = std::make_shared<HostData>(p, row);
    using Out = decltype(data->out);
    return std::make_unique<HostLoopCase<Out>>(
        data->out, [call, data, &p](const Out&) { call(p, *data); },
        [&p, row](const Out& out) { return Spec::judge(p, row, out); });
  };
  return c;
}

// Adds the table's host rows, then its other rows on every enabled space, space after space (an
// injected bug's to e.injected_bugs).
template <class Spec, IfShape<Spec, ArraysShape> = 0>
void on_every_space(Experiment& e, const std::vector<ArraysRow<Spec>>& rows) {
  for (const ArraysRow<Spec>& row : rows)
    if (row.call.host.make) e.variants.push_back(arrays_detail::host_variant(row));
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    for (const ArraysRow<Spec>& row : rows)
      if (!row.call.host.make)
        (row.injected_bug ? e.injected_bugs : e.variants).push_back(arrays_detail::variant_on<Spec, Space>(row));
  });
}

}  // namespace nbk::exp
