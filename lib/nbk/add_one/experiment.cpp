// Seed 000: add one to every element of a 2^31-element int32 array, on one CPU thread, on
// every CPU thread, and on the GPU with implicit, explicit, overlapped and pipelined transfers, timed
// on the first and the second call as the document does.
#include <fmt/format.h>

#include <ostream>
#include <vector>

#include "nbk/add_one/methods.hpp"
#include "nbk/core/memory.hpp"
#include "nbk/experiment/arrays.hpp"
#include "nbk/experiment/notes.hpp"
#include "notes_outline.hpp"  // generated from notes.md (lib/CMakeLists.txt)

namespace nbk::add_one {

namespace {

using add_one::array_bytes;
using exp::Size;

// Nothing is shared between the methods: each makes its own array of zeros.
struct Problem final : exp::Problem {
  explicit Problem(std::int64_t elements) : n(elements) {}
  std::int64_t n = 0;
  void describe(std::ostream& out) const override {
    out << fmt::format("add one to {} int32 elements ({}); every element checked after every call\n", n,
                       format_bytes(array_bytes(n)));
  }
};

// Its methods as rows: cases of their own (methods.hpp), made for the size they are given (the
// whole array, or one rank's slice of it).
struct Spec : exp::ArraysSpec<Spec, Problem> {
  static constexpr const char* first_call = "module load (and PTX JIT where the build has no code for this GPU)";
  static constexpr bool timed_with_transfers = false;  // a call is what the method moves
  static Traffic traffic(const Size& s) { return read_modify_write_traffic<add_one::Element>(s.elements()); }
  // The array in the space's memory, and a host copy to check it (a host space checks in place).
  template <class Space>
  static exp::Footprint footprint(const Size& s, const Told&) {
    const std::uint64_t array = array_bytes(s.elements());
    return is_device_space_v<Space> ? exp::Footprint{array, array} : exp::Footprint{array, 0};
  }
};
using Row = Spec::Row;

// Resident on every space: the data stays in the space's memory, no copy in a call (plain: the
// same, its kernel the document's as Kokkos' documentation writes it). On a device, the ways to
// bring the array to the kernel and back: managed memory (with and without a prefetch),
// explicit copies, two streams, a pipeline. Then the documents' two-device runs: the
// array split across MPI ranks, each rank's slice on its own space (its own GPU where there are
// several), no communication in a call. The documents' figures for them: notes.md, Figures.
std::vector<Row> table() {
  using exp::Where;
  constexpr Where device = Where::device_spaces;
  const auto plain = [](const auto& exec, const auto& v) { plain_increment(exec, v); };
  const Row resident = Row{"resident", exp::cases_on<Spec, add_one::Resident>()}.moving(
      {"none (host memory; pages first-touched before timing by the same threads)",
       "none: the data stays on the GPU (the floor for the transfer methods)"});
  const Row managed = Row{"managed", exp::cases_on<Spec, add_one::Managed, device>(add_one::Prefetch::none)}
                          .moving("implicit: managed pages migrate to the GPU on fault, and back when the host "
                                  "reads the result")
                          .crossing_link();
  const Row explicit_copies = Row{"explicit", exp::cases_on<Spec, add_one::Explicit, device>()}
                                  .moving("explicit: deep_copy in, kernel, deep_copy out (pageable host memory)")
                                  .crossing_link();
  return {
      Row{"plain", exp::cases_on<Spec, add_one::Resident>(plain)}.moving(
          "none, as resident; parallel_for as Kokkos' documentation writes it: a KOKKOS_LAMBDA, one int32 a call"),
      resident,
      resident.runs(Where::across_ranks),
      managed,
      Row{"managed-prefetch", exp::cases_on<Spec, add_one::Managed, device>(add_one::Prefetch::to_device)}
          .moving("implicit, with cudaMemPrefetchAsync to the GPU before the kernel")
          .crossing_link(),
      explicit_copies,
      Row{"split-streams", exp::cases_on<Spec, add_one::SplitStreams, device>(2)}
          .moving("explicit, two halves on two CUDA streams, pinned host memory, copies overlap kernels")
          .crossing_link(),
      Row{"pipelined", exp::cases_on<Spec, add_one::SplitStreams, device>(16)}
          .moving("explicit, 16 parts taking turns on two CUDA streams, pinned host memory: copies both ways at once")
          .crossing_link(),
      managed.runs(Where::across_ranks),
      explicit_copies.runs(Where::across_ranks),
  };
}

}  // namespace

exp::Experiment experiment(const exp::Notes& notes) {
  exp::Experiment e = exp::arrays_experiment<Spec>(notes);
  e.problem_bytes = nullptr;  // the Problem holds no array: each method makes its own
  e.sizes = {Size{std::int64_t{1} << 31}};
  e.test_sizes = {Size{0}, Size{1}, Size{3}, Size{1001}, Size{65537}};
  e.bench_sizes = {Size{std::int64_t{1} << 20}, Size{std::int64_t{1} << 26}};
  e.repetitions = 1;  // the document times a first and a second call
  e.in_place = true;  // a[i] += 1: judged by the in-place probe
  exp::on_every_space(e, table());
  if (ranks::enabled) e.notes += "\n" + notes.section(NBK_HEADING("## Notes under MPI"));
  return e;
}

}  // namespace nbk::add_one
