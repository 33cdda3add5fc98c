// Seed 003: the distance between two points given in polar coordinates, through a device
// function called twice per element, over four float32 arrays of 10^6 (ours: the document
// defines the ufunc and never calls it): one host thread, then every space, on a device
// resident and with transfers, checked against the distance in double.
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "nbk/core/memory.hpp"
#include "nbk/core/random_data.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/map_case.hpp"
#include "nbk/polar/kernels.hpp"

namespace nbk::experiments {

namespace {

using exp::Size;
using HostArray = Kokkos::View<float*, Kokkos::HostSpace>;

inline constexpr double pi = 3.14159265358979323846;
// cos and sin within 2 ulp, scaled by rho: an absolute error of a few rho u in each
// coordinate, and the distance can be much smaller than rho (two close points), so the bound
// is absolute: 16 unit roundoffs of rho1 + rho2.
inline constexpr double tolerance_in_u = 16;

struct Problem final : exp::Problem {
  std::uint64_t seed = 0;
  HostArray rho1, theta1, rho2, theta2;
  std::vector<double> reference;  // the distance in double of the float inputs
  std::int64_t size() const { return static_cast<std::int64_t>(rho1.extent(0)); }
  void describe(std::ostream& out) const override {
    out << fmt::format("d = |(rho1, theta1) - (rho2, theta2)| for {} float32 pairs of points, rho = U(0, 1), "
                       "theta = U(-pi, pi), seed {}\n",
                       size(), seed);
  }
  nlohmann::json to_json() const override {
    return {{"element_type", "float32"}, {"seed", seed}, {"rho", "uniform(0, 1)"}, {"theta", "uniform(-pi, pi)"}};
  }
};

exp::Verdict check(const Problem& p, const float* d) {
  const double u = std::numeric_limits<float>::epsilon() / 2;
  std::int64_t wrong = 0;
  double worst = 0;  // largest |d - ref| / (rho1 + rho2), in units of u
  for (std::int64_t i = 0; i < p.size(); ++i) {
    const double scale = double(p.rho1(i)) + double(p.rho2(i));
    const double error = std::abs(static_cast<double>(d[i]) - p.reference[static_cast<std::size_t>(i)]);
    if (!(error <= tolerance_in_u * u * scale)) ++wrong;
    if (scale > 0) worst = std::max(worst, error / scale / u);
  }
  exp::Verdict v = exp::mismatch_verdict(wrong);
  if (!v.ok) v.summary = fmt::format("FAILED ({} beyond {:g} u (rho1 + rho2))", wrong, tolerance_in_u);
  v.cells = {{"max error", fmt::format("{:.1f} u", worst)}};
  v.details["max_error_in_u_of_rho_sum"] = worst;
  v.details["tolerance_in_u"] = tolerance_in_u;
  return v;
}

template <class Space>
exp::Variant distance_on() {
  exp::Variant v = exp::map_variant<Space>("distance", "four inputs", "d");
  v.document = "vectorize cuda with a cuda.jit(device=True) function (never called: no figure)";
  v.footprint = exp::arrays_of<Space, float>(5, 1);  // four inputs, d and d's host mirror
  v.speedup_against = "host";
  v.make = exp::map_case_of<Space, Problem>(
      "nbk::polar", [](const Problem& p) { return std::array{p.rho1, p.theta1, p.rho2, p.theta2}; },
      [](const Space& exec, const auto& in, const auto& d) { polar::distance_map(exec, in[0], in[1], in[2], in[3], d); },
      check);
  return v;
}

void explain(std::ostream& out, const exp::Problem&) {
  out << "\nGB/s counts 20 bytes per element (four inputs read, d written). Two cos, two sin and a sqrt per\n"
         "element: CPU cores are bound by them, a GPU by memory. The device function is inlined into the\n"
         "kernel (KOKKOS_INLINE_FUNCTION, as Numba inlines a device=True function): calling it costs\n"
         "nothing. The check is absolute, 16 unit roundoffs of rho1 + rho2 against double, because the\n"
         "distance of two close points is far smaller than the rounding of their coordinates.\n"
         "\nWhere the document goes wrong: its polar_distance is never called, so it shows a device function\n"
         "without showing it runs; here it runs on every space and is checked.\n";
}

}  // namespace

exp::Experiment polar() {
  exp::Experiment e;
  e.name = "polar";
  e.title = "the distance of two points in polar coordinates through a device function, over four float32 arrays: "
            "one host thread and every space, resident and with transfers, against double";
  e.document = "seed 003";
  e.rate_in_elements = true;
  e.sizes = {Size{1000000}};
  e.size_help = "Ours: 10^6 pairs of points (the document never calls the ufunc).";
  e.test_sizes = {Size{0}, Size{1}, Size{2}, Size{1000}, Size{1025}};
  e.seeded = true;
  e.traffic = [](const Size& s) { return with_flops<float>(map_traffic<float>(s.elements(), 4), s.elements(), polar::distance_flops); };
  e.problem_bytes = [](const Size& s) { return static_cast<std::uint64_t>(s.elements()) * (4 * sizeof(float) + 8 + 32); };
  e.make_problem = [](const Size& s, const exp::Settings& settings) {
    auto p = std::make_shared<Problem>();
    const std::int64_t n = s.elements();
    p->seed = settings.seed;
    auto array = [n](const char* label) {
      return HostArray(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
    };
    p->rho1 = array("nbk::polar::rho1");
    p->theta1 = array("nbk::polar::theta1");
    p->rho2 = array("nbk::polar::rho2");
    p->theta2 = array("nbk::polar::theta2");
    std::vector<double> u(static_cast<std::size_t>(4 * n));
    fill_uniform(u.data(), 4 * n, settings.seed);
    p->reference.resize(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      const auto k = static_cast<std::size_t>(4 * i);
      p->rho1(i) = static_cast<float>(u[k]);
      p->theta1(i) = static_cast<float>(pi * (2 * u[k + 1] - 1));
      p->rho2(i) = static_cast<float>(u[k + 2]);
      p->theta2(i) = static_cast<float>(pi * (2 * u[k + 3] - 1));
      const double dx = p->rho1(i) * std::cos(double(p->theta1(i))) - p->rho2(i) * std::cos(double(p->theta2(i)));
      const double dy = p->rho1(i) * std::sin(double(p->theta1(i))) - p->rho2(i) * std::sin(double(p->theta2(i)));
      p->reference[static_cast<std::size_t>(i)] = std::sqrt(dx * dx + dy * dy);
    }
    return p;
  };
  exp::Variant host{"host"};
  host.space = "host";
  host.moves = "one host thread, the same device function (std::cos, std::sin), host memory";
  host.footprint = exp::arrays_of<Kokkos::DefaultHostExecutionSpace, float>(1);  // d
  host.make = exp::maker<Problem>([](const Problem& p, const Size&) {
    return std::make_unique<exp::HostLoopCase<HostArray>>(
        HostArray("nbk::polar::d", p.size()),
        [&p](const HostArray& d) {
          for (std::int64_t i = 0; i < p.size(); ++i)
            d(i) = polar::distance(p.rho1(i), p.theta1(i), p.rho2(i), p.theta2(i));
        },
        [&p](const HostArray& d) { return check(p, d.data()); });
  });
  e.variants.push_back(host);
  for_each_enabled_space([&](auto tag) { e.variants.push_back(distance_on<typename decltype(tag)::type>()); });
  e.explain = explain;
  return e;
}

}  // namespace nbk::experiments
