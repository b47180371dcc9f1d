// The stream-graph part of the C API (npurt/npurt.h 0.2): capture, replay,
// rebinding by slot, node count, dumps, and errors as status codes.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "npurt/npurt.h"

namespace {

#define OK(call) ASSERT_EQ((call), NPURT_SUCCESS) << npurtGetLastErrorMessage()

npurtTensor make(npurtStream s, int64_t n) {
  npurtTensorDesc d = {sizeof(npurtTensorDesc), NPURT_FLOAT32, 1, &n};
  npurtTensor t = nullptr;
  EXPECT_EQ(npurtTensorCreate(&d, s, &t), NPURT_SUCCESS) << npurtGetLastErrorMessage();
  return t;
}

void put(npurtTensor t, const std::vector<float>& v, npurtStream s) {
  EXPECT_EQ(npurtTensorCopyFromHost(t, v.data(), v.size() * 4, s), NPURT_SUCCESS) << npurtGetLastErrorMessage();
}

std::vector<float> get(npurtTensor t, size_t n, npurtStream s) {
  std::vector<float> v(n);
  EXPECT_EQ(npurtTensorCopyToHost(t, v.data(), n * 4, s), NPURT_SUCCESS) << npurtGetLastErrorMessage();
  return v;
}

// out = op(a, b) through the two-phase call.
npurtStatus binary(const char* op, npurtTensor a, npurtTensor b, npurtTensor out, npurtStream s) {
  npurtTensor ins[2] = {a, b};
  uint64_t ws = 0;
  npurtOpExecutor ex = nullptr;
  npurtStatus st = npurtOpGetWorkspaceSize(op, ins, 2, nullptr, 0, &out, 1, &ws, &ex);
  if (st != NPURT_SUCCESS) return st;
  EXPECT_EQ(ws, 0u);  // the elementwise ops need no op workspace
  return npurtOpLaunch(nullptr, 0, ex, s);
}

bool message_has(const char* text) { return std::strstr(npurtGetLastErrorMessage(), text) != nullptr; }

}  // namespace

TEST(GraphCApi, CaptureReplayRebindAndDump) {
  npurtStream s = nullptr;
  OK(npurtStreamCreate("sim:0", &s));
  const int64_t n = 5;
  npurtTensor x = make(s, n), c = make(s, n), h = make(s, n), y = make(s, n);
  put(x, {1, 2, 3, 4, 5}, s);
  put(c, {10, 10, 10, 10, 10}, s);
  put(y, {0, 0, 0, 0, 0}, s);

  OK(npurtStreamBeginCapture(s, nullptr));
  int capturing = 0;
  OK(npurtStreamIsCapturing(s, &capturing));
  EXPECT_EQ(capturing, 1);
  OK(binary("mul", x, c, h, s));  // recorded, not run
  OK(binary("add", h, x, y, s));
  npurtGraph g = nullptr;
  OK(npurtStreamEndCapture(s, &g));
  ASSERT_NE(g, nullptr);
  OK(npurtStreamIsCapturing(s, &capturing));
  EXPECT_EQ(capturing, 0);
  EXPECT_EQ(get(y, n, s), std::vector<float>(5, 0.0f));  // the capture ran nothing

  size_t count = 0;
  OK(npurtGraphGetNodeCount(g, &count));
  EXPECT_EQ(count, 2u);
  OK(npurtGraphReplay(g, nullptr, 0, s));
  EXPECT_EQ(get(y, n, s), (std::vector<float>{11, 22, 33, 44, 55}));

  uint32_t in_slot = 0, out_slot = 0;
  OK(npurtGraphAddBinding(g, x, &in_slot));
  OK(npurtGraphAddBinding(g, y, &out_slot));
  EXPECT_NE(in_slot, out_slot);
  npurtTensor x2 = make(s, n), y2 = make(s, n);
  put(x2, {-1, -2, -3, -4, -5}, s);
  npurtGraphBinding binds[2] = {{sizeof(npurtGraphBinding), in_slot, x2}, {sizeof(npurtGraphBinding), out_slot, y2}};
  OK(npurtGraphReplay(g, binds, 2, s));
  EXPECT_EQ(get(y2, n, s), (std::vector<float>{-11, -22, -33, -44, -55}));
  EXPECT_EQ(get(y, n, s), (std::vector<float>{11, 22, 33, 44, 55}));  // untouched

  for (npurtGraphDumpFormat f : {NPURT_GRAPH_DUMP_DOT, NPURT_GRAPH_DUMP_JSON}) {
    size_t len = 0;
    OK(npurtGraphDump(g, f, nullptr, 0, &len));
    ASSERT_GT(len, 1u);
    std::vector<char> buf(len);
    OK(npurtGraphDump(g, f, buf.data(), buf.size(), &len));
    EXPECT_EQ(std::strlen(buf.data()) + 1, len);
    std::string text(buf.data());
    EXPECT_NE(text.find(f == NPURT_GRAPH_DUMP_DOT ? "digraph" : "\"nodes\""), std::string::npos);
    EXPECT_NE(text.find("mul"), std::string::npos);
    EXPECT_EQ(npurtGraphDump(g, f, buf.data(), len - 1, &len), NPURT_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(message_has("npurtGraphDump: argument 'capacity'")) << npurtGetLastErrorMessage();
  }

  // A second graph sharing the first one's pool, in relaxed mode.
  npurtCaptureOptions opts = {sizeof(npurtCaptureOptions), NPURT_CAPTURE_MODE_RELAXED, g};
  OK(npurtStreamBeginCapture(s, &opts));
  OK(binary("add", x, x, h, s));
  npurtGraph g2 = nullptr;
  OK(npurtStreamEndCapture(s, &g2));
  OK(npurtGraphReplay(g2, nullptr, 0, s));
  EXPECT_EQ(get(h, n, s), (std::vector<float>{2, 4, 6, 8, 10}));

  OK(npurtGraphDestroy(g2));
  OK(npurtGraphDestroy(g));
  OK(npurtGraphDestroy(nullptr));
  for (npurtTensor t : {x, c, h, y, x2, y2}) OK(npurtTensorDestroy(t));
  OK(npurtStreamDestroy(s));
}

TEST(GraphCApi, ErrorsAreStatusesAndTheRuntimeStaysUsable) {
  npurtStream s = nullptr, def = nullptr;
  OK(npurtStreamCreate("sim:0", &s));
  OK(npurtStreamGetDefault("sim:0", &def));
  npurtTensor x = make(s, 3), y = make(s, 3), big = make(s, 4);
  put(x, {1, 2, 3}, s);

  EXPECT_EQ(npurtStreamBeginCapture(def, nullptr), NPURT_ERROR_CAPTURE);
  EXPECT_TRUE(message_has("107031")) << npurtGetLastErrorMessage();
  EXPECT_EQ(npurtStreamBeginCapture(nullptr, nullptr), NPURT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(message_has("npurtStreamBeginCapture: argument 'stream'")) << npurtGetLastErrorMessage();
  npurtCaptureOptions bad_mode = {sizeof(npurtCaptureOptions), static_cast<npurtCaptureMode>(9), nullptr};
  EXPECT_EQ(npurtStreamBeginCapture(s, &bad_mode), NPURT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(message_has("argument 'mode'")) << npurtGetLastErrorMessage();
  npurtCaptureOptions small = {sizeof(size_t), NPURT_CAPTURE_MODE_GLOBAL, nullptr};
  EXPECT_EQ(npurtStreamBeginCapture(s, &small), NPURT_ERROR_INVALID_ARGUMENT);
  npurtGraph g = nullptr;
  EXPECT_EQ(npurtStreamEndCapture(s, &g), NPURT_ERROR_CAPTURE);  // not capturing
  EXPECT_TRUE(message_has("107029")) << npurtGetLastErrorMessage();
  EXPECT_EQ(g, nullptr);

  OK(npurtStreamBeginCapture(s, nullptr));
  OK(binary("add", x, x, y, s));
  std::vector<float> host(3);
  // Illegal while capturing: a blocking read and a synchronize; nothing is recorded.
  EXPECT_EQ(npurtTensorCopyToHost(y, host.data(), 12, s), NPURT_ERROR_CAPTURE);
  EXPECT_EQ(npurtStreamSynchronize(s), NPURT_ERROR_CAPTURE);
  EXPECT_TRUE(message_has("107027")) << npurtGetLastErrorMessage();
  EXPECT_EQ(npurtStreamBeginCapture(s, nullptr), NPURT_ERROR_CAPTURE);  // already capturing
  OK(npurtStreamEndCapture(s, &g));
  size_t count = 0;
  OK(npurtGraphGetNodeCount(g, &count));
  EXPECT_EQ(count, 1u);

  uint32_t slot = 0;
  OK(npurtGraphAddBinding(g, x, &slot));
  EXPECT_EQ(npurtGraphAddBinding(g, big, &slot), NPURT_ERROR_INVALID_ARGUMENT);  // not used by the graph
  npurtGraphBinding wrong_shape = {sizeof(npurtGraphBinding), slot, big};
  EXPECT_EQ(npurtGraphReplay(g, &wrong_shape, 1, s), NPURT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(message_has("npurt.Graph.replay: argument 'bindings[0]'")) << npurtGetLastErrorMessage();
  npurtGraphBinding null_tensor = {sizeof(npurtGraphBinding), slot, nullptr};
  EXPECT_EQ(npurtGraphReplay(g, &null_tensor, 1, s), NPURT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(message_has("bindings[0].tensor")) << npurtGetLastErrorMessage();
  EXPECT_EQ(npurtGraphReplay(g, nullptr, 2, s), NPURT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(npurtGraphReplay(nullptr, nullptr, 0, s), NPURT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(npurtGraphGetNodeCount(g, nullptr), NPURT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(npurtGraphDump(g, static_cast<npurtGraphDumpFormat>(7), nullptr, 0, &count), NPURT_ERROR_INVALID_ARGUMENT);

  npurtCaptureMode mode = NPURT_CAPTURE_MODE_RELAXED;
  OK(npurtThreadExchangeCaptureMode(&mode));
  EXPECT_EQ(mode, NPURT_CAPTURE_MODE_GLOBAL);
  OK(npurtThreadExchangeCaptureMode(&mode));  // restore
  OK(npurtStreamAbortCapture(s));             // not capturing: a no-op

  // Still usable: the graph replays and the stream synchronizes.
  OK(npurtGraphReplay(g, nullptr, 0, s));
  EXPECT_EQ(get(y, 3, s), (std::vector<float>{2, 4, 6}));
  OK(npurtGraphDestroy(g));
  for (npurtTensor t : {x, y, big}) OK(npurtTensorDestroy(t));
  OK(npurtStreamDestroy(def));
  OK(npurtStreamDestroy(s));
}
