// The driver, writing a run's rows and sweeps as JSON (driver.hpp).
#include "nbk/experiment/driver.hpp"

namespace nbk::exp {

namespace {
nlohmann::json or_null(const std::optional<double>& value) { return value ? nlohmann::json(*value) : nullptr; }
}  // namespace

nlohmann::json to_json(const Result& r, const Probes& probes) {
  const Variant& v = *r.variant;
  nlohmann::json row = {{"variant", v.name},   {"space", v.space},       {"size", r.size.text()},
                        {"elements", r.size.elements()}, {"moves", v.moves}, {"document", v.document}};
  if (!r.skipped.empty()) {
    row["status"] = "skipped";
    row["reason"] = r.skipped;
    return row;
  }
  const std::string space = reference_space(v);
  row["judged_on"] = space;  // whose probes the fractions divide by
  row["status"] = r.verdict.ok ? "verified" : "failed";
  row["check"] = r.verdict.summary;
  row["first_s"] = r.steady.first;
  row["best_s"] = r.steady.best;
  row["median_s"] = r.steady.median;
  row["repetitions"] = r.steady.repetitions;
  row["first_call_includes"] = v.first_call;
  row["bytes_per_call"] = r.traffic.total();
  row["gb_per_s"] = r.traffic.gb_per_s(r.steady.best);
  if (v.device && v.call_crosses_link) {  // judged by the link, as in the table
    row["fraction_of_kokkos_copy"] = nullptr;
    row["fraction_of_memcpy"] = nullptr;
    row["fraction_of_link"] = or_null(fraction_of(Basis::link, r.traffic, r.steady.best, probes, space));
  } else {
    row["fraction_of_kokkos_copy"] = or_null(fraction_of(Basis::kokkos_copy, r.traffic, r.steady.best, probes, space));
    row["fraction_of_memcpy"] = or_null(fraction_of(Basis::vendor_copy, r.traffic, r.steady.best, probes, space));
  }
  row["elements_per_s"] = elements_per_s(r.size, r.steady.best);
  if (r.traffic.flops) {
    row["flops_per_call"] = r.traffic.flops;
    row["gflop_per_s"] = r.traffic.gflop_per_s(r.steady.best);
    row["flop_precision"] = r.traffic.flop_bytes == sizeof(double) ? "f64" : "f32";
    row["fraction_of_fma_peak"] = or_null(fraction_of(Basis::fma_peak, r.traffic, r.steady.best, probes, space));
  }
  if (r.with_transfers.repetitions > 0)
    row["with_transfers"] = {{"first_s", r.with_transfers.first},
                             {"best_s", r.with_transfers.best},
                             {"median_s", r.with_transfers.median},
                             {"gb_per_s", r.traffic.gb_per_s(r.with_transfers.best)},
                             {"fraction_of_link", or_null(fraction_of(Basis::link, r.traffic, r.with_transfers.best, probes, space))}};
  for (const auto& [key, value] : r.verdict.details.items()) row[key] = value;
  return row;
}

nlohmann::json to_json(const Experiment& experiment, const Result& r, const Probes& probes) {
  nlohmann::json row = to_json(r, probes);
  if (!r.skipped.empty()) return row;
  row["repetitions_planned"] = r.planned_repetitions;
  row["budget_s"] = r.budget_s > 0 ? nlohmann::json(r.budget_s) : nlohmann::json(nullptr);
  row["stopped_early"] = r.stopped_early();
  if (r.with_transfers.repetitions > 0) row["with_transfers"]["repetitions"] = r.with_transfers.repetitions;
  const Limit limit = limit_of(experiment, r, probes);  // the table's % of limit and what binds it
  row["fraction_of_limit"] = or_null(limit.fraction);
  row["limit"] = limit.binds;
  row["limit_level"] = limit.level.empty() ? nlohmann::json(nullptr) : nlohmann::json(limit.level);
  row["ceiling"] = to_json(limit.memory);  // the memory ceiling that judges it (null: none), also where flops bind
  row["ceiling_missing"] = limit.memory.missing.empty() ? nlohmann::json(nullptr) : nlohmann::json(limit.memory.missing);
  // The chain its operations make a thread (null: none, or no chain probe), also where memory binds.
  const auto chain = chain_bound_of(r, probes);
  const double best = r.steady.best > 0 ? r.steady.best : r.steady.first;
  row["chain"] = chain ? nlohmann::json{{"operations", chain_text(r.variant->chain)},
                                        {"links_per_thread", chain->links_per_thread},
                                        {"link_ns", chain->link_ns},
                                        {"fraction", best > 0 ? nlohmann::json(chain->seconds() / best) : nullptr}}
                       : nlohmann::json(nullptr);
  const auto above_limit_reason = above_limit(experiment, r, probes);
  row["fraction_of_limit_because"] = above_limit_reason ? nlohmann::json(*above_limit_reason) : nlohmann::json(nullptr);
  const Variant& v = *r.variant;
  if (v.device && v.call_crosses_link) return row;  // judged by the link
  const Basis basis = fitting_basis(experiment, r);
  row["fitting_probe"] = basis_key(basis);
  row["fraction_of_fitting_probe"] =
      or_null(fraction_of(basis, r.traffic, r.steady.best, probes, reference_space(v)));
  // Always the same keys (a run's figures decide the values, not the shape): null where the row
  // stays within 100% of that reference, else the figure and its reason.
  auto above = [&](Basis b) {
    const auto reason = above_reference(experiment, r, b, probes);
    return reason ? nlohmann::json(*reason) : nlohmann::json(nullptr);
  };
  row["fraction_above_100_because"] = {{"kokkos_copy", above(Basis::kokkos_copy)},
                                       {"memcpy", above(Basis::vendor_copy)},
                                       {"fitting_probe", above(basis)}};
  return row;
}

nlohmann::json to_json(const SweepResult& sweep) {
  nlohmann::json doc = {{"host_variant", sweep.plan.host_variant.name()},
                        {"device_variant", sweep.plan.device_variant.name()},
                        {"host_space", sweep.host_space},
                        {"device_space", sweep.device_space}};
  auto time_or_null = [](const Result& r, bool transfers) -> nlohmann::json {
    if (!r.skipped.empty()) return nullptr;
    return transfers ? r.with_transfers.best : r.steady.best;
  };
  for (const auto& p : sweep.points)
    doc["points"].push_back({{"size", p.size.text()},
                             {"elements", p.size.elements()},
                             {"host_s", time_or_null(p.host, false)},
                             {"device_resident_s", time_or_null(p.device, false)},
                             {"device_with_transfers_s", time_or_null(p.device_with_transfers, true)}});
  auto crossover_json = [](const std::optional<Size>& s) -> nlohmann::json {
    if (!s) return nullptr;
    return {{"size", s->text()}, {"elements", s->elements()}};
  };
  doc["device_wins_from_resident"] = crossover_json(sweep.resident_crossover);
  doc["device_wins_from_with_transfers"] = crossover_json(sweep.transfers_crossover);
  doc["note"] = sweep.device_space.empty() ? "the host wins at every size: no device in this build"
                                           : "null: the host wins at the largest size";
  doc["verified"] = sweep.verified;
  return doc;
}

}  // namespace nbk::exp
