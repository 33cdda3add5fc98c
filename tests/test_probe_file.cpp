// The run's probe file (--probes, issue 40): each space probed once and read by the programs
// after it, for this machine, this probe size and probe_file_valid_s; anything else is probed
// again, with its reason. Bad paths and contents are InputError (exit 2), naming --probes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "nbk/core/errors.hpp"
#include "nbk/report/probe_report.hpp"

namespace {

std::string temporary_path(const std::string& name) {
  return (::testing::TempDir().empty() ? std::string("/tmp/") : ::testing::TempDir()) + "nbk-" +
         std::to_string(::getpid()) + "-" + name;
}

void write_text(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

std::string refusal(const std::string& path) {
  try {
    nbk::open_probe_file(path);
  } catch (const nbk::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ProbeFile, RefusesWhatIsNotAProbeFile) {
  EXPECT_NE(refusal("abc").find("--probes 'abc'"), std::string::npos);  // no .json: a typo, not a file
  EXPECT_NE(refusal(".json").find("--probes"), std::string::npos);
  EXPECT_NE(refusal("/nonexistent/dir/probes.json").find("cannot write"), std::string::npos);
  const std::string text = temporary_path("text.json"), other = temporary_path("other.json");
  write_text(text, "not json");
  EXPECT_NE(refusal(text).find("not JSON"), std::string::npos);
  write_text(other, R"({"experiment": "sum"})");
  EXPECT_NE(refusal(other).find("not a probe file"), std::string::npos);
  std::remove(text.c_str());
  std::remove(other.c_str());
  const nbk::ProbeFile absent = nbk::open_probe_file(temporary_path("absent.json"));
  EXPECT_TRUE(absent.document.is_null());  // not there yet: the first program writes it
}

TEST(ProbeFile, ReadBackForTheSameMachineAndSizeOnly) {
  const std::string path = temporary_path("probes.json");
  std::remove(path.c_str());
  nbk::ProbeFile file = nbk::open_probe_file(path);
  const nbk::Probes probed = nbk::probe_spaces({"serial"}, 4096, "nbk-test");
  ASSERT_EQ(probed.count("serial"), 1u);
  EXPECT_TRUE(probed.at("serial").from_file.empty());
  EXPECT_EQ(probed.at("serial").probed_by, "nbk-test");
  nbk::save_probe_file(file, probed);

  std::vector<std::string> why_not;
  nbk::Probes read = nbk::probes_from_file(nbk::open_probe_file(path), {"serial"}, 4096, why_not);
  ASSERT_EQ(read.count("serial"), 1u) << (why_not.empty() ? "" : why_not.front());
  EXPECT_TRUE(why_not.empty());
  const nbk::ProbeResult& p = read.at("serial");
  EXPECT_EQ(p.from_file, path);
  EXPECT_EQ(p.probed_by, "nbk-test");
  EXPECT_DOUBLE_EQ(p.copy_gb_per_s, probed.at("serial").copy_gb_per_s);
  EXPECT_DOUBLE_EQ(p.in_place_gb_per_s, probed.at("serial").in_place_gb_per_s);
  EXPECT_DOUBLE_EQ(p.dot_gb_per_s, probed.at("serial").dot_gb_per_s);
  EXPECT_DOUBLE_EQ(p.spread.dot, probed.at("serial").spread.dot);
  EXPECT_EQ(p.elements, 4096);
  EXPECT_TRUE(p.verified);
  EXPECT_TRUE(p.chains.measured());
  EXPECT_DOUBLE_EQ(p.chains.add_f32_ns, probed.at("serial").chains.add_f32_ns);
  EXPECT_DOUBLE_EQ(p.chains.multiply_f64_ns, probed.at("serial").chains.multiply_f64_ns);
  std::ostringstream table;
  nbk::print_probe_table(table, read);
  EXPECT_NE(table.str().find("Source: serial: from " + path + ", probed at "), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("by nbk-test"), std::string::npos) << table.str();

  // Another probe size, or a space the file lacks: probed again, with the reason.
  why_not.clear();
  EXPECT_TRUE(nbk::probes_from_file(nbk::open_probe_file(path), {"serial"}, 8192, why_not).empty());
  ASSERT_EQ(why_not.size(), 1u);
  EXPECT_NE(why_not.front().find("probe size"), std::string::npos) << why_not.front();

  // A file written before the chain probe: probed again, for the rows it bounds.
  nbk::ProbeFile before_chains = nbk::open_probe_file(path);
  before_chains.document["spaces"]["serial"].erase("chain_link_ns");
  why_not.clear();
  EXPECT_TRUE(nbk::probes_from_file(before_chains, {"serial"}, 4096, why_not).empty());
  ASSERT_EQ(why_not.size(), 1u);
  EXPECT_NE(why_not.front().find("no chain probe"), std::string::npos) << why_not.front();

  // Older than the time a probe stands for: probed again.
  nbk::ProbeFile old = nbk::open_probe_file(path);
  old.document["spaces"]["serial"]["probed_at_epoch_s"] =
      old.document["spaces"]["serial"]["probed_at_epoch_s"].get<double>() - nbk::probe_file_valid_s - 10;
  why_not.clear();
  EXPECT_TRUE(nbk::probes_from_file(old, {"serial"}, 4096, why_not).empty());
  ASSERT_EQ(why_not.size(), 1u);
  EXPECT_NE(why_not.front().find("s old"), std::string::npos) << why_not.front();
  std::remove(path.c_str());
}

TEST(ProbeFile, PrintsWhereFiguresComeFrom) {
  nbk::Probes probes;
  probes["serial"].copy_gb_per_s = 10;
  probes["serial"].repetitions = 10;
  probes["serial"].probed_at_utc = "2026-11-26T18:00:00Z";
  std::ostringstream table;
  nbk::print_probe_table(table, probes);
  EXPECT_NE(table.str().find("Source: serial: probed by this program at 2026-11-26T18:00:00Z."), std::string::npos)
      << table.str();
  EXPECT_NE(table.str().find("spread"), std::string::npos) << table.str();
}

}  // namespace
