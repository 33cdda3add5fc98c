// The ceilings every row is judged by (issue 58): the machine's levels, the traffic each kind
// moves, which level and kind judge a row, and the probes' kernels in both codes on every space.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "nbk/report/ceiling_probe.hpp"
#include "nbk/report/ceilings.hpp"
#include "nbk/report/memory_levels.hpp"
#include "spaces.hpp"

namespace {

using nbk::MemoryLevel;
using nbk::Traffic;
using nbk::TrafficKind;

TEST(Traffic, KindsAndTheBytesTheMemoryMoves) {
  const Traffic copy{800, 800}, add{1600, 800}, polar{3200, 800}, sum{4000, 4};
  Traffic update = nbk::read_modify_write_traffic<int>(100);
  Traffic stream = add;
  stream.streaming = true;
  EXPECT_EQ(nbk::kind_of(copy), TrafficKind::copy);
  EXPECT_EQ(nbk::kind_of(add), TrafficKind::add);
  EXPECT_EQ(nbk::kind_of(polar), TrafficKind::add);
  EXPECT_EQ(nbk::kind_of(sum), TrafficKind::read);
  EXPECT_EQ(nbk::kind_of(update), TrafficKind::update);
  EXPECT_EQ(nbk::kind_of(stream), TrafficKind::add_streaming);
  // A CPU's store reads its line first, except in place or by streaming stores; a GPU's never.
  EXPECT_EQ(nbk::moved_bytes(copy, true), 2400u);
  EXPECT_EQ(nbk::moved_bytes(add, true), 3200u);
  EXPECT_EQ(nbk::moved_bytes(add, false), 2400u);
  EXPECT_EQ(nbk::moved_bytes(update, true), 800u);
  EXPECT_EQ(nbk::moved_bytes(stream, true), 2400u);
  EXPECT_EQ(nbk::traffic_text(add), "2 reads 1 write");
  EXPECT_EQ(nbk::traffic_text(polar), "4 reads 1 write");
  EXPECT_EQ(nbk::traffic_text(copy), "1 read 1 write");
  EXPECT_EQ(nbk::traffic_text(stream), "2 reads 1 write, streaming stores");
  EXPECT_EQ(nbk::traffic_text(sum), "read-only");
  EXPECT_EQ(nbk::traffic_text(update), "in place");
  for (const TrafficKind kind : nbk::traffic_kinds) EXPECT_EQ(nbk::kind_from_key(nbk::kind_key(kind)), kind);
  EXPECT_FALSE(nbk::kind_from_key("triad"));
}

TEST(MemoryLevels, CpuListsCount) {
  EXPECT_EQ(nbk::cpu_list_count("0"), 1);
  EXPECT_EQ(nbk::cpu_list_count("0-3,8-11"), 8);
  EXPECT_EQ(nbk::cpu_list_count("0,1"), 2);
  EXPECT_EQ(nbk::cpu_list_count("x"), 0);
  EXPECT_EQ(nbk::cpu_list_count("3-1"), 0);
}

// A fake sysfs: two CPUs, private 32 KiB L1d and 512 KiB L2, one shared 32 MiB L3 (this VM's shape).
std::filesystem::path fake_sysfs() {
  const auto root = std::filesystem::temp_directory_path() / "nbk-test-sysfs";
  std::filesystem::remove_all(root);
  struct Cache {
    int index, level;
    const char *type, *size;
    bool shared;
  };
  for (int cpu = 0; cpu < 2; ++cpu)
    for (const Cache& c : {Cache{0, 1, "Data", "32K", false}, Cache{1, 1, "Instruction", "32K", false},
                           Cache{2, 2, "Unified", "512K", false}, Cache{3, 3, "Unified", "32768K", true}}) {
      const auto dir = root / ("cpu" + std::to_string(cpu)) / "cache" / ("index" + std::to_string(c.index));
      std::filesystem::create_directories(dir);
      std::ofstream(dir / "level") << c.level << "\n";
      std::ofstream(dir / "type") << c.type << "\n";
      std::ofstream(dir / "size") << c.size << "\n";
      std::ofstream(dir / "shared_cpu_list") << (c.shared ? "0-1" : std::to_string(cpu)) << "\n";
    }
  return root;
}

TEST(MemoryLevels, FromSysfsByThreads) {
  const auto caches = nbk::host_caches(fake_sysfs().string());
  ASSERT_EQ(caches.size(), 3u);  // the instruction cache left out
  EXPECT_EQ(caches[0].bytes, 32u << 10);
  EXPECT_EQ(caches[0].instances, 2);
  EXPECT_EQ(caches[2].cpus_sharing, 2);
  EXPECT_EQ(caches[2].instances, 1);
  const auto one = nbk::host_memory_levels(caches, 1, 256u << 20);
  ASSERT_EQ(one.size(), 4u);
  EXPECT_EQ(one[0].name, "L1");
  EXPECT_EQ(one[0].capacity, 32u << 10);
  EXPECT_EQ(one[0].probe_bytes, 16u << 10);
  EXPECT_EQ(one[2].capacity, 32u << 20);
  EXPECT_EQ(one[1].probe_bytes, 64u << 10);  // the smallest working set L2 judges: twice L1
  EXPECT_EQ(one[2].probe_bytes, 1u << 20);
  EXPECT_EQ(one[3].name, "DRAM");
  EXPECT_EQ(one[3].capacity, 0u);
  EXPECT_EQ(one[3].probe_bytes, 256u << 20);
  const auto two = nbk::host_memory_levels(caches, 2, 1u << 20);
  EXPECT_EQ(two[0].capacity, 64u << 10);   // two private L1s
  EXPECT_EQ(two[1].capacity, 1u << 20);    // two private L2s
  EXPECT_EQ(two[2].capacity, 32u << 20);   // one shared L3
  EXPECT_EQ(two[3].probe_bytes, 64u << 20);  // at least twice the last cache
  EXPECT_EQ(nbk::host_memory_levels({}, 4, 1000).size(), 1u);  // sysfs says nothing: memory alone
  std::filesystem::remove_all(fake_sysfs());
}

TEST(MemoryLevels, AWorkingSetIsJudgedAtALevelThatBoundsIt) {
  const std::vector<MemoryLevel> levels = {{"L1", 64 << 10, 32 << 10}, {"L2", 1 << 20, 512 << 10},
                                           {"L3", 32 << 20, 16 << 20}, {"DRAM", 0, 256 << 20}};
  EXPECT_EQ(nbk::level_for(levels, 0)->name, "L1");
  EXPECT_EQ(nbk::level_for(levels, 64 << 10)->name, "L1");
  EXPECT_EQ(nbk::level_for(levels, 100 << 10)->name, "L1");  // within twice L1: part of it stays there
  EXPECT_EQ(nbk::level_for(levels, 129 << 10)->name, "L2");
  EXPECT_EQ(nbk::level_for(levels, 2 << 20)->name, "L2");
  EXPECT_EQ(nbk::level_for(levels, 3 << 20)->name, "L3");
  EXPECT_EQ(nbk::level_for(levels, 64 << 20)->name, "L3");
  EXPECT_EQ(nbk::level_for(levels, (64 << 20) + 1)->name, "DRAM");
  EXPECT_EQ(nbk::level_for({}, 1), nullptr);
  const auto gpu = nbk::device_memory_levels(50u << 20, 3u << 30);
  ASSERT_EQ(gpu.size(), 2u);
  EXPECT_EQ(gpu[0].probe_bytes, 50u << 18);  // a quarter of the L2: its two partitions may hold a line twice
  EXPECT_EQ(gpu[1].name, "DRAM");
}

nbk::Ceilings two_levels() {
  nbk::Ceilings c;
  c.levels.push_back({{"L2", 1 << 20, 512 << 10}, {{TrafficKind::add, {200, "Kokkos", 0}}, {TrafficKind::read, {300, "plain", 0}}}});
  c.levels.push_back({{"DRAM", 0, 256 << 20}, {{TrafficKind::add, {40, "Kokkos", 0}}}});
  c.verified = true;
  return c;
}

TEST(Ceilings, JudgeByLevelKindAndMovedBytes) {
  const nbk::Ceilings c = two_levels();
  const Traffic add{1 << 19, 1 << 18};  // 768 KiB: L2
  // 1 MiB moved (a store's read counted) in 10 us at 200 GB/s moves 2 MB: half the ceiling's pace.
  const auto v = nbk::judge(c, add, 10.48576e-6);
  EXPECT_EQ(v.level, "L2");
  EXPECT_EQ(v.moved, 1u << 20);
  EXPECT_DOUBLE_EQ(v.gb_per_s, 200);
  ASSERT_TRUE(v.fraction);
  EXPECT_NEAR(*v.fraction, 0.5, 1e-9);
  const Traffic big{400 << 20, 200 << 20};
  EXPECT_EQ(nbk::judge(c, big, 1.0).level, "DRAM");
  // Four reads a write: the faster of add's and read's ceilings.
  EXPECT_DOUBLE_EQ(nbk::judge(c, Traffic{1 << 19, 1 << 17}, 1.0).gb_per_s, 300);
  // A kind the level was not probed for: no figure, and why.
  const auto none = nbk::judge(c, Traffic{1 << 18, 1 << 18}, 1.0);
  EXPECT_FALSE(none.fraction);
  EXPECT_NE(none.missing.find("no ceiling for copy"), std::string::npos) << none.missing;
  EXPECT_FALSE(nbk::judge(nbk::Ceilings{}, add, 1.0).fraction);
}

// A call that moves little cannot beat its kind's floor (launch, fork, fence): latency binds it.
TEST(Ceilings, TheFloorBindsSmallCalls) {
  nbk::Ceilings c = two_levels();
  c.floor_s[TrafficKind::add] = 2e-6;
  const auto small = nbk::judge(c, Traffic{1600, 800}, 4e-6);  // 3200 bytes moved: 16 ns at 200 GB/s
  EXPECT_TRUE(small.floor_binds);
  EXPECT_NEAR(*small.fraction, 0.5, 1e-12);
  const auto large = nbk::judge(c, Traffic{1 << 19, 1 << 18}, 10.48576e-6);
  EXPECT_FALSE(large.floor_binds);
  EXPECT_NEAR(*large.fraction, 0.5, 1e-9);
}

// A level whose probe calls were mostly their floor has no rate of a kind: the floor alone bounds
// its rows (with no floor, plain code on one thread, nothing does), and the record keeps its shape.
TEST(Ceilings, ALevelWithoutARateIsBoundByTheFloor) {
  nbk::Ceilings c = two_levels();
  c.floor_s[TrafficKind::copy] = 1e-6;
  const auto copy = nbk::judge(c, Traffic{1 << 18, 1 << 18}, 4e-6);
  EXPECT_TRUE(copy.missing.empty()) << copy.missing;
  EXPECT_TRUE(copy.floor_binds);
  ASSERT_TRUE(copy.fraction);
  EXPECT_NEAR(*copy.fraction, 0.25, 1e-12);
  const nlohmann::json row = nbk::to_json(copy);
  ASSERT_TRUE(row.is_object());
  EXPECT_TRUE(row.at("gb_per_s").is_null());
  const auto host = nbk::judge(c, Traffic{1 << 18, 1 << 18}, 4e-6, /*launches=*/false);
  EXPECT_FALSE(host.fraction);
  EXPECT_NE(host.missing.find("no ceiling for copy"), std::string::npos) << host.missing;
  // Every kind probed is a key at every level: null where the level has no figure of its own.
  const nlohmann::json doc = nbk::to_json(c);
  for (const auto& level : doc.at("levels"))
    for (const char* key : {"add", "read", "copy"}) {
      ASSERT_TRUE(level.at("gb_per_s").contains(key)) << level.dump();
      EXPECT_TRUE(level.at("by").contains(key) && level.at("spread").contains(key));
    }
  EXPECT_TRUE(doc["levels"][1]["gb_per_s"]["read"].is_null());
  EXPECT_EQ(nbk::ceilings_from_json(doc).levels[1].kinds.count(TrafficKind::read), 0u);
}

TEST(Ceilings, RoundTripAndKeepTheFastest) {
  nbk::Ceilings c = two_levels();
  c.theoretical = nbk::TheoreticalPeaks{4800, 60000, 30000, "attributes"};
  c.sweep = {{16384, 90}, {32768, 80}};
  const nbk::Ceilings back = nbk::ceilings_from_json(nbk::to_json(c));
  ASSERT_EQ(back.levels.size(), 2u);
  EXPECT_EQ(back.levels[0].kinds.at(TrafficKind::read).by, "plain");
  EXPECT_DOUBLE_EQ(back.theoretical->memory_gb_per_s, 4800);
  EXPECT_EQ(back.sweep.size(), 2u);
  EXPECT_TRUE(back.verified);
  nbk::Ceilings faster = two_levels();
  faster.levels[1].kinds[TrafficKind::add].gb_per_s = 50;
  faster.levels[0].kinds[TrafficKind::add].gb_per_s = 100;
  nbk::keep_fastest(c, faster);
  EXPECT_DOUBLE_EQ(c.levels[1].kinds[TrafficKind::add].gb_per_s, 50);
  EXPECT_DOUBLE_EQ(c.levels[0].kinds[TrafficKind::add].gb_per_s, 200);
  // Memory faster than the theoretical peak: a probe counting bytes it does not move.
  EXPECT_TRUE(c.above_theoretical().empty());
  c.levels[1].kinds[TrafficKind::add].gb_per_s = 5000;
  EXPECT_FALSE(c.above_theoretical().empty());
}

template <class Space>
class CeilingProbe : public ::testing::Test {};
TYPED_TEST_SUITE(CeilingProbe, nbk::test::SpaceTypes, nbk::test::SpaceNames);

// Every form of every kind, in the space's code and in the GPU's (pairs, four in flight: the
// mapping only a GPU runs in a program), moves the bytes it says and is checked. No floor is
// subtracted (zeros): on a loaded machine a measured floor can hide a 1 MiB call's figure, which
// probe_level then rightly drops (CI's parallel ctest did so for the read), and that is not what
// this test is about.
TYPED_TEST(CeilingProbe, EveryFormInBothCodesVerifies) {
  bool verified = true;
  const MemoryLevel level{"L2", 1 << 22, 1 << 20};
  const std::vector<double> no_floors(64, 0.0);
  for (const auto& l : {nbk::probe_level(TypeParam(), level, 3, verified, no_floors),
                        nbk::probe_level(TypeParam(), level, 3, verified, no_floors, nbk::GpuCode{})}) {
    EXPECT_TRUE(verified);
    for (const TrafficKind kind : {TrafficKind::read, TrafficKind::update, TrafficKind::copy, TrafficKind::add}) {
      ASSERT_TRUE(l.kinds.count(kind)) << nbk::kind_key(kind);
      EXPECT_GT(l.kinds.at(kind).gb_per_s, 0.0);
    }
    if constexpr (!nbk::is_device_space_v<TypeParam>) EXPECT_TRUE(l.kinds.count(TrafficKind::add_streaming));
  }
}

// A call that is mostly its floor gives its kind no figure at the level (the floor binds its rows),
// yet its form is still checked.
TYPED_TEST(CeilingProbe, ACallHiddenByItsFloorGivesNoFigure) {
  bool verified = true;
  const MemoryLevel level{"L1", 1 << 16, 1 << 14};
  const auto l = nbk::probe_level(TypeParam(), level, 2, verified, std::vector<double>(64, 1e3));
  EXPECT_TRUE(verified);
  EXPECT_TRUE(l.kinds.empty());
}

// A form that wrote nothing (or the wrong thing) fails its check, and its figure is not kept.
TYPED_TEST(CeilingProbe, AFormThatDidNotRunFailsItsCheck) {
  nbk::CeilingArrays<TypeParam> arrays(TypeParam(), 3 * 8 * 4096);
  for (const auto& form : arrays.forms()) {
    arrays.reset();
    if (form.kind == TrafficKind::read) continue;  // its check reads the result of its own call
    EXPECT_FALSE(form.check()) << form.by;          // nothing ran yet
    form.call();
    EXPECT_TRUE(form.check()) << form.by;
  }
}

TYPED_TEST(CeilingProbe, SweepCoversTheWorkingSets) {
  const auto sweep = nbk::sweep_working_sets(TypeParam(), 128 << 10, 2);
  ASSERT_EQ(sweep.size(), 4u);  // 16, 32, 64, 128 KiB
  EXPECT_EQ(sweep.front().bytes, 16u << 10);
  for (const auto& s : sweep) EXPECT_GT(s.gb_per_s, 0.0);
}

}  // namespace
