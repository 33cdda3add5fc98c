// Seed 003: the normal density at 10^6 float32 x drawn uniformly from (-3, 3), mean 0,
// sigma 1, as the document's float32 vectorize ufunc: one host thread, then every space, on a
// device resident and with transfers, checked against the density in double.
#include <cmath>

#include "nbk/experiment/elementwise.hpp"
#include "nbk/gaussian/kernels.hpp"

namespace nbk::gaussian {

struct Gaussian : exp::MapSpec<Gaussian, 1, 1, float> {
  static constexpr const char *label = "nbk::gaussian", *in_words = "x", *out_words = "p";
  static constexpr float mean = 0.0f, sigma = 1.0f, half_width = 3.0f;
  // The exponent -z^2/2 reaches -4.5 and carries about 3 roundings of z, which exp multiplies
  // by |exponent|: 13.5 unit roundoffs; exp itself, the divide and float32 sqrt(2 pi) add 4
  // more. 32 leaves room and still catches a wrong constant or a wrong power.
  static constexpr double tolerance_in_u = 32;
  static constexpr int uniforms = 1;
  static constexpr std::uint64_t flops_per_element = gaussian::pdf_flops;
  static void generate(const std::array<float*, 1>& in, std::int64_t n, const double* u, std::uint64_t) {
    for (std::int64_t i = 0; i < n; ++i) in[0][i] = static_cast<float>(half_width * (2 * u[i] - 1));
  }
  static double reference(float x) {  // in double
    const double z = (double(x) - mean) / sigma;
    return std::exp(-0.5 * z * z) / (sigma * std::sqrt(2 * 3.14159265358979323846));
  }
  template <class Space, class In, class Out>
  static void kernel(const Space& exec, const In& in, const Out& p, Told) { gaussian::pdf_map(exec, in[0], mean, sigma, p); }
  template <class Space, class In, class Out>
  static void plain_kernel(const Space& exec, const In& in, const Out& p) { gaussian::plain_pdf(exec, in[0], mean, sigma, p); }
  template <class In, class Out>
  static void host_loop(const In& in, const Out& p) { gaussian::host_loop(in[0].data(), mean, sigma, p.data(), p.extent(0)); }
  static std::string describe(const Problem& p) {
    return fmt::format("p = exp(-((x - {:g}) / {:g})^2 / 2) / ({:g} sqrt(2 pi)) at {} float32 x = U(-{:g}, {:g}), seed {}\n",
                       mean, sigma, sigma, p.n(), half_width, half_width, p.seed);
  }
  static nlohmann::json facts(const Problem& p) {
    return {{"element_type", "float32"}, {"seed", p.seed}, {"mean", mean}, {"sigma", sigma},
            {"x", fmt::format("uniform(-{:g}, {:g})", half_width, half_width)}};
  }
};

exp::Experiment experiment(const exp::Notes& notes) {
  exp::Experiment e = exp::map_experiment<Gaussian>(notes);
  e.rate_in_elements = e.seeded = true;
  e.sizes = {{1000000}};
  e.test_sizes = {{0}, {1}, {2}, {1000}, {1025}};
  const auto host = exp::add_host_loop<Gaussian>(e, "host", "one host thread, std::exp, host memory");
  exp::on_every_space(e, {Gaussian::Row{"plain"}.against(host).plain_kernel(), Gaussian::Row{"pdf"}.against(host)});
  return e;
}

}  // namespace nbk::gaussian
