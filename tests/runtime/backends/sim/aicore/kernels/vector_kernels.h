// tests/runtime/backends/sim/aicore/kernels/vector_kernels.h: canonical
// Ascend C kernels written the way the official samples write them, using the
// vector APIs: double-buffered Add, tiled LeakyReLU with TBuf scratch, row
// softmax (ReduceMax/Exp/ReduceSum with V->S flags), and Add with a
// DataCopyPad tail. The kernels are extern "C" definitions: include this
// header from one test translation unit only.
#pragma once

#include "kernel_operator.h"

namespace vector_kernels {

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// ---- add_custom: the canonical TPipe/TQue sample shape ---------------------
struct AddTiling {
  uint32_t totalLength;  // multiple of blockNum x tileLength
  uint32_t tileNum;      // tiles per block (each split in BUFFER_NUM halves)
};

class KernelAdd {
 public:
  __aicore__ inline KernelAdd() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileNum) {
    this->blockLength = totalLength / GetBlockNum();
    this->tileNum = tileNum;
    this->tileLength = this->blockLength / tileNum / BUFFER_NUM;
    xGm.SetGlobalBuffer((__gm__ float*)x + this->blockLength * GetBlockIdx(), this->blockLength);
    yGm.SetGlobalBuffer((__gm__ float*)y + this->blockLength * GetBlockIdx(), this->blockLength);
    zGm.SetGlobalBuffer((__gm__ float*)z + this->blockLength * GetBlockIdx(), this->blockLength);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileLength * sizeof(float));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, this->tileLength * sizeof(float));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, this->tileLength * sizeof(float));
  }
  __aicore__ inline void Process() {
    int32_t loopCount = this->tileNum * BUFFER_NUM;
    for (int32_t i = 0; i < loopCount; i++) {
      CopyIn(i);
      Compute(i);
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(int32_t progress) {
    LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
    DataCopy(xLocal, xGm[progress * this->tileLength], this->tileLength);
    DataCopy(yLocal, yGm[progress * this->tileLength], this->tileLength);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
  }
  __aicore__ inline void Compute(int32_t progress) {
    (void)progress;
    LocalTensor<float> xLocal = inQueueX.DeQue<float>();
    LocalTensor<float> yLocal = inQueueY.DeQue<float>();
    LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
    Add(zLocal, xLocal, yLocal, this->tileLength);
    outQueueZ.EnQue<float>(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(int32_t progress) {
    LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
    DataCopy(zGm[progress * this->tileLength], zLocal, this->tileLength);
    outQueueZ.FreeTensor(zLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
  GlobalTensor<float> xGm;
  GlobalTensor<float> yGm;
  GlobalTensor<float> zGm;
  uint32_t blockLength;
  uint32_t tileNum;
  uint32_t tileLength;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(AddTiling, tilingData, tiling);
  KernelAdd op;
  op.Init(x, y, z, tilingData.totalLength, tilingData.tileNum);
  op.Process();
}

// ---- leakyrelu_custom: tiles, TBuf scratch ----------------------------------
struct LeakyTiling {
  uint32_t totalLength;  // multiple of blockNum x tileLength
  uint32_t tileLength;
  float alpha;
  uint32_t useApi;       // 1: LeakyRelu API; 0: Maxs/Mins/Muls/Add through TBufs
};

class KernelLeakyRelu {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, const LeakyTiling& t) {
    blockLength = t.totalLength / GetBlockNum();
    tileLength = t.tileLength;
    alpha = t.alpha;
    useApi = t.useApi;
    xGm.SetGlobalBuffer((__gm__ float*)x + blockLength * GetBlockIdx(), blockLength);
    zGm.SetGlobalBuffer((__gm__ float*)z + blockLength * GetBlockIdx(), blockLength);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(float));
    pipe.InitBuffer(posBuf, tileLength * sizeof(float));
    pipe.InitBuffer(negBuf, tileLength * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < blockLength / tileLength; i++) {
      LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
      DataCopy(xLocal, xGm[i * tileLength], tileLength);
      inQueueX.EnQue(xLocal);
      Compute();
      LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
      DataCopy(zGm[i * tileLength], zLocal, tileLength);
      outQueueZ.FreeTensor(zLocal);
    }
  }

 private:
  __aicore__ inline void Compute() {
    LocalTensor<float> xLocal = inQueueX.DeQue<float>();
    LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
    if (useApi) {
      LeakyRelu(zLocal, xLocal, alpha, tileLength);
    } else {
      LocalTensor<float> pos = posBuf.Get<float>();
      LocalTensor<float> neg = negBuf.Get<float>();
      Maxs(pos, xLocal, 0.0f, tileLength);
      Mins(neg, xLocal, 0.0f, tileLength);
      PipeBarrier<PIPE_V>();
      Muls(neg, neg, alpha, tileLength);
      PipeBarrier<PIPE_V>();
      Add(zLocal, pos, neg, tileLength);
    }
    outQueueZ.EnQue(zLocal);
    inQueueX.FreeTensor(xLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
  TBuf<TPosition::VECCALC> posBuf, negBuf;
  GlobalTensor<float> xGm, zGm;
  uint32_t blockLength = 0, tileLength = 0, useApi = 0;
  float alpha = 0.0f;
};

extern "C" __global__ __aicore__ void leakyrelu_custom(GM_ADDR x, GM_ADDR z, GM_ADDR workspace,
                                                       GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(LeakyTiling, t, tiling);
  KernelLeakyRelu op;
  op.Init(x, z, t);
  op.Process();
}

// ---- softmax_custom: one row per iteration -----------------------------------
struct SoftmaxTiling {
  uint32_t rows;  // spread over blocks, the last block may get fewer
  uint32_t cols;  // cols x 4 a multiple of 32
};

class KernelSoftmax {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, const SoftmaxTiling& t) {
    cols = t.cols;
    uint32_t perBlock = (t.rows + GetBlockNum() - 1) / GetBlockNum();
    uint32_t first = perBlock * GetBlockIdx();
    rows = first >= t.rows ? 0 : (t.rows - first < perBlock ? t.rows - first : perBlock);
    xGm.SetGlobalBuffer((__gm__ float*)x + first * cols, rows * cols);
    zGm.SetGlobalBuffer((__gm__ float*)z + first * cols, rows * cols);
    pipe.InitBuffer(inQueue, BUFFER_NUM, cols * sizeof(float));
    pipe.InitBuffer(outQueue, BUFFER_NUM, cols * sizeof(float));
    pipe.InitBuffer(workBuf, cols * sizeof(float));
    pipe.InitBuffer(reduceBuf, 32);
  }
  __aicore__ inline void Process() {
    for (uint32_t r = 0; r < rows; ++r) {
      LocalTensor<float> x = inQueue.AllocTensor<float>();
      DataCopy(x, xGm[r * cols], cols);
      inQueue.EnQue(x);
      Compute();
      LocalTensor<float> z = outQueue.DeQue<float>();
      DataCopy(zGm[r * cols], z, cols);
      outQueue.FreeTensor(z);
    }
  }

 private:
  __aicore__ inline float ScalarOf(const LocalTensor<float>& t) {
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    return t.GetValue(0);
  }
  __aicore__ inline void Compute() {
    LocalTensor<float> x = inQueue.DeQue<float>();
    LocalTensor<float> z = outQueue.AllocTensor<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> red = reduceBuf.Get<float>();
    ReduceMax(red, x, work, cols, false);
    float rowMax = ScalarOf(red);
    Adds(z, x, -rowMax, cols);
    PipeBarrier<PIPE_V>();
    Exp(z, z, cols);
    PipeBarrier<PIPE_V>();
    ReduceSum(red, z, work, cols);
    float rowSum = ScalarOf(red);
    Muls(z, z, 1.0f / rowSum, cols);
    outQueue.EnQue(z);
    inQueue.FreeTensor(x);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
  TBuf<TPosition::VECCALC> workBuf, reduceBuf;
  GlobalTensor<float> xGm, zGm;
  uint32_t rows = 0, cols = 0;
};

extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR z, GM_ADDR workspace,
                                                     GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(SoftmaxTiling, t, tiling);
  KernelSoftmax op;
  op.Init(x, z, t);
  op.Process();
}

// ---- add_tail_custom: any length, DataCopyPad for the last tile ----------------
struct AddTailTiling {
  uint32_t totalLength;  // any
  uint32_t tileLength;   // tile bytes a multiple of 32
};

template <class T>
class KernelAddTail {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddTailTiling& t) {
    uint32_t perBlock = (t.totalLength + GetBlockNum() - 1) / GetBlockNum();
    perBlock = (perBlock + 7) / 8 * 8;  // keep block starts 32-B aligned for float
    uint32_t start = perBlock * GetBlockIdx();
    length = start >= t.totalLength ? 0 : (t.totalLength - start < perBlock ? t.totalLength - start : perBlock);
    tileLength = t.tileLength;
    xGm.SetGlobalBuffer((__gm__ T*)x + start, length);
    yGm.SetGlobalBuffer((__gm__ T*)y + start, length);
    zGm.SetGlobalBuffer((__gm__ T*)z + start, length);
    pipe.InitBuffer(inX, BUFFER_NUM, tileLength * sizeof(T));
    pipe.InitBuffer(inY, BUFFER_NUM, tileLength * sizeof(T));
    pipe.InitBuffer(outZ, BUFFER_NUM, tileLength * sizeof(T));
  }
  __aicore__ inline void Process() {
    for (uint32_t done = 0; done < length; done += tileLength) {
      uint32_t n = length - done < tileLength ? length - done : tileLength;
      if (n == tileLength) {
        CopyIn(done, n);
      } else {
        CopyInTail(done, n);
      }
      Compute(n);
      CopyOut(done, n);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t off, uint32_t n) {
    LocalTensor<T> x = inX.AllocTensor<T>();
    LocalTensor<T> y = inY.AllocTensor<T>();
    DataCopy(x, xGm[off], n);
    DataCopy(y, yGm[off], n);
    inX.EnQue(x);
    inY.EnQue(y);
  }
  __aicore__ inline void CopyInTail(uint32_t off, uint32_t n) {
    LocalTensor<T> x = inX.AllocTensor<T>();
    LocalTensor<T> y = inY.AllocTensor<T>();
    DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
    DataCopyPadExtParams<T> pad{true, 0, 0, T(0)};
    DataCopyPad(x, xGm[off], params, pad);
    DataCopyPad(y, yGm[off], params, pad);
    inX.EnQue(x);
    inY.EnQue(y);
  }
  __aicore__ inline void Compute(uint32_t n) {
    LocalTensor<T> x = inX.DeQue<T>();
    LocalTensor<T> y = inY.DeQue<T>();
    LocalTensor<T> z = outZ.AllocTensor<T>();
    Add(z, x, y, n);
    outZ.EnQue(z);
    inX.FreeTensor(x);
    inY.FreeTensor(y);
  }
  __aicore__ inline void CopyOut(uint32_t off, uint32_t n) {
    LocalTensor<T> z = outZ.DeQue<T>();
    if (n == tileLength) {
      DataCopy(zGm[off], z, n);
    } else {
      DataCopyPad(zGm[off], z, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
    }
    outZ.FreeTensor(z);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inX, inY;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outZ;
  GlobalTensor<T> xGm, yGm, zGm;
  uint32_t length = 0, tileLength = 0;
};

extern "C" __global__ __aicore__ void add_tail_f32(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                   GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(AddTailTiling, t, tiling);
  KernelAddTail<float> op;
  op.Init(x, y, z, t);
  op.Process();
}

extern "C" __global__ __aicore__ void add_tail_f16(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                   GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(AddTailTiling, t, tiling);
  KernelAddTail<half> op;
  op.Init(x, y, z, t);
  op.Process();
}

}  // namespace vector_kernels
