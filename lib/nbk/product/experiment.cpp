// Seed 004: the product of 4,000,000 float64 uniforms on [0, 1) with Kokkos' product
// reducer (and CUB's, on a GPU) on every enabled space, checked against the host; and the
// sum of their logarithms, the quantity that survives when the product underflows, checked
// to a relative 1e-12.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "nbk/core/flop_count.hpp"
#include "nbk/core/vendor_reduce.hpp"
#include "nbk/core/verify.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/notes.hpp"
#include "notes_outline.hpp"  // generated from notes.md (lib/CMakeLists.txt)
#include "nbk/experiment/reduction.hpp"
#include "nbk/product/kernels.hpp"
#include "nbk/product/problem.hpp"

namespace nbk::product {

namespace {

using exp::Size;

struct Spec : exp::ScalarSpec<Spec, Problem> {
  struct Told {
    bool log_sum = false;  // the row's value is the sum of logarithms, not the product
    static Told sum_of_logs() { return {true}; }
  };
  using Element = double;
  static constexpr bool first_call_loads_module = false;

  // The samples in the space's memory, and the vendor's reduction where the space has one.
  template <class Space>
  struct Data : exp::ArrayInSpace<Space, double> {
    explicit Data(const Problem& p) : exp::ArrayInSpace<Space, double>("nbk::product::data", p.host) {}
    VendorReduce<Space> vendor;
  };

  // Every call's value, as the row tells it: the product (0 where the exact product underflows,
  // else within product_tolerance of the host's) or the sum of logarithms (within a relative
  // log_sum_tolerance of the exact one); the worst one is shown. Either way the host's own
  // product must agree with what its logarithm predicts.
  template <class Space>
  static exp::Verdict check(const Problem& p, const Row& row, const Data<Space>&, const std::vector<double>& values) {
    double worst = 0, worst_error = 0;
    bool ok = !values.empty() && !(p.underflows && p.product.value != 0.0);
    for (std::size_t k = 0; k < values.size(); ++k) {
      const double value = values[k];
      if (row.told.log_sum) {
        const double error = p.log_sum != 0 ? std::fabs(value - p.log_sum) / std::fabs(p.log_sum) : std::fabs(value);
        if (k == 0 || !(error <= worst_error)) worst = value;
        worst_error = std::max(worst_error, std::isnan(error) ? INFINITY : error);
        ok = ok && close_relative(value, p.log_sum, log_sum_tolerance);
        continue;
      }
      const bool right = p.underflows ? value == 0.0
                                      : std::fabs(value - p.product.value) <=
                                            product::product_tolerance(p.product.value, p.size());
      if (k == 0 || !right) worst = value;
      ok = ok && right;
    }
    exp::Verdict v;
    v.ok = ok;
    v.summary = v.ok ? "ok" : "FAILED";
    if (row.told.log_sum) {
      v.cells = {{"result", fmt::format("{:.15g}", worst)}, {"rel. error", fmt::format("{:.1e}", worst_error)}};
      v.details = {{"log_sum", worst}, {"log_sum_relative_error", worst_error}};
    } else {
      v.cells = {{"result", worst == 0.0 ? std::string("0 (underflow)") : fmt::format("{:.6g}", worst)}};
      v.details = {{"product", worst}};
    }
    return v;
  }
};

// A log and an add per element: bound by arithmetic on a CPU.
Traffic log_sum_traffic(const Size& s) {
  return with_flops<double>(read_traffic<double>(s.elements()), s.elements(), flop_count::log + flop_count::arithmetic);
}

std::vector<Spec::Row> table() {
  const std::string resident = "; data resident";
  // On a host space a thread's factors are one chain of multiplies (its logarithms one of adds).
  const Chain multiplies = chain_of<double>(ChainOp::multiply);
  const auto prod = [](auto& d) { return product::reduce_product(d.exec, d.x); };
  const auto log_sum = [](auto& d) { return product::reduce_log_sum(d.exec, d.x); };
  const auto cub = [](auto& d) { return d.vendor.product(d.x); };
  const auto plain = [](auto& d) { return product::plain_product(d.exec, d.x); };
  return {Spec::Row{"plain", exp::on_spaces<Spec>(plain)}
              .moving("parallel_reduce as Kokkos' documentation writes it: a KOKKOS_LAMBDA, Kokkos::Prod into a "
                      "local double" + resident)
              .chained(multiplies),
          Spec::Row{"prod", exp::on_spaces<Spec>(prod)}
              .moving("parallel_reduce with Kokkos::Prod" + resident)
              .chained(multiplies),
          Spec::Row{"log-sum", exp::on_spaces<Spec>(log_sum)}
              .moving("parallel_reduce of log x_i with Kokkos::Sum" + resident)
              .telling(Spec::Told::sum_of_logs())
              .with_traffic(log_sum_traffic)
              .chained(chain_of<double>(ChainOp::add)),
          Spec::Row{"cub-prod", exp::on_spaces<Spec>(cub)}
              .moving("cub::DeviceReduce::Reduce with a multiply, outside Kokkos" + resident)
              .runs(exp::Where::vendor_spaces)};
}

void explain(std::ostream& out, const exp::Problem& problem, const exp::Notes& notes) {
  const auto& p = static_cast<const Problem&>(problem);
  const std::string check = p.underflows ? notes.section(NBK_HEADING("## Product check when it underflows"))
                                         : notes.section(NBK_HEADING("## Product check"));
  out << '\n' << NBK_PROSE(notes.section, "## Notes with the run's figures")(check, log_sum_tolerance);
}

}  // namespace

exp::Experiment experiment(const exp::Notes& notes) {
  exp::Experiment e = exp::scalar_experiment<Spec>(notes);
  e.sizes = {Size{4000000}};
  e.test_sizes = {Size{0}, Size{1}, Size{300}, Size{100003}};
  exp::on_every_space(e, table());
  e.explain = [notes](std::ostream& out, const exp::Problem& p) { explain(out, p, notes); };
  return e;
}

}  // namespace nbk::product
