// Seed 002: the element-wise maximum of two float32 3-D arrays at 32^3, 128^3 and 256^3:
// three nested loops on one host thread, and a 3-D MDRangePolicy on every space: the document's
// 8x8x8 tiles or Kokkos' tiles over the arrays' own index order, or ours: the contiguous index
// first (nbk/core/mdrange.hpp), or the arrays' spans as one 1-D range (nbk/core/packed.hpp); on a device once with the data resident
// (the document's cuda.jit kernel) and once with the transfers in every call (its
// vectorize(target='cuda')). Then the size from which the device wins.
#include "nbk/experiment/map_spec.hpp"
#include "nbk/experiment/notes.hpp"
#include "nbk/maximum/kernels.hpp"
#include "notes_outline.hpp"  // generated from notes.md (lib/CMakeLists.txt)

namespace nbk::maximum {

struct Maximum : exp::MapSpec<Maximum, 3, 2, float> {
  static constexpr const char *label = "nbk::maximum", *in_words = "a and b", *out_words = "c";
  using Param = maximum::Launch;
  // Checked on the flat buffers, sharing no indexing with the 3-D kernels it checks.
  static float reference(float a, float b) { return a >= b ? a : b; }
  template <class Space, class In, class Out>
  static void kernel(const Space& exec, const In& in, const Out& c, Param launch) {
    maximum::elementwise_max(exec, in[0], in[1], c, launch);
  }
  template <class In, class Out>
  static void host_loop(const In& in, const Out& c) {
    maximum::host_loops(in[0].data(), in[1].data(), c.data(), c.extent(0), c.extent(1), c.extent(2));
  }
  static std::string describe(const Problem& p) { return exp::uniform_inputs_text(p, "c = max(a, b) element-wise", "arrays"); }
  static nlohmann::json facts(const Problem& p) { return exp::uniform_inputs_facts(p); }
};

exp::Experiment experiment(const exp::Notes& notes) {
  exp::Experiment e = exp::map_experiment<Maximum>(notes);
  e.sizes = {exp::Size{32, 32, 32}, exp::Size{128, 128, 128}, exp::Size{256, 256, 256}};
  e.test_sizes = {{0, 4, 4}, {1, 1, 1}, {7, 9, 13}, {8, 8, 8}, {17, 3, 33}, {1, 1, 1025}};
  e.bench_sizes = {exp::Size{256, 256, 256}};
  e.seeded = true;
  exp::add_host_loop<Maximum>(e, "loops", "three nested loops on one host thread, host memory");
  // Why two device rows stay below memcpy, in notes.md: the 8x8x8 tiles' cause measured on the H100
  // (ncu, record h100-33739fb: 512-thread blocks at 20% of DRAM peak); Kokkos' tiles read from its
  // source (3.4.01 and 4.6.01: 2 along every index but the last, 16 along it), their cost not profiled.
  const std::string document_tiles_are_slow = notes.line(NBK_HEADING("## Below memcpy: mdrange-8x8x8"));
  const std::string kokkos_tiles_are_small = notes.line(NBK_HEADING("## Below memcpy: mdrange-auto"));
  const auto tiled = exp::on_every_space<Maximum>(
      e, {{"mdrange-8x8x8", {}, maximum::document_launch, exp::Output::reused, document_tiles_are_slow},
          {"mdrange-auto", {}, maximum::kokkos_launch, exp::Output::reused, kokkos_tiles_are_small},
          {"mdrange-k-first", {}, maximum::coalesced_launch},
          {"flat", {}, maximum::flat_launch}});
  e.sweeps = {{exp::powers_of_two(10, 26, 3), tiled[3], tiled[3]}};
  return e;
}

}  // namespace nbk::maximum
