// Seed 003: the gufunc l2_norm, the Euclidean norm of every row of a float32 matrix: the
// document's 10 unit vectors (cos t, sin t) and 10^6 rows of 3 N(0, 1) components (ours), a
// thread per row on every space with the squares added in double (as the document's acc = 0.0
// does) or in float, on a device resident and with transfers, against one host thread; each
// within a few u of a double reference.
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <ostream>
#include <vector>

#include "nbk/core/allocate.hpp"
#include "nbk/core/memory.hpp"
#include "nbk/core/random_data.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/notes.hpp"
#include "nbk/experiment/arrays.hpp"
#include "nbk/l2_norm/kernels.hpp"
#include "nbk/l2_norm/tuned.hpp"

namespace nbk::l2_norm {

namespace {

using exp::Size;
using HostMatrix = l2_norm::Matrix<Kokkos::HostSpace>;
using HostNorms = Kokkos::View<float*, Kokkos::HostSpace>;

// Rows this short are printed, as the document prints its coords.
inline constexpr std::int64_t printed_rows = 10;

struct Problem final : exp::Problem {
  Problem(const Size& s, std::uint64_t seed_)
      : size(s), seed(seed_), a(allocate<HostMatrix>("nbk::l2_norm::a", s[0], s[1])),
        norms(static_cast<std::size_t>(s[0])) {
    if (unit_circle()) {
      const auto t = uniform_doubles(s[0], seed);
      const double pi = 3.14159265358979323846;
      for (std::int64_t i = 0; i < s[0]; ++i) {
        const double angle = -pi + 2 * pi * t(i);  // np.random.uniform(-np.pi, np.pi)
        a(i, 0) = static_cast<float>(std::cos(angle));
        a(i, 1) = static_cast<float>(std::sin(angle));
      }
    } else {
      fill_standard_normal(a.data(), s.elements(), seed);
    }
    for (std::int64_t i = 0; i < s[0]; ++i) {
      long double acc = 0;  // not the kernels' double: a reference of its own
      for (std::int64_t j = 0; j < s[1]; ++j) acc += static_cast<long double>(a(i, j)) * a(i, j);
      norms[static_cast<std::size_t>(i)] = static_cast<double>(std::sqrt(acc));
    }
  }
  Size size;
  std::uint64_t seed = 0;
  HostMatrix a;
  std::vector<double> norms;  // in double, by one host thread
  std::int64_t rows() const { return size[0]; }
  std::int64_t columns() const { return size[1]; }
  bool unit_circle() const { return columns() == 2; }
  void describe(std::ostream& out) const override {
    out << fmt::format("Euclidean norms of {} float32 rows ({}), {}, seed {}\n", size.text(),
                       format_bytes(static_cast<std::uint64_t>(size.elements()) * sizeof(float)),
                       unit_circle() ? "the document's (cos t, sin t), t ~ U(-pi, pi)" : "N(0, 1) components", seed);
    if (rows() > printed_rows) return;
    for (std::int64_t i = 0; i < rows(); ++i) {
      out << "  [";
      for (std::int64_t j = 0; j < columns(); ++j) out << fmt::format("{}{:11.8f}", j ? " " : "", a(i, j));
      out << fmt::format("]  norm {:.9f}\n", norms[static_cast<std::size_t>(i)]);
    }
  }
  nlohmann::json to_json() const override {
    return {{"element_type", "float32"},
            {"shape", size.extents},
            {"data", unit_circle() ? "(cos t, sin t), t ~ U(-pi, pi)" : "N(0, 1)"},
            {"seed", seed}};
  }
};

// In units of u of float32: with a double accumulator the norm is the exact one (to about
// 2^-52) rounded once to float, within u; in float, the k squares and k - 1 adds of k
// components err by at most (2k - 1)u relative (all terms positive), the square root halves
// that and adds its own rounding: (k + 1/2)u. One u more covers the reference's own rounding.
double tolerance_in_u(std::int64_t columns, bool float_acc) {
  return float_acc ? static_cast<double>(columns) + 1.5 : 2.0;
}

struct Spec : exp::ArraysSpec<Spec, Problem> {
  static constexpr const char* label = "nbk::l2_norm";
  static constexpr const char *in_words = "the rows", *out_words = "the norms";
  // Read the rows once, write a norm per row; a multiply and an add per component, and a sqrt.
  static Traffic traffic(const Size& s) {
    return {static_cast<std::uint64_t>(s.elements()) * sizeof(float), static_cast<std::uint64_t>(s[0]) * sizeof(float),
            2 * static_cast<std::uint64_t>(s.elements())};
  }
  struct Told {
    bool float_acc = false;  // the squares added in float, not double
    static Told in_float() {
      Told t;
      t.float_acc = true;
      return t;
    }
  };

  // The rows in Space's memory (copied in by the case) and their norms.
  template <class Space>
  struct Data {
    using Out = Kokkos::View<float*, typename Space::memory_space>;
    Data(const Problem& p, const Row&) : out(allocate<Out>("nbk::l2_norm::per_row", p.rows())) {}
    static std::array<HostMatrix, 1> inputs(const Problem& p) { return {p.a}; }
    Out out;
  };
  struct HostData {
    HostData(const Problem& p, const Row&) : out("nbk::l2_norm::norms", p.rows()) {}
    HostNorms out;
  };

  template <class Out>
  static exp::Verdict check(const Problem& p, const Row& row, const Out& norms) {
    return exp::relative_error_verdict(
        p.rows(), [&norms](std::int64_t i) { return norms(i); },
        [&p](std::int64_t i) { return p.norms[static_cast<std::size_t>(i)]; },
        tolerance_in_u(p.columns(), row.told.float_acc), std::numeric_limits<float>::epsilon() / 2);
  }
};

std::vector<Spec::Row> table() {
  using Row = Spec::Row;
  const Row host = Row{"host", exp::on_host<Spec>([](const Problem& p, auto& d) {
                         l2_norm::host_row_norms<double>(p.a.data(), p.rows(), p.columns(), d.out.data());
                       })}.moving("one host thread, squares added in double, host memory");
  const auto plain = [](auto& exec, auto& in, auto& d) { l2_norm::plain_l2_norm(exec, in[0], d.out); };
  const auto double_acc = [](auto& exec, auto& in, auto& d) { l2_norm::row_norms<double>(exec, in[0], d.out); };
  const auto float_acc = [](auto& exec, auto& in, auto& d) { l2_norm::row_norms<float>(exec, in[0], d.out); };
  const auto blocked = [](auto& exec, auto& in, auto& d) { l2_norm::blocked_row_norms<double>(exec, in[0], d.out); };
  return {
      host,
      Row{"plain", exp::on_spaces<Spec>(plain)}.against(host),
      Row{"double-acc", exp::on_spaces<Spec>(double_acc)}.against(host),
      Row{"float-acc", exp::on_spaces<Spec>(float_acc)}.telling(Spec::Told::in_float()).against(host),
      Row{"blocked", exp::on_spaces<Spec>(blocked)}.against(host),
  };
}

}  // namespace

exp::Experiment experiment(const exp::Notes& notes) {
  exp::Experiment e = exp::arrays_experiment<Spec>(notes);
  e.rank = 2;
  e.sizes = {Size{10, 2}, Size{1000000, 3}};
  e.test_sizes = {Size{0, 3}, Size{4, 0}, Size{1, 1}, Size{10, 2}, Size{1001, 3}, Size{3, 1025}};
  e.bench_sizes = {Size{1000000, 3}};
  e.problem_bytes = [](const Size& s) {  // the rows, and their norms in double
    return static_cast<std::uint64_t>(s.elements()) * sizeof(float) + static_cast<std::uint64_t>(s[0]) * sizeof(double);
  };
  exp::on_every_space(e, table());
  return e;
}

}  // namespace nbk::l2_norm
