// The CUDA C guide's MatAdd, quoted in seed 003: C = A + B over 4096 x 4096 float32 matrices
// (ours: the guide leaves N open), as a 2-D MDRangePolicy with its 16 x 16 blocks as tiles, with
// row-wise 1 x 256 tiles or with tiles left to Kokkos, or as one 1-D range over the matrices'
// spans (16-byte packs on a GPU), on every space, on a device resident and
// with transfers, against two nested loops on one host thread.
#include "nbk/experiment/map_spec.hpp"
#include "nbk/mat_add/kernels.hpp"

namespace nbk::experiments {

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

// Established on the H100 (ncu, record h100-33739fb): 256-thread blocks at 42% of DRAM peak.
constexpr const char* guide_tiles_are_slow =
    "threadIdx.x walks i, the rows: a warp's load touches 16 rows x 2 columns, a 32-byte sector each for 8 bytes "
    "(ncu on an H100: 42% of DRAM peak); mdrange-1x256 walks j";
// From Kokkos' source (3.4.01 and 4.6.01: CUDA tiles default to 2 along every index but the
// last, 16 along the last) and the GPU's limit of 32 resident blocks an SM; not profiled yet.
constexpr const char* kokkos_tiles_are_small =
    "Kokkos' default tiles here are 2 x 16, 32-thread blocks: at 32 blocks an SM at most, at most 1024 threads "
    "an SM run (half of an H100's 2048); mdrange-1x256 has 256";

exp::Experiment mat_add(const exp::Notes& notes) {
  exp::Experiment e = exp::map_experiment<MatAdd>(notes);
  e.sizes = {exp::Size{4096, 4096}};
  e.test_sizes = {{0, 4}, {1, 1}, {16, 16}, {17, 33}, {1, 1025}, {1025, 1}};
  e.seeded = true;
  const auto loops = exp::add_host_loop<MatAdd>(e, "loops", "two nested loops on one host thread, host memory");
  exp::on_every_space<MatAdd>(
      e, {{"mdrange-16x16", loops, mat_add::guide_launch, exp::Output::reused, guide_tiles_are_slow},
          {"mdrange-1x256", loops, mat_add::row_launch},
          {"flat", loops, mat_add::flat_launch},
          {"mdrange-auto", loops, mat_add::kokkos_launch, exp::Output::reused, kokkos_tiles_are_small}});
  // Host spaces: the flat row with C written by streaming stores, beside it (issue 43: one thread
  // already streams at the memory's speed here, so only the read of C before its write is left).
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    if constexpr (!is_device_space_v<Space>) {
      e.variants.push_back(exp::map_on<MatAdd, Space>("flat-stream", &loops.variant, MatAdd::Param{{}, true}));
      e.variants.back().moves += "; C written by non-temporal stores, never read";
    }
  });
  return e;
}

}  // namespace nbk::experiments
