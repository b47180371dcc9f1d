// Graph replay: multi-stream fork/join, concurrency of branches, faults at
// synchronize, graph-private memory, rebinding, introspection.
#include <atomic>
#include <chrono>
#include <thread>

#include "graph_test_util.h"
#include "npurt/op_registry.h"
#include "runtime/ops/test_kernels.h"

using namespace npurt;
using namespace graph_test;

namespace {

const bool kFaultOpRegistered = [] {
  OpRegistry::instance().add(
      npurt_test::affine_def("graph_test_fault", NPURT_SIM_ENTRY(npurt_test_affine_kernel), /*fault=*/true).take());
  return true;
}();

// y = 2x + x*x captured over two streams: s forks s2 and joins it back.
Graph capture_fork_join(const Stream& s, const Stream& s2, const Tensor& x, Tensor* out) {
  Event fork(dev0()), join(dev0());
  Graph::begin_capture(s);
  fork.record(s);
  s2.wait_event(fork);
  EXPECT_TRUE(Graph::is_capturing(s2));
  Tensor sq = ops::mul(x, x, s2);
  join.record(s2);
  Tensor twice = ops::add(x, x, s);
  s.wait_event(join);
  *out = ops::add(twice, sq, s);
  return Graph::end_capture(s);
}

}  // namespace

TEST(GraphReplay, ForkJoinAcrossStreams) {
  Stream s = Stream::create(dev0());
  Stream s2 = Stream::create(dev0());
  Tensor x = upload({1, 2, 3, 4, 5}, s);
  Tensor y;
  Graph g = capture_fork_join(s, s2, x, &y);
  EXPECT_FALSE(Graph::is_capturing(s2));
  std::vector<GraphNodeInfo> nodes = g.nodes();
  ASSERT_EQ(nodes.size(), 3u);
  EXPECT_EQ(nodes[0].lane, 1u);  // mul on the joined stream
  EXPECT_EQ(nodes[1].lane, 0u);
  EXPECT_TRUE(nodes[0].deps.empty());
  EXPECT_TRUE(nodes[1].deps.empty());  // independent branches
  EXPECT_EQ(nodes[2].deps, (std::vector<uint32_t>{1, 0}));
  for (float base : {0.0f, 1.0f, -2.0f}) {
    std::vector<float> in = {base, base + 1, base + 2, base + 3, base + 4}, want;
    for (float v : in) want.push_back(2 * v + v * v);
    set_values(x, in, s);
    g.replay(s);
    EXPECT_EQ(download(y, s), want);
  }
  // s2 is an ordinary stream again.
  Tensor z = ops::add(x, x, s2);
  EXPECT_EQ(download(z, s2)[0], -4.0f);
}

TEST(GraphReplay, UnjoinedForkFailsEndAndDiscards) {
  Stream s = Stream::create(dev0());
  Stream s2 = Stream::create(dev0());
  Tensor x = upload({1, 2}, s);
  Event fork(dev0());
  Graph::begin_capture(s);
  fork.record(s);
  s2.wait_event(fork);
  ops::mul(x, x, s2, x);
  ops::add(x, x, s);
  expect_capture_error([&] { Graph::end_capture(s2); }, "107036");  // not the origin
  expect_capture_error([&] { Graph::end_capture(s); }, "107025");
  EXPECT_FALSE(Graph::is_capturing(s));
  EXPECT_FALSE(Graph::is_capturing(s2));
  ops::mul(x, x, s2, x);  // usable, nothing of the capture ran
  EXPECT_EQ(download(x, s2), (std::vector<float>{1, 4}));
}

// Two host-function branches that each wait for the other: the replay finishes
// only if the branches run at the same time.
TEST(GraphReplay, IndependentBranchesRunConcurrently) {
  Stream s = Stream::create(dev0());
  Stream s2 = Stream::create(dev0());
  std::atomic<int> a{0}, b{0}, met{0};
  auto rendezvous = [&met](std::atomic<int>& mine, std::atomic<int>& theirs) {
    mine = 1;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!theirs.load() && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    if (theirs.load()) met.fetch_add(1);
  };
  Event fork(dev0()), join(dev0());
  Graph::begin_capture(s);
  fork.record(s);
  s2.wait_event(fork);
  s2.host_func([&] { rendezvous(b, a); });
  join.record(s2);
  s.host_func([&] { rendezvous(a, b); });
  s.wait_event(join);
  Graph g = Graph::end_capture(s);
  EXPECT_EQ(met.load(), 0);
  for (int i = 0; i < 3; ++i) {
    a = 0;
    b = 0;
    g.replay(s);
    s.synchronize();
  }
  EXPECT_EQ(met.load(), 6);
}

TEST(GraphReplay, KernelFaultSurfacesAtSynchronize) {
  Stream s = Stream::create(dev0());
  Tensor x = upload({1, 2, 3, 4}, s);
  Graph::begin_capture(s);
  Tensor y = ops::call("graph_test_fault", {x}, {{"a", 2.0}}, s)[0];
  Graph bad = Graph::end_capture(s);
  bad.replay(s);  // returns at once
  try {
    s.synchronize();
    ADD_FAILURE() << "expected KernelFault";
  } catch (const KernelFault& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("graph_test_fault"), std::string::npos) << m;
    EXPECT_NE(m.find("graph"), std::string::npos) << m;
  }
  // The stream and the runtime stay usable.
  Tensor z = ops::add(x, x, s);
  EXPECT_EQ(download(z, s), (std::vector<float>{2, 4, 6, 8}));
}

TEST(GraphReplay, GraphPoolReusedAcrossReplaysAndReleasedOnDestroy) {
  Stream s = Stream::create(dev0());
  int64_t before = graph_pool_bytes();
  Tensor x = upload(std::vector<float>(1023, 1.5f), s);
  void* out_ptr = nullptr;
  {
    Graph g;
    {
      Graph::begin_capture(s);
      Tensor t1 = ops::add(x, x, s);   // temporaries from the graph pool
      Tensor t2 = ops::mul(t1, x, s);
      Tensor y = ops::add(t2, t1, s);
      out_ptr = y.data();
      g = Graph::end_capture(s);
      EXPECT_GT(graph_pool_bytes(), before);
      // t1, t2, y are dropped here: their blocks stay reserved for the graph.
    }
    int64_t reserved = graph_pool_bytes();
    Tensor other = ops::add(x, x, s);  // eager allocations do not take graph blocks
    EXPECT_NE(other.data(), out_ptr);
    for (int i = 0; i < 3; ++i) g.replay(s);
    s.synchronize();
    EXPECT_EQ(graph_pool_bytes(), reserved);
    // The captured output address is still written by replay.
    s.memcpy_async(other.data(), out_ptr, 1023 * sizeof(float), CopyKind::kDeviceToDevice);
    EXPECT_EQ(download(other, s), std::vector<float>(1023, 2.0f * 1.5f * 1.5f + 3.0f));

    // A second graph shares the pool: it stays until both are gone.
    Graph::begin_capture(s, CaptureMode::kGlobal, g.pool());
    Tensor w = ops::add(x, x, s);
    Graph g2 = Graph::end_capture(s);
    EXPECT_EQ(g2.pool().id(), g.pool().id());
    w = Tensor();
    g = Graph();
    EXPECT_GT(graph_pool_bytes(), before);
    g2.replay(s);
    s.synchronize();
  }
  s.synchronize();
  EXPECT_EQ(graph_pool_bytes(), before);
}

TEST(GraphReplay, RebindInputsAndOutputs) {
  Stream s = Stream::create(dev0());
  Tensor x = upload({1, 2, 3}, s);
  Tensor c = upload({10, 20, 30}, s);
  Graph::begin_capture(s);
  Tensor y = ops::add(x, c, s);
  Graph g = Graph::end_capture(s);
  uint32_t in_slot = g.add_binding(x);
  uint32_t out_slot = g.add_binding(y);
  EXPECT_EQ(g.num_bindings(), 2u);

  Tensor x2 = upload({5, 6, 7}, s);
  Tensor y2 = upload({0, 0, 0}, s);
  GraphBinding binds[] = {{in_slot, x2}, {out_slot, y2}};
  g.replay(s, binds);
  EXPECT_EQ(download(y2, s), (std::vector<float>{15, 26, 37}));
  g.replay(s);  // without bindings: the captured tensors again
  EXPECT_EQ(download(y, s), (std::vector<float>{11, 22, 33}));
  EXPECT_EQ(download(y2, s), (std::vector<float>{15, 26, 37}));

  Tensor wrong_shape = upload({1, 2, 3, 4}, s);
  Tensor wrong_dtype = ops::cast(x2, DType::kFloat16, s);
  GraphBinding bad_shape[] = {{in_slot, wrong_shape}};
  GraphBinding bad_dtype[] = {{in_slot, wrong_dtype}};
  GraphBinding bad_slot[] = {{7, x2}};
  EXPECT_THROW(g.replay(s, bad_shape), InvalidArgument);
  EXPECT_THROW(g.replay(s, bad_dtype), InvalidArgument);
  EXPECT_THROW(g.replay(s, bad_slot), InvalidArgument);
  try {
    g.replay(s, bad_shape);
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("npurt.Graph.replay: argument 'bindings[0]'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(g.add_binding(wrong_shape), InvalidArgument);  // not used by the graph
  EXPECT_EQ(g.replay_count(), 2u);  // rejected replays enqueued nothing
}

TEST(GraphReplay, StaticBufferStyle) {
  Stream s = Stream::create(dev0());
  Tensor x = upload({0, 0}, s);
  Graph::begin_capture(s);
  Tensor y = ops::mul(x, x, s);
  Graph g = Graph::end_capture(s);
  for (float v : {2.0f, 3.0f}) {
    set_values(x, {v, -v}, s);
    g.replay(s);
    EXPECT_EQ(download(y, s), (std::vector<float>{v * v, v * v}));
  }
}

TEST(GraphReplay, IntrospectionDotAndJson) {
  Stream s = Stream::create(dev0());
  Stream s2 = Stream::create(dev0());
  Tensor x = upload({1, 2}, s);
  Tensor y;
  Graph g = capture_fork_join(s, s2, x, &y);
  std::string dot = g.to_dot();
  EXPECT_NE(dot.find("digraph"), std::string::npos);
  EXPECT_NE(dot.find("cluster_lane1"), std::string::npos);
  EXPECT_NE(dot.find("n0 -> n2"), std::string::npos) << dot;
  EXPECT_NE(dot.find("mul"), std::string::npos) << dot;
  std::string json = g.to_json();
  EXPECT_NE(json.find("\"kind\": \"launch\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"deps\": [1, 0]"), std::string::npos) << json;
  EXPECT_THROW(Graph().num_nodes(), InvalidArgument);
}
