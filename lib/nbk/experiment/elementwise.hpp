#pragma once
// Element-wise (map) workloads stated as a spec: out = f(in_1, ..., in_k) element by element.
// A workload writes one struct Spec deriving from MapSpec<Spec, Rank, Inputs, Precisions...>:
//   label                    "nbk::<workload>": the kernels' and the arrays' labels
//   in_words, out_words      what a with-transfers call copies in and out, in words ("a and b", "c")
//   generate(in, n, u, seed) fills the inputs of one precision (u: `uniforms` U[0,1) doubles per
//                            element); by default every input U[0,1) from the seed
//   reference(x...)          the exact result of one element, from that element's inputs
//   tolerance_in_u           0: exact; else |out - reference| <= tolerance_in_u u |reference| + floor<T>()
//   kernel(exec, in, out, told)  one call on a space (a template on it; told: the row's Told, its tiles,
//                            launch...)
//   plain_kernel(exec, in, out)  the document's kernel as Kokkos' documentation writes it (its kernels.hpp's
//                            first): the call of a row made with .plain_kernel()
//   host_loop(in, out)       the documents' baseline on one host thread, or host_element(x...): the
//                            result of one element, which the default host_loop calls in index order
//   describe(p), facts(p)    the line above the table and the Problem's JSON (by default its
//                            words, shape and seed)
// and optionally scale(x...) with scale_words and scale_key, where the error is measured in unit
// roundoffs of that scale instead of the reference (polar: the distance of two close points is far
// smaller than the rounding of their coordinates); check(p, out) for any other verdict; and
// annotate(verdict, told) to add what a call recorded in its Told (add's launch shape).
// From it derive the Problem (MapProblem), its bytes, each precision's traffic and footprints, the
// host-loop variant (add_host_loop, the baseline of the rows in its precision) and the table's rows
// on every space (row.hpp's on_every_space; a map's row needs no call: it is the Spec's kernel, in
// the precision of its baseline). map_experiment(notes) is the experiment before its sizes and rows.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "nbk/core/memory.hpp"
#include "nbk/core/random_data.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/arrays_case.hpp"
#include "nbk/experiment/notes.hpp"
#include "nbk/experiment/row.hpp"
#include "nbk/experiment/where.hpp"

namespace nbk::exp {

template <class Spec>
struct MapProblem;

template <class Spec, int Rank, std::size_t Inputs, class... Precisions>
struct MapSpec {
  using Problem = MapProblem<Spec>;
  using Row = exp::Row<Spec>;
  static_assert(Rank >= 1 && Rank <= 3 && Inputs >= 1 && sizeof...(Precisions) >= 1);
  static constexpr int rank = Rank;
  static constexpr std::size_t inputs = Inputs;
  using Types = std::tuple<Precisions...>;
  using First = std::tuple_element_t<0, Types>;
  struct Told {};  // what a row tells its kernel: none
  static constexpr double tolerance_in_u = 0;  // exact
  static constexpr int uniforms = 0;           // none drawn
  // Floating-point operations per element where they bound the kernel (flop_count.hpp); 0: none shown.
  static constexpr std::uint64_t flops_per_element = 0;
  template <class T>
  static double floor() { return 0; }
  // Every input U[0,1), input k drawn from seed + k.
  template <class T>
  static void generate(const std::array<T*, Inputs>& in, std::int64_t n, const double*, std::uint64_t seed) {
    for (std::size_t k = 0; k < Inputs; ++k) fill_uniform(in[k], n, seed + k);
  }
  // Spec::host_element(x...) element by element, in index order.
  template <class In, class Out>
  static void host_loop(const In& in, const Out& out) {
    each_element(in, out, std::make_index_sequence<Inputs>{});
  }
  // The line above the table and the Problem's JSON: by default its words, shape and seed.
  template <class P>
  static std::string describe(const P& p) {
    return fmt::format("{} from {}, {} elements each, seed {}\n", Spec::out_words, Spec::in_words, p.size.text(), p.seed);
  }
  template <class P>
  static nlohmann::json facts(const P& p) {
    return {{"shape", p.size.extents}, {"seed", p.seed}};
  }
  // How a row becomes a Variant (row.hpp's on_every_space), defined below.
  static Variant host_variant(const Row& row);
  template <class Space>
  static Variant variant_on(const Row& row);
  template <class Space>
  static bool made_on(const Row& row) {
    return runs_on<Space>(row.where, false);
  }

 private:
  template <class In, class Out, std::size_t... K>
  static void each_element(const In& in, const Out& out, std::index_sequence<K...>) {
    auto* const o = out.data();
    for (std::size_t i = 0; i < out.size(); ++i) o[i] = Spec::host_element(in[K].data()[i]...);
  }
};

// "f32", "f64", "i64", "i32": how variant names tell precisions apart.
template <class T>
std::string precision_name() {
  return (std::is_floating_point_v<T> ? "f" : "i") + std::to_string(8 * sizeof(T));
}

// A host array of `Rank` dimensions, row-major (NumPy's C order) on every space.
template <class T, int Rank>
using HostArray = Kokkos::View<std::conditional_t<Rank == 1, T*, std::conditional_t<Rank == 2, T**, T***>>,
                               Kokkos::LayoutRight, Kokkos::HostSpace>;

// An uninitialized host array labelled `label`, on huge pages where it is large (allocate).
template <class T, int Rank>
HostArray<T, Rank> host_array(const Size& s, const std::string& label) {
  if constexpr (Rank == 1) return allocate<HostArray<T, Rank>>(label, s.elements());
  else if constexpr (Rank == 2) return allocate<HostArray<T, Rank>>(label, s[0], s[1]);
  else return allocate<HostArray<T, Rank>>(label, s[0], s[1], s[2]);
}

namespace map_detail {
template <class Spec, class T>
using Arrays = std::array<HostArray<T, Spec::rank>, Spec::inputs>;
template <class Spec, class Types>
struct AllArrays;
template <class Spec, class... Ts>
struct AllArrays<Spec, std::tuple<Ts...>> {
  using type = std::tuple<Arrays<Spec, Ts>...>;
};
template <class Spec, class = void>
struct has_check : std::false_type {};
template <class Spec>
struct has_check<Spec, std::void_t<decltype(&Spec::check)>> : std::true_type {};
template <class Spec, class = void>
struct has_annotate : std::false_type {};
template <class Spec>
struct has_annotate<Spec, std::void_t<decltype(&Spec::annotate)>> : std::true_type {};
// Whether the Spec states a plain kernel (plain_kernel(exec, in, out)) for these arguments.
template <class Spec, class Space, class In, class Out, class = void>
struct has_plain_kernel : std::false_type {};
template <class Spec, class Space, class In, class Out>
struct has_plain_kernel<Spec, Space, In, Out,
                        std::void_t<decltype(Spec::plain_kernel(std::declval<const Space&>(), std::declval<const In&>(),
                                                                std::declval<const Out&>()))>> : std::true_type {};
template <class Spec, class = void>
struct has_scale : std::false_type {};
template <class Spec>
struct has_scale<Spec, std::void_t<decltype(Spec::scale_key)>> : std::true_type {};
}  // namespace map_detail

// The host side of one size: every precision's inputs, made once and read by every case.
template <class Spec>
struct MapProblem final : Problem {
  Size size;
  std::uint64_t seed = 0;
  typename map_detail::AllArrays<Spec, typename Spec::Types>::type arrays;
  template <class T>
  const map_detail::Arrays<Spec, T>& in() const { return std::get<map_detail::Arrays<Spec, T>>(arrays); }
  std::int64_t n() const { return size.elements(); }
  void describe(std::ostream& out) const override { out << Spec::describe(*this); }
  nlohmann::json to_json() const override { return Spec::facts(*this); }
};

// For a map whose float32 inputs are all U[0,1) from the seed (mat_add, maximum): the line above
// the table, "<formula>, float32 <arrays> of <shape> (<bytes> each), U[0,1), seed <seed>", and the facts.
template <class Spec>
std::string uniform_inputs_text(const MapProblem<Spec>& p, const char* formula, const char* arrays) {
  return fmt::format("{}, float32 {} of {} ({} each), U[0,1), seed {}\n", formula, arrays, p.size.text(),
                     format_bytes(static_cast<std::uint64_t>(p.n()) * sizeof(float)), p.seed);
}
template <class Spec>
nlohmann::json uniform_inputs_facts(const MapProblem<Spec>& p) {
  return {{"element_type", "float32"}, {"shape", p.size.extents}, {"seed", p.seed}};
}

// The reference of element i: Spec::reference of that element's inputs.
template <class Spec, class T, std::size_t... K>
auto reference_at(const map_detail::Arrays<Spec, T>& in, std::int64_t i, std::index_sequence<K...>) {
  return Spec::reference(in[K].data()[i]...);
}

template <class Spec, class T, std::size_t... K>
double scale_at(const map_detail::Arrays<Spec, T>& in, std::int64_t i, std::index_sequence<K...>) {
  return Spec::scale(in[K].data()[i]...);
}

// The verdict on `out`, the precision T's result read back to the host.
template <class Spec, class T>
Verdict map_check(const MapProblem<Spec>& p, const T* out) {
  if constexpr (map_detail::has_check<Spec>::value) {
    return Spec::check(p, out);
  } else {
    const auto& in = p.template in<T>();
    const auto reference = [&in](std::int64_t i) {
      return reference_at<Spec, T>(in, i, std::make_index_sequence<Spec::inputs>{});
    };
    if constexpr (map_detail::has_scale<Spec>::value) {
      // |out - reference| <= tolerance_in_u u scale, with the largest error in units of u of the scale
      const double u = std::numeric_limits<T>::epsilon() / 2, tolerance = Spec::tolerance_in_u;
      std::int64_t wrong = 0;
      double worst = 0;
      const std::int64_t n = p.n();
#pragma omp parallel for reduction(+ : wrong) reduction(max : worst) if (n >= host_check_parallel_from)
      for (std::int64_t i = 0; i < n; ++i) {
        const double scale = scale_at<Spec, T>(in, i, std::make_index_sequence<Spec::inputs>{});
        const double error = std::abs(static_cast<double>(out[i]) - reference(i));
        wrong += !(error <= tolerance * u * scale);
        if (scale > 0) worst = std::max(worst, error / scale / u);
      }
      Verdict v = mismatch_verdict(wrong);
      if (!v.ok) v.summary = fmt::format("FAILED ({} beyond {:g} u ({}))", wrong, tolerance, Spec::scale_words);
      v.cells = {{"max error", fmt::format("{:.1f} u", worst)}};
      v.details[std::string("max_error_in_u_of_") + Spec::scale_key] = worst;
      v.details["tolerance_in_u"] = tolerance;
      return v;
    } else if constexpr (Spec::tolerance_in_u == 0) {
      std::int64_t wrong = 0;
      const std::int64_t n = p.n();
#pragma omp parallel for reduction(+ : wrong) if (n >= host_check_parallel_from)
      for (std::int64_t i = 0; i < n; ++i) wrong += !(out[i] == static_cast<T>(reference(i)));
      return mismatch_verdict(wrong);
    } else {
      return relative_error_verdict(
          p.n(), [out](std::int64_t i) { return out[i]; }, reference, Spec::tolerance_in_u,
          std::numeric_limits<T>::epsilon() / 2, Spec::template floor<T>());
    }
  }
}

// The minimum traffic of one call in precision T: every input read, the output written.
template <class Spec, class T>
Traffic map_traffic_of(const Size& s) {
  const auto n = static_cast<std::uint64_t>(s.elements());
  return with_flops<T>(map_traffic<T>(n, Spec::inputs), n, Spec::flops_per_element);
}

namespace map_detail {
template <class Spec, class T>
void make_inputs(MapProblem<Spec>& p, const std::vector<double>& u) {
  auto& arrays = std::get<Arrays<Spec, T>>(p.arrays);
  std::array<T*, Spec::inputs> data{};
  for (std::size_t k = 0; k < Spec::inputs; ++k) {
    arrays[k] = host_array<T, Spec::rank>(p.size, std::string(Spec::label) + "::in" + std::to_string(k) +
                                                      precision_name<T>());
    data[k] = arrays[k].data();
  }
  Spec::generate(data, p.n(), u.data(), p.seed);
}
template <class Spec, class... Ts>
std::uint64_t bytes_per_element(std::tuple<Ts...>*) {
  return Spec::inputs * (0 + ... + sizeof(Ts)) + Spec::uniforms * sizeof(double);
}
template <class Spec, class... Ts>
std::uint64_t widest(std::tuple<Ts...>*) {
  return std::max({sizeof(Ts)...});
}
template <class T, class... Ts>
constexpr std::size_t index_of(std::tuple<Ts...>*) {
  std::size_t k = 0, found = 0;
  ((std::is_same_v<T, Ts> ? (found = k, ++k) : ++k), ...);
  return found;
}
}  // namespace map_detail

// The experiment's Problem, its host bytes and its traffic (the widest precision's) from the spec.
template <class Spec>
void state_map(Experiment& e) {
  using Types = typename Spec::Types;
  e.rank = Spec::rank;
  e.traffic = [](const Size& s) {
    const std::uint64_t bytes = map_detail::widest<Spec>(static_cast<Types*>(nullptr));
    const auto n = static_cast<std::uint64_t>(s.elements());
    Traffic t{Spec::inputs * bytes * n, bytes * n};
    if (Spec::flops_per_element) t.flops = n * Spec::flops_per_element, t.flop_bytes = static_cast<int>(bytes);
    return t;
  };
  e.problem_bytes = [](const Size& s) {
    return static_cast<std::uint64_t>(s.elements()) * map_detail::bytes_per_element<Spec>(static_cast<Types*>(nullptr));
  };
  e.make_problem = [](const Size& s, const Settings& settings) {
    auto p = std::make_shared<MapProblem<Spec>>();
    p->size = s;
    p->seed = settings.seed;
    std::vector<double> u(static_cast<std::size_t>(Spec::uniforms * s.elements()));
    if (!u.empty()) fill_uniform(u.data(), static_cast<Index>(u.size()), settings.seed);
    std::apply([&](auto&... arrays) { (map_detail::make_inputs<Spec, typename std::decay_t<decltype(arrays)>::value_type::non_const_value_type>(*p, u), ...); },
               p->arrays);
    return std::shared_ptr<const Problem>(std::move(p));
  };
}

// The documents' baseline in precision T: Spec::host_loop on one host thread, into an output
// allocated (and first touched) with the case.
template <class Spec, class T = typename Spec::First>
Variant host_loop_variant(std::string name, std::string moves) {
  using Out = HostArray<T, Spec::rank>;
  Variant v{std::move(name)};
  v.space = "host";
  v.moves = std::move(moves);
  v.footprint = arrays_of<Kokkos::DefaultHostExecutionSpace, T>(1);  // the output
  v.traffic = map_traffic_of<Spec, T>;
  v.make = maker<MapProblem<Spec>>([](const MapProblem<Spec>& p, const Size&) {
    Out output = host_array<T, Spec::rank>(p.size, std::string(Spec::label) + "::out");
    Kokkos::deep_copy(output, T{});  // its first touch, after the huge-page advice
    return std::make_unique<HostLoopCase<Out>>(
        std::move(output),
        [&p](const Out& out) { Spec::host_loop(p.template in<T>(), out); },
        [&p](const Out& out) { return map_check<Spec, T>(p, out.data()); });
  });
  return v;
}

// The map in precision T on Space told `told` (tiles, launch shape): inputs copied in, the
// output read back and checked; on a device also timed with the copies in every call. Its
// speed-up is taken against `against` where given.
template <class Spec, class Space, class T = typename Spec::First>
Variant map_on(std::string name, const VariantRef* against = nullptr, typename Spec::Told told = {},
               Output output = Output::reused, bool plain = false) {
  using Host = HostArray<T, Spec::rank>;
  using MapCase = ArraysCase<Space, Host, Spec::inputs, InSpace<Space, Host>>;
  Variant v = arrays_variant<Space>(std::move(name), Spec::in_words, Spec::out_words);
  if (output == Output::fresh_every_call) v.moves += std::string("; ") + Spec::out_words + " allocated by every call";
  v.footprint = arrays_of<Space, T>(Spec::inputs + 1, 1);  // inputs, output and the output's host mirror
  v.traffic = map_traffic_of<Spec, T>;
  if (against) v.speedup_against = *against;
  constexpr bool stated_plain =
      map_detail::has_plain_kernel<Spec, Space, typename MapCase::Ins, InSpace<Space, Host>>::value;
  if (plain && !stated_plain)
    throw std::logic_error(std::string(Spec::label) + ": row '" + v.name + "' asks for a plain kernel the spec does not state");
  v.make = maker<MapProblem<Spec>>([told, output, plain](const MapProblem<Spec>& p, const Size&) {
    auto state = std::make_shared<typename Spec::Told>(told);  // what this case's calls record
    const auto& in = p.template in<T>();
    return std::make_unique<MapCase>(
        Spec::label, in, allocate<InSpace<Space, Host>>(std::string(Spec::label) + "::out", in[0].layout()),
        [state, plain](const Space& exec, const typename MapCase::Ins& in, const InSpace<Space, Host>& out) {
          if constexpr (stated_plain)
            if (plain) return Spec::plain_kernel(exec, in, out);
          Spec::kernel(exec, in, out, *state);
        },
        [&p, state](const typename MapCase::Result& out) {
          Verdict verdict = map_check<Spec, T>(p, out.data());
          if constexpr (map_detail::has_annotate<Spec>::value) Spec::annotate(verdict, *state);
          return verdict;
        },
        output);
  });
  return v;
}

// The experiment of a map before its sizes and variants: name, title and prose from its notes,
// Problem, bytes and traffic from the spec.
template <class Spec>
Experiment map_experiment(const Notes& notes) {
  Experiment e = stated(notes);
  state_map<Spec>(e);
  return e;
}

// Adds the host loop in precision T and returns it as a baseline.
template <class Spec, class T = typename Spec::First>
Baseline add_host_loop(Experiment& e, std::string name, std::string moves) {
  e.variants.push_back(host_loop_variant<Spec, T>(std::move(name), std::move(moves)));
  return {e.variants.back(), map_detail::index_of<T>(static_cast<typename Spec::Types*>(nullptr))};
}

template <class Spec, int Rank, std::size_t Inputs, class... Precisions>
Variant MapSpec<Spec, Rank, Inputs, Precisions...>::host_variant(const Row& row) {
  Variant v = host_loop_variant<Spec>(row.name, row.moves.cpu);
  take_row_fields(v, row, false);
  return v;
}

// A row on Space, in the precision of its baseline.
template <class Spec, int Rank, std::size_t Inputs, class... Precisions>
template <class Space>
Variant MapSpec<Spec, Rank, Inputs, Precisions...>::variant_on(const Row& row) {
  Variant v;
  const VariantRef* against = row.baseline.variant.empty() ? nullptr : &row.baseline.variant;
  std::size_t k = 0;
  ((row.baseline.precision == k++ ? (void)(v = map_on<Spec, Space, Precisions>(row.name, against, row.told, row.output, row.plain))
                                  : void()),
   ...);
  take_row_fields(v, row, is_device_space_v<Space>);
  return v;
}

}  // namespace nbk::exp
