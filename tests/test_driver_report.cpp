// The driver's report: device rows below 90% of the device's memcpy are listed with a reason.
// Synthetic results, so that it is checked without a GPU.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

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
  const std::string below = text.substr(at);
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

}  // namespace
