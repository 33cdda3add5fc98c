// The CUDA C guide's MatAdd, quoted in seed 003: C = A + B over 4096 x 4096 float32 matrices
// (ours: the guide leaves N open), as a 2-D MDRangePolicy with its 16 x 16 blocks as tiles or
// with tiles left to Kokkos, on every space, on a device resident and with transfers, against
// two nested loops on one host thread.
#include <fmt/format.h>

#include <ostream>

#include "nbk/core/memory.hpp"
#include "nbk/core/random_data.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/map_case.hpp"
#include "nbk/mat_add/kernels.hpp"

namespace nbk::experiments {

namespace {

using exp::Size;
using HostMatrix = mat_add::Matrix<Kokkos::HostSpace>;

struct Problem final : exp::Problem {
  Size size;
  std::uint64_t seed = 0;
  HostMatrix a, b;  // U[0, 1)
  void describe(std::ostream& out) const override {
    out << fmt::format("C = A + B, float32 row-major matrices of {} ({} each), U[0,1), seed {}\n", size.text(),
                       format_bytes(static_cast<std::uint64_t>(size.elements()) * sizeof(float)), seed);
  }
  nlohmann::json to_json() const override {
    return {{"element_type", "float32"}, {"shape", size.extents}, {"seed", seed}};
  }
};

// Elements of C that are not A + B: a flat loop over the raw buffers, sharing no indexing
// with the 2-D kernels it checks; float addition rounds one way, so the check is exact.
exp::Verdict check(const Problem& p, const float* c) {
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < p.size.elements(); ++i) wrong += !(c[i] == p.a.data()[i] + p.b.data()[i]);
  return exp::mismatch_verdict(wrong);
}

template <class Space>
exp::Variant on_space(mat_add::Tiles tiles) {
  exp::Variant v = exp::map_variant<Space>(
      tiles == mat_add::default_tiles ? "mdrange-auto" : fmt::format("mdrange-{}x{}", tiles[0], tiles[1]), "A and B", "C");
  if (tiles == mat_add::guide_tiles) v.document = "MatAdd<<<numBlocks, threadsPerBlock(16, 16)>>> (no figure)";
  v.footprint = exp::arrays_of<Space, float>(3, 1);  // A, B, C and C's host mirror
  v.speedup_against = "loops";
  v.make = exp::map_case_of<Space, Problem>(
      "nbk::mat_add", [](const Problem& p) { return std::array{p.a, p.b}; },
      [tiles](const Space& exec, const auto& in, const auto& c) { mat_add::mat_add(exec, in[0], in[1], c, tiles); },
      check);
  return v;
}

void explain(std::ostream& out, const exp::Problem&) {
  out << "\nGB/s counts 12 bytes per element (A and B read, C written): the same streaming as VecAdd\n"
         "(nbk-add at 2^24 elements, the same bytes), in two dimensions; a difference between the two\n"
         "is the cost of the 2-D launch. On a GPU the tiles are the block: Kokkos 3.4 puts threadIdx.x on\n"
         "the row index, as the guide's kernel does, so a 16 x 16 warp reads 16 rows x 2 columns of a\n"
         "row-major matrix, 16 separate 32-byte sectors per load, where 1 x 256 tiles read 128 contiguous\n"
         "bytes; Kokkos' own choice there is 2 x 16. On a CPU a tile is a nest of loops run by one thread:\n"
         "16 x 16 tiles cut the contiguous rows into 16-element pieces (64 bytes), too short for the\n"
         "vectorized inner loop and the prefetchers, and cost about half the bandwidth of long rows.\n"
         "\nWhere the guide's example falls short: its grid is N / 16 blocks in each direction and the\n"
         "kernel checks i < N && j < N, so for an N that is not a multiple of 16 the last rows and columns\n"
         "are never computed (the grid needs (N + 15) / 16 blocks). The MDRangePolicy here covers the\n"
         "matrix's own extents, partial tiles included; the tests use 17 x 33 and 1 x 1025.\n";
}

}  // namespace

exp::Experiment mat_add() {
  exp::Experiment e;
  e.name = "mat_add";
  e.title = "C = A + B over float32 matrices as a 2-D MDRangePolicy with the guide's 16 x 16, row-wise 1 x 256 or "
            "Kokkos' tiles: host loops and every space, resident and with transfers";
  e.document = "seed 003 (CUDA C guide)";
  e.rank = 2;
  e.sizes = {Size{4096, 4096}};
  e.size_help = "Ours: 4096 x 4096 (the guide leaves N open).";
  e.test_sizes = {Size{0, 4}, Size{1, 1}, Size{16, 16}, Size{17, 33}, Size{1, 1025}, Size{1025, 1}};
  e.seeded = true;
  e.traffic = [](const Size& s) { return binary_map_traffic<float>(s.elements()); };
  e.problem_bytes = [](const Size& s) { return 2 * static_cast<std::uint64_t>(s.elements()) * sizeof(float); };
  e.make_problem = [](const Size& s, const exp::Settings& settings) {
    auto p = std::make_shared<Problem>();
    p->size = s;
    p->seed = settings.seed;
    p->a = HostMatrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::mat_add::a"), s[0], s[1]);
    p->b = HostMatrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "nbk::mat_add::b"), s[0], s[1]);
    fill_uniform(p->a.data(), s.elements(), settings.seed);
    fill_uniform(p->b.data(), s.elements(), settings.seed + 1);
    return p;
  };
  exp::Variant loops{"loops"};
  loops.space = "host";
  loops.moves = "two nested loops on one host thread, host memory";
  loops.footprint = exp::arrays_of<Kokkos::DefaultHostExecutionSpace, float>(1);  // C
  loops.make = exp::maker<Problem>([](const Problem& p, const Size&) {
    return std::make_unique<exp::HostLoopCase<HostMatrix>>(
        HostMatrix("nbk::mat_add::c", p.size[0], p.size[1]),
        [&p](const HostMatrix& c) {
          for (std::int64_t i = 0; i < p.size[0]; ++i)
            for (std::int64_t j = 0; j < p.size[1]; ++j) c(i, j) = p.a(i, j) + p.b(i, j);
        },
        [&p](const HostMatrix& c) { return check(p, c.data()); });
  });
  e.variants.push_back(loops);
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    e.variants.push_back(on_space<Space>(mat_add::guide_tiles));
    e.variants.push_back(on_space<Space>(mat_add::row_tiles));
    e.variants.push_back(on_space<Space>(mat_add::default_tiles));
  });
  e.explain = explain;
  return e;
}

}  // namespace nbk::experiments
