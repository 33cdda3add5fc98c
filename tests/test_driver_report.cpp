// The driver's report: device rows below 90% of the device's memcpy are listed with a reason.
// Synthetic results, so that it is checked without a GPU.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include "nbk/core/timer.hpp"
#include "nbk/experiment/driver.hpp"

namespace {

using nbk::exp::Experiment;
using nbk::exp::Result;
using nbk::exp::Variant;

Variant device_variant(const std::string& name, const std::string& because = "") {
  Variant v{name};
  v.space = "cuda";
  v.device = true;
  v.below_memcpy_because = because;
  return v;
}

// 1 GB per call at `seconds`: 1 / seconds GB/s against a memcpy of 100 GB/s.
Result result_of(const Variant& v, double seconds) {
  Result r;
  r.variant = &v;
  r.size = nbk::exp::Size{1000};
  r.steady = {seconds, seconds, seconds, 1};
  r.verdict.ok = true;
  r.traffic.bytes_read = 500'000'000;
  r.traffic.bytes_written = 500'000'000;
  return r;
}

std::string report(const std::vector<Result>& results) {
  nbk::Probes probes;
  probes["cuda"].memcpy_gb_per_s = 100;
  probes["cuda"].copy_gb_per_s = 80;
  std::ostringstream out;
  nbk::exp::print_results(out, Experiment{}, results, probes);
  return out.str();
}

TEST(BelowMemcpy, ListsSlowDeviceRowsWithTheirReason) {
  const Variant fast = device_variant("fast"), known = device_variant("known", "the launch is too small");
  const Variant unknown = device_variant("unknown");
  const std::string text = report({result_of(fast, 0.0105), result_of(known, 0.02), result_of(unknown, 0.05)});
  const auto at = text.find("Below 90% of memcpy on the device");
  ASSERT_NE(at, std::string::npos) << text;
  const std::string below = text.substr(at, text.find("\nAbove 100%", at) - at);  // that list only
  EXPECT_EQ(below.find("fast"), std::string::npos) << "95% of memcpy is not listed\n" << below;
  EXPECT_NE(below.find("50%: the launch is too small"), std::string::npos) << below;
  EXPECT_NE(below.find("20%: not established"), std::string::npos) << below;
}

TEST(BelowMemcpy, TinyCallsAreLatencyBound) {
  const Variant tiny = device_variant("tiny", "the launch is too small");
  Result r = result_of(tiny, 10e-6);
  r.traffic.bytes_read = 1000;  // 2 KB in 10 us: far below memcpy
  r.traffic.bytes_written = 1000;
  const std::string text = report({r});
  EXPECT_NE(text.find("launch and fence latency"), std::string::npos) << text;
}

TEST(BelowMemcpy, HostRowsAndLinkCallsAreNotListed) {
  Variant host{"host-loop"};
  host.space = "serial";
  Variant link = device_variant("managed");
  link.call_crosses_link = true;
  const std::string text = report({result_of(host, 1.0), result_of(link, 1.0)});
  EXPECT_EQ(text.find("Below 90% of memcpy"), std::string::npos) << text;
}

// Issue 40: a row's budget. A call of 30 ms with a budget of 50 ms: the first call and the two
// calls every row makes, then no more; with no budget, every repetition.
class Sleeping : public nbk::exp::Case {
 public:
  void run() override { std::this_thread::sleep_for(std::chrono::milliseconds(30)); }
  nbk::exp::Verdict verdict() override { return nbk::exp::mismatch_verdict(0); }
};
class NoProblem : public nbk::exp::Problem {};

TEST(Budget, StopsRepeatingOnceSpentAndSaysSo) {
  Experiment e;
  e.traffic = [](const nbk::exp::Size&) { return nbk::Traffic{1000, 1000}; };
  Variant v{"sleepy"};
  v.space = "serial";
  v.make = [](const nbk::exp::Problem&, const nbk::exp::Size&) { return std::make_unique<Sleeping>(); };
  e.variants = {v};
  const NoProblem problem;
  const Result early = nbk::exp::run_variant(e, e.variants[0], problem, nbk::exp::Size{10}, 5, 0.05);
  EXPECT_EQ(early.steady.repetitions, nbk::exp::min_budget_repetitions);
  EXPECT_EQ(early.planned_repetitions, 5);
  EXPECT_TRUE(early.stopped_early());
  const Result full = nbk::exp::run_variant(e, e.variants[0], problem, nbk::exp::Size{10}, 3, 0);
  EXPECT_EQ(full.steady.repetitions, 3);
  EXPECT_FALSE(full.stopped_early());
  const Result one = nbk::exp::run_variant(e, e.variants[0], problem, nbk::exp::Size{10}, 1, 0.001);
  EXPECT_EQ(one.steady.repetitions, 1);  // fewer asked for than the minimum: all of them
  EXPECT_FALSE(one.stopped_early());

  std::ostringstream out;
  nbk::exp::print_results(out, e, {early, full}, nbk::Probes{});
  EXPECT_NE(out.str().find("2 of 5, budget"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("calls"), std::string::npos) << out.str();
  const auto row = nbk::exp::to_json(e, early, nbk::Probes{});
  EXPECT_EQ(row["stopped_early"], true);
  EXPECT_EQ(row["repetitions"], 2);
  EXPECT_EQ(row["repetitions_planned"], 5);
}

// A CPU row's clock waits for the host spaces only (nbk/core/timer.hpp): in a CUDA build a global
// fence adds a GPU synchronization to every CPU call, which a host-only build's rows never pay.
TEST(Fences, HostRowsWaitForTheHostSpacesOnly) {
  static_assert(nbk::fences_for<Kokkos::DefaultHostExecutionSpace> == nbk::Fences::host_spaces);
#if defined(KOKKOS_ENABLE_CUDA)
  static_assert(nbk::fences_for<Kokkos::Cuda> == nbk::Fences::every_space);
#endif
  const double t = nbk::time_fenced(
      "test", [] { std::this_thread::sleep_for(std::chrono::milliseconds(2)); }, nbk::Fences::host_spaces);
  EXPECT_GE(t, 0.002);
}

// Issue 43: the probe that fits the kernel, and no figure above 100% without its reason.
Result host_result(const Variant& v, double seconds) {
  Result r = result_of(v, seconds);  // 1 GB a call: past any cache
  return r;
}

// Ceilings at memory alone (issue 58), in bytes as the memory moves them: the copy's 15 GB/s is the
// copy probe's 10 counted (a CPU's store reads its line first).
nbk::Ceilings memory_ceilings(double copy, double update, double read, bool stores_allocate = true) {
  nbk::Ceilings c;
  c.stores_allocate = stores_allocate;
  c.verified = true;
  c.levels.push_back({{"DRAM", 0, 1 << 28},
                      {{nbk::TrafficKind::copy, {copy, "Kokkos c = a", 0}},
                       {nbk::TrafficKind::update, {update, "Kokkos b = b + 1", 0}},
                       {nbk::TrafficKind::read, {read, "Kokkos sum of a", 0}}}});
  return c;
}

nbk::Probes host_probes() {
  nbk::Probes probes;
  auto& p = probes["serial"];
  p.copy_gb_per_s = 10;
  p.memcpy_gb_per_s = 10;
  p.in_place_gb_per_s = 25;
  p.dot_gb_per_s = 30;
  p.spread.copy = 0.02;
  p.ceilings = memory_ceilings(15, 25, 30);
  return probes;
}

TEST(FittingProbe, InPlaceRowsAreJudgedByTheInPlaceProbeAndSayWhyTheyBeatACopy) {
  Experiment e;
  e.in_place = true;
  Variant v{"add-one"};
  v.space = "serial";
  const Result r = host_result(v, 0.05);  // 20 GB/s: 200% of the copies, 80% of in place
  EXPECT_EQ(nbk::exp::fitting_basis(e, r), nbk::Basis::in_place);
  std::ostringstream out;
  nbk::exp::print_results(out, e, {r}, host_probes());
  const std::string text = out.str();
  EXPECT_NE(text.find("| 80% DRAM   | memory, in place"), std::string::npos) << text;  // of the in-place ceiling
  EXPECT_EQ(text.find("200%"), std::string::npos) << text;  // the copies' figures stay in the JSON
  EXPECT_EQ(text.find("Above 100%"), std::string::npos) << text;
  const auto row = nbk::exp::to_json(e, r, host_probes());
  EXPECT_EQ(row["fitting_probe"], "in_place");
  EXPECT_NEAR(row["fraction_of_fitting_probe"].get<double>(), 0.8, 1e-9);
  EXPECT_NEAR(row["fraction_of_limit"].get<double>(), 0.8, 1e-9);
  EXPECT_EQ(row["limit"], "memory");
  EXPECT_TRUE(row["fraction_of_limit_because"].is_null());
  const auto& above = row["fraction_above_100_because"];
  EXPECT_TRUE(above["kokkos_copy"].is_string());  // 200% of copy and of memcpy, with their reason
  EXPECT_NE(above["memcpy"].get<std::string>().find("in place"), std::string::npos);
  EXPECT_TRUE(above["fitting_probe"].is_null());  // 80% of the in-place probe
}

// Issue 49: one % of limit a row, the roofline's bound from the same run's probes, and what binds it.
TEST(Limit, ArithmeticBindsWhereTheFlopsTakeLongerThanTheBytes) {
  Experiment e;
  Variant v{"sin-exp"};
  v.space = "serial";
  Result r = host_result(v, 1.0);  // 1 GB: 0.1 s at the copy probe's 10 GB/s
  r.traffic.flops = 50'000'000'000;  // 0.5 s at 100 GFLOP/s
  r.traffic.flop_bytes = 4;
  nbk::Probes probes = host_probes();
  probes["serial"].fma_f32.gflop_per_s = 100;
  const auto limit = nbk::exp::limit_of(e, r, probes);
  EXPECT_EQ(limit.binds, "arithmetic");
  EXPECT_NEAR(*limit.fraction, 0.5, 1e-9);
  r.traffic.flops = 0;
  r.traffic.bytes_read = r.traffic.bytes_written = 0;
  EXPECT_EQ(nbk::exp::limit_of(e, r, probes).binds, "none counted");
}

// An in-order reduction on a host space: its thread's share of the links at the chain probe's link,
// where that takes longer than its bytes; never on a device space, never for a row without a chain.
TEST(Limit, AChainBindsAHostRowWhereItsLinksTakeLongerThanItsBytes) {
  Experiment e;
  Variant v{"prod"};
  v.space = "openmp";
  v.chain = nbk::chain_of<double>(nbk::ChainOp::multiply);
  Result r = host_result(v, 1.0);  // 1 GB: 0.1 s at the copy probe's 10 GB/s
  r.size = nbk::exp::Size{400'000'000};
  r.traffic.bytes_written = 0;
  nbk::Probes probes = host_probes();
  probes["openmp"] = probes["serial"];
  probes["openmp"].concurrency = 4;
  probes["openmp"].chains = {1.0, 1.0, 1.0, 5.0, true};  // 5 ns a multiply: 0.5 s for 10^8 links a thread
  const auto limit = nbk::exp::limit_of(e, r, probes);
  EXPECT_EQ(limit.binds, "chain");
  EXPECT_NEAR(*limit.fraction, 0.5, 1e-9);
  const auto row = nbk::exp::to_json(e, r, probes);
  EXPECT_EQ(row["limit"], "chain");
  EXPECT_EQ(row["chain"]["operations"], "f64 multiplies");
  EXPECT_EQ(row["chain"]["links_per_thread"], 100'000'000u);
  EXPECT_NEAR(row["chain"]["fraction"].get<double>(), 0.5, 1e-9);
  std::ostringstream out;
  nbk::exp::print_results(out, e, {r}, probes);
  EXPECT_NE(out.str().find("| 50% chain  | chain, f64 multiplies"), std::string::npos) << out.str();

  r.steady = {0.25, 0.25, 0.25, 1};  // faster than its chain allows: a bug, said so
  EXPECT_NE(nbk::exp::above_limit(e, r, probes).value_or("").find("200% of limit (chain)"), std::string::npos);
  probes["openmp"].chains.multiply_f64_ns = 0.1;  // now the bytes bind: 0.4 of a 0.25 s call
  EXPECT_EQ(nbk::exp::limit_of(e, r, probes).binds, "memory");
  probes["openmp"].chains.multiply_f64_ns = 5.0;
  v.chain = {};  // no chain declared: the bytes
  EXPECT_EQ(nbk::exp::limit_of(e, r, probes).binds, "memory");
  EXPECT_TRUE(nbk::exp::to_json(e, r, probes)["chain"].is_null());
  Variant gpu = device_variant("prod");
  gpu.chain = nbk::chain_of<double>(nbk::ChainOp::multiply);
  r.variant = &gpu;
  probes["cuda"] = probes["openmp"];
  EXPECT_FALSE(nbk::exp::chain_bound_of(r, probes));  // a device's reduction is a tree
}

TEST(Limit, LinkCallsByThePinnedRatesBothWaysAtOnceWhereTheyOverlap) {
  Variant v = device_variant("explicit");
  v.call_crosses_link = true;
  nbk::Probes probes;
  probes["cuda"].link = nbk::LinkBandwidth{1, 10, 50, 10, 50};  // pageable 10 GB/s, pinned 50 GB/s
  const Result r = result_of(v, 0.04);  // 0.5 GB up, 0.5 GB back: 20 ms at the pinned rates
  auto limit = nbk::exp::limit_of(Experiment{}, r, probes);
  EXPECT_EQ(limit.binds, "link");
  EXPECT_NEAR(*limit.fraction, 0.5, 1e-9);
  v.moves = "explicit, 16 parts taking turns on two CUDA streams, pinned host memory: copies both ways at once";
  limit = nbk::exp::limit_of(Experiment{}, r, probes);
  EXPECT_NEAR(*limit.fraction, 0.25, 1e-9);  // 10 ms each way, at once
}

TEST(Limit, TinyDeviceCallsAreLatencyBoundAndFiguresAboveLimitSayWhy) {
  const Variant tiny = device_variant("tiny");
  Result r = result_of(tiny, 10e-6);
  r.traffic.bytes_read = r.traffic.bytes_written = 1000;
  nbk::Probes probes;
  probes["cuda"].copy_gb_per_s = 80;
  probes["cuda"].ceilings = memory_ceilings(80, 80, 80, false);
  EXPECT_EQ(nbk::exp::limit_of(Experiment{}, r, probes).binds, "latency");
  Variant v{"copy"};
  v.space = "serial";
  std::ostringstream out;
  nbk::exp::print_results(out, Experiment{}, {host_result(v, 0.05)}, host_probes());  // 200% of copy
  EXPECT_NE(out.str().find("200%*"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("Above 100% of its limit"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("200% of limit (DRAM): faster than the DRAM ceiling of its traffic (1 read 1 write"),
            std::string::npos) << out.str();
}

TEST(FittingProbe, ReadOnlyRowsAreJudgedByDot) {
  Experiment e;
  Variant v{"sum"};
  v.space = "serial";
  Result r = host_result(v, 0.05);
  r.traffic.bytes_read = 1'000'000'000;
  r.traffic.bytes_written = 0;
  EXPECT_EQ(nbk::exp::fitting_basis(e, r), nbk::Basis::dot);
  const auto row = nbk::exp::to_json(e, r, host_probes());
  EXPECT_EQ(row["fitting_probe"], "dot");
  EXPECT_NEAR(row["fraction_of_fitting_probe"].get<double>(), 20.0 / 30.0, 1e-9);
  const auto reasons = nbk::exp::above_reference(e, r, host_probes());
  ASSERT_EQ(reasons.size(), 2u);
  EXPECT_NE(reasons[0].find("read-only"), std::string::npos) << reasons[0];
}

TEST(FittingProbe, ACopyAboveItsProbeIsWithinTheSpreadOrNotEstablished) {
  Experiment e;
  Variant v{"copy"};
  v.space = "serial";
  const auto within = nbk::exp::above_reference(e, host_result(v, 0.099), host_probes());  // 101%
  ASSERT_EQ(within.size(), 2u);
  EXPECT_NE(within[0].find("within the probe's own spread"), std::string::npos) << within[0];
  const auto beyond = nbk::exp::above_reference(e, host_result(v, 0.05), host_probes());  // 200%
  ASSERT_EQ(beyond.size(), 2u);
  EXPECT_NE(beyond[0].find("not established"), std::string::npos) << beyond[0];
  EXPECT_TRUE(nbk::exp::above_reference(e, host_result(v, 0.2), host_probes()).empty());  // 50%
}

}  // namespace
