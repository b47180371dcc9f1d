// Graph capture: equivalence with eager execution over random op sequences,
// capture rules (every illegal-while-capturing call), capture modes across threads.
#include <atomic>
#include <random>
#include <thread>

#include "graph_test_util.h"

using namespace npurt;
using namespace graph_test;

namespace {

// One step of a random program over a set of float32 buffers of equal size.
struct Step {
  int kind;  // 0 add->out, 1 mul->out, 2 add (new) + copy, 3 cast f16 round trip, 4 fill, 5 memset, 6 D2D copy
  int a, b, d;
  float value;
};

std::vector<Step> random_program(std::mt19937& g, int buffers, int steps) {
  std::vector<Step> p;
  for (int i = 0; i < steps; ++i) {
    Step s{};
    s.kind = static_cast<int>(g() % 7);
    s.d = static_cast<int>(g() % buffers);
    do s.a = static_cast<int>(g() % buffers); while (s.a == s.d);
    do s.b = static_cast<int>(g() % buffers); while (s.b == s.d);
    s.value = static_cast<float>(static_cast<int>(g() % 17) - 8) * 0.25f;
    p.push_back(s);
  }
  return p;
}

void run_program(const std::vector<Step>& p, const std::vector<Tensor>& bufs, const Stream& s) {
  for (const Step& st : p) {
    const Tensor &a = bufs[st.a], &b = bufs[st.b], &d = bufs[st.d];
    switch (st.kind) {
      case 0: ops::add(a, b, s, d); break;
      case 1: ops::mul(a, b, s, d); break;
      case 2: ops::copy(ops::add(a, b, s), s, d); break;
      case 3: ops::cast(ops::cast(a, DType::kFloat16, s), DType::kFloat32, s, d); break;
      case 4: ops::fill(d.shape(), DType::kFloat32, st.value, s, d); break;
      case 5: s.memset_async(d.data(), 0, d.nbytes()); break;
      case 6: s.memcpy_async(d.data(), a.data(), d.nbytes(), CopyKind::kDeviceToDevice); break;
    }
  }
}

std::vector<float> random_values(std::mt19937& g, size_t n) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = u(g);
  return v;
}

}  // namespace

// Property: for random programs, replaying the captured graph gives bit-identical
// results to running the same program eagerly (same kernels, same inputs).
TEST(GraphCapture, ReplayMatchesEagerOnRandomPrograms) {
  Stream s = Stream::create(dev0());
  const int64_t sizes[] = {1, 15, 33, 1023};
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    std::mt19937 g(seed);
    size_t n = static_cast<size_t>(sizes[seed % 4]);
    const int kBuffers = 4;
    std::vector<std::vector<float>> init;
    for (int i = 0; i < kBuffers; ++i) init.push_back(random_values(g, n));
    std::vector<Step> program = random_program(g, kBuffers, 16);

    std::vector<Tensor> eager, graph;
    for (int i = 0; i < kBuffers; ++i) {
      eager.push_back(upload(init[i], s));
      graph.push_back(upload(init[i], s));
    }
    run_program(program, eager, s);
    Graph::begin_capture(s);
    run_program(program, graph, s);
    Graph gr = Graph::end_capture(s);
    // Capture executed nothing.
    for (int i = 0; i < kBuffers; ++i) ASSERT_EQ(download(graph[i], s), init[i]) << "seed " << seed;
    EXPECT_GE(gr.num_nodes(), program.size());
    for (int rep = 0; rep < 2; ++rep) {
      for (int i = 0; i < kBuffers; ++i) set_values(graph[i], init[i], s);
      gr.replay(s);
      for (int i = 0; i < kBuffers; ++i)
        ASSERT_EQ(download(graph[i], s), download(eager[i], s)) << "seed " << seed << " buffer " << i << " rep " << rep;
    }
  }
}

// Replay really re-executes: an accumulating graph (x += 1) counts replays.
TEST(GraphCapture, ReplayReexecutesEveryTime) {
  Stream s = Stream::create(dev0());
  Tensor x = upload(std::vector<float>(33, 0.0f), s);
  Tensor one = upload(std::vector<float>(33, 1.0f), s);
  Graph::begin_capture(s);
  ops::add(x, one, s, x);
  Graph g = Graph::end_capture(s);
  EXPECT_EQ(download(x, s), std::vector<float>(33, 0.0f));
  for (int i = 0; i < 5; ++i) g.replay(s);
  EXPECT_EQ(download(x, s), std::vector<float>(33, 5.0f));
  EXPECT_EQ(g.replay_count(), 5u);
}

TEST(GraphCapture, IllegalCallsRaiseAndRecordNothing) {
  Stream s = Stream::create(dev0());
  Stream other = Stream::create(dev0());
  Tensor x = upload({1, 2, 3}, s);
  std::vector<float> host(3);
  Event inside(dev0());
  Event outside(dev0());
  outside.record(other);
  other.synchronize();

  Graph::begin_capture(s);
  EXPECT_TRUE(Graph::is_capturing(s));
  ops::add(x, x, s, x);
  expect_capture_error([&] { s.synchronize(); }, "107027");
  expect_capture_error([&] { s.query(); }, "107027");
  expect_capture_error([&] { copy_to_host(host.data(), x, 12, s, true); }, "107027");          // host read
  expect_capture_error([&] { copy_from_host(x, host.data(), 12, s, true); }, "107027");        // blocking copy
  expect_capture_error([&] { copy_to_host(host.data(), x, 12, other, true); }, "107041");      // global mode
  expect_capture_error([&] { synchronize_device(dev0()); }, "107027");
  inside.record(s);
  expect_capture_error([&] { inside.synchronize(); }, "107027");
  expect_capture_error([&] { inside.query(); }, "107027");
  expect_capture_error([&] { s.wait_event(outside); }, "107024");                              // external dependency
  expect_capture_error([&] { Graph::begin_capture(s); }, "107027");
  expect_capture_error([&] { Graph::end_capture(other); }, "107029");
  ops::mul(x, x, s, x);
  Graph g = Graph::end_capture(s);
  EXPECT_FALSE(Graph::is_capturing(s));
  ASSERT_EQ(g.num_nodes(), 2u);  // only the two ops: nothing half-recorded
  EXPECT_EQ(g.nodes()[0].kind, "launch");
  expect_capture_error([&] { Graph::begin_capture(Stream::default_stream(dev0())); }, "107031");

  // The runtime stays usable: eager work and replay both run.
  g.replay(s);
  EXPECT_EQ(download(x, s), (std::vector<float>{4, 16, 36}));
}

TEST(GraphCapture, ReplayInsideCaptureIsRejected) {
  Stream s = Stream::create(dev0());
  Stream s2 = Stream::create(dev0());
  Tensor x = upload({1, 2}, s);
  Graph::begin_capture(s);
  ops::add(x, x, s, x);
  Graph g = Graph::end_capture(s);
  Graph::begin_capture(s2);
  expect_capture_error([&] { g.replay(s2); }, "107030");
  Graph empty = Graph::end_capture(s2);
  EXPECT_EQ(empty.num_nodes(), 0u);
}

TEST(GraphCapture, EndFromAnotherThreadNeedsRelaxedMode) {
  Stream s = Stream::create(dev0());
  Tensor x = upload({1}, s);
  Graph::begin_capture(s, CaptureMode::kGlobal);
  ops::add(x, x, s, x);
  std::thread t([&] { expect_capture_error([&] { Graph::end_capture(s); }, "107038"); });
  t.join();
  Graph g = Graph::end_capture(s);
  EXPECT_EQ(g.num_nodes(), 1u);

  Graph::begin_capture(s, CaptureMode::kRelaxed);
  ops::add(x, x, s, x);
  Graph g2;
  std::thread t2([&] { g2 = Graph::end_capture(s); });
  t2.join();
  ASSERT_TRUE(g2.valid());
  g2.replay(s);
  EXPECT_EQ(download(x, s), std::vector<float>{2});
}

// Thread B synchronizes its own stream while thread A captures.
TEST(GraphCapture, ModesAcrossTwoThreads) {
  Stream s = Stream::create(dev0());
  Stream other = Stream::create(dev0());
  Tensor x = upload({1}, s);
  auto sync_from_other_thread = [&]() {
    std::string error;
    std::thread t([&] {
      try {
        other.synchronize();
      } catch (const CaptureError& e) {
        error = e.what();
      }
    });
    t.join();
    return error;
  };
  Graph::begin_capture(s, CaptureMode::kGlobal);
  ops::add(x, x, s, x);
  std::string err = sync_from_other_thread();
  EXPECT_NE(err.find("107041"), std::string::npos) << err;
  EXPECT_NE(err.find("another thread"), std::string::npos) << err;
  // A thread that exchanged its mode to relaxed may synchronize.
  std::thread relaxed([&] {
    CaptureMode old = exchange_thread_capture_mode(CaptureMode::kRelaxed);
    EXPECT_NO_THROW(other.synchronize());
    exchange_thread_capture_mode(old);
  });
  relaxed.join();
  Graph::end_capture(s);

  Graph::begin_capture(s, CaptureMode::kThreadLocal);
  ops::add(x, x, s, x);
  EXPECT_EQ(sync_from_other_thread(), "");  // other threads are not affected
  expect_capture_error([&] { other.synchronize(); }, "107041");  // the capturing thread is
  Graph::end_capture(s);

  Graph::begin_capture(s, CaptureMode::kRelaxed);
  ops::add(x, x, s, x);
  EXPECT_NO_THROW(other.synchronize());
  expect_capture_error([&] { s.synchronize(); }, "107027");  // never the capturing stream itself
  Graph::end_capture(s);
}

TEST(GraphCapture, AbortDiscardsAndLeavesStreamsUsable) {
  Stream s = Stream::create(dev0());
  Tensor x = upload({3}, s);
  Graph::begin_capture(s);
  ops::add(x, x, s, x);
  Graph::abort_capture(s);
  EXPECT_FALSE(Graph::is_capturing(s));
  ops::add(x, x, s, x);
  EXPECT_EQ(download(x, s), std::vector<float>{6});
}

TEST(GraphCapture, LargeAsyncUploadAndDefaultStreamJoinAreRejected) {
  Stream s = Stream::create(dev0());
  const size_t n = (2u << 20) / sizeof(float);  // 2 MiB: an async H2D above 1 MiB would wait
  Tensor big = Tensor::empty({static_cast<int64_t>(n)}, DType::kFloat32, s);
  std::vector<float> host(n, 1.0f);
  Tensor x = upload({1, 2}, s);
  Event inside(dev0());

  Graph::begin_capture(s);
  ops::add(x, x, s, x);
  expect_capture_error([&] { copy_from_host(big, host.data(), n * sizeof(float), s, /*blocking=*/false); },
                       "107027");
  inside.record(s);
  expect_capture_error([&] { Stream::default_stream(dev0()).wait_event(inside); }, "107031");
  Graph g = Graph::end_capture(s);
  EXPECT_EQ(g.num_nodes(), 1u);  // neither rejected call left a node behind
  g.replay(s);
  EXPECT_EQ(download(x, s), (std::vector<float>{2, 4}));
  Stream::default_stream(dev0()).synchronize();  // the default stream is usable
}
