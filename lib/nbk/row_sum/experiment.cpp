// Seed 004: the sums of the rows of a 1000 x 1000 matrix (the document's) and of a 2^14 x 2^12
// one (ours), in int32 (summed exactly in int64) and float32, as the gufunc sum_row: its own
// loops (plain, adding in double), a team per row, a thread's vector lanes per row (a warp on a
// GPU) or a thread per row on every space, on a device resident and with transfers, against one
// host thread; int32 sums exact, float32 within the rounding bound of any order of m - 1 adds
// against a double reference.
#include <fmt/format.h>

#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "nbk/core/allocate.hpp"
#include "nbk/core/memory.hpp"
#include "nbk/core/random_data.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/notes.hpp"
#include "nbk/experiment/arrays.hpp"
#include "nbk/row_sum/kernels.hpp"
#include "nbk/row_sum/problem.hpp"
#include "nbk/row_sum/tuned.hpp"

namespace nbk::row_sum {

namespace {

using exp::Size;
using row_sum::Sum;

template <class T>
const char* type_name() { return std::is_same_v<T, float> ? "float32" : "int32"; }

// Read the matrix once, write the sums.
template <class T>
Traffic traffic_in(const Size& s) {
  return {static_cast<std::uint64_t>(s.elements()) * sizeof(T), static_cast<std::uint64_t>(s[0]) * sizeof(Sum<T>)};
}

struct Spec : exp::ArraysSpec<Spec, Problem> {
  static constexpr const char* label = "nbk::row_sum";
  static constexpr const char *in_words = "the matrix", *out_words = "the sums";
  static Traffic traffic(const Size& s) { return traffic_in<float>(s); }  // the rows' own: with_traffic

  // The matrix of T in Space's memory (copied in by the case) and its sums.
  template <class Space, class T>
  struct Data {
    Data(const Problem& p, const Row&) : out(allocate<Out>("nbk::row_sum::per_row", p.rows())) {}
    static std::array<HostMatrix<T>, 1> inputs(const Problem& p) { return {p.matrix<T>()}; }
    using Out = Kokkos::View<Sum<T>*, typename Space::memory_space>;
    Out out;
  };
  template <class T>
  struct HostData {
    HostData(const Problem& p, const Row&) : out("nbk::row_sum::sums", p.rows()) {}
    HostSums<T> out;
  };

  template <class Out>
  static exp::Verdict check(const Problem& p, const Row&, const Out& sums) {
    return sums_verdict(p, sums.data());
  }
};

template <class Space>
using Ints = Spec::Data<Space, std::int32_t>;
template <class Space>
using Floats = Spec::Data<Space, float>;

// The host row in T: the baseline of the rows on the spaces in T.
template <class T>
Spec::Row host_row() {
  return Spec::Row{fmt::format("host-{}", type_name<T>()),
                   exp::on_host<Spec, Spec::HostData<T>>([](const Problem& p, auto& d) {
                     row_sum::host_row_sums(p.matrix<T>().data(), p.rows(), p.columns(), d.out.data());
                   })}
      .moving("one host thread, host memory")
      .with_traffic(traffic_in<T>);
}

std::vector<Spec::Row> table() {
  const Spec::Row host_int32 = host_row<std::int32_t>(), host_float32 = host_row<float>();
  const auto plain = [](auto& exec, auto& in, auto& d) { row_sum::plain_row_sums(exec, in[0], d.out); };
  const auto team = [](auto& exec, auto& in, auto& d) { row_sum::team_row_sums(exec, in[0], d.out); };
  const auto vector = [](auto& exec, auto& in, auto& d) { row_sum::vector_row_sums(exec, in[0], d.out); };
  const auto flat = [](auto& exec, auto& in, auto& d) { row_sum::flat_row_sums(exec, in[0], d.out); };
  // A way on every space, over the int32 or the float32 matrix, against the host row in that type.
  const auto int32 = [&](std::string way, auto call) {
    return Spec::Row{way + "-int32", exp::on_spaces<Spec, Ints>(call)}
        .against(host_int32)
        .with_traffic(traffic_in<std::int32_t>);
  };
  const auto float32 = [&](std::string way, auto call) {
    return Spec::Row{way + "-float32", exp::on_spaces<Spec, Floats>(call)}
        .against(host_float32)
        .with_traffic(traffic_in<float>);
  };
  return {host_int32,              host_float32,
          int32("plain", plain),   float32("plain", plain),
          int32("team", team),     float32("team", team),
          int32("vector", vector), float32("vector", vector),
          int32("flat", flat),     float32("flat", flat)};
}

}  // namespace

exp::Experiment experiment(const exp::Notes& notes) {
  exp::Experiment e = exp::arrays_experiment<Spec>(notes);
  e.rank = 2;
  e.sizes = {Size{1000, 1000}, Size{std::int64_t{1} << 14, std::int64_t{1} << 12}};
  e.test_sizes = {Size{0, 5}, Size{5, 0}, Size{1, 1}, Size{1, 1025}, Size{1025, 1}, Size{17, 33}, Size{1000, 1000}};
  e.bench_sizes = {Size{std::int64_t{1} << 14, std::int64_t{1} << 12}};
  e.problem_bytes = [](const Size& s) {  // both matrices, and their sums in int64 and double
    return static_cast<std::uint64_t>(s.elements()) * (sizeof(std::int32_t) + sizeof(float)) +
           static_cast<std::uint64_t>(s[0]) * (sizeof(std::int64_t) + sizeof(double));
  };
  exp::on_every_space(e, table());
  return e;
}

}  // namespace nbk::row_sum
