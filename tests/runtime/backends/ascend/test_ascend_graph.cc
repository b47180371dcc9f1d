// Graph capture on the ascend backend (aclmdlRICaptureBegin/End,
// aclmdlRIExecuteAsync, aclmdlRIDestroy) against the FAKE AscendCL, whose
// "model" is the list of tasks captured on the stream (not CANN: this checks
// npurt's use of the documented calls and restrictions, not an NPU).
#include <gtest/gtest.h>

#include <vector>

#include "backends/ascend/ascend_graph.h"
#include "fake_backend_fixture.h"

namespace npurt::ascend {
namespace {

class FakeAscendGraph : public FakeAscendBackend {
 protected:
  static Command memset_cmd(void* dst, size_t n, int v) {
    Command c;
    c.kind = Command::Kind::kMemset;
    c.dst = dst;
    c.bytes = n;
    c.memset_value = v;
    return c;
  }
  static std::vector<const Command*> ptrs(const std::vector<Command>& cmds) {
    std::vector<const Command*> out;
    for (const Command& c : cmds) out.push_back(&c);
    return out;
  }
  std::vector<float> download(void* d, size_t n) {
    std::vector<float> out(n);
    backend_->copy_sync(out.data(), d, n * 4, CopyKind::kDeviceToHost, 0);
    return out;
  }
};

// Captured once, replayed twice on another stream with new inputs: each replay
// re-executes the captured tasks (memset, two chained launches, a D2D copy).
TEST_P(FakeAscendGraph, CapturedGraphReplaysOnAnotherStream) {
  const size_t n = 1000;
  void* in = alloc(n * 4);
  void* mid = alloc(n * 4);
  void* out = alloc(n * 4);
  void* copy_of_out = alloc(n * 4);
  std::vector<Command> cmds;
  cmds.push_back(memset_cmd(mid, n * 4, 0));
  cmds.push_back(launch(add_one(in, mid, n, 1.0f, 4)));
  cmds.push_back(launch(add_one(mid, out, n, 2.5f, 3)));
  cmds.push_back(copy(copy_of_out, out, n * 4, CopyKind::kDeviceToDevice));
  std::unique_ptr<BackendGraph> graph = backend_->instantiate_graph(0, ptrs(cmds));
  if (!full()) {  // the minimal fake has no aclmdlRI*: the runtime replays node by node
    EXPECT_EQ(graph, nullptr);
    EXPECT_NE(ascend_graph_unsupported_reason(AclApi{}, ptrs(cmds)).find("aclmdlRICaptureBegin"), std::string::npos);
    return;
  }
  ASSERT_NE(graph, nullptr);
  EXPECT_EQ(counter("live_ri"), 1);
  EXPECT_EQ(counter("captures"), 1);
  auto stream = backend_->create_stream(0);
  for (float base : {0.0f, 10.0f}) {
    std::vector<float> host(n);
    for (size_t i = 0; i < n; ++i) host[i] = base + static_cast<float>(i);
    backend_->copy_sync(in, host.data(), n * 4, CopyKind::kHostToDevice, 0);
    graph->launch(*stream);
    Status s = stream->synchronize();
    ASSERT_TRUE(s.is_ok()) << s.message();
    std::vector<float> got = download(copy_of_out, n);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], host[i] + 3.5f) << "base " << base << " i " << i;
  }
  EXPECT_EQ(counter("ri_executions"), 2);
  graph.reset();
  EXPECT_EQ(counter("live_ri"), 0);  // aclmdlRIDestroy
  stream.reset();
  for (void* p : {in, mid, out, copy_of_out}) backend_->free_segment(0, p, n * 4);
}

// A fault inside the replayed graph is the error of the stream that replayed it.
TEST_P(FakeAscendGraph, FaultInReplayIsTheReplayStreamsError) {
  if (!full()) GTEST_SKIP() << "the minimal fake has no aclmdlRI entry points";
  KernelLaunch bad;
  bad.kernel_name = "fake_fail";
  std::vector<Command> cmds;
  cmds.push_back(launch(bad));
  std::unique_ptr<BackendGraph> graph = backend_->instantiate_graph(0, ptrs(cmds));
  ASSERT_NE(graph, nullptr);
  auto stream = backend_->create_stream(0);
  graph->launch(*stream);
  Status s = stream->synchronize();
  EXPECT_EQ(s.code(), StatusCode::kKernelFault);
  EXPECT_NE(s.message().find("507015"), std::string::npos) << s.message();
  EXPECT_TRUE(stream->synchronize().is_ok());  // reported once
}

// Host functions and copies touching (pageable) host memory are not captured.
TEST_P(FakeAscendGraph, HostSideNodesGetNoNativeGraph) {
  void* d = alloc(64);
  std::vector<uint8_t> host(64, 1);
  std::vector<Command> with_copy, with_host_fn;
  with_copy.push_back(memset_cmd(d, 64, 0));
  with_copy.push_back(copy(d, host.data(), 64, CopyKind::kHostToDevice));
  Command fn;
  fn.kind = Command::Kind::kHostFunc;
  fn.host_fn = [] {};
  with_host_fn.push_back(std::move(fn));
  const long captures = counter("captures");
  EXPECT_EQ(backend_->instantiate_graph(0, ptrs(with_copy)), nullptr);
  EXPECT_EQ(backend_->instantiate_graph(0, ptrs(with_host_fn)), nullptr);
  EXPECT_EQ(counter("captures"), captures);  // never began a capture
  if (full()) {
    AclApi api;
    api.aclmdlRICaptureBegin = [](aclrtStream, aclmdlRICaptureMode) -> aclError { return 0; };
    api.aclmdlRICaptureEnd = [](aclrtStream, aclmdlRI*) -> aclError { return 0; };
    api.aclmdlRIExecuteAsync = [](aclmdlRI, aclrtStream) -> aclError { return 0; };
    api.aclmdlRIDestroy = [](aclmdlRI) -> aclError { return 0; };
    EXPECT_NE(ascend_graph_unsupported_reason(api, ptrs(with_copy)).find("node 1"), std::string::npos);
    EXPECT_NE(ascend_graph_unsupported_reason(api, ptrs(with_host_fn)).find("host function"), std::string::npos);
    EXPECT_EQ(ascend_graph_unsupported_reason(api, {&with_copy[0]}), "");
  }
  backend_->free_segment(0, d, 64);
}

// A kernel no binary exports fails before the capture begins (its binary would
// otherwise be loaded inside the capture).
TEST_P(FakeAscendGraph, UnknownKernelFailsBeforeCapture) {
  if (!full()) GTEST_SKIP() << "the minimal fake has no aclmdlRI entry points";
  KernelLaunch l;
  l.kernel_name = "no_such_kernel";
  std::vector<Command> cmds;
  cmds.push_back(launch(l));
  const long captures = counter("captures");
  EXPECT_THROW(backend_->instantiate_graph(0, ptrs(cmds)), Error);
  EXPECT_EQ(counter("captures"), captures);
  EXPECT_EQ(counter("live_ri"), 0);
}

INSTANTIATE_TEST_SUITE_P(Variants, FakeAscendGraph, ::testing::Values("full", "minimal"));

}  // namespace
}  // namespace npurt::ascend
