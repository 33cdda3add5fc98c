// Seed 003: the hypot device function over 10^6 float32 pairs (ours: the document times one
// call on two scalars), whose magnitudes span 2^-100 to 2^100 so that the naive form's
// squares overflow and underflow; the scaled form on every space, on a device resident and
// with transfers, against std::hypot on one host thread.
#include <cmath>
#include <limits>

#include "nbk/experiment/elementwise.hpp"
#include "nbk/hypot/kernels.hpp"

namespace nbk::hypot {

struct Hypot : exp::MapSpec<Hypot, 1, 2, float> {
  static constexpr const char *label = "nbk::hypot", *in_words = "x and y", *out_words = "h";
  static constexpr int max_exponent = 100;  // |x|, |y| in [2^-100, 2^100)
  // The scaled form rounds five times (divide, square, add, sqrt, multiply): within 3 ulp of
  // the true value; 8 unit roundoffs (4 ulp) leave room and still catch any wrong formula.
  static constexpr double tolerance_in_u = 8;
  static constexpr int uniforms = 4;
  static void generate(const std::array<float*, 2>& in, std::int64_t n, const double* u, std::uint64_t) {
    for (std::int64_t i = 0; i < 2 * n; ++i)  // a random sign and mantissa in [0.5, 1), an exponent in [-100, 100)
      in[i % 2][i / 2] = static_cast<float>(std::ldexp((u[2 * i] < 0.5 ? -0.5 : 0.5) * (1 + std::abs(2 * u[2 * i] - 1)),
                                                       int(std::floor(u[2 * i + 1] * 2 * max_exponent)) - max_exponent));
  }
  static double reference(float x, float y) { return std::hypot(double(x), double(y)); }  // in double
  template <class Space, class In, class Out>
  static void kernel(const Space& exec, const In& in, const Out& h, Told) { hypot::scaled_map(exec, in[0], in[1], h); }
  template <class Space, class In, class Out>
  static void plain_kernel(const Space& exec, const In& in, const Out& h) { hypot::plain_hypot(exec, in[0], in[1], h); }
  static float host_element(float x, float y) { return std::hypot(x, y); }
  // How many pairs sqrt(x*x + y*y) in float32 gives `value` for (inf, 0).
  static std::int64_t naive_giving(const Problem& p, float value) {
    std::int64_t count = 0;
    for (std::int64_t i = 0; i < p.n(); ++i) count += hypot::naive(p.in<float>()[0](i), p.in<float>()[1](i)) == value;
    return count;
  }
  static std::string describe(const Problem& p) {
    return fmt::format("h = hypot(x, y) for {} float32 pairs, |x|, |y| = U[0.5, 1) 2^e, e in [-{}, {}), seed {}\n", p.n(),
                       max_exponent, max_exponent, p.seed) +
           fmt::format("sqrt(x*x + y*y) in float32 would give inf for {} of them and 0 for {}\n",
                       naive_giving(p, HUGE_VALF), naive_giving(p, 0));
  }
  static nlohmann::json facts(const Problem& p) {
    return {{"element_type", "float32"}, {"seed", p.seed}, {"exponent_range", {-max_exponent, max_exponent}},
            {"naive_overflows", naive_giving(p, HUGE_VALF)}, {"naive_underflows", naive_giving(p, 0)}};
  }
};

exp::Experiment experiment(const exp::Notes& notes) {
  exp::Experiment e = exp::map_experiment<Hypot>(notes);
  e.rate_in_elements = e.seeded = true;
  e.sizes = {{1000000}};
  e.test_sizes = {{0}, {1}, {2}, {1000}, {1025}};
  const auto host = exp::add_host_loop<Hypot>(e, "std-hypot", "one host thread, std::hypot(float, float), host memory");
  exp::on_every_space(e, {Hypot::Row{"plain"}.against(host).plain_kernel(), Hypot::Row{"scaled"}.against(host)});
  return e;
}

}  // namespace nbk::hypot
