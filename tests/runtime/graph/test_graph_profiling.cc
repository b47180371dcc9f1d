// Graph replays in the profiler: a "graph replay" on the replaying stream's
// track, each node as an executed activity (with its op name) on a lane track,
// and profiling replays from several threads at once.
#include <algorithm>
#include <thread>

#include "graph_test_util.h"
#include "npurt/profiler.h"

using namespace npurt;
using namespace graph_test;

namespace {

size_t count_named(const profiler::Profile& p, const std::string& name) {
  return static_cast<size_t>(std::count_if(p.activities.begin(), p.activities.end(),
                                           [&](const profiler::Activity& a) { return a.name == name; }));
}

}  // namespace

TEST(GraphProfiling, ReplayIsASpanOnItsStreamAndNodesAreNamedLaunches) {
  Stream s = Stream::create(dev0());
  Tensor x = upload({1, 2, 3, 4}, s);
  Graph::begin_capture(s);  // captured without a profiler session
  Tensor y = ops::add(ops::mul(x, x, s), x, s);
  Graph g = Graph::end_capture(s);
  std::vector<GraphNodeInfo> nodes = g.nodes();
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].op, "mul");  // op names are kept even when not profiling
  EXPECT_EQ(nodes[1].op, "add");
  EXPECT_NE(g.to_json().find("\"op\": \"mul\""), std::string::npos);

  profiler::start();
  g.replay(s);
  g.replay(s);
  Tensor eager = upload({1, 2}, s);  // eager work keeps its stream's track
  s.synchronize();
  profiler::Profile p = profiler::stop();
  for (const auto& a : p.activities)
    if (a.kind == profiler::ActivityKind::kCopy) {
      EXPECT_EQ(a.stream, s.id());
      EXPECT_EQ(a.stream_name.find("lane"), std::string::npos) << a.stream_name;  // track ids never collide
    }
  EXPECT_EQ(download(y, s), (std::vector<float>{2, 6, 12, 20}));

  std::vector<const profiler::Activity*> replays, launches;
  for (const auto& a : p.activities) {
    if (a.name == "graph replay") replays.push_back(&a);
    if (a.kind == profiler::ActivityKind::kKernel) launches.push_back(&a);
  }
  ASSERT_EQ(replays.size(), 2u);
  ASSERT_EQ(launches.size(), 4u);
  EXPECT_EQ(count_named(p, "mul"), 2u);
  EXPECT_EQ(count_named(p, "add"), 2u);
  for (const auto* r : replays) {
    EXPECT_EQ(r->stream, s.id());  // on the replaying stream's track
    EXPECT_TRUE(r->executed);
    EXPECT_NE(r->tiling.find("2 nodes"), std::string::npos) << r->tiling;
  }
  for (const auto* l : launches) {
    EXPECT_TRUE(l->executed);
    EXPECT_NE(l->stream, s.id());  // on the graph's lane track
    EXPECT_NE(l->stream_name.find("lane 0"), std::string::npos) << l->stream_name;
    EXPECT_EQ(l->shapes, "[4], [4] -> [4]");
    // Each node ran inside one of the replays.
    bool inside = std::any_of(replays.begin(), replays.end(), [&](const profiler::Activity* r) {
      return l->start_ns >= r->start_ns && l->end_ns <= r->end_ns;
    });
    EXPECT_TRUE(inside) << l->name;
  }
  size_t spans = std::count_if(p.spans.begin(), p.spans.end(), [](const auto& sp) { return sp.category == "graph"; });
  EXPECT_EQ(spans, 2u);
  std::string trace = p.chrome_trace_json();
  EXPECT_NE(trace.find("graph replay"), std::string::npos);
  EXPECT_NE(trace.find("lane 0"), std::string::npos);
}

TEST(GraphProfiling, ReplaysFromSeveralThreadsAreAllRecorded) {
  const int kThreads = 3, kReplays = 4;
  std::vector<Stream> streams;
  std::vector<Graph> graphs;
  std::vector<Tensor> ins, outs;  // a graph's inputs must outlive it
  for (int t = 0; t < kThreads; ++t) {
    Stream s = Stream::create(dev0());
    Tensor x = upload({float(t), 1}, s);
    ins.push_back(x);
    Graph::begin_capture(s, CaptureMode::kThreadLocal);
    outs.push_back(ops::add(x, x, s));
    graphs.push_back(Graph::end_capture(s));
    streams.push_back(s);
  }
  profiler::start();
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int r = 0; r < kReplays; ++r) graphs[t].replay(streams[t]);
      streams[t].synchronize();
    });
  for (auto& th : threads) th.join();
  profiler::Profile p = profiler::stop();
  EXPECT_EQ(count_named(p, "graph replay"), size_t(kThreads * kReplays));
  EXPECT_EQ(count_named(p, "add"), size_t(kThreads * kReplays));
  for (const auto& a : p.activities) EXPECT_TRUE(a.executed) << a.name;
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(download(outs[t], streams[t]), (std::vector<float>{2.0f * t, 2}));
}

TEST(GraphProfiling, ProfilingDuringCaptureRecordsOnlyTheReplays) {
  Stream s = Stream::create(dev0());
  Tensor x = upload({1, 2}, s);
  profiler::start();
  Graph::begin_capture(s);
  Tensor y = ops::mul(x, x, s);  // recorded into the graph, not executed
  Graph g = Graph::end_capture(s);
  Tensor z = ops::add(x, x, s);  // eager: its annotation must not be the captured one's
  g.replay(s);
  s.synchronize();
  profiler::Profile p = profiler::stop();
  EXPECT_EQ(count_named(p, "mul"), 1u);  // the replayed node only
  EXPECT_EQ(count_named(p, "add"), 1u);
  EXPECT_EQ(count_named(p, "graph replay"), 1u);
  EXPECT_EQ(download(y, s), (std::vector<float>{1, 4}));
  EXPECT_EQ(download(z, s), (std::vector<float>{2, 4}));
}
