// Rebinding an output whose address a temporary of the capture used before it:
// only the nodes recorded after the output's allocation may be redirected.
#include "graph_test_util.h"

using namespace npurt;
using namespace graph_test;

namespace {

std::vector<float> iota(size_t n, float start) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = start + float(i % 97);
  return v;
}

}  // namespace

TEST(GraphRebindOutputs, OutputAtAFreedTemporarysAddressRebindsOnlyItsOwnNodes) {
  Stream s = Stream::create(dev0());
  const size_t big = 4096, small = 1024;
  Tensor x = upload(iota(big, 1), s);      // inputs: allocated before the capture
  Tensor x1 = upload(iota(small, 3), s);
  Graph::begin_capture(s);
  Tensor u, y;
  void* temp_address = nullptr;
  {
    Tensor t = ops::add(x, x, s);  // a 16 KiB temporary in the graph pool
    temp_address = t.data();
    u = ops::mul(t, x, s);         // u = 2x * x, kept
  }                                // t freed inside the capture
  y = ops::add(x1, x1, s);         // 4 KiB: best fit puts it at t's address
  Graph g = Graph::end_capture(s);
  // The scenario needs the pool to reuse the temporary's block; if it ever stops
  // doing so this test must be redesigned, not silently pass.
  ASSERT_EQ(y.data(), temp_address) << "the graph pool did not reuse the temporary's block";

  uint32_t slot = g.add_binding(y);
  Tensor y2 = upload(std::vector<float>(small, -1.0f), s);
  GraphBinding binds[] = {{slot, y2}};
  g.replay(s, binds);
  s.synchronize();  // before the fix: the 16 KiB temporary was redirected into y2 (a fault)
  std::vector<float> hx = iota(big, 1), hx1 = iota(small, 3);
  std::vector<float> want_y(small), want_u(big);
  for (size_t i = 0; i < small; ++i) want_y[i] = hx1[i] + hx1[i];
  for (size_t i = 0; i < big; ++i) want_u[i] = (hx[i] + hx[i]) * hx[i];
  EXPECT_EQ(download(y2, s), want_y);
  EXPECT_EQ(download(u, s), want_u);
  // The captured output was not written by the rebound replay; a plain replay
  // fills it (and the temporary's use of the same address is fine there).
  g.replay(s);
  EXPECT_EQ(download(y, s), want_y);
  EXPECT_EQ(download(u, s), want_u);
}

TEST(GraphRebindOutputs, InputsAllocatedBeforeTheCaptureKeepEverySite) {
  Stream s = Stream::create(dev0());
  Tensor x = upload({1, 2, 3}, s);
  Graph::begin_capture(s);
  Tensor a = ops::add(x, x, s);
  Tensor b = ops::mul(a, x, s);  // x used by two nodes
  Graph g = Graph::end_capture(s);
  uint32_t slot = g.add_binding(x);
  Tensor x2 = upload({2, 3, 4}, s);
  GraphBinding binds[] = {{slot, x2}};
  g.replay(s, binds);
  EXPECT_EQ(download(a, s), (std::vector<float>{4, 6, 8}));
  EXPECT_EQ(download(b, s), (std::vector<float>{8, 18, 32}));
}
