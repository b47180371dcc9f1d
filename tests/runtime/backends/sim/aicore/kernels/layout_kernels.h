// tests/runtime/backends/sim/aicore/kernels/layout_kernels.h: kernels that
// exercise the DataCopyParams / DataCopyExtParams layouts (gaps, padding).
// The kernels are extern "C" definitions: include this header from one test
// translation unit only.
#pragma once

#include "kernel_operator.h"

namespace layout_kernels {

using namespace AscendC;

struct StrideTiling {
  uint16_t blockCount;
  uint16_t blockLen;   // 32-B units
  uint16_t srcGap;     // 32-B units, GM side
  uint16_t dstGap;     // 32-B units, UB side
};

// GM (strided) -> UB (strided) -> GM (compact, one DataCopyParams with the
// UB-side gap as source gap).
extern "C" __global__ __aicore__ void strided_copy(GM_ADDR x, GM_ADDR z, GM_ADDR workspace,
                                                   GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(StrideTiling, t, tiling);
  TPipe pipe;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> que;
  uint32_t ubBytes = (t.blockCount * (t.blockLen + t.dstGap)) * 32;
  pipe.InitBuffer(que, 1, ubBytes);
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

struct PadTiling {
  uint16_t blockCount;
  uint32_t blockLen;    // bytes
  uint32_t srcGap;      // bytes (GM)
  uint8_t left, right;  // elements
  bool isPad;
  float value;
  uint32_t outElems;    // elements of UB footprint copied out verbatim
};

// GM -> UB with DataCopyPad (padding), then the raw UB footprint -> GM.
extern "C" __global__ __aicore__ void pad_layout(GM_ADDR x, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(PadTiling, t, tiling);
  TPipe pipe;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> que;
  pipe.InitBuffer(que, 1, t.outElems * sizeof(float));
  GlobalTensor<float> xGm, zGm;
  xGm.SetGlobalBuffer((__gm__ float*)x);
  zGm.SetGlobalBuffer((__gm__ float*)z);
  LocalTensor<float> local = que.AllocTensor<float>();
  DataCopyPad(local, xGm, DataCopyExtParams{t.blockCount, t.blockLen, t.srcGap, 0, 0},
              DataCopyPadExtParams<float>{t.isPad, t.left, t.right, t.value});
  que.EnQue(local);
  local = que.DeQue<float>();
  DataCopy(zGm, local, t.outElems);
  que.FreeTensor(local);
}

// UB -> GM with DataCopyPad: n floats per block written with a GM gap of
// gapBytes between blocks (UB blocks start 32-B aligned).
struct ScatterTiling {
  uint16_t blockCount;
  uint32_t n;         // elements per block
  uint32_t gapBytes;  // GM gap
};

extern "C" __global__ __aicore__ void pad_scatter(GM_ADDR x, GM_ADDR z, GM_ADDR workspace,
                                                  GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(ScatterTiling, t, tiling);
  TPipe pipe;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> que;
  uint32_t alignedBlock = (t.n * sizeof(float) + 31) / 32 * 32;
  pipe.InitBuffer(que, 1, t.blockCount * alignedBlock);
  GlobalTensor<float> xGm, zGm;
  xGm.SetGlobalBuffer((__gm__ float*)x);
  zGm.SetGlobalBuffer((__gm__ float*)z);
  LocalTensor<float> local = que.AllocTensor<float>();
  // Load block-aligned: each block's n floats land at a 32-B aligned UB offset.
  DataCopyPad(local, xGm, DataCopyExtParams{t.blockCount, t.n * 4, 0, 0, 0},
              DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
  que.EnQue(local);
  local = que.DeQue<float>();
  DataCopyPad(zGm, local, DataCopyExtParams{t.blockCount, t.n * 4, 0, t.gapBytes, 0});
  que.FreeTensor(local);
}

// Scalar access paths: GlobalTensor/LocalTensor GetValue/SetValue, TBuf, and
// the block/system queries. z[16 b + i] = x[8 b + i] * 2 + b for block b, i < 8,
// z_info = {blockNum, UB size}.
extern "C" __global__ __aicore__ void scalar_paths(GM_ADDR x, GM_ADDR z, GM_ADDR info,
                                                   GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  (void)tiling;
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 8 * sizeof(int32_t));
  LocalTensor<int32_t> tmp = buf.Get<int32_t>();
  GlobalTensor<int32_t> xGm, zGm, infoGm;
  xGm.SetGlobalBuffer((__gm__ int32_t*)x + 8 * GetBlockIdx(), 8);
  zGm.SetGlobalBuffer((__gm__ int32_t*)z + 16 * GetBlockIdx(), 8);  // a 64 B line per block
  infoGm.SetGlobalBuffer((__gm__ int32_t*)info, 2);
  for (uint32_t i = 0; i < 8; ++i) tmp.SetValue(i, xGm.GetValue(i) * 2);
  for (uint32_t i = 0; i < 8; ++i) zGm.SetValue(i, tmp.GetValue(i) + static_cast<int32_t>(GetBlockIdx()));
  if (GetBlockIdx() == 0) {
    infoGm.SetValue(0, static_cast<int32_t>(GetBlockNum()));
    infoGm.SetValue(1, static_cast<int32_t>(GetUBSizeInBytes()));
  }
  DataCacheCleanAndInvalid<int32_t, CacheLine::ENTIRE_DATA_CACHE>(zGm);  // scalar GM writes
}

// Scalar kernel arguments: z[0..n) = base + i * step (n, base: int32; step: float).
extern "C" __global__ __aicore__ void scalar_args(GM_ADDR z, int32_t n, int32_t base, float step,
                                                  GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  (void)tiling;
  if (GetBlockIdx() != 0) return;
  GlobalTensor<float> zGm;
  zGm.SetGlobalBuffer((__gm__ float*)z, n);
  for (int32_t i = 0; i < n; ++i) zGm.SetValue(i, base + i * step);
  DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(zGm);
}

// Every block atomically adds its tile of ones into the same GM tile.
extern "C" __global__ __aicore__ void atomic_accumulate(GM_ADDR z, GM_ADDR workspace,
                                                        GM_ADDR tiling) {
  (void)workspace;
  (void)tiling;
  TPipe pipe;
  TQue<QuePosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, 64 * sizeof(float));
  GlobalTensor<float> zGm;
  zGm.SetGlobalBuffer((__gm__ float*)z, 64);
  LocalTensor<float> t = q.AllocTensor<float>();
  for (uint32_t i = 0; i < 64; ++i) t.SetValue(i, 1.0f + i);
  q.EnQue(t);
  t = q.DeQue<float>();
  SetAtomicAdd<float>();
  DataCopy(zGm, t, 64);
  SetAtomicNone();
  q.FreeTensor(t);
}

}  // namespace layout_kernels
