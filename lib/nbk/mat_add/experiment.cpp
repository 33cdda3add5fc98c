// The CUDA C guide's MatAdd, quoted in seed 003: C = A + B over 4096 x 4096 float32 matrices
// (ours: the guide leaves N open), as a 2-D MDRangePolicy with its 16 x 16 blocks as tiles, with
// row-wise 1 x 256 tiles or with tiles left to Kokkos, on every space, on a device resident and
// with transfers, against two nested loops on one host thread.
#include "nbk/experiment/map_spec.hpp"
#include "nbk/mat_add/kernels.hpp"

namespace nbk::experiments {

struct MatAdd : exp::MapSpec<MatAdd, 2, 2, float> {
  static constexpr const char *label = "nbk::mat_add", *in_words = "A and B", *out_words = "C";
  using Param = mat_add::Tiles;
  // Checked on the flat buffers, sharing no indexing with the 2-D kernels; float addition rounds one way.
  static float reference(float a, float b) { return a + b; }
  template <class Space, class In, class Out>
  static void kernel(const Space& exec, const In& in, const Out& c, Param tiles) { mat_add::mat_add(exec, in[0], in[1], c, tiles); }
  template <class In, class Out>
  static void host_loop(const In& in, const Out& c) {
    for (std::size_t i = 0; i < c.extent(0); ++i)
      for (std::size_t j = 0; j < c.extent(1); ++j) c(i, j) = in[0](i, j) + in[1](i, j);
  }
  static std::string describe(const Problem& p) { return exp::uniform_inputs_text(p, "C = A + B", "row-major matrices"); }
  static nlohmann::json facts(const Problem& p) { return exp::uniform_inputs_facts(p); }
};

exp::Experiment mat_add(const exp::Notes& notes) {
  exp::Experiment e = exp::map_experiment<MatAdd>(notes);
  e.sizes = {exp::Size{4096, 4096}};
  e.test_sizes = {{0, 4}, {1, 1}, {16, 16}, {17, 33}, {1, 1025}, {1025, 1}};
  e.seeded = true;
  const auto loops = exp::add_host_loop<MatAdd>(e, "loops", "two nested loops on one host thread, host memory");
  exp::on_every_space<MatAdd>(e, {{"mdrange-16x16", loops, mat_add::guide_tiles},
                                  {"mdrange-1x256", loops, mat_add::row_tiles},
                                  {"mdrange-auto", loops, mat_add::default_tiles}});
  return e;
}

}  // namespace nbk::experiments
