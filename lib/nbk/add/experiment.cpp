// Seed 003: out = x + y with x = arange(n), y = 2x. At the document's 4 and 16 int64
// elements a call is all overhead (its time is the time per call); at its 100,000 float32
// elements it is called three ways: on host arrays (the with-transfers column), on device
// arrays into a new output every call, and on device arrays into a reused output (out=); the
// same float32 add as its grid-stride kernel on 30 blocks of 128 threads; and 2^24 elements,
// the size of the CUDA C guide's VecAdd (ours).
#include <fmt/format.h>

#include <memory>
#include <ostream>
#include <string>

#include "nbk/add/kernels.hpp"
#include "nbk/core/memory.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/map_case.hpp"

namespace nbk::experiments {

namespace {

using exp::Size;
template <class T>
using HostArray = Kokkos::View<T*, Kokkos::HostSpace>;

inline constexpr add::GridShape document_grid{30, 128};  // blocks_per_grid, threads_per_block

struct Problem final : exp::Problem {
  std::int64_t n = 0;
  HostArray<std::int64_t> x64, y64;
  HostArray<float> x32, y32;
  void describe(std::ostream& out) const override {
    out << fmt::format("out = x + y, x = arange({}), y = 2 x, in int64 and float32\n", n);
  }
  nlohmann::json to_json() const override { return {{"x", "arange(n)"}, {"y", "2 x"}}; }
  template <class T>
  const HostArray<T>& x() const {
    if constexpr (std::is_same_v<T, float>) return x32; else return x64;
  }
  template <class T>
  const HostArray<T>& y() const {
    if constexpr (std::is_same_v<T, float>) return y32; else return y64;
  }
};

// Exact: the host adds the same two numbers of the same type, and a sum rounds one way.
template <class T>
exp::Verdict check(const Problem& p, const T* out) {
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < p.n; ++i) wrong += !(out[i] == static_cast<T>(p.x<T>()(i) + p.y<T>()(i)));
  return exp::mismatch_verdict(wrong);
}

template <class T>
std::string type_name() { return std::is_same_v<T, float> ? "f32" : "i64"; }

enum class Launch { range, grid_stride };

template <class Space, class T>
exp::Variant on_space(exp::Output output, Launch launch) {
  using Case = exp::MapCase<Space, HostArray<T>, 2>;
  const bool fresh = output == exp::Output::fresh_every_call;
  exp::Variant v = exp::map_variant<Space>(
      type_name<T>() + (fresh ? "-new" : "") + (launch == Launch::grid_stride ? "-grid-stride" : ""), "x and y", "out");
  if (fresh) v.moves += "; out allocated by every call";
  if (launch == Launch::grid_stride)
    v.document = "add_kernel[30, 128] (no figure)";
  else
    v.document = fresh ? "add_ufunc(x_device, y_device) (no figure)" : "add_ufunc(x_device, y_device, out=out_device) (no figure)";
  v.footprint = exp::arrays_of<Space, T>(3, 1);  // x, y, out and out's host mirror
  v.traffic = [](const Size& s) { return binary_map_traffic<T>(s.elements()); };
  v.speedup_against = "host-" + type_name<T>();
  v.make = exp::maker<Problem>([output, launch](const Problem& p, const Size&) {
    auto shape = std::make_shared<add::GridShape>();  // the grid-stride kernel's launch, as run
    return std::make_unique<Case>(
        "nbk::add", std::array{p.x<T>(), p.y<T>()},
        [launch, shape](const Space& exec, const typename Case::Arrays& in, const typename Case::Array& out) {
          if (launch == Launch::grid_stride)
            *shape = add::grid_stride_add(exec, in[0], in[1], out, document_grid);
          else
            add::range_add(exec, in[0], in[1], out);
        },
        [&p, shape](const typename Case::Result& out) {
          exp::Verdict v = check(p, out.data());
          if (shape->blocks > 0) {
            v.cells = {{"launch", fmt::format("{} x {}", shape->blocks, shape->threads)}};
            v.details["launch"] = {shape->blocks, shape->threads};
          }
          return v;
        },
        output);
  });
  return v;
}

template <class T>
exp::Variant host_loop() {
  exp::Variant v{"host-" + type_name<T>()};
  v.space = "host";
  v.moves = "one host thread, host memory";
  v.footprint = exp::arrays_of<Kokkos::DefaultHostExecutionSpace, T>(1);  // out
  v.traffic = [](const Size& s) { return binary_map_traffic<T>(s.elements()); };
  v.make = exp::maker<Problem>([](const Problem& p, const Size&) {
    return std::make_unique<exp::HostLoopCase<HostArray<T>>>(
        HostArray<T>("nbk::add::out", p.n),
        [&p](const HostArray<T>& out) { add::host_loop(p.x<T>().data(), p.y<T>().data(), out.data(), p.n); },
        [&p](const HostArray<T>& out) { return check(p, out.data()); });
  });
  return v;
}

void explain(std::ostream& out, const exp::Problem&) {
  out << "\nGB/s counts 3 elements per index (x and y read, out written): 24 bytes in int64, 12 in float32.\n"
         "At 4 and 16 elements the time is the cost of one call: a kernel launch and a fence, plus on a\n"
         "GPU the transfers' own launches; no GB/s means anything there. -new rows allocate out in every\n"
         "call (a ufunc called without out=); their difference from the plain rows is what reusing an\n"
         "output buffer saves. On a host that is small while malloc recycles the block, and large once\n"
         "the output passes glibc's mmap threshold (32 MiB at most): every call then gets fresh pages\n"
         "from the kernel and faults on its first write to each one.\n"
         "-grid-stride rows run the document's 30 x 128 grid. On a GPU its 3,840 threads each walk the\n"
         "array in coalesced steps of 3,840 elements. On a CPU a team has at most the threads of a core\n"
         "(1 on Serial; the launch column shows what ran), so the grid becomes 30 teams of 1 or 2, and\n"
         "each team's walk touches every 30th or 60th element: a 64-byte cache line loaded for every 4\n"
         "bytes used, and 15 to 30 passes over the array per core.\n"
         "\nWhere the document goes wrong: its rule of thumb, a grid of 2-4x the number of multiprocessors,\n"
         "would give 264-528 blocks on a 132-SM H100; its 30 blocks of 128 threads keep 3,840 threads\n"
         "busy, 1.4% of the 270,336 such a card holds, too few loads in flight to approach its memory\n"
         "bandwidth (compare the -grid-stride row with the plain one on a GPU).\n";
}

}  // namespace

exp::Experiment add() {
  exp::Experiment e;
  e.name = "add";
  e.title = "out = x + y in int64 and float32: the cost of a call at 4 and 16 elements, device arrays, "
            "a new or a reused output, and the document's 30 x 128 grid-stride kernel, against one host thread";
  e.document = "seed 003";
  e.sizes = {Size{4}, Size{16}, Size{100000}, Size{std::int64_t{1} << 24}};
  e.size_help = "The document's 4, 16 (its int64 ufunc) and 100000 (float32, the output buffers and the "
                "grid-stride kernel); 2^24 is ours (the size of the CUDA C guide's VecAdd).";
  e.test_sizes = {Size{0}, Size{1}, Size{4}, Size{127}, Size{3841}, Size{100000}};
  e.bench_sizes = {Size{16}, Size{100000}, Size{std::int64_t{1} << 24}};
  e.traffic = [](const Size& s) { return binary_map_traffic<std::int64_t>(s.elements()); };
  e.problem_bytes = [](const Size& s) {
    return static_cast<std::uint64_t>(s.elements()) * 2 * (sizeof(std::int64_t) + sizeof(float));
  };
  e.make_problem = [](const Size& s, const exp::Settings&) {
    auto p = std::make_shared<Problem>();
    const std::int64_t n = p->n = s.elements();
    using Kokkos::WithoutInitializing, Kokkos::view_alloc;
    p->x64 = HostArray<std::int64_t>(view_alloc(WithoutInitializing, "nbk::add::x64"), n);
    p->y64 = HostArray<std::int64_t>(view_alloc(WithoutInitializing, "nbk::add::y64"), n);
    p->x32 = HostArray<float>(view_alloc(WithoutInitializing, "nbk::add::x32"), n);
    p->y32 = HostArray<float>(view_alloc(WithoutInitializing, "nbk::add::y32"), n);
    for (std::int64_t i = 0; i < n; ++i) {
      p->x64(i) = i;
      p->y64(i) = 2 * i;
      p->x32(i) = static_cast<float>(i);  // np.arange(n).astype(np.float32)
      p->y32(i) = 2 * p->x32(i);
    }
    return p;
  };
  e.variants.push_back(host_loop<std::int64_t>());
  e.variants.push_back(host_loop<float>());
  for_each_enabled_space([&](auto tag) {
    using Space = typename decltype(tag)::type;
    using exp::Output;
    e.variants.push_back(on_space<Space, std::int64_t>(Output::reused, Launch::range));
    e.variants.push_back(on_space<Space, std::int64_t>(Output::fresh_every_call, Launch::range));
    e.variants.push_back(on_space<Space, float>(Output::reused, Launch::range));
    e.variants.push_back(on_space<Space, float>(Output::fresh_every_call, Launch::range));
    e.variants.push_back(on_space<Space, float>(Output::reused, Launch::grid_stride));
  });
  e.explain = explain;
  return e;
}

}  // namespace nbk::experiments
