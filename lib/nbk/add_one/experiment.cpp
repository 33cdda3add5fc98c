// Seed 000: add one to every element of a 2^31-element int32 array, on one CPU thread, on
// every CPU thread, and on the GPU with implicit, explicit, overlapped and pipelined transfers, timed
// on the first and the second call as the document does.
#include <fmt/format.h>

#include <ostream>

#include "nbk/add_one/methods.hpp"
#include "nbk/core/memory.hpp"
#include "nbk/experiment/notes.hpp"
#include "notes_outline.hpp"  // generated from notes.md (lib/CMakeLists.txt)
#include "nbk/experiment/across_ranks.hpp"

namespace nbk::add_one {

namespace {

using add_one::array_bytes;
using exp::Size;

// Nothing is shared between the methods: each makes its own array of zeros.
struct Problem final : exp::Problem {
  std::int64_t n = 0;
  void describe(std::ostream& out) const override {
    out << fmt::format("add one to {} int32 elements ({}); every element checked after every call\n", n,
                       format_bytes(array_bytes(n)));
  }
};

// The case for the size it is given: the whole array, or one rank's slice of it.
template <class Make>
exp::CaseMaker make_case(Make make) {
  return exp::maker<Problem>([make](const Problem&, const Size& s) { return make(s.elements()); });
}

// Resident on Space: the data stays in the space's memory, no copy in a call.
template <class Space>
exp::Variant resident_variant() {
  const bool device = is_device_space_v<Space>;
  exp::Variant resident{"resident"};
  resident.moves = device ? "none: the data stays on the GPU (the floor for the transfer methods)"
                          : "none (host memory; pages first-touched before timing by the same threads)";
  resident.first_call = device ? "module load (and PTX JIT where the build has no code for this GPU)" : "";
  resident.document = std::is_same_v<Space, SerialOrNone> ? "njit, 1 CPU: 4.62 s / 629 ms" : "";
  // The array in the space's memory, and a host copy to check it (a host space checks in place).
  resident.footprint = exp::arrays_of<Space, add_one::Element>(1, device ? 1 : 0);
  resident.make = make_case([](std::int64_t n) { return std::make_unique<add_one::Resident<Space>>(n); });
  return resident;
}

// The documents' two-device runs: the array split across MPI ranks, each rank's slice on
// its own space (its own GPU where there are several), no communication in a call.
template <class Space>
void add_across_ranks(std::vector<exp::Variant>& variants, exp::Variant v, const char* document) {
  v.document = document;
  if constexpr (ranks::enabled) variants.push_back(exp::across_ranks(exp::on<Space>(std::move(v))));
}

// On a device, the ways to bring the array to the kernel and back: managed memory (with and
// without a prefetch), explicit copies, two streams, a pipeline; their first call pays what
// the resident one's does.
template <class Space>
void add_transfer_variants(std::vector<exp::Variant>& variants, const std::string& first_call) {
  exp::Variant managed{"managed"};
  managed.moves = "implicit: managed pages migrate to the GPU on fault, and back when the host reads the result";
  managed.first_call = first_call;
  managed.document = "cuda.jit implicit, 1 GPU: 6.22 s / 2.86 s (2 GPUs: 4.87 s / 1.72 s)";
  managed.call_crosses_link = true;
  managed.footprint = exp::arrays_of<Space, add_one::Element>(1, 1);  // a host and a device array
  managed.make = make_case([](std::int64_t n) { return std::make_unique<add_one::Managed<Space>>(n, false); });
  variants.push_back(exp::on<Space>(managed));

  exp::Variant prefetch = managed;
  prefetch.name = "managed-prefetch";
  prefetch.moves = "implicit, with cudaMemPrefetchAsync to the GPU before the kernel";
  prefetch.document = "";
  prefetch.make = make_case([](std::int64_t n) { return std::make_unique<add_one::Managed<Space>>(n, true); });
  variants.push_back(exp::on<Space>(prefetch));

  exp::Variant explicit_copies{"explicit"};
  explicit_copies.moves = "explicit: deep_copy in, kernel, deep_copy out (pageable host memory)";
  explicit_copies.first_call = first_call;
  explicit_copies.call_crosses_link = true;
  explicit_copies.footprint = exp::arrays_of<Space, add_one::Element>(1, 1);
  explicit_copies.make = make_case([](std::int64_t n) { return std::make_unique<add_one::Explicit<Space>>(n); });
  variants.push_back(exp::on<Space>(explicit_copies));

  exp::Variant split = explicit_copies;
  split.name = "split-streams";
  split.moves = "explicit, two halves on two CUDA streams, pinned host memory, copies overlap kernels";
  split.document = "cuda.jit explicit, 2 GPUs: 3.6 s / 3.15 s, second result wrong";
  split.make = make_case([](std::int64_t n) { return std::make_unique<add_one::SplitStreams<Space>>(n, 2); });
  variants.push_back(exp::on<Space>(split));

  exp::Variant pipelined = split;
  pipelined.name = "pipelined";
  pipelined.moves = "explicit, 16 parts taking turns on two CUDA streams, pinned host memory: copies both ways at once";
  pipelined.document = "";
  pipelined.make = make_case([](std::int64_t n) { return std::make_unique<add_one::SplitStreams<Space>>(n, 16); });
  variants.push_back(exp::on<Space>(pipelined));

  add_across_ranks<Space>(variants, managed, "cuda.jit implicit, 2 GPUs: 4.87 s / 1.72 s");
  add_across_ranks<Space>(variants, explicit_copies, "cuda.jit explicit, 2 GPUs: 3.6 s / 3.15 s, second result wrong");
}

template <class Space>
void add_variants(std::vector<exp::Variant>& variants) {
  const exp::Variant resident = resident_variant<Space>();
  variants.push_back(exp::on<Space>(resident));
  add_across_ranks<Space>(variants, resident, "");
  if constexpr (is_device_space_v<Space>) add_transfer_variants<Space>(variants, resident.first_call);
}

}  // namespace

exp::Experiment experiment(const exp::Notes& notes) {
  exp::Experiment e = exp::stated(notes);
  e.sizes = {Size{std::int64_t{1} << 31}};
  e.test_sizes = {Size{0}, Size{1}, Size{3}, Size{1001}, Size{65537}};
  e.bench_sizes = {Size{std::int64_t{1} << 20}, Size{std::int64_t{1} << 26}};
  e.repetitions = 1;  // the document times a first and a second call
  e.traffic = [](const Size& s) { return read_modify_write_traffic<add_one::Element>(s.elements()); };
  e.in_place = true;  // a[i] += 1: judged by the in-place probe
  e.make_problem = [](const Size& s, const exp::Settings&) {
    auto p = std::make_shared<Problem>();
    p->n = s.elements();
    return p;
  };
  for_each_enabled_space([&](auto tag) { add_variants<typename decltype(tag)::type>(e.variants); });
  if (ranks::enabled) e.notes += "\n" + notes.section(NBK_HEADING("## Notes under MPI"));
  return e;
}

}  // namespace nbk::add_one
