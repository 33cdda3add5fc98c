// Seed 003: out = x + y with x = arange(n), y = 2x. At the document's 4 and 16 int64
// elements a call is all overhead (its time is the time per call); at its 100,000 float32
// elements it is called three ways: on host arrays (the with-transfers column), on device
// arrays into a new output every call, and on device arrays into a reused output (out=); the
// same float32 add as its grid-stride kernel on 30 blocks of 128 threads; and 2^24 elements,
// the size of the CUDA C guide's VecAdd (ours).
#include "nbk/add/kernels.hpp"
#include "nbk/experiment/elementwise.hpp"

namespace nbk::add {

struct Add : exp::MapSpec<Add, 1, 2, std::int64_t, float> {
  static constexpr const char *label = "nbk::add", *in_words = "x and y", *out_words = "out";
  struct Told {  // the grid-stride kernel's grid as asked (blocks_per_grid, threads_per_block), and as run
    add::GridShape asked, ran;
  };
  // x = np.arange(n), y = 2 x (in float32: np.arange(n).astype(np.float32))
  template <class T>
  static void generate(const std::array<T*, 2>& in, std::int64_t n, const double*, std::uint64_t) {
    for (std::int64_t i = 0; i < n; ++i) in[1][i] = 2 * (in[0][i] = static_cast<T>(i));
  }
  template <class T>  // exact: the host adds the same two numbers of the same type, and a sum rounds one way
  static T reference(T x, T y) { return static_cast<T>(x + y); }
  template <class Space, class In, class Out>
  static void kernel(const Space& exec, const In& in, const Out& out, Told& grid) {
    if (grid.asked.blocks > 0) grid.ran = add::grid_stride_add(exec, in[0], in[1], out, grid.asked);
    else add::range_add(exec, in[0], in[1], out);
  }
  template <class Space, class In, class Out>
  static void plain_kernel(const Space& exec, const In& in, const Out& out) { add::plain_add(exec, in[0], in[1], out); }
  static void annotate(exp::Verdict& v, const Told& grid) {
    if (grid.ran.blocks == 0) return;
    v.cells = {{"launch", fmt::format("{} x {}", grid.ran.blocks, grid.ran.threads)}};
    v.details["launch"] = {grid.ran.blocks, grid.ran.threads};
  }
  template <class In, class Out>
  static void host_loop(const In& in, const Out& out) { add::host_loop(in[0].data(), in[1].data(), out.data(), out.extent(0)); }
  static std::string describe(const Problem& p) {
    return fmt::format("out = x + y, x = arange({}), y = 2 x, in int64 and float32\n", p.n());
  }
  static nlohmann::json facts(const Problem&) { return {{"x", "arange(n)"}, {"y", "2 x"}}; }
};

exp::Experiment experiment(const exp::Notes& notes) {
  exp::Experiment e = exp::map_experiment<Add>(notes);
  e.sizes = {{4}, {16}, {100000}, {std::int64_t{1} << 24}};
  e.test_sizes = {{0}, {1}, {4}, {127}, {3841}, {100000}};
  e.bench_sizes = {{4}, {16}, {100000}, {std::int64_t{1} << 24}};  // 4: the cost of a launch
  const auto i64 = exp::add_host_loop<Add, std::int64_t>(e, "host-i64", "one host thread, host memory");
  const auto f32 = exp::add_host_loop<Add, float>(e, "host-f32", "one host thread, host memory");
  using Row = Add::Row;
  exp::on_every_space(e, {Row{"i64"}.against(i64), Row{"i64-new"}.against(i64).fresh_output(), Row{"f32-plain"}.against(f32).plain_kernel(), Row{"f32"}.against(f32),
                          Row{"f32-new"}.against(f32).fresh_output(),
                          Row{"f32-grid-stride"}.against(f32).telling(Add::Told{add::GridShape{30, 128}})});
  return e;
}

}  // namespace nbk::add
