// tests/runtime/backends/sim/aicore/test_data_copy_prefetch.cc: strided
// DataCopy / DataCopyPad plans with more blocks than the copy loops' prefetch
// distance (data_copy.cc, kPrefetchAhead = 12), both directions, at every
// check level: the prefetch is only a hint, so the copied bytes, the untouched
// GM gaps and the last blocks (where nothing is left to prefetch) must be
// exactly those of a plain block-by-block copy.
#include <gtest/gtest.h>

#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"

using namespace aicore_test;

// The two kernels (own names: layout_kernels.h's extern "C" definitions
// belong to test_data_copy.cc's translation unit).
namespace prefetch_kernels {

using namespace AscendC;

struct StrideTiling {
  uint16_t blockCount;
  uint16_t blockLen;  // 32-B units
  uint16_t srcGap;    // 32-B units, GM side
  uint16_t dstGap;    // 32-B units, UB side
};

// GM (strided) -> UB (strided) -> compact GM (the UB gap as source gap).
extern "C" __global__ __aicore__ void prefetch_strided_copy(GM_ADDR x, GM_ADDR z, GM_ADDR workspace,
                                                            GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(StrideTiling, t, tiling);
  TPipe pipe;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> que;
  pipe.InitBuffer(que, 1, (t.blockCount * (t.blockLen + t.dstGap)) * 32);
  GlobalTensor<float> xGm, zGm;
  xGm.SetGlobalBuffer((__gm__ float*)x);
  zGm.SetGlobalBuffer((__gm__ float*)z);
  LocalTensor<float> local = que.AllocTensor<float>();
  DataCopy(local, xGm, DataCopyParams(t.blockCount, t.blockLen, t.srcGap, t.dstGap));
  que.EnQue(local);
  local = que.DeQue<float>();
  DataCopy(zGm, local, DataCopyParams(t.blockCount, t.blockLen, t.dstGap, 0));
  que.FreeTensor(local);
}

struct ScatterTiling {
  uint16_t blockCount;
  uint32_t n;         // floats per row
  uint32_t gapBytes;  // GM gap between rows
};

// Compact GM -> UB (rows 32-B aligned) -> GM rows with byte gaps.
extern "C" __global__ __aicore__ void prefetch_scatter(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(ScatterTiling, t, tiling);
  TPipe pipe;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> que;
  pipe.InitBuffer(que, 1, t.blockCount * ((t.n * 4 + 31) / 32 * 32));
  GlobalTensor<float> xGm, zGm;
  xGm.SetGlobalBuffer((__gm__ float*)x);
  zGm.SetGlobalBuffer((__gm__ float*)z);
  LocalTensor<float> local = que.AllocTensor<float>();
  DataCopyPad(local, xGm, DataCopyExtParams{t.blockCount, t.n * 4, 0, 0, 0},
              DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
  que.EnQue(local);
  local = que.DeQue<float>();
  DataCopyPad(zGm, local, DataCopyExtParams{t.blockCount, t.n * 4, 0, t.gapBytes, 0});
  que.FreeTensor(local);
}

}  // namespace prefetch_kernels

namespace {

std::vector<npurt::SimCheckLevel> all_levels() { return {kOff, kBasic, kFull}; }

// GM with gaps -> UB with gaps -> compact GM (per-block loops on both sides).
TEST(AicoreDataCopyPrefetch, StridedBlocksPastThePrefetchDistance) {
  for (uint16_t count : {1, 12, 13, 40, 255}) {
    const prefetch_kernels::StrideTiling t{count, 3, 5, 1};  // 96-B blocks, GM gap 160 B, UB gap 32 B
    for (auto level : all_levels()) {
      SimLaunch L(NPURT_SIM_ENTRY(prefetch_kernels::prefetch_strided_copy), "prefetch_strided_copy");
      const uint32_t src_floats = t.blockCount * (t.blockLen + t.srcGap) * 8;
      float* x = L.gm<float>(src_floats);
      float* z = L.gm<float>(t.blockCount * t.blockLen * 8);
      for (uint32_t i = 0; i < src_floats; ++i) x[i] = static_cast<float>(i) * 0.5f - 7.0f;
      L.tiling(t);
      npurt::Status s = L.run(1, level);
      ASSERT_TRUE(s.is_ok()) << s.message();
      for (uint32_t b = 0; b < t.blockCount; ++b)
        for (uint32_t e = 0; e < t.blockLen * 8u; ++e)
          ASSERT_EQ(z[b * t.blockLen * 8 + e], x[b * (t.blockLen + t.srcGap) * 8 + e])
              << "count " << count << " block " << b << " element " << e << " level " << level_name(level);
    }
  }
}

// UB -> GM rows with byte gaps (the transpose copy's write pattern), odd row
// lengths: the gaps keep their old bytes, every row lands exactly.
TEST(AicoreDataCopyPrefetch, ScatterRowsWithGapsPastThePrefetchDistance) {
  for (uint16_t count : {13, 64, 129}) {
    for (uint32_t n : {1u, 15u, 33u, 128u}) {
      const prefetch_kernels::ScatterTiling t{count, n, 20};
      SimLaunch L(NPURT_SIM_ENTRY(prefetch_kernels::prefetch_scatter), "prefetch_scatter");
      const uint32_t pitch = n + 5;  // 20 B gap = 5 floats
      float* x = L.gm<float>(count * n);
      float* z = L.gm<float>(count * pitch - 5);
      for (uint32_t i = 0; i < count * n; ++i) x[i] = 3.0f + static_cast<float>(i);
      for (uint32_t i = 0; i < count * pitch - 5; ++i) z[i] = -1.0f;
      L.tiling(t);
      npurt::Status s = L.run(1, kBasic);
      ASSERT_TRUE(s.is_ok()) << s.message();
      for (uint32_t b = 0; b < count; ++b) {
        for (uint32_t e = 0; e < n; ++e) ASSERT_EQ(z[b * pitch + e], x[b * n + e]) << count << "," << n << "," << b;
        if (b + 1 < count) {
          for (uint32_t g = n; g < pitch; ++g) ASSERT_EQ(z[b * pitch + g], -1.0f) << "gap written: " << b;
        }
      }
    }
  }
}

}  // namespace
