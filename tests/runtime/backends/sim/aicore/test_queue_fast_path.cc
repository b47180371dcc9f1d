// tests/runtime/backends/sim/aicore/test_queue_fast_path.cc: the inline fast
// paths of the queue operations (aicore/tque.h) and of DataCopy(count)
// (aicore/data_copy.h) hand every case they do not handle to the general
// functions: the results and the diagnostics are those of the general path.
// (The fault corpus of test_faults.cc covers the faults through them.)
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "aicore_test_util.h"

using namespace aicore_test;
using namespace AscendC;

namespace {

constexpr uint32_t kFloats = 256;

// Three buffers: after AllocTensor x3 and freeing the middle one, the cursor
// points at the busy first buffer; AllocTensor must find the free middle one.
// z[0] = 1 when it did, z[1] = 1 when buffers cycle back in order afterwards.
AICORE_TEST_KERNEL(alloc_skips_busy_cursor) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 3> q;
  pipe.InitBuffer(q, 3, 256);
  LocalTensor<float> a = q.AllocTensor<float>();
  LocalTensor<float> b = q.AllocTensor<float>();
  LocalTensor<float> c = q.AllocTensor<float>();
  const uint64_t b_addr = b.GetPhyAddr();
  q.FreeTensor(b);
  LocalTensor<float> d = q.AllocTensor<float>();
  GlobalTensor<float> zGm;
  zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), kFloats);
  zGm.SetValue(0, d.GetPhyAddr() == b_addr ? 1.0f : 0.0f);
  const uint64_t c_addr = c.GetPhyAddr();
  q.FreeTensor(a);
  q.FreeTensor(c);
  q.FreeTensor(d);
  LocalTensor<float> e = q.AllocTensor<float>();  // the cursor is past b: c's buffer next
  zGm.SetValue(1, e.GetPhyAddr() == c_addr ? 1.0f : 0.0f);
  DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(zGm);
  q.FreeTensor(e);
}

// A double FreeTensor: a fault at basic, ignored at level off.
AICORE_TEST_KERNEL(double_free_then_copy) {
  TPipe pipe;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 2> q;
  pipe.InitBuffer(q, 2, kFloats * sizeof(float));
  GlobalTensor<float> xGm, zGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), kFloats);
  zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), kFloats);
  LocalTensor<float> t = q.AllocTensor<float>();
  q.FreeTensor(t);
  q.FreeTensor(t);
  t = q.AllocTensor<float>();
  DataCopy(t, xGm, kFloats);
  q.EnQue(t);
  t = q.DeQue<float>();
  DataCopy(zGm, t, kFloats);
  q.FreeTensor(t);
}

// Tiles of 64 floats through a depth-2 queue, copied in and out with
// DataCopy(count) through a VECIN -> VECOUT binding; the last tile's copy-out runs past a SetGlobalBuffer size
// of kFloats - 8 when the tiling word is 1.
AICORE_TEST_KERNEL(tiled_round_trip) {
  TPipe pipe;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 2> q;  // MTE2 -> MTE3: synced for level full
  pipe.InitBuffer(q, 2, 64 * sizeof(float));
  const bool short_out = *reinterpret_cast<const uint32_t*>(tiling) == 1;
  GlobalTensor<float> xGm, zGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), kFloats);
  zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), short_out ? kFloats - 8 : kFloats);
  for (uint32_t i = 0; i < kFloats; i += 64) {
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xGm[i], 64);
    q.EnQue(t);
    t = q.DeQue<float>();
    DataCopy(zGm[i], t, 64);
    q.FreeTensor(t);
  }
}

struct Outcome {
  npurt::Status status;
  npurt::sim::AicoreReport report;
  float z[kFloats];
};

Outcome run(npurt::SimKernelEntry entry, const char* name, npurt::SimCheckLevel level, uint32_t tiling_word = 0,
        bool readonly_x = false) {
  Outcome r;
  SimLaunch L(entry, name);
  if (readonly_x) L.launch().readonly_arg_mask = 1;
  float* x = L.gm<float>(kFloats, "x");
  float* z = L.gm<float>(kFloats, "z");
  for (uint32_t i = 0; i < kFloats; ++i) x[i] = float(i) + 0.5f;
  std::memset(z, 0, kFloats * sizeof(float));
  L.tiling(tiling_word);
  r.status = L.run(1, level, &r.report);
  std::memcpy(r.z, z, sizeof r.z);
  return r;
}

void expect_fault(const Outcome& r, const char* code, const char* api, const char* detail_has) {
  ASSERT_EQ(r.status.code(), npurt::StatusCode::kKernelFault) << r.status.message();
  ASSERT_FALSE(r.report.diagnostics.empty());
  const auto& d = r.report.diagnostics.front();
  EXPECT_EQ(d.code, code) << r.status.message();
  EXPECT_EQ(d.api, api) << r.status.message();
  EXPECT_NE(d.detail.find(detail_has), std::string::npos) << r.status.message();
}

}  // namespace

TEST(QueueFastPath, AllocTensorFindsAFreeBufferPastABusyCursor) {
  for (auto level : {kOff, kBasic, kFull}) {
    Outcome r = run(NPURT_SIM_ENTRY(alloc_skips_busy_cursor), "alloc_skips_busy_cursor", level);
    ASSERT_TRUE(r.status.is_ok()) << r.status.message();
    EXPECT_EQ(r.z[0], 1.0f);
    EXPECT_EQ(r.z[1], 1.0f);
  }
}

TEST(QueueFastPath, DoubleFreeFaultsAtBasicAndIsIgnoredAtOff) {
  expect_fault(run(NPURT_SIM_ENTRY(double_free_then_copy), "double_free_then_copy", kBasic), "ErrorFree",
               "TQue::FreeTensor", "already FREE");
  Outcome r = run(NPURT_SIM_ENTRY(double_free_then_copy), "double_free_then_copy", kOff);
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  for (uint32_t i = 0; i < kFloats; ++i) ASSERT_EQ(r.z[i], float(i) + 0.5f) << i;
}

TEST(DataCopyCountFastPath, TilesRoundTripAtEveryLevelWithAndWithoutElision) {
  for (int readonly_x = 0; readonly_x < 2; ++readonly_x)
    for (auto level : {kOff, kBasic, kFull}) {
      Outcome r = run(NPURT_SIM_ENTRY(tiled_round_trip), "tiled_round_trip", level, 0, readonly_x != 0);
      ASSERT_TRUE(r.status.is_ok()) << r.status.message();
      for (uint32_t i = 0; i < kFloats; ++i) ASSERT_EQ(r.z[i], float(i) + 0.5f) << i;
    }
}

TEST(DataCopyCountFastPath, CopyOutPastTheSetGlobalBufferSizeIsStillCaught) {
  for (int readonly_x = 0; readonly_x < 2; ++readonly_x)
    for (auto level : {kBasic, kFull}) {
      Outcome r = run(NPURT_SIM_ENTRY(tiled_round_trip), "tiled_round_trip", level, 1, readonly_x != 0);
      expect_fault(r, "ErrorGmWrite", "DataCopy", "SetGlobalBuffer size");
      for (uint32_t i = 0; i < kFloats - 64; ++i) ASSERT_EQ(r.z[i], float(i) + 0.5f) << i;  // tiles before it landed
    }
}
