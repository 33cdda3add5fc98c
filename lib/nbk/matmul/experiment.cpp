// Seed 003's matmulcore gufunc, (m,n),(n,p)->(m,p): C = A B for float32 matrices, 1024 x 1024
// by default (ours: the document gives no size and no figure), as one thread per element of C
// and as tiles staged in team scratch (CUDA's shared memory) on every space, against i-k-j
// loops on one host thread; every product is checked against a double-precision reference.
#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "nbk/core/allocate.hpp"
#include "nbk/core/compat.hpp"
#include "nbk/core/memory.hpp"
#include "nbk/core/random_data.hpp"
#include "nbk/experiment/experiment.hpp"
#include "nbk/experiment/notes.hpp"
#include "nbk/experiment/arrays_spec.hpp"
#include "nbk/matmul/kernels.hpp"
#include "nbk/matmul/register_tiled.hpp"
#include "nbk/matmul/vendor.hpp"
#include "notes_outline.hpp"  // generated from notes.md (lib/CMakeLists.txt)

namespace nbk::matmul {

namespace {

using exp::Size;
using HostMatrix = matmul::Matrix<Kokkos::HostSpace>;
using HostDoubles = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;

// A size is m x n x p: A is m x n, B is n x p, C is m x p.
Index rows(const Size& s) { return s[0]; }
Index inner(const Size& s) { return s[1]; }
Index columns(const Size& s) { return s[2]; }

struct Matrices {
  std::int64_t rows, columns;
  std::uint64_t element_bytes = sizeof(float);
};

// The bytes of some matrices, saturating: parse_size lets m n p reach 2^63, and then m n
// floats do not fit in 64 bits of bytes.
std::uint64_t bytes_of(std::initializer_list<Matrices> matrices) {
  std::uint64_t total = 0;
  for (const Matrices& x : matrices) {
    std::uint64_t bytes = 0;
    if (__builtin_mul_overflow(static_cast<std::uint64_t>(x.rows) * static_cast<std::uint64_t>(x.columns),
                               x.element_bytes, &bytes) ||
        __builtin_add_overflow(total, bytes, &total))
      return std::numeric_limits<std::uint64_t>::max();
  }
  return total;
}

struct Problem final : exp::Problem {
  Size size;
  std::uint64_t seed = 0;
  HostMatrix a, b;                  // N(0, 1): signed, so that the dot products cancel
  HostDoubles reference, magnitude;  // A B and |A| |B|, in double
  void describe(std::ostream& out) const override {
    out << fmt::format("C = A B, float32 row-major A ({} x {}) times B ({} x {}), N(0,1), seed {}; checked against "
                       "A B in double\n",
                       rows(size), inner(size), inner(size), columns(size), seed);
  }
  nlohmann::json to_json() const override {
    return {{"element_type", "float32"}, {"m", rows(size)}, {"n", inner(size)}, {"p", columns(size)}, {"seed", seed}};
  }
};

// Row i of the reference: A B and |A| |B| in double, i-k-j. Plain loops sharing no code with
// the kernels; products of two floats are exact in double, so only the sums round.
void reference_row(const Problem& p, Index i) {
  const Index n = inner(p.size), columns_of_c = columns(p.size);
  for (Index j = 0; j < columns_of_c; ++j) p.reference(i, j) = p.magnitude(i, j) = 0;
  for (Index k = 0; k < n; ++k) {
    const double aik = p.a(i, k);
    for (Index j = 0; j < columns_of_c; ++j) {
      const double term = aik * p.b(k, j);
      p.reference(i, j) += term;
      p.magnitude(i, j) += std::abs(term);
    }
  }
}

// A float32 dot product of length n, summed in any order, with or without fused multiply-
// adds, is within gamma_n = n u / (1 - n u) of the exact one relative to sum_k |a_ik b_kj|
// (Higham, Accuracy and Stability of Numerical Algorithms, section 3.1), u = 2^-24; the
// double reference is within about n 2^-53 of that sum, far below. Right products land near
// sqrt(n) u; a lost or repeated term, about sum / n for these data, exceeds the bound for n
// below 2^12, and an element never written stays NaN and fails any bound.
exp::Verdict check(const Problem& p, const float* c) {
  const double u = std::numeric_limits<float>::epsilon() / 2;
  const double nu = static_cast<double>(inner(p.size)) * u;
  const double gamma = nu < 1 ? nu / (1 - nu) : std::numeric_limits<double>::infinity();
  std::int64_t wrong = 0;
  double worst = 0;  // the largest error, in units of u sum_k |a_ik b_kj|
  const Index elements = rows(p.size) * columns(p.size);
  for (Index e = 0; e < elements; ++e) {
    const double error = std::abs(static_cast<double>(c[e]) - p.reference.data()[e]);
    const double magnitude = p.magnitude.data()[e];
    if (!(error <= gamma * magnitude)) ++wrong;
    if (magnitude > 0) worst = std::max(worst, error / (u * magnitude));
  }
  exp::Verdict v;
  v.ok = wrong == 0;
  v.summary = v.ok ? "ok" : fmt::format("FAILED ({} beyond n u)", wrong);
  v.cells = {{"error / u|A||B|", fmt::format("{:.2f}", worst)}};
  v.details = {{"mismatches", wrong}, {"max_error_in_u_of_magnitude", worst}, {"tolerance_in_u", gamma / u}};
  return v;
}

struct Spec : exp::ArraysSpec<Spec, Problem> {
  static constexpr const char* label = "nbk::matmul";
  static constexpr const char* inputs_moved = "A and B";
  static constexpr const char* output_moved = "C";
  template <class Space>
  static constexpr bool has_vendor = matmul::has_vendor_gemm<Space>;  // cuBLAS on CUDA
  using Row = exp::ArraysRow<Spec>;

  // A and B in Space's memory (copied in by the case), and C.
  template <class Space>
  struct Data {
    using Out = matmul::Matrix<typename Space::memory_space>;
    Data(const Problem& p, const Row&) : out(exp::allocate<Out>("nbk::matmul::c", rows(p.size), columns(p.size))) {}
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
  static exp::Verdict judge(const Problem& p, const Row&, const Out& c) {
    return check(p, c.data());
  }
};

// The host baseline, the kernels on every space and cuBLAS where the space has it, and OpenBLAS
// last; `bound_by_arithmetic`: why the space rows stay below memcpy (notes.md).
std::vector<Spec::Row> table(const std::string& bound_by_arithmetic) {
  const Spec::Row host = {"host", exp::on_host<Spec, Spec::HostData>([](const Problem& p, auto& d) {
                            matmul::host_matmul(p.a.data(), p.b.data(), d.out.data(), rows(p.size), inner(p.size),
                                                columns(p.size));
                          }),
                          {}, {}, "i-k-j loops on one host thread, host memory"};
  const auto naive = [](auto& exec, auto& in, auto& d) { matmul::naive(exec, in[0], in[1], d.out); };
  const auto tiled = [](auto& exec, auto& in, auto& d) { matmul::tiled(exec, in[0], in[1], d.out); };
  const auto registers = [](auto& exec, auto& in, auto& d) { matmul::register_tiled(exec, in[0], in[1], d.out); };
  const auto blas = [](auto& exec, auto& in, auto& d) { d.gemm.multiply(exec, in[0], in[1], d.out); };
  return {
      host,
      Spec::Row{"naive", exp::on_spaces<Spec, Spec::Data>(naive), {}, host}.below_memcpy(bound_by_arithmetic),
      Spec::Row{"tiled", exp::on_spaces<Spec, Spec::Data>(tiled), {}, host}.below_memcpy(bound_by_arithmetic),
      // Ours: 8 x 8 of C a thread in registers, 128 x 128 tiles (register_tiled.hpp).
      Spec::Row{"register-tiled", exp::on_spaces<Spec, Spec::Data>(registers), {}, host}
          .below_memcpy(bound_by_arithmetic),
      Spec::Row{"blas", exp::on_spaces<Spec, Spec::VendorData, exp::Where::vendor_spaces>(blas), {}, host}
          .below_memcpy(bound_by_arithmetic),
#if defined(NBK_HAVE_OPENBLAS)
      // OpenBLAS's threads take every core: judged by OpenMP's probes (none in a build without
      // OpenMP, so no % columns there), not by one thread's, which it would exceed.
      Spec::Row{"blas", exp::on_host<Spec, Spec::HostData>([](const Problem& p, auto& d) {
                  matmul::VendorGemm<matmul::Host>().multiply(p.a, p.b, d.out);
                }),
                {}, host, matmul::VendorGemm<matmul::Host>::name() + ", host memory"}
          .judged_by("openmp"),
#endif
  };
}

}  // namespace

exp::Experiment experiment(const exp::Notes& notes) {
  exp::Experiment e = exp::stated(notes);
  e.rank = 3;
  e.sizes = {Size{1024, 1024, 1024}};
  // Empty C, an empty inner dimension (C all zeros), 1 x 1, and sizes that are not a multiple
  // of any tile, of any depth, or take several stages.
  e.test_sizes = {Size{0, 4, 5}, Size{4, 0, 3}, Size{1, 1, 1},     Size{2, 3, 4},
                  Size{17, 33, 5}, Size{65, 1, 70}, Size{130, 257, 67}, Size{3, 600, 2}};
  e.seeded = true;
  e.traffic = [](const Size& s) {
    Traffic t;
    t.bytes_read = bytes_of({{rows(s), inner(s)}, {inner(s), columns(s)}});
    t.bytes_written = bytes_of({{rows(s), columns(s)}});
    t.flops = 2 * static_cast<std::uint64_t>(s.elements());  // m n p < 2^63 (parse_size)
    t.flop_bytes = sizeof(float);
    return t;
  };
  e.problem_bytes = [](const Size& s) {
    return bytes_of({{rows(s), inner(s)},
                     {inner(s), columns(s)},
                     {rows(s), columns(s), sizeof(double)},
                     {rows(s), columns(s), sizeof(double)}});
  };
  e.make_problem = [](const Size& s, const exp::Settings& settings) {
    auto p = std::make_shared<Problem>();
    p->size = s;
    p->seed = settings.seed;
    p->a = allocate<HostMatrix>("nbk::matmul::a", rows(s), inner(s));
    p->b = allocate<HostMatrix>("nbk::matmul::b", inner(s), columns(s));
    p->reference = allocate<HostDoubles>("nbk::matmul::reference", rows(s), columns(s));
    p->magnitude = allocate<HostDoubles>("nbk::matmul::magnitude", rows(s), columns(s));
    fill_standard_normal(p->a.data(), rows(s) * inner(s), settings.seed);
    fill_standard_normal(p->b.data(), inner(s) * columns(s), settings.seed + 1);
    // A plain host lambda: the rows of the reference, in parallel on the host threads.
    const Problem& problem = *p;
    Kokkos::parallel_for("nbk::matmul::reference", range(Kokkos::DefaultHostExecutionSpace(), 0, rows(s)),
                         [&problem](Index i) { reference_row(problem, i); });
    nbk::fence(Kokkos::DefaultHostExecutionSpace(), "nbk::matmul::reference");
    return p;
  };
  exp::on_every_space(e, table(notes.line(NBK_HEADING("## Below memcpy: naive, tiled and blas"))));
  return e;
}

}  // namespace nbk::matmul
