// Seed 003: the normal density at 10^6 float32 x drawn uniformly from (-3, 3), mean 0,
// sigma 1, as the document's float32 vectorize ufunc: one host thread, then every space, on a
// device resident and with transfers, checked against the density in double.
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <ostream>
#include <vector>

#include "nbk/core/memory.hpp"
#include "nbk/core/random_data.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/map_case.hpp"
#include "nbk/gaussian/kernels.hpp"

namespace nbk::experiments {

namespace {

using exp::Size;
using HostArray = Kokkos::View<float*, Kokkos::HostSpace>;

inline constexpr float mean = 0.0f, sigma = 1.0f, half_width = 3.0f;
// The exponent -z^2/2 reaches -4.5 and carries about 3 roundings of z, which exp multiplies
// by |exponent|: 13.5 unit roundoffs; exp itself, the divide and float32 sqrt(2 pi) add 4
// more. 32 leaves room and still catches a wrong constant or a wrong power.
inline constexpr double tolerance_in_u = 32;

struct Problem final : exp::Problem {
  std::uint64_t seed = 0;
  HostArray x;
  std::vector<double> reference;  // the density in double at each float x
  std::int64_t size() const { return static_cast<std::int64_t>(x.extent(0)); }
  void describe(std::ostream& out) const override {
    out << fmt::format("p = exp(-((x - {:g}) / {:g})^2 / 2) / ({:g} sqrt(2 pi)) at {} float32 x = U(-{:g}, {:g}), seed {}\n",
                       mean, sigma, sigma, size(), half_width, half_width, seed);
  }
  nlohmann::json to_json() const override {
    return {{"element_type", "float32"}, {"seed", seed}, {"mean", mean}, {"sigma", sigma},
            {"x", fmt::format("uniform(-{:g}, {:g})", half_width, half_width)}};
  }
};

exp::Verdict check(const Problem& p, const float* density) {
  return exp::relative_error_verdict(
      p.size(), [density](std::int64_t i) { return density[i]; },
      [&p](std::int64_t i) { return p.reference[static_cast<std::size_t>(i)]; }, tolerance_in_u,
      std::numeric_limits<float>::epsilon() / 2);
}

template <class Space>
exp::Variant pdf_on() {
  exp::Variant v = exp::map_variant<Space>("pdf", "x", "p");
  v.document = "vectorize cuda, float32 (no figure)";
  v.footprint = exp::arrays_of<Space, float>(2, 1);  // x, p and p's host mirror
  v.speedup_against = "host";
  v.make = exp::map_case_of<Space, Problem>(
      "nbk::gaussian", [](const Problem& p) { return std::array{p.x}; },
      [](const Space& exec, const auto& in, const auto& density) {
        gaussian::pdf_map(exec, in[0], mean, sigma, density);
      },
      check);
  return v;
}

void explain(std::ostream& out, const exp::Problem&) {
  out << "\nGB/s counts 8 bytes per element (x read, p written). An exp and a divide per 8 bytes: on a CPU\n"
         "core the exp costs more than the bytes, so the rows show how close each space comes to memcpy\n"
         "and the elements/s it sustains; a GPU has the arithmetic to spare. The check is 32 unit roundoffs\n"
         "against the density in double.\n"
         "\nWhere the document goes wrong: it says this ufunc is still slower than scipy.stats' norm.pdf and\n"
         "that details follow; they never do, and it times nothing. Resident on a GPU the kernel moves 8 MB;\n"
         "called on host arrays it also pays their transfers, and the with-transfers column, not the kernel,\n"
         "decides whether it beats a CPU.\n";
}

}  // namespace

exp::Experiment gaussian() {
  exp::Experiment e;
  e.name = "gaussian";
  e.title = "the normal density at float32 x = U(-3, 3) as a ufunc: one host thread and every space, resident and "
            "with transfers, against the density in double";
  e.document = "seed 003";
  e.rate_in_elements = true;
  e.sizes = {Size{1000000}};
  e.size_help = "The document's 10^6.";
  e.test_sizes = {Size{0}, Size{1}, Size{2}, Size{1000}, Size{1025}};
  e.seeded = true;
  e.traffic = [](const Size& s) { return with_flops<float>(map_traffic<float>(s.elements(), 1), s.elements(), gaussian::pdf_flops); };
  e.problem_bytes = [](const Size& s) { return static_cast<std::uint64_t>(s.elements()) * (sizeof(float) + 8 + 8); };
  e.make_problem = [](const Size& s, const exp::Settings& settings) {
    auto p = std::make_shared<Problem>();
    const std::int64_t n = s.elements();
    p->seed = settings.seed;
    p->x = HostArray(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::gaussian::x"), n);
    std::vector<double> u(static_cast<std::size_t>(n));
    fill_uniform(u.data(), n, settings.seed);
    p->reference.resize(static_cast<std::size_t>(n));
    const double sqrt_2pi = std::sqrt(2 * 3.14159265358979323846);
    for (std::int64_t i = 0; i < n; ++i) {
      const auto k = static_cast<std::size_t>(i);
      p->x(i) = static_cast<float>(half_width * (2 * u[k] - 1));
      const double z = (double(p->x(i)) - mean) / sigma;
      p->reference[k] = std::exp(-0.5 * z * z) / (sigma * sqrt_2pi);
    }
    return p;
  };
  exp::Variant host{"host"};
  host.space = "host";
  host.moves = "one host thread, std::exp, host memory";
  host.footprint = exp::arrays_of<Kokkos::DefaultHostExecutionSpace, float>(1);  // p
  host.make = exp::maker<Problem>([](const Problem& p, const Size&) {
    return std::make_unique<exp::HostLoopCase<HostArray>>(
        HostArray("nbk::gaussian::p", p.size()),
        [&p](const HostArray& density) { gaussian::host_loop(p.x.data(), mean, sigma, density.data(), p.size()); },
        [&p](const HostArray& density) { return check(p, density.data()); });
  });
  e.variants.push_back(host);
  for_each_enabled_space([&](auto tag) { e.variants.push_back(pdf_on<typename decltype(tag)::type>()); });
  e.explain = explain;
  return e;
}

}  // namespace nbk::experiments
