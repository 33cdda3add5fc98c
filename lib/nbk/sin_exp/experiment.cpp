// Seed 004: z = sin(x) * exp(y) over 10^6 elements, x = linspace(0, 2 pi), y = 10, as the
// document's vectorize ufunc: one host thread (its NumPy line), then every space in float32
// and float64, on a device once with the data resident and once with the transfers in every
// call (its target='cuda' on host arrays); the speed-up of each over the host loop of the
// same precision, and the size from which the device wins in each.
#include <cmath>

#include "nbk/core/memory.hpp"
#include "nbk/experiment/elementwise.hpp"
#include "nbk/sin_exp/kernels.hpp"

namespace nbk::sin_exp {

struct SinExp : exp::MapSpec<SinExp, 1, 2, float, double> {
  static constexpr const char *label = "nbk::sin_exp", *in_words = "x and y", *out_words = "z";
  static constexpr double y_value = 10;
  // sin and exp within 2 ulp each (CUDA's and glibc's float and double versions), the product
  // rounded once, and the reference's own rounding, with room to spare; floor: the least normal.
  static constexpr double tolerance_in_u = 16;
  static constexpr std::uint64_t flops_per_element = sin_exp::sin_exp_flops;
  template <class T>
  static double floor() { return std::numeric_limits<T>::min(); }
  // x = np.linspace(0, 2 pi) in float64, y = 10; the float32 inputs are those rounded
  template <class T>
  static void generate(const std::array<T*, 2>& in, std::int64_t n, const double*, std::uint64_t) {
    for (std::int64_t i = 0; i < n; ++i) {
      in[0][i] = static_cast<T>(n > 1 ? 2 * 3.14159265358979323846 * double(i) / double(n - 1) : 0.0);
      in[1][i] = static_cast<T>(y_value);
    }
  }
  template <class T>  // in long double
  static double reference(T x, T y) { return static_cast<double>(std::sin((long double)x) * std::exp((long double)y)); }
  template <class Space, class In, class Out>
  static void kernel(const Space& exec, const In& in, const Out& z, Told) { sin_exp::sin_exp(exec, in[0], in[1], z); }
  template <class Space, class In, class Out>
  static void plain_kernel(const Space& exec, const In& in, const Out& z) { sin_exp::plain_sin_exp(exec, in[0], in[1], z); }
  template <class In, class Out>
  static void host_loop(const In& in, const Out& z) { sin_exp::host_loop(in[0].data(), in[1].data(), z.data(), z.extent(0)); }
  static std::string describe(const Problem& p) {
    return fmt::format("z = sin(x) * exp(y), {} elements, x = linspace(0, 2 pi), y = {:g} ({} per float64 array)\n", p.n(),
                       y_value, format_bytes(static_cast<std::uint64_t>(p.n()) * sizeof(double)));
  }
  static nlohmann::json facts(const Problem&) { return {{"x", "linspace(0, 2 pi, n)"}, {"y", y_value}}; }
};

exp::Experiment experiment(const exp::Notes& notes) {
  exp::Experiment e = exp::map_experiment<SinExp>(notes);
  e.rate_in_elements = true;
  e.sizes = e.bench_sizes = {{1000000}};
  e.test_sizes = {{0}, {1}, {2}, {3}, {1000}, {1025}};
  const auto moves = "one host thread, std::sin and std::exp, host memory";
  const auto host32 = exp::add_host_loop<SinExp, float>(e, "host-f32", moves);
  const auto host64 = exp::add_host_loop<SinExp, double>(e, "host-f64", moves);
  const auto f = exp::on_every_space(e, {SinExp::Row{"f32-plain"}.against(host32).plain_kernel(),
                                         SinExp::Row{"f32"}.against(host32), SinExp::Row{"f64"}.against(host64)});
  e.sweeps = {{exp::powers_of_two(10, 24), f[1], f[1]}, {exp::powers_of_two(10, 24), f[2], f[2]}};
  return e;
}

}  // namespace nbk::sin_exp
