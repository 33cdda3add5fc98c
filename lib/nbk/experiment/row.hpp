#pragma once
// A row of a statement's table: one variant, stated once, made on every enabled space where it
// runs (or on one host thread). One row type for every shape of workload (elementwise.hpp,
// reduction.hpp, arrays.hpp): a row says its name and its call by position, everything else by
// name, with a setter that reads as the row does:
//   Spec::Row{"tiled", exp::on_spaces<Spec>(tiled)}.against(host).runs(exp::Where::cpu_spaces)
// The shape decides only what a row may leave out (an element-wise map's call is its Spec's
// kernel) and how its Variant is made (the shape's Spec base: variant_on<Space>(row),
// host_variant(row), made_on<Space>(row)).
#include <array>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nbk/core/spaces.hpp"
#include "nbk/experiment/arrays_case.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/where.hpp"

namespace nbk::exp {

// A row's words where they may differ by space: the same on every space, or {on a CPU space (and
// on one host thread), on a device}.
struct Words {
  Words() = default;
  Words(const char* every) : cpu(every), device(every) {}  // NOLINT: implicit, a table's "..."
  Words(std::string every) : cpu(every), device(std::move(every)) {}  // NOLINT: as above
  Words(std::string on_cpu, std::string on_device) : cpu(std::move(on_cpu)), device(std::move(on_device)) {}
  bool empty() const { return cpu.empty() && device.empty(); }
  const std::string& on(bool is_device) const { return is_device ? device : cpu; }
  std::string cpu, device;
};

// The host row a row's speed-up is taken against; for an element-wise map also the precision
// (the index in its Spec's types) its rows run in, the baseline's own.
struct Baseline {
  Baseline() = default;
  Baseline(VariantRef row, std::size_t precision_index = 0) : variant(std::move(row)), precision(precision_index) {}  // NOLINT: implicit
  VariantRef variant;
  std::size_t precision = 0;
};

template <class Spec>
struct Row;

// A row's call: how its case is made, and what the case holds, on each enabled space or on one
// host thread. Made by the shape's call functions (on_spaces, on_host, cases_on); an element-wise
// map's rows leave it empty (their Spec's kernel).
template <class Spec>
struct Call {
  using Make = std::function<std::unique_ptr<Case>(const typename Spec::Problem&, const Size&, const Row<Spec>&)>;
  using Holds = Footprint (*)(const Size&, const typename Spec::Told&);
  struct On {
    Make make;
    Holds footprint = nullptr;
  };
  On host;  // set for a row on one host thread
  std::array<On, space_count(EnabledSpaces{})> on_space;  // in EnabledSpaces' order; unset where not made
};

template <class Spec>
struct Row {
  std::string name;
  Call<Spec> call = {};
  typename Spec::Told told = {};  // what the row tells its call and its check (a bin count, a launch)
  Baseline baseline = {};         // none: no speed-up
  Words moves = {};               // what a call moves, where the shape's default words do not say it
  Where where = Where::every_space;
  Output output = Output::reused;
  bool call_crosses_link = false;  // Variant::call_crosses_link
  bool injected_bug = false;       // a fault for the tests to find (Experiment::injected_bugs)
  bool plain = false;              // an element-wise map's document kernel (Spec::plain_kernel), not Spec::kernel
  std::string judged_on = {};      // Variant::judged_on
  std::function<Traffic(const Size&)> traffic = {};  // where it is not the experiment's
  Chain chain = {};                // Variant::chain, on host spaces

  Row telling(typename Spec::Told t) const { return with(&Row::told, std::move(t)); }
  Row against(Baseline b) const { return with(&Row::baseline, std::move(b)); }
  Row moving(Words words) const { return with(&Row::moves, std::move(words)); }
  Row runs(Where w) const { return with(&Row::where, w); }
  Row fresh_output() const { return with(&Row::output, Output::fresh_every_call); }
  Row crossing_link() const { return with(&Row::call_crosses_link, true); }
  Row injected() const { return with(&Row::injected_bug, true); }
  Row plain_kernel() const { return with(&Row::plain, true); }
  Row judged_by(std::string space) const { return with(&Row::judged_on, std::move(space)); }
  Row with_traffic(std::function<Traffic(const Size&)> t) const { return with(&Row::traffic, std::move(t)); }
  Row chained(Chain c) const { return with(&Row::chain, c); }
  operator Baseline() const { return VariantRef(Variant{name}); }  // NOLINT: implicit, `.against(host)`
  operator VariantRef() const { return Variant{name}; }            // NOLINT: implicit, a sweep's row

 private:
  template <class T, class V>
  Row with(T Row::*field, V value) const {
    Row row = *this;
    row.*field = std::move(value);
    return row;
  }
};

// A row's call on every enabled space where `where` holds (all by default), made nowhere else (a
// vendor library's, a device's transfers): `call` on the space's Data<Space> (Spec::Data, or
// another data template of the workload's), as the shape calls it (Spec::call_on).
template <class Spec, template <class> class Data = Spec::template Data, Where where = Where::every_space, class F>
Call<Spec> on_spaces(F call) {
  Call<Spec> c;
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    if constexpr (runs_on<Space>(where, Spec::template has_vendor<Space>))
      c.on_space[space_index<Space>(EnabledSpaces{})] = Spec::template call_on<Space, Data>(call);
  });
  return c;
}

// A row's call on one host thread: `call` on HostData, made with the case (Spec::host_call).
template <class Spec, class HostData = typename Spec::HostData, class F>
Call<Spec> on_host(F call) {
  Call<Spec> c;
  c.host = Spec::template host_call<HostData>(call);
  return c;
}

// The fields every shape's variant takes from its row alike.
template <class Spec>
void take_row_fields(Variant& v, const Row<Spec>& row, bool device) {
  if (!row.moves.empty()) v.moves = row.moves.on(device);
  v.call_crosses_link = row.call_crosses_link;
  v.judged_on = row.judged_on;
  if (row.traffic) v.traffic = row.traffic;
  if (!device) v.chain = row.chain;  // a device's reductions are trees
  v.speedup_against = row.baseline.variant;
}

// Adds the table's host rows listed before its last space row, then its space rows on every
// enabled space where they are made and run, space after space (an injected bug's to
// e.injected_bugs), then the host rows listed after the last space row: a baseline outside
// Kokkos (a vendor library on every core) after the rows it is compared with. Returns the
// space rows as first made (for a sweep).
template <class Spec>
std::vector<VariantRef> on_every_space(Experiment& e, const std::vector<Row<Spec>>& rows) {
  std::size_t last_space_row = 0, space_rows = 0;
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (!rows[k].call.host.make) last_space_row = k, ++space_rows;
  const auto add_host_rows = [&](bool after) {
    for (std::size_t k = 0; k < rows.size(); ++k)
      if (rows[k].call.host.make && (k > last_space_row) == after) e.variants.push_back(Spec::host_variant(rows[k]));
  };
  std::vector<VariantRef> added;
  add_host_rows(false);
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    for (const Row<Spec>& row : rows) {
      if (row.call.host.make || !Spec::template made_on<Space>(row)) continue;
      auto& to = row.injected_bug ? e.injected_bugs : e.variants;
      to.push_back(Spec::template variant_on<Space>(row));
      if (added.size() < space_rows) added.push_back(to.back());
    }
  });
  add_host_rows(true);
  return added;
}
// The same for a braced table of rows: exp::on_every_space(e, {Row{"a"}, Row{"b"}.against(a)}).
template <class Spec>
std::vector<VariantRef> on_every_space(Experiment& e, std::initializer_list<Row<Spec>> rows) {
  return on_every_space(e, std::vector<Row<Spec>>(rows));
}

}  // namespace nbk::exp
