// The CUDA C guide's MatAdd, quoted in seed 003: C = A + B over 4096 x 4096 float32 matrices
// (ours: the guide leaves N open), as a 2-D MDRangePolicy with its 16 x 16 blocks as tiles, with
// row-wise 1 x 256 tiles or with tiles left to Kokkos, or as one 1-D range over the matrices'
// spans (16-byte packs on a GPU), on every space, on a device resident and
// with transfers, against two nested loops on one host thread.
#include "nbk/experiment/map_spec.hpp"
#include "nbk/experiment/notes.hpp"
#include "nbk/mat_add/kernels.hpp"
#include "notes_outline.hpp"  // generated from notes.md (lib/CMakeLists.txt)

namespace nbk::mat_add {

struct MatAdd : exp::MapSpec<MatAdd, 2, 2, float> {
  static constexpr const char *label = "nbk::mat_add", *in_words = "A and B", *out_words = "C";
  // How a variant runs: a launch of mat_add, or (host spaces) mat_add_streaming's non-temporal stores.
  struct Param {
    mat_add::Launch launch = {};
    bool streaming_stores = false;
    Param(mat_add::Launch l = {}, bool streaming = false) : launch(l), streaming_stores(streaming) {}  // NOLINT: implicit
  };
  // Checked on the flat buffers, sharing no indexing with the 2-D kernels; float addition rounds one way.
  static float reference(float a, float b) { return a + b; }
  template <class Space, class In, class Out>
  static void kernel(const Space& exec, const In& in, const Out& c, Param p) {
    if constexpr (!is_device_space_v<Space>) {
      if (p.streaming_stores) return mat_add::mat_add_streaming(exec, in[0], in[1], c);
    }
    mat_add::mat_add(exec, in[0], in[1], c, p.launch);
  }
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
  e.sizes = {exp::Size{4096, 4096}};
  e.test_sizes = {{0, 4}, {1, 1}, {16, 16}, {17, 33}, {1, 1025}, {1025, 1}};
  e.seeded = true;
  const auto loops = exp::add_host_loop<MatAdd>(e, "loops", "two nested loops on one host thread, host memory");
  // Why two device rows stay below memcpy, in notes.md: the guide's tiles' cause measured on the H100
  // (ncu, record h100-33739fb: 256-thread blocks at 42% of DRAM peak); Kokkos' tiles read from its
  // source (3.4.01 and 4.6.01) and the GPU's limit of 32 resident blocks an SM, not profiled.
  const std::string guide_tiles_are_slow = notes.line(NBK_HEADING("## Below memcpy: mdrange-16x16"));
  const std::string kokkos_tiles_are_small = notes.line(NBK_HEADING("## Below memcpy: mdrange-auto"));
  exp::on_every_space<MatAdd>(
      e, {{"mdrange-16x16", loops, mat_add::guide_launch, exp::Output::reused, guide_tiles_are_slow},
          {"mdrange-1x256", loops, mat_add::row_launch},
          {"flat", loops, mat_add::flat_launch},
          {"mdrange-auto", loops, mat_add::kokkos_launch, exp::Output::reused, kokkos_tiles_are_small}});
  // Host spaces: the flat row with C written by streaming stores, after them (issue 43: one thread
  // already streams at the memory's speed here, so only the read of C before its write is left).
  exp::on_every_space<MatAdd>(e, {{"flat-stream", loops, MatAdd::Param{{}, true}, exp::Output::reused, {},
                                   exp::Where::cpu_spaces, "C written by non-temporal stores, never read"}});
  return e;
}

}  // namespace nbk::mat_add
