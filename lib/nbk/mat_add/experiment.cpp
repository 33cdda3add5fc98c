// The CUDA C guide's MatAdd, quoted in seed 003: C = A + B over 4096 x 4096 float32 matrices
// (ours: the guide leaves N open), as a 2-D MDRangePolicy with its 16 x 16 blocks as tiles, with
// row-wise 1 x 256 tiles or with tiles left to Kokkos, or as one 1-D range over the matrices'
// spans (16-byte packs on a GPU), on every space, on a device resident and
// with transfers, against two nested loops on one host thread.
#include "nbk/experiment/elementwise.hpp"
#include "nbk/mat_add/kernels.hpp"
#include "nbk/mat_add/tuned.hpp"

namespace nbk::mat_add {

struct MatAdd : exp::MapSpec<MatAdd, 2, 2, float> {
  static constexpr const char *label = "nbk::mat_add", *in_words = "A and B", *out_words = "C";
  using Told = mat_add::Way;  // a launch, or streaming stores (host spaces)
  // Checked on the flat buffers, sharing no indexing with the 2-D kernels; float addition rounds one way.
  static float reference(float a, float b) { return a + b; }
  template <class Space, class In, class Out>
  static void kernel(const Space& exec, const In& in, const Out& c, Told way) {
    mat_add::mat_add(exec, in[0], in[1], c, way);
  }
  template <class Space, class In, class Out>
  static void plain_kernel(const Space& exec, const In& in, const Out& c) { mat_add::plain_mat_add(exec, in[0], in[1], c); }
  template <class In, class Out>
  static void host_loop(const In& in, const Out& c) {
    for (std::size_t i = 0; i < c.extent(0); ++i)
      for (std::size_t j = 0; j < c.extent(1); ++j) c(i, j) = in[0](i, j) + in[1](i, j);
  }
  static std::string describe(const Problem& p) { return exp::uniform_inputs_text(p, "C = A + B", "row-major matrices"); }
  static nlohmann::json facts(const Problem& p) { return exp::uniform_inputs_facts(p); }
};

exp::Experiment experiment(const exp::Notes& notes) {
  exp::Experiment e = exp::map_experiment<MatAdd>(notes);
  e.sizes = {{4096, 4096}};
  e.test_sizes = {{0, 4}, {1, 1}, {16, 16}, {17, 33}, {1, 1025}, {1025, 1}};
  e.seeded = true;
  const auto loops = exp::add_host_loop<MatAdd>(e, "loops", "two nested loops on one host thread, host memory");
  using Row = MatAdd::Row;
  exp::on_every_space(e, {Row{"plain"}.against(loops).plain_kernel(), Row{"mdrange-16x16"}.against(loops).telling(mat_add::guide_launch),
                          Row{"mdrange-1x256"}.against(loops).telling(mat_add::row_launch),
                          Row{"flat"}.against(loops).telling(mat_add::flat_launch),
                          Row{"mdrange-auto"}.against(loops).telling(mat_add::kokkos_launch)});
  // Host spaces: the flat row with C written by streaming stores, after them (issue 43: one thread
  // already streams at the memory's speed here, so only the read of C before its write is left),
  // judged by the ceiling of streaming stores (issue 58).
  const auto streamed = [](const exp::Size& s) { return exp::map_traffic_of<MatAdd, float>(s).streaming_stores(); };
  exp::on_every_space(e, {Row{"flat-stream"}
                              .against(loops)
                              .telling(mat_add::streaming_way)
                              .with_traffic(streamed)
                              .runs(exp::Where::cpu_spaces)
                              .moving("none (host memory); C written by non-temporal stores, never read")});
  return e;
}

}  // namespace nbk::mat_add
