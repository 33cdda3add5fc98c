#pragma once
// Workloads whose calls write an array (the row sums, the l2 norm, the histogram, the matrix
// product, add-one's array), stated as a spec and a table of rows, as scalar reductions are
// (scalar_spec.hpp). A workload writes one struct Spec deriving from ArraysSpec<Spec, Problem> with
//   label                  the prefix of its arrays' labels ("nbk::<workload>")
//   inputs_moved, output_moved  what a call with transfers copies in and out, in words
//   Told                   what a row tells its data and the judge besides the Problem (a bin
//                          count, an accumulator, ...)
//   judge(p, row, out)     the one judge hook: the verdict on the output, a host array (the
//                          space's output read back, or the host row's own)
// and optionally first_call (what a row's first call on a device pays), timed_with_transfers
// (whether a device row is also timed with its copies) and has_vendor<Space> (the spaces of
// Where::vendor_spaces), and its data templates: a Data<Space> is what a row's calls work on in
// Space's memory, made from (Problem, row) with the case (never timed): `out`, the output the calls
// write (allocated by the workload, since its shape is the workload's), static inputs(p), the
// Problem's host arrays copied in, and static footprint(s, told), what the row's case holds. A
// host row's data is the same without the inputs: `out`, a host array, and footprint(s, told).
// The statement then lists its variants as one table of ArraysRow<Spec> (a workload's Row): a
// name, the call (on_spaces<Spec, Data>(f): f(exec, in, data) on every space, `in` the inputs in
// the space's memory; on_spaces<Spec, Data, Where::...>(f): only where that holds, the call made
// nowhere else (a vendor library's, a device's transfers); cases_on<Spec, CaseOn>(args...): the
// workload's own case, CaseOn<Space>(n, args...) for n elements; on_host<Spec, HostData>(f):
// f(problem, data), one host thread), what the data and the judge are told, the host row its
// speed-up is taken against (the row itself), what a call moves where Spec's words do not say it,
// its traffic where it differs from the experiment's, whether it is an injected bug
// (Experiment::injected_bugs), and, by setters so that a row still reads name first: where it
// runs (Where: across_ranks splits it over the ranks as "ranks-<name>"), the documents' name
// and figure for it, whether its call crosses the host-device link, why it cannot reach memcpy
// and whose probes judge it. on_every_space(e, rows) adds the host rows listed before the last
// space row, then the space rows space after space, then the host rows listed after them. The
// cases are ArraysCase and HostLoopCase (arrays_case.hpp), or the workload's own.
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
#include "nbk/experiment/where.hpp"

namespace nbk::exp {

// What an ArraysCase on Space holds: its inputs and output in the space's memory, and the output's
// host mirror (on a host space, all of them in host memory).
template <class Space>
Footprint arrays_case_footprint(std::uint64_t inputs, std::uint64_t output) {
  return is_device_space_v<Space> ? Footprint{output, inputs + output} : Footprint{inputs + 2 * output, 0};
}

template <class Spec>
struct ArraysRow;

template <class Spec, class ProblemType>
struct ArraysSpec {
  using SpecShape = ArraysShape;
  using Problem = ProblemType;
  using Row = ArraysRow<Spec>;
  struct Told {};
  static constexpr const char* inputs_moved = "";
  static constexpr const char* output_moved = "";
  static constexpr const char* first_call = "module load";
  static constexpr bool timed_with_transfers = true;
  template <class Space>
  static constexpr bool has_vendor = false;

  // The defaults a new workload may keep: the Problem's array `x` copied in, an output of one
  // element per element of the size (output_length), of the type of the Problem's `reference`,
  // which every element must match exactly.
  static std::int64_t output_length(const Size& s) { return s.elements(); }
  template <class Space>
  struct Data {
    using Out = Kokkos::View<typename decltype(ProblemType::reference)::value_type*, typename Space::memory_space>;
    Data(const ProblemType& p, const Row&) : out(allocate<Out>(std::string(Spec::label) + "::out", p.reference.size())) {}
    static std::array<decltype(ProblemType::x), 1> inputs(const ProblemType& p) { return {p.x}; }
    static Footprint footprint(const Size& s, const typename Spec::Told&) {
      return arrays_case_footprint<Space>(s.elements() * sizeof(typename decltype(ProblemType::x)::value_type),
                                          Spec::output_length(s) * sizeof(typename Out::value_type));
    }
    Out out;
  };
  struct HostData {
    using Out = Kokkos::View<typename decltype(ProblemType::reference)::value_type*, Kokkos::HostSpace>;
    HostData(const ProblemType& p, const Row&) : out(allocate<Out>(std::string(Spec::label) + "::out", p.reference.size())) {}
    static Footprint footprint(const Size& s, const typename Spec::Told&) {
      return {Spec::output_length(s) * sizeof(typename Out::value_type), 0};
    }
    Out out;
  };
  template <class Out>
  static Verdict judge(const ProblemType& p, const Row&, const Out& out) {
    std::int64_t wrong = 0;
    for (std::size_t i = 0; i < p.reference.size(); ++i) wrong += out(i) != p.reference[i];
    return mismatch_verdict(wrong);
  }
};

// A row's words where they may differ by space: the same on every space, {on a host space, on a
// device}, or only_on(space, words) (none elsewhere).
struct Words {
  Words() = default;
  Words(const char* every) : host(every), device(every) {}  // NOLINT: implicit, a table's "..."
  Words(std::string every) : host(every), device(std::move(every)) {}  // NOLINT: as above
  Words(std::string on_host, std::string on_device) : host(std::move(on_host)), device(std::move(on_device)) {}
  bool empty() const { return host.empty() && device.empty(); }
  std::string on(std::string_view space, bool is_device) const {
    return !only.empty() && only != space ? "" : is_device ? device : host;
  }
  std::string host, device;
  std::string only = {};  // a space's name: the words hold there only
};

inline Words only_on(std::string space, std::string words) {
  Words w(std::move(words));
  w.only = std::move(space);
  return w;
}

// A row's call: how to make its case, and what the case holds, on each enabled space or on one
// host thread.
template <class Spec>
struct ArraysCall {
  using Make =
      std::function<std::unique_ptr<Case>(const typename Spec::Problem&, const Size&, const ArraysRow<Spec>&)>;
  using Holds = Footprint (*)(const Size&, const ToldBy<Spec>&);
  struct On {
    Make make;
    Holds footprint = nullptr;
  };
  On host;  // set for a row on one host thread
  std::array<On, space_count(EnabledSpaces{})> on_space;  // in EnabledSpaces' order; unset where not made
};

template <class Spec>
struct ArraysRow {
  std::string name;
  ArraysCall<Spec> call;
  ToldBy<Spec> told = {};
  VariantRef against = {};  // the host row of this table its speed-up is taken against
  Words moves;              // a host row's; a space row's where not Spec's inputs_moved, output_moved
  std::function<Traffic(const Size&)> traffic = {};  // where it is not the experiment's
  bool injected_bug = false;  // a fault for the tests to find, never run by the program
  Where where = Where::every_space;
  Words document;
  bool call_crosses_link = false;  // Variant::call_crosses_link
  std::string below_memcpy_because = {};
  std::string judged_on = {};  // Variant::judged_on

  ArraysRow runs(Where w) const { return with(&ArraysRow::where, w); }
  ArraysRow documented(Words words) const { return with(&ArraysRow::document, std::move(words)); }
  ArraysRow crossing_link() const { return with(&ArraysRow::call_crosses_link, true); }
  ArraysRow below_memcpy(std::string because) const { return with(&ArraysRow::below_memcpy_because, because); }
  ArraysRow judged_by(std::string space) const { return with(&ArraysRow::judged_on, std::move(space)); }
  operator VariantRef() const { return Variant{name}; }  // NOLINT: implicit, `against = host_row`

 private:
  template <class T, class V>
  ArraysRow with(T ArraysRow::*field, V value) const {
    ArraysRow row = *this;
    row.*field = std::move(value);
    return row;
  }
};

namespace arrays_detail {
template <class Spec, template <class> class Data, class Space, class F>
typename ArraysCall<Spec>::Make case_maker(F call) {
  return [call](const typename Spec::Problem& p, const Size&, const ArraysRow<Spec>& row) -> std::unique_ptr<Case> {
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

// Whether a Where holds on Space for Spec (its vendor library's spaces).
template <class Spec, class Space>
constexpr bool runs_here(Where where) {
  return runs_on<Space>(where, Spec::template has_vendor<Space>);
}

// The fields a host row and a space row take from the row alike.
template <class Spec>
void said(Variant& v, const ArraysRow<Spec>& row, std::string_view space, bool device) {
  if (!row.moves.empty()) v.moves = row.moves.on(space, device);
  v.document = row.document.on(space, device);
  v.call_crosses_link = row.call_crosses_link;
  v.below_memcpy_because = row.below_memcpy_because;
  v.judged_on = row.judged_on;
  v.traffic = row.traffic;
  v.speedup_against = row.against;
}

template <class Spec>
Variant host_variant(const ArraysRow<Spec>& row) {
  Variant v{row.name};
  v.space = "host";
  said(v, row, "host", false);
  v.footprint = [f = row.call.host.footprint, told = row.told](const Size& s) { return f(s, told); };
  v.make = exp::maker<typename Spec::Problem>([row](const typename Spec::Problem& p, const Size& s) {
    return row.call.host.make(p, s, row);
  });
  return v;
}

// A space row on Space, split over the ranks where it runs across them.
template <class Spec, class Space>
Variant variant_on(const ArraysRow<Spec>& row) {
  const auto& on = row.call.on_space[space_index<Space>(EnabledSpaces{})];
  const bool device = is_device_space_v<Space>;
  Variant v = arrays_variant<Space>(row.name, Spec::inputs_moved, Spec::output_moved);
  v.first_call = device ? Spec::first_call : "";
  v.timed_with_transfers = device && Spec::timed_with_transfers;
  said(v, row, space_name<Space>(), device);
  v.footprint = [f = on.footprint, told = row.told](const Size& s) { return f(s, told); };
  v.make = exp::maker<typename Spec::Problem>([row, make = on.make](const typename Spec::Problem& p, const Size& s) {
    return make(p, s, row);
  });
  return row.where == Where::across_ranks ? across_ranks(std::move(v)) : v;
}

// Whether a space row is made on Space and runs there.
template <class Spec, class Space>
bool made_on(const ArraysRow<Spec>& row) {
  return !row.call.host.make && row.call.on_space[space_index<Space>(EnabledSpaces{})].make &&
         runs_here<Spec, Space>(row.where);
}
}  // namespace arrays_detail

// A row's call on the enabled spaces where `where` holds (all by default), made nowhere else:
// call(exec, in, data) on the space's Data<Space>.
template <class Spec, template <class> class Data = Spec::template Data, Where where = Where::every_space, class F, IfShape<Spec, ArraysShape> = 0>
ArraysCall<Spec> on_spaces(F call) {
  ArraysCall<Spec> c;
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    if constexpr (arrays_detail::runs_here<Spec, Space>(where))
      c.on_space[space_index<Space>(EnabledSpaces{})] = {arrays_detail::case_maker<Spec, Data, Space>(call),
                                                         &Data<Space>::footprint};
  });
  return c;
}

// A row whose case is the workload's own: CaseOn<Space>(n, args...) for the n elements of the
// size it is given (a rank's slice across ranks), on the spaces where `where` holds; it holds
// Spec::footprint<Space>(size, told).
template <class Spec, template <class> class CaseOn, Where where = Where::every_space, class... Args>
ArraysCall<Spec> cases_on(Args... args) {
  ArraysCall<Spec> c;
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    if constexpr (arrays_detail::runs_here<Spec, Space>(where))
      c.on_space[space_index<Space>(EnabledSpaces{})] = {
          [args...](const typename Spec::Problem&, const Size& s, const ArraysRow<Spec>&) -> std::unique_ptr<Case> {
            return std::make_unique<CaseOn<Space>>(s.elements(), args...);
          },
          &Spec::template footprint<Space>};
  });
  return c;
}

// A row's call on one host thread: call(problem, data), its HostData made with the case.
template <class Spec, class HostData = typename Spec::HostData, class F, IfShape<Spec, ArraysShape> = 0>
ArraysCall<Spec> on_host(F call) {
  ArraysCall<Spec> c;
  c.host.footprint = &HostData::footprint;
  c.host.make = [call](const typename Spec::Problem& p, const Size&,
                       const ArraysRow<Spec>& row) -> std::unique_ptr<Case> {
    auto data = std::make_shared<HostData>(p, row);
    using Out = decltype(data->out);
    return std::make_unique<HostLoopCase<Out>>(
        data->out, [call, data, &p](const Out&) { call(p, *data); },
        [&p, row](const Out& out) { return Spec::judge(p, row, out); });
  };
  return c;
}

// The experiment of a workload that keeps ArraysSpec's defaults, over a Problem made as
// Problem(n, seed) from a size's element count and the run's seed, before its sizes and rows:
// a call reads x and writes the output once.
template <class Spec>
Experiment arrays_experiment(const Notes& notes) {
  using Problem = typename Spec::Problem;
  return stated_over<Problem>(notes, [](const Size& s) {
    return Traffic{static_cast<std::uint64_t>(s.elements()) * sizeof(typename decltype(Problem::x)::value_type),
                   static_cast<std::uint64_t>(Spec::output_length(s)) *
                       sizeof(typename decltype(Problem::reference)::value_type)};
  });
}

// Adds the table's host rows listed before its last space row, then its space rows on every
// enabled space where they are made and run (Where), space after space (an injected bug's to
// e.injected_bugs), then the host rows listed after the last space row: a baseline outside
// Kokkos (a vendor library on every core) after the rows it is compared with.
template <class Spec, IfShape<Spec, ArraysShape> = 0>
void on_every_space(Experiment& e, const std::vector<ArraysRow<Spec>>& rows) {
  std::size_t last_space_row = 0;
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (!rows[k].call.host.make) last_space_row = k;
  const auto add_host_rows = [&](bool after) {
    for (std::size_t k = 0; k < rows.size(); ++k)
      if (rows[k].call.host.make && (k > last_space_row) == after)
        e.variants.push_back(arrays_detail::host_variant(rows[k]));
  };
  add_host_rows(false);
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    for (const ArraysRow<Spec>& row : rows)
      if (arrays_detail::made_on<Spec, Space>(row))
        (row.injected_bug ? e.injected_bugs : e.variants).push_back(arrays_detail::variant_on<Spec, Space>(row));
  });
  add_host_rows(true);
}

}  // namespace nbk::exp
