// Seed 002: the element-wise maximum of two float32 3-D arrays at 32^3, 128^3 and 256^3:
// three nested loops on one host thread, and a 3-D MDRangePolicy on every space: the document's
// 8x8x8 tiles or Kokkos' tiles over the arrays' own index order, or ours: the contiguous index
// first (nbk/core/mdrange.hpp), or the arrays' spans as one 1-D range (nbk/core/packed.hpp); on a device once with the data resident
// (the document's cuda.jit kernel) and once with the transfers in every call (its
// vectorize(target='cuda')). Then the size from which the device wins.
#include "nbk/experiment/elementwise.hpp"
#include "nbk/maximum/kernels.hpp"

namespace nbk::maximum {

struct Maximum : exp::MapSpec<Maximum, 3, 2, float> {
  static constexpr const char *label = "nbk::maximum", *in_words = "a and b", *out_words = "c";
  using Told = maximum::Launch;  // a row tells the kernel its launch
  // Checked on the flat buffers, sharing no indexing with the 3-D kernels it checks.
  static float reference(float a, float b) { return a >= b ? a : b; }
  template <class Space, class In, class Out>
  static void kernel(const Space& exec, const In& in, const Out& c, Told launch) {
    maximum::elementwise_max(exec, in[0], in[1], c, launch);
  }
  template <class Space, class In, class Out>
  static void plain_kernel(const Space& exec, const In& in, const Out& c) { maximum::plain_max(exec, in[0], in[1], c); }
  template <class In, class Out>
  static void host_loop(const In& in, const Out& c) {
    maximum::host_loops(in[0].data(), in[1].data(), c.data(), c.extent(0), c.extent(1), c.extent(2));
  }
  static std::string describe(const Problem& p) { return exp::uniform_inputs_text(p, "c = max(a, b) element-wise", "arrays"); }
  static nlohmann::json facts(const Problem& p) { return exp::uniform_inputs_facts(p); }
};

exp::Experiment experiment(const exp::Notes& notes) {
  exp::Experiment e = exp::map_experiment<Maximum>(notes);
  e.sizes = {{32, 32, 32}, {128, 128, 128}, {256, 256, 256}};
  e.test_sizes = {{0, 4, 4}, {1, 1, 1}, {7, 9, 13}, {8, 8, 8}, {17, 3, 33}, {1, 1, 1025}};
  e.bench_sizes = {{256, 256, 256}};
  e.seeded = true;
  exp::add_host_loop<Maximum>(e, "loops", "three nested loops on one host thread, host memory");
  using Row = Maximum::Row;
  const auto tiled = exp::on_every_space(
      e, {Row{"plain"}.plain_kernel(), Row{"mdrange-8x8x8"}.telling(maximum::document_launch), Row{"mdrange-auto"}.telling(maximum::kokkos_launch),
          Row{"mdrange-k-first"}.telling(maximum::coalesced_launch), Row{"flat"}.telling(maximum::flat_launch)});
  e.sweeps = {{exp::powers_of_two(10, 26, 3), tiled[4], tiled[4]}};
  return e;
}

}  // namespace nbk::maximum
