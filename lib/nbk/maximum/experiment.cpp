// Seed 002: the element-wise maximum of two float32 3-D arrays at 32^3, 128^3 and 256^3:
// three nested loops on one host thread, and a 3-D MDRangePolicy with the document's 8x8x8
// tiles or with tiles left to Kokkos on every space; on a device once with the data resident
// (the document's cuda.jit kernel) and once with the transfers in every call (its
// vectorize(target='cuda')). Then the size from which the device wins.
#include <fmt/format.h>

#include <ostream>

#include "nbk/core/compat.hpp"
#include "nbk/core/memory.hpp"
#include "nbk/core/random_data.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/map_case.hpp"
#include "nbk/maximum/kernels.hpp"

namespace nbk::experiments {

namespace {

using exp::Size;
using HostArray = maximum::Array<Kokkos::HostSpace>;

struct Problem final : exp::Problem {
  Size size;
  std::uint64_t seed = 0;
  HostArray a, b;  // U[0,1) float32, as np.random.rand(...).astype(np.float32)
  void describe(std::ostream& out) const override {
    out << fmt::format("c = max(a, b) element-wise, float32 arrays of {} ({} each), U[0,1), seed {}\n", size.text(),
                       format_bytes(static_cast<std::uint64_t>(size.elements()) * sizeof(float)), seed);
  }
  nlohmann::json to_json() const override {
    return {{"element_type", "float32"}, {"shape", size.extents}, {"seed", seed}};
  }
};

// Elements of c that are not max(a, b): a flat loop over the raw host buffers, sharing no
// indexing with the 3-D kernels it checks.
std::int64_t wrong_elements(const Problem& p, const float* c) {
  const float* a = p.a.data();
  const float* b = p.b.data();
  std::int64_t bad = 0;
  for (std::int64_t i = 0; i < p.size.elements(); ++i) bad += c[i] != (a[i] >= b[i] ? a[i] : b[i]);
  return bad;
}

// On a space, with transfers: a and b in and c out on every call, as vectorize(target='cuda').
template <class Space>
exp::CaseMaker on_space(maximum::Tiles tiles) {
  return exp::map_case_of<Space, Problem>(
      "nbk::maximum", [](const Problem& p) { return std::array{p.a, p.b}; },
      [tiles](const Space& exec, const auto& in, const auto& c) { maximum::elementwise_max(exec, in[0], in[1], c, tiles); },
      [](const Problem& p, const float* c) { return exp::mismatch_verdict(wrong_elements(p, c)); });
}

template <class Space>
void add_variants(std::vector<exp::Variant>& variants) {
  for (const bool document_tiles : {true, false}) {
    exp::Variant v = exp::map_variant<Space>(document_tiles ? "mdrange-8x8x8" : "mdrange-auto", "a and b", "c");
    if (v.device)
      v.document = document_tiles ? "cuda.jit maximum_6, (8,8,8) threads, resident: 1.76 ms at 256^3"
                                  : "vectorize target=cuda, with transfers: 1.1 ms / 7.92 ms / 47.5 ms";
    else
      v.document = document_tiles ? "" : "vectorize CPU: 4.97 us / 7.95 ms / 48.1 ms";
    v.footprint = exp::arrays_of<Space, float>(3, 1);  // a, b, c and c's host mirror
    v.make = on_space<Space>(document_tiles ? maximum::document_tiles : maximum::default_tiles);
    variants.push_back(v);
  }
}

void explain(std::ostream& out, const exp::Problem&) {
  out << "\nGB/s counts 12 bytes per element (a and b read, c written). With transfers, the same bytes\n"
         "cross the host-device link instead, which is why the document's vectorize(target='cuda') was no\n"
         "faster than the CPU at 128^3 and 256^3 (7.92 vs 7.95 ms, 47.5 vs 48.1 ms) and 200 times slower at\n"
         "32^3 (1.1 ms vs 4.97 us, where the launch and copy latencies are all there is).\n"
         "\nThe document's figures (Numba on Colab: a K80-class GPU): Python loops 19.6 ms, np.maximum 172 us,\n"
         "njit loops 8.86 us, vectorize CPU 4.97 us at 32^3; vectorize CPU / CUDA 7.95 / 7.92 ms at 128^3 and\n"
         "48.1 / 47.5 ms at 256^3; cuda.jit with (8,8,8) threads 1.76 ms at 256^3, data resident.\n"
         "\nWhere the document goes wrong: maximum_6 has no bounds check and launches a fixed grid of 32^3\n"
         "blocks of 8^3 threads, which covers exactly 256^3: at 128^3 it writes far outside the arrays, and\n"
         "any extent that is not a multiple of 8 needs a check it does not have. The 3-D MDRangePolicy here\n"
         "covers the array's own extents, tiles included (the tests use shapes such as 7x9x13). Its\n"
         "maximum_2 rebinds c instead of writing into it (c = np.maximum(a, b)), so the c passed in is never\n"
         "filled; np.maximum(a, b, out=c) would.\n";
}

}  // namespace

exp::Experiment maximum() {
  exp::Experiment e;
  e.name = "maximum";
  e.title = "element-wise maximum of two float32 3-D arrays: host loops, and a 3-D MDRangePolicy with 8x8x8 or "
            "Kokkos' tiles, resident and with transfers, and the size from which the device wins";
  e.document = "seed 002";
  e.rank = 3;
  e.sizes = {Size{32, 32, 32}, Size{128, 128, 128}, Size{256, 256, 256}};
  e.size_help = "The document's 32^3, 128^3 and 256^3.";
  e.test_sizes = {Size{0, 4, 4}, Size{1, 1, 1}, Size{7, 9, 13}, Size{8, 8, 8}, Size{17, 3, 33}, Size{1, 1, 1025}};
  e.bench_sizes = {Size{256, 256, 256}};
  e.seeded = true;
  e.traffic = [](const Size& s) { return binary_map_traffic<float>(s.elements()); };
  e.problem_bytes = [](const Size& s) { return 2 * static_cast<std::uint64_t>(s.elements()) * sizeof(float); };
  e.make_problem = [](const Size& s, const exp::Settings& settings) {
    auto p = std::make_shared<Problem>();
    p->size = s;
    p->seed = settings.seed;
    p->a = HostArray(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::maximum::a"), s[0], s[1], s[2]);
    p->b = HostArray(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::maximum::b"), s[0], s[1], s[2]);
    fill_uniform(p->a.data(), s.elements(), settings.seed);
    fill_uniform(p->b.data(), s.elements(), settings.seed + 1);
    return p;
  };
  exp::Variant loops{"loops"};
  loops.space = "host";
  loops.moves = "three nested loops on one host thread, host memory";
  loops.document = "maximum_1 (Python) 19.6 ms, njit maximum_3 8.86 us at 32^3";
  loops.footprint = exp::arrays_of<Kokkos::DefaultHostExecutionSpace, float>(1);  // c
  loops.make = exp::maker<Problem>([](const Problem& p, const Size&) {
    return std::make_unique<exp::HostLoopCase<HostArray>>(
        HostArray("nbk::maximum::c", p.size[0], p.size[1], p.size[2]),
        [&p](const HostArray& c) { maximum::host_loops(p.a.data(), p.b.data(), c.data(), p.size[0], p.size[1], p.size[2]); },
        [&p](const HostArray& c) { return exp::mismatch_verdict(wrong_elements(p, c.data())); });
  });
  e.variants.push_back(loops);
  for_each_enabled_space([&](auto tag) { add_variants<typename decltype(tag)::type>(e.variants); });

  exp::Sweep sweep;
  for (int k = 10; k <= 26; ++k) sweep.sizes.push_back(exp::power_of_two_size(k, 3));
  sweep.host_variant = "mdrange-auto";
  sweep.device_variant = "mdrange-auto";
  e.sweeps = {sweep};
  e.explain = explain;
  return e;
}

}  // namespace nbk::experiments
