// Seed 004: the sums of the rows of a 1000 x 1000 matrix (the document's) and of a 2^14 x 2^12
// one (ours), in int32 (summed exactly in int64) and float32, as the gufunc sum_row: a team
// per row, a thread's vector lanes per row (a warp on a GPU) or a thread per row on every
// space, on a device resident and with transfers, against one host thread; int32 sums exact,
// float32 within the rounding bound of any order of m - 1 adds against a double reference.
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

namespace nbk::row_sum {

namespace {

using exp::Size;
using row_sum::Sum;
template <class T>
using HostMatrix = row_sum::Matrix<T, Kokkos::HostSpace>;
template <class T>
using HostSums = Kokkos::View<Sum<T>*, Kokkos::HostSpace>;

// int32 draws uniform over its whole range, from random_data.hpp's blocks and engines.
void fill_int32(std::int32_t* out, Index n, std::uint64_t seed) {
  random_detail::for_each_block(n, seed, [out](Index first, Index last, std::mt19937_64& g) {
    for (Index i = first; i < last; ++i)
      out[i] = static_cast<std::int32_t>(static_cast<std::int64_t>(g() >> 32) - (std::int64_t{1} << 31));
  });
}

struct Problem final : exp::Problem {
  Problem(const Size& s, std::uint64_t seed_)
      : size(s), seed(seed_), ints(allocate<HostMatrix<std::int32_t>>("nbk::row_sum::ints", s[0], s[1])),
        floats(allocate<HostMatrix<float>>("nbk::row_sum::floats", s[0], s[1])),
        int_sums(static_cast<std::size_t>(s[0]), 0), float_sums(static_cast<std::size_t>(s[0]), 0.0) {
    fill_int32(ints.data(), s.elements(), seed);
    fill_uniform(floats.data(), s.elements(), seed + 1);
    // The references: plain loops of their own, not row_sum::host_row_sums (the host rows' code).
    for (std::int64_t i = 0; i < s[0]; ++i)
      for (std::int64_t j = 0; j < s[1]; ++j) {
        int_sums[static_cast<std::size_t>(i)] += ints(i, j);
        float_sums[static_cast<std::size_t>(i)] += floats(i, j);
      }
  }
  Size size;
  std::uint64_t seed = 0;
  HostMatrix<std::int32_t> ints;  // uniform over all of int32
  HostMatrix<float> floats;       // U[0, 1), the document's np.random.random(...).astype(np.float32)
  std::vector<std::int64_t> int_sums;  // exact, by one host thread
  std::vector<double> float_sums;      // in double, by one host thread
  std::int64_t rows() const { return size[0]; }
  std::int64_t columns() const { return size[1]; }
  template <class T>
  const HostMatrix<T>& matrix() const {
    if constexpr (std::is_same_v<T, float>) return floats; else return ints;
  }
  void describe(std::ostream& out) const override {
    std::int64_t beyond = 0;
    for (const auto s : int_sums)
      beyond += s < std::numeric_limits<std::int32_t>::min() || s > std::numeric_limits<std::int32_t>::max();
    out << fmt::format("row sums of {} row-major matrices ({} each): int32 uniform over its range, summed in int64 "
                       "({} of {} sums lie outside int32); float32 U[0,1), seed {}\n",
                       size.text(), format_bytes(static_cast<std::uint64_t>(size.elements()) * 4), beyond, rows(),
                       seed);
  }
  nlohmann::json to_json() const override {
    return {{"element_types", {"int32", "float32"}}, {"sum_types", {"int64", "float32"}}, {"shape", size.extents},
            {"seed", seed}};
  }
};

// The float32 tolerance in units of u: any order of the m - 1 adds of a row errs by at most
// gamma_(m-1) = (m-1)u / (1 - (m-1)u) times the sum of the magnitudes (Higham, Accuracy and
// Stability, 4.2), at most 2(m-1)u while (m-1)u <= 1/2 (rows of up to 2^23 columns); the data
// are not negative, so that sum is the row's sum. One more u covers the double reference's
// own rounding, below (m-1) 2^-53 relative.
double float_tolerance_in_u(std::int64_t columns) { return 2.0 * static_cast<double>(columns > 1 ? columns - 1 : 0) + 1; }

exp::Verdict sums_verdict(const Problem& p, const std::int64_t* sums) {
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < p.rows(); ++i) wrong += sums[i] != p.int_sums[static_cast<std::size_t>(i)];
  return exp::mismatch_verdict(wrong);
}

exp::Verdict sums_verdict(const Problem& p, const float* sums) {
  return exp::relative_error_verdict(
      p.rows(), [sums](std::int64_t i) { return sums[i]; },
      [&p](std::int64_t i) { return p.float_sums[static_cast<std::size_t>(i)]; }, float_tolerance_in_u(p.columns()),
      std::numeric_limits<float>::epsilon() / 2);
}

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

std::vector<Spec::Row> rows() {
  const Spec::Row host_int32 = host_row<std::int32_t>(), host_float32 = host_row<float>();
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
  exp::on_every_space(e, rows());
  return e;
}

}  // namespace nbk::row_sum
