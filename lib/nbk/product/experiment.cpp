// Seed 004: the product of 4,000,000 float64 uniforms on [0, 1) with Kokkos' product
// reducer (and CUB's, on a GPU) on every enabled space, checked against the host; and the
// sum of their logarithms, the quantity that survives when the product underflows, checked
// to a relative 1e-12.
#include <fmt/format.h>

#include <cmath>
#include <ostream>

#include "nbk/core/exact_sum.hpp"
#include "nbk/core/flop_count.hpp"
#include "nbk/core/memory.hpp"
#include "nbk/core/random_data.hpp"
#include "nbk/core/vendor_reduce.hpp"
#include "nbk/core/verify.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/notes.hpp"
#include "notes_outline.hpp"  // generated from notes.md (lib/CMakeLists.txt)
#include "nbk/experiment/scalar_spec.hpp"
#include "nbk/product/kernels.hpp"

namespace nbk::product {

namespace {

using exp::Size;

inline constexpr double log_sum_tolerance = 1e-12;  // relative

struct Problem final : exp::Problem {
  exp::Prose<3> underflow_text;  // notes.md, section "## When the product underflows"
  std::uint64_t seed = 0;
  Kokkos::View<double*, Kokkos::HostSpace> host;
  product::HostProduct product;  // in index order, in double
  double log_sum = 0;            // exact sum of the host's std::log values, rounded once
  bool underflows = false;       // the exact product rounds to zero in double

  std::int64_t size() const { return static_cast<std::int64_t>(host.extent(0)); }
  void describe(std::ostream& out) const override {
    out << fmt::format("product of {} float64 samples of U[0,1), seed {} ({})\n", size(), seed,
                       format_bytes(static_cast<std::uint64_t>(size()) * sizeof(double)));
    out << fmt::format("sum of log x_i (host std::log, summed exactly) = {:.15g}, so the product is about 10^{:.0f}\n",
                       log_sum, std::floor(log_sum / std::log(10.0)));
    if (underflows)
      out << underflow_text(product::log_smallest_double(), product.zero_at, size());
    else
      out << fmt::format("The product is representable: host product = {:.17g}.\n", product.value);
  }
  nlohmann::json to_json() const override {
    return {{"element_type", "float64"},
            {"distribution", "U[0,1), 53 random bits from std::mt19937_64 blocks"},
            {"seed", seed},
            {"host_product", product.value},
            {"host_product_zero_at", product.zero_at},
            {"log_sum_reference", log_sum},
            {"underflows", underflows},
            {"log_sum_tolerance", log_sum_tolerance}};
  }
};

// Every call's value, as the row tells it: the product (0 where the exact product underflows,
// else within product_tolerance of the host's) or the sum of logarithms (within a relative
// log_sum_tolerance of the exact one); the worst one is shown. Either way the host's own
// product must agree with what its logarithm predicts.
class Judge {
 public:
  Judge(const Problem& p, bool log_sum) : p_(p), log_sum_(log_sum) {}
  void record(double value) {
    if (log_sum_) {
      const double error = p_.log_sum != 0 ? std::fabs(value - p_.log_sum) / std::fabs(p_.log_sum) : std::fabs(value);
      if (calls_++ == 0 || !(error <= worst_error_)) worst_ = value;
      worst_error_ = std::max(worst_error_, std::isnan(error) ? INFINITY : error);
      ok_ = ok_ && close_relative(value, p_.log_sum, log_sum_tolerance);
      return;
    }
    const bool right = p_.underflows ? value == 0.0
                                     : std::fabs(value - p_.product.value) <=
                                           product::product_tolerance(p_.product.value, p_.size());
    if (calls_++ == 0 || !right) worst_ = value;
    ok_ = ok_ && right;
  }
  exp::Verdict verdict() const {
    exp::Verdict v;
    v.ok = ok_ && calls_ > 0 && !(p_.underflows && p_.product.value != 0.0);
    v.summary = v.ok ? "ok" : "FAILED";
    if (log_sum_) {
      v.cells = {{"result", fmt::format("{:.15g}", worst_)}, {"rel. error", fmt::format("{:.1e}", worst_error_)}};
      v.details = {{"log_sum", worst_}, {"log_sum_relative_error", worst_error_}};
    } else {
      v.cells = {{"result", worst_ == 0.0 ? std::string("0 (underflow)") : fmt::format("{:.6g}", worst_)}};
      v.details = {{"product", worst_}};
    }
    return v;
  }

 private:
  const Problem& p_;
  bool log_sum_;
  double worst_ = 0, worst_error_ = 0;
  int calls_ = 0;
  bool ok_ = true;
};

struct Spec : exp::ScalarSpec<Spec, Problem> {
  struct Told {
    bool log_sum = false;  // the row's value is the sum of logarithms, not the product
  };
  using Row = exp::ScalarRow<Spec>;
  using Element = double;
  static constexpr bool first_call_loads_module = false;

  // The samples in the space's memory, and the vendor's reduction where the space has one.
  template <class Space>
  struct Data : exp::ArrayInSpace<Space, double> {
    explicit Data(const Problem& p) : exp::ArrayInSpace<Space, double>("nbk::product::data", p.host) {}
    VendorReduce<Space> vendor;
  };

  template <class D>
  static Judge judge(const Problem& p, const Row& row, const D&) {
    return Judge(p, row.told.log_sum);
  }
};

// A log and an add per element: bound by arithmetic on a CPU.
Traffic log_sum_traffic(const Size& s) {
  return with_flops<double>(read_traffic<double>(s.elements()), s.elements(), flop_count::log + flop_count::arithmetic);
}

std::vector<Spec::Row> rows() {
  using exp::Where;
  const std::string resident = "; data resident";
  return {
      {"prod", "parallel_reduce with Kokkos::Prod" + resident,
       exp::on_spaces<Spec>([](auto& d) { return product::reduce_product(d.exec, d.x); }), {}, Where::every_space,
       kokkos34_reduce_launch},
      {"log-sum", "parallel_reduce of log x_i with Kokkos::Sum" + resident,
       exp::on_spaces<Spec>([](auto& d) { return product::reduce_log_sum(d.exec, d.x); }), {true},
       Where::every_space, kokkos34_reduce_launch, log_sum_traffic},
      {"cub-prod", "cub::DeviceReduce::Reduce with a multiply, outside Kokkos" + resident,
       exp::on_spaces<Spec>([](auto& d) { return d.vendor.product(d.x); }), {}, Where::vendor_spaces},
  };
}

void explain(std::ostream& out, const exp::Problem& problem, const exp::Notes& notes) {
  const auto& p = static_cast<const Problem&>(problem);
  const std::string check = p.underflows ? notes.section(NBK_HEADING("## Product check when it underflows"))
                                         : notes.section(NBK_HEADING("## Product check"));
  out << '\n' << NBK_PROSE(notes.section, "## Notes with the run's figures")(check, log_sum_tolerance);
}

}  // namespace

exp::Experiment experiment(const exp::Notes& notes) {
  exp::Experiment e = exp::stated(notes);
  e.sizes = {Size{4000000}};
  e.test_sizes = {Size{0}, Size{1}, Size{300}, Size{100003}};
  e.seeded = true;
  e.traffic = [](const Size& s) { return read_traffic<double>(s.elements()); };
  e.problem_bytes = [](const Size& s) { return static_cast<std::uint64_t>(s.elements()) * sizeof(double); };
  e.make_problem = [notes](const Size& s, const exp::Settings& settings) {
    auto p = std::make_shared<Problem>();
    p->underflow_text = NBK_PROSE(notes.section, "## When the product underflows");
    p->seed = settings.seed;
    p->host = uniform_doubles(s.elements(), settings.seed);
    p->product = product::host_product(p->host.data(), p->size());
    ExactSum logs;
    for (std::int64_t i = 0; i < p->size(); ++i) logs.add(std::log(p->host(i)));
    p->log_sum = static_cast<double>(logs.value());
    p->underflows = product::product_underflows(p->log_sum);
    return p;
  };
  exp::on_every_space(e, rows());
  e.explain = [notes](std::ostream& out, const exp::Problem& p) { explain(out, p, notes); };
  return e;
}

}  // namespace nbk::product
