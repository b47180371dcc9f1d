// Profile outputs: the op summary agrees with the activity timings, the text
// table, sort keys, and the Chrome trace's structure (tracks, flows pairing).
// (The trace is also schema-checked from Python in tests/python/tools.)
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "npurt/profiler.h"
#include "npurt/status.h"

namespace npurt::profiler {
namespace {

Activity kernel(const std::string& name, uint64_t id, int64_t enq, int64_t start, int64_t end,
                double bytes = 0) {
  Activity a;
  a.kind = ActivityKind::kKernel;
  a.id = id;
  a.name = name;
  a.kernel = name + "_kernel";
  a.stream = 3;
  a.stream_name = "stream 3";
  a.num_blocks = 2;
  a.enqueue_ns = enq;
  a.start_ns = start;
  a.end_ns = end;
  a.executed = true;
  a.host_thread = 1;
  a.exec_thread = 2;
  a.mem_bytes = bytes;
  a.blocks = {BlockSpan{0, 3, start, end}, BlockSpan{1, 4, start + 10, end}};
  return a;
}

Profile sample() {
  Profile p;
  p.start_ns = 1000;
  p.stop_ns = 100000;
  p.activities = {kernel("add", 1, 1100, 2000, 4000, 12000), kernel("exp", 2, 1200, 4000, 9000),
                  kernel("add", 3, 1300, 9000, 10000, 12000)};
  Activity never = kernel("mul", 4, 1400, 0, 0);
  never.executed = false;
  never.blocks.clear();
  p.activities.push_back(never);
  p.incomplete = 1;
  p.memory = {MemoryEvent{1500, Device(), true, 0x1000, 512, "small_pool", 3, 512, 2097152, 1}};
  p.spans = {HostSpan{"graph replay", "graph", "3 nodes", Device(), 1050, 1350, 1}};
  p.threads = {ThreadInfo{1, "host thread 1"}, ThreadInfo{2, "stream worker 2"}};
  return p;
}

TEST(ProfilerOutputs, OpSummaryAgreesWithActivityTimings) {
  Profile p = sample();
  auto rows = p.op_summary(SortKey::kDeviceTime);
  ASSERT_EQ(rows.size(), 2u);  // "mul" never executed
  EXPECT_EQ(rows[0].name, "exp");
  EXPECT_EQ(rows[0].total_ns, 5000);
  const OpStats& add = rows[1];
  EXPECT_EQ(add.calls, 2);
  EXPECT_EQ(add.total_ns, 2000 + 1000);
  EXPECT_EQ(add.min_ns, 1000);
  EXPECT_EQ(add.max_ns, 2000);
  EXPECT_DOUBLE_EQ(add.mean_ns(), 1500.0);
  EXPECT_DOUBLE_EQ(add.gbps(), 24000.0 / 3000.0);  // bytes per ns == GB/s
  EXPECT_DOUBLE_EQ(rows[0].gbps(), 0.0);            // undeclared
  EXPECT_EQ(p.op_summary(SortKey::kCalls)[0].name, "add");
  EXPECT_EQ(p.op_summary(SortKey::kName)[0].name, "add");
  EXPECT_EQ(sort_key_from_name("device_time"), SortKey::kDeviceTime);
  try {
    sort_key_from_name("speed", "npurt.Profile.table");
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("npurt.Profile.table: argument 'sort_by'"), std::string::npos);
  }
}

TEST(ProfilerOutputs, TableShowsRowsTotalsAndIncomplete) {
  std::string t = sample().table(SortKey::kDeviceTime);
  std::istringstream is(t);
  std::string header, first, second;
  std::getline(is, header);
  std::getline(is, first);
  std::getline(is, second);
  EXPECT_EQ(header.rfind("Name", 0), 0u) << t;
  EXPECT_EQ(first.rfind("exp ", 0), 0u) << t;
  EXPECT_NE(first.find("5.000"), std::string::npos) << t;  // total us
  EXPECT_NE(second.find("8.00"), std::string::npos) << t;  // add GB/s
  EXPECT_NE(t.find("8.000 us device time"), std::string::npos) << t;
  EXPECT_NE(t.find("1 activities had not run"), std::string::npos) << t;
  std::string limited = sample().table(SortKey::kDeviceTime, 1);
  EXPECT_NE(limited.find("1 rows not shown"), std::string::npos) << limited;
}

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t pos = s.find(what); pos != std::string::npos; pos = s.find(what, pos + 1)) ++n;
  return n;
}

TEST(ProfilerOutputs, ChromeTraceHasTracksFlowsAndCounters) {
  Profile p = sample();
  std::string j = p.chrome_trace_json();
  EXPECT_EQ(j.rfind("{\"traceEvents\":[", 0), 0u);
  // 3 executed activities -> 3 flow starts and 3 flow ends with matching ids.
  EXPECT_EQ(count(j, "\"ph\":\"s\""), 3);
  EXPECT_EQ(count(j, "\"ph\":\"f\""), 3);
  for (const char* id : {"\"1\"", "\"2\"", "\"3\""})
    EXPECT_EQ(count(j, std::string("\"id\":") + id + ",\"bp\""), 1) << id;
  EXPECT_NE(j.find("\"name\":\"core 1\""), std::string::npos);
  EXPECT_NE(j.find("\"name\":\"stream 3\""), std::string::npos);
  EXPECT_NE(j.find("\"name\":\"pool memory\",\"ph\":\"C\""), std::string::npos);
  EXPECT_NE(j.find("\"name\":\"graph replay\""), std::string::npos);
  // Execution of "exp" at 4000 ns = 3 us after start, 5 us long.
  EXPECT_NE(j.find("\"name\":\"exp\",\"ph\":\"X\",\"ts\":3.000,\"pid\":1,\"tid\":3,"
                   "\"cat\":\"kernel\",\"dur\":5.000"),
            std::string::npos);
  // Strings are escaped.
  p.activities[0].name = "quote\"back\\slash\n";
  std::string k = p.chrome_trace_json();
  EXPECT_NE(k.find("quote\\\"back\\\\slash\\n"), std::string::npos);
}

TEST(ProfilerOutputs, ExportWritesFileAndReportsBadPath) {
  Profile p = sample();
  std::string path = ::testing::TempDir() + "npurt_trace_test.json";
  p.export_chrome_trace(path);
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_EQ(ss.str(), p.chrome_trace_json());
  std::remove(path.c_str());
  try {
    p.export_chrome_trace("/nonexistent-dir/x/trace.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("argument 'path'"), std::string::npos);
  }
}

}  // namespace
}  // namespace npurt::profiler
