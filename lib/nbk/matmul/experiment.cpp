// Seed 003's matmulcore gufunc, (m,n),(n,p)->(m,p): C = A B for float32 matrices, 1024 x 1024
// by default (ours: the document gives no size and no figure), as one thread per element of C
// and as tiles staged in team scratch (CUDA's shared memory) on every space, against i-k-j
// loops on one host thread; every product is checked against a double-precision reference
// (problem.hpp).
#include <array>
#include <cstdint>
#include <vector>

#include "nbk/core/allocate.hpp"
#include "nbk/core/memory.hpp"
#include "nbk/experiment/arrays.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/notes.hpp"
#include "nbk/matmul/kernels.hpp"
#include "nbk/matmul/problem.hpp"
#include "nbk/matmul/register_tiled.hpp"
#include "nbk/matmul/vendor.hpp"

namespace nbk::matmul {

namespace {

using exp::Size;

struct Spec : exp::ArraysSpec<Spec, Problem> {
  static constexpr const char* label = "nbk::matmul";
  static constexpr const char *in_words = "A and B", *out_words = "C";
  static Traffic traffic(const Size& s) {
    Traffic t;
    t.bytes_read = bytes_of({{rows(s), inner(s)}, {inner(s), columns(s)}});
    t.bytes_written = bytes_of({{rows(s), columns(s)}});
    t.flops = 2 * static_cast<std::uint64_t>(s.elements());  // m n p < 2^63 (parse_size)
    t.flop_bytes = sizeof(float);
    return t;
  }
  template <class Space>
  static constexpr bool has_vendor = matmul::has_vendor_gemm<Space>;  // cuBLAS on CUDA

  // A and B in Space's memory (copied in by the case), and C.
  template <class Space>
  struct Data {
    using Out = matmul::Matrix<typename Space::memory_space>;
    Data(const Problem& p, const Row&) : out(allocate<Out>("nbk::matmul::c", rows(p.size), columns(p.size))) {}
    static std::array<HostMatrix, 2> inputs(const Problem& p) { return {p.a, p.b}; }
    static exp::Footprint footprint(const Size& s, const Told&) {
      const std::uint64_t c = bytes_of({{rows(s), columns(s)}});
      const std::uint64_t all = bytes_of({{rows(s), inner(s)}, {inner(s), columns(s)}, {rows(s), columns(s)}});
      return is_device_space_v<Space> ? exp::Footprint{c, all} : exp::Footprint{all, 0};
    }
    Out out;
  };
  // The same with the vendor's handle, made with the case.
  template <class Space>
  struct VendorData : Data<Space> {
    using Data<Space>::Data;
    matmul::VendorGemm<Space> gemm;
  };
  // C in host memory, for a row outside Kokkos.
  struct HostData {
    HostData(const Problem& p, const Row&) : out("nbk::matmul::c", rows(p.size), columns(p.size)) {}
    static exp::Footprint footprint(const Size& s, const Told&) { return {bytes_of({{rows(s), columns(s)}}), 0}; }
    HostMatrix out;
  };

  template <class Out>
  static exp::Verdict check(const Problem& p, const Row&, const Out& c) {
    return product_verdict(p, c.data());
  }
};

// The host baseline, the kernels on every space and cuBLAS where the space has it, and OpenBLAS
// last (why they stay below memcpy: notes.md).
std::vector<Spec::Row> table() {
  using Row = Spec::Row;
  const Row host = Row{"host", exp::on_host<Spec>([](const Problem& p, auto& d) {
                         matmul::host_matmul(p.a.data(), p.b.data(), d.out.data(), rows(p.size), inner(p.size),
                                             columns(p.size));
                       })}.moving("i-k-j loops on one host thread, host memory");
  const auto plain = [](auto& exec, auto& in, auto& d) { matmul::plain_matmul(exec, in[0], in[1], d.out); };
  const auto naive = [](auto& exec, auto& in, auto& d) { matmul::naive(exec, in[0], in[1], d.out); };
  const auto tiled = [](auto& exec, auto& in, auto& d) { matmul::tiled(exec, in[0], in[1], d.out); };
  const auto registers = [](auto& exec, auto& in, auto& d) { matmul::register_tiled(exec, in[0], in[1], d.out); };
  const auto blas = [](auto& exec, auto& in, auto& d) { d.gemm.multiply(exec, in[0], in[1], d.out); };
  return {
      host,
      Row{"plain", exp::on_spaces<Spec>(plain)}.against(host),
      Row{"naive", exp::on_spaces<Spec>(naive)}.against(host),
      Row{"tiled", exp::on_spaces<Spec>(tiled)}.against(host),
      // Ours: 8 x 4 of C a thread in registers, 128 x 64 tiles (register_tiled.hpp).
      Row{"register-tiled", exp::on_spaces<Spec>(registers)}.against(host),
      Row{"blas", exp::on_spaces<Spec, Spec::VendorData, exp::Where::vendor_spaces>(blas)}.against(host),
#if defined(NBK_HAVE_OPENBLAS)
      // OpenBLAS's threads take every core: judged by OpenMP's probes (none in a build without
      // OpenMP, so no % columns there), not by one thread's, which it would exceed.
      Row{"blas", exp::on_host<Spec>([](const Problem& p, auto& d) {
            matmul::VendorGemm<matmul::Host>().multiply(p.a, p.b, d.out);
          })}
          .against(host)
          .moving(matmul::VendorGemm<matmul::Host>::name() + ", host memory")
          .judged_by("openmp"),
#endif
  };
}

}  // namespace

exp::Experiment experiment(const exp::Notes& notes) {
  exp::Experiment e = exp::arrays_experiment<Spec>(notes);
  e.rank = 3;
  e.sizes = {Size{1024, 1024, 1024}};
  // Empty C, an empty inner dimension (C all zeros), 1 x 1, and sizes that are not a multiple
  // of any tile, of any depth, or take several stages.
  e.test_sizes = {Size{0, 4, 5}, Size{4, 0, 3}, Size{1, 1, 1},     Size{2, 3, 4},
                  Size{17, 33, 5}, Size{65, 1, 70}, Size{130, 257, 67}, Size{3, 600, 2}};
  e.problem_bytes = [](const Size& s) {
    return bytes_of({{rows(s), inner(s)},
                     {inner(s), columns(s)},
                     {rows(s), columns(s), sizeof(double)},
                     {rows(s), columns(s), sizeof(double)}});
  };
  exp::on_every_space(e, table());
  return e;
}

}  // namespace nbk::matmul
