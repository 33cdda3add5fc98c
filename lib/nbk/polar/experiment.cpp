// Seed 003: the distance between two points given in polar coordinates, through a device
// function called twice per element, over four float32 arrays of 10^6 (ours: the document
// defines the ufunc and never calls it): one host thread, then every space, on a device
// resident and with transfers, checked against the distance in double.
#include <cmath>

#include "nbk/experiment/elementwise.hpp"
#include "nbk/polar/kernels.hpp"

namespace nbk::polar {

struct Polar : exp::MapSpec<Polar, 1, 4, float> {
  static constexpr const char *label = "nbk::polar", *in_words = "four inputs", *out_words = "d";
  // cos and sin within 2 ulp, scaled by rho: an absolute error of a few rho u in each
  // coordinate, and the distance can be much smaller than rho (two close points), so the bound
  // is absolute: 16 unit roundoffs of rho1 + rho2.
  static constexpr double tolerance_in_u = 16;
  static constexpr int uniforms = 4;
  static constexpr std::uint64_t flops_per_element = polar::distance_flops;
  // rho1, theta1, rho2, theta2: rho = U(0, 1), theta = U(-pi, pi)
  static void generate(const std::array<float*, 4>& in, std::int64_t n, const double* u, std::uint64_t) {
    for (std::int64_t i = 0; i < 4 * n; ++i) in[i % 4][i / 4] = static_cast<float>(i % 2 ? M_PI * (2 * u[i] - 1) : u[i]);
  }
  static double reference(double rho1, double theta1, double rho2, double theta2) {  // in double
    const double dx = rho1 * std::cos(theta1) - rho2 * std::cos(theta2), dy = rho1 * std::sin(theta1) - rho2 * std::sin(theta2);
    return std::sqrt(dx * dx + dy * dy);
  }
  static double scale(float rho1, float, float rho2, float) { return double(rho1) + double(rho2); }
  static constexpr const char *scale_words = "rho1 + rho2", *scale_key = "rho_sum";
  template <class Space, class In, class Out>
  static void kernel(const Space& exec, const In& in, const Out& d, Told) { polar::distance_map(exec, in[0], in[1], in[2], in[3], d); }
  template <class Space, class In, class Out>
  static void plain_kernel(const Space& exec, const In& in, const Out& d) { polar::plain_distance(exec, in[0], in[1], in[2], in[3], d); }
  static float host_element(float rho1, float theta1, float rho2, float theta2) {
    return polar::distance(rho1, theta1, rho2, theta2);
  }
  static std::string describe(const Problem& p) {
    return fmt::format("d = |(rho1, theta1) - (rho2, theta2)| for {} float32 pairs of points, {}, seed {}\n", p.n(),
                       "rho = U(0, 1), theta = U(-pi, pi)", p.seed);
  }
  static nlohmann::json facts(const Problem& p) {
    return {{"element_type", "float32"}, {"seed", p.seed}, {"rho", "uniform(0, 1)"}, {"theta", "uniform(-pi, pi)"}};
  }
};

exp::Experiment experiment(const exp::Notes& notes) {
  exp::Experiment e = exp::map_experiment<Polar>(notes);
  e.rate_in_elements = e.seeded = true;
  e.sizes = {{1000000}};
  e.test_sizes = {{0}, {1}, {2}, {1000}, {1025}};
  const auto host = exp::add_host_loop<Polar>(e, "host", "one host thread, the same device function (std::cos, std::sin), host memory");
  exp::on_every_space(e, {Polar::Row{"plain"}.against(host).plain_kernel(), Polar::Row{"distance"}.against(host)});
  return e;
}

}  // namespace nbk::polar
