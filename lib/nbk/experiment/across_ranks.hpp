#pragma once
// Variants split across MPI ranks. A workload whose elements are independent (add one, an
// element-wise map) gets its distributed form from a variant it already has: each rank makes
// that variant's case for its own slice (ranks::my_slice), all ranks call it together, and the
// verdict holds only if it holds on every rank. A workload whose ranks must combine results
// (a sum) writes its own case and merges its verdict with merged_over_ranks.
#include <fmt/format.h>

#include <memory>
#include <utility>

#include "nbk/experiment/experiment.hpp"
#include "nbk/ranks/ranks.hpp"

namespace nbk::exp {

// `local` as every rank's verdict: ok only where it is ok on every rank, with the mismatches
// (where the verdict counts them) added over the ranks. Collective.
inline Verdict merged_over_ranks(Verdict local) {
  const bool ok_here = local.ok;
  local.ok = ranks::all(ok_here);
  const auto failing = ranks::sum(std::int64_t{ok_here ? 0 : 1});
  if (local.details.contains("mismatches")) {
    const auto wrong = ranks::sum(local.details["mismatches"].get<std::int64_t>());
    local.details["mismatches"] = wrong;
    if (!local.ok) local.summary = fmt::format("FAILED ({} wrong on {} of {} ranks)", wrong, failing, ranks::count());
  } else if (!local.ok) {
    local.summary = fmt::format("FAILED on {} of {} ranks", failing, ranks::count());
  }
  local.details["ranks"] = ranks::count();
  local.details["failing_ranks"] = failing;
  return local;
}

// The cell and JSON keys that say how a distributed case was split.
inline void describe_split(Verdict& v, std::int64_t largest_slice) {
  v.cells.emplace_back("per rank", fmt::format("{} x {}", largest_slice, ranks::count()));
  v.details["largest_slice"] = largest_slice;
}

// One rank's share of a variant whose elements are independent: the inner case holds only
// this rank's slice and knows nothing of the others.
class SliceCase final : public Case {
 public:
  SliceCase(std::unique_ptr<Case> inner, std::int64_t largest_slice)
      : inner_(std::move(inner)), largest_slice_(largest_slice) {}
  void run() override { inner_->run(); }
  void upload() override { inner_->upload(); }
  void download() override { inner_->download(); }
  void record() override { inner_->record(); }
  Verdict verdict() override {
    Verdict v = merged_over_ranks(inner_->verdict());
    describe_split(v, largest_slice_);
    v.cells.emplace_back("comm", "none");
    return v;
  }

 private:
  std::unique_ptr<Case> inner_;
  std::int64_t largest_slice_;
};

// The distributed form of `v`, a variant of a rank-1 workload whose elements are independent
// and whose make() takes the element count from the Size it is given: named "ranks-<name>".
inline Variant across_ranks(Variant v) {
  v.name = "ranks-" + v.name;
  v.distributed = true;
  v.speedup_against = {};
  auto slice_of = [](const Size& s) { return Size{ranks::my_slice(s.elements()).size()}; };
  if (auto footprint = std::move(v.footprint))
    v.footprint = [footprint, slice_of](const Size& s) { return footprint(slice_of(s)); };
  v.make = [make = std::move(v.make), slice_of](const Problem& p, const Size& s) -> std::unique_ptr<Case> {
    return std::make_unique<SliceCase>(make(p, slice_of(s)), ranks::slice_of(s.elements(), 0, ranks::count()).size());
  };
  return v;
}

}  // namespace nbk::exp
