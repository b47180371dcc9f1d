// tests/runtime/backends/sim/aicore/kernels/copy_kernels.h: correct data
// movement kernels written the way the official Ascend C samples are
// (TPipe + TQue, BUFFER_NUM = 2, tiles, DataCopyPad for the tail).
// The kernels are extern "C" definitions: include this header from one test
// translation unit only.
#pragma once

#include "kernel_operator.h"

namespace copy_kernels {

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct CopyTiling {
  uint32_t totalLength;  // elements, split evenly over blocks (a multiple of blocks x tile)
  uint32_t tileLength;   // elements per tile (tile bytes a multiple of 32)
};

// Double-buffered GM -> VECIN -> (UB->UB DataCopy) -> VECOUT -> GM.
class KernelCopy {
 public:
  __aicore__ inline KernelCopy() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, const CopyTiling& t) {
    blockLength = t.totalLength / GetBlockNum();
    tileLength = t.tileLength;
    tileNum = blockLength / tileLength;
    xGm.SetGlobalBuffer((__gm__ float*)x + blockLength * GetBlockIdx(), blockLength);
    zGm.SetGlobalBuffer((__gm__ float*)z + blockLength * GetBlockIdx(), blockLength);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (int32_t i = 0; i < tileNum; i++) {
      CopyIn(i);
      Compute(i);
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(int32_t progress) {
    LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    DataCopy(xLocal, xGm[progress * tileLength], tileLength);
    inQueueX.EnQue(xLocal);
  }
  __aicore__ inline void Compute(int32_t) {
    LocalTensor<float> xLocal = inQueueX.DeQue<float>();
    LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
    DataCopy(zLocal, xLocal, tileLength);
    outQueueZ.EnQue<float>(zLocal);
    inQueueX.FreeTensor(xLocal);
  }
  __aicore__ inline void CopyOut(int32_t progress) {
    LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
    DataCopy(zGm[progress * tileLength], zLocal, tileLength);
    outQueueZ.FreeTensor(zLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
  GlobalTensor<float> xGm;
  GlobalTensor<float> zGm;
  uint32_t blockLength = 0;
  uint32_t tileLength = 0;
  int32_t tileNum = 0;
};

extern "C" __global__ __aicore__ void copy_custom(GM_ADDR x, GM_ADDR z, GM_ADDR workspace,
                                                  GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(CopyTiling);
  GET_TILING_DATA(tilingData, tiling);
  KernelCopy op;
  op.Init(x, z, tilingData);
  op.Process();
}

// Copy through one VECIN/VECOUT bound queue with DataCopyPad for any length:
// each block takes a contiguous share (the last block may be shorter), tiles
// of tileLength elements, the last tile handled with byte-exact DataCopyPad.
struct PadTiling {
  uint32_t totalLength;  // any value >= 0
  uint32_t tileLength;   // elements per full tile, tile bytes a multiple of 32
};

template <class T>
class KernelPadCopy {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, const PadTiling& t) {
    uint32_t perBlock = (t.totalLength + GetBlockNum() - 1) / GetBlockNum();
    uint32_t start = perBlock * GetBlockIdx();
    length = start >= t.totalLength ? 0 : (t.totalLength - start < perBlock ? t.totalLength - start : perBlock);
    tileLength = t.tileLength;
    xGm.SetGlobalBuffer((__gm__ T*)x + start, length);
    zGm.SetGlobalBuffer((__gm__ T*)z + start, length);
    pipe.InitBuffer(queBind, BUFFER_NUM, tileLength * sizeof(T));
  }
  __aicore__ inline void Process() {
    for (uint32_t done = 0; done < length; done += tileLength) {
      uint32_t n = length - done < tileLength ? length - done : tileLength;
      LocalTensor<T> local = queBind.AllocTensor<T>();
      DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
      DataCopyPadExtParams<T> pad{true, 0, 0, T(0)};
      DataCopyPad(local, xGm[done], params, pad);
      queBind.EnQue(local);
      local = queBind.DeQue<T>();
      DataCopyPad(zGm[done], local, params);
      queBind.FreeTensor(local);
    }
  }

 private:
  TPipe pipe;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> queBind;
  GlobalTensor<T> xGm, zGm;
  uint32_t length = 0, tileLength = 0;
};

extern "C" __global__ __aicore__ void pad_copy_f32(GM_ADDR x, GM_ADDR z, GM_ADDR workspace,
                                                   GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(PadTiling, t, tiling);
  KernelPadCopy<float> op;
  op.Init(x, z, t);
  op.Process();
}

extern "C" __global__ __aicore__ void pad_copy_i8(GM_ADDR x, GM_ADDR z, GM_ADDR workspace,
                                                  GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(PadTiling, t, tiling);
  KernelPadCopy<int8_t> op;
  op.Init(x, z, t);
  op.Process();
}

}  // namespace copy_kernels
