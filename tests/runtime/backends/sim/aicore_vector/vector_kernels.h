// vector_kernels.h: Ascend C kernels exercising the vector APIs through the
// AscendC layer (TPipe/TBuf/TQue, DataCopy, sync) on the simulated core.
// Definitions (extern "C" entries): include from one test translation unit only.
#pragma once

#include "kernel_operator.h"

namespace vector_kernels {

using namespace AscendC;

enum ProbeOp : uint32_t {
  kAdd, kSub, kMul, kDiv, kMax, kMin, kAdds, kMuls, kMaxs, kMins, kLeakyRelu, kExp, kLn, kAbs, kSqrt, kRsqrt,
  kReciprocal, kRelu, kDuplicate, kAxpy, kReduceMax, kReduceMin, kReduceSum, kCompareSelect, kFusedMulAdd, kMulAddDst,
  kNumProbeOps
};

struct ProbeTiling {
  uint32_t n;       // elements the API processes
  uint32_t padded;  // elements moved by DataCopy (32-byte multiple, >= n + 2)
  uint32_t op;      // ProbeOp
  float scalar;
};

// One vector API on x, y (and z's old contents for Axpy, FusedMulAdd, MulAddDst) -> z; z keeps its
// contents past what the API writes. Single block, TBuf operands.
template <class T>
__aicore__ inline void probe(GM_ADDR x, GM_ADDR y, GM_ADDR z, const ProbeTiling& t) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, by, bz, bw, bm;
  const uint32_t bytes = t.padded * sizeof(T);
  pipe.InitBuffer(bx, bytes);
  pipe.InitBuffer(by, bytes);
  pipe.InitBuffer(bz, bytes);
  pipe.InitBuffer(bw, npurt::sim::vecapi::work_elems<T>(t.n, true, true) * sizeof(T));
  pipe.InitBuffer(bm, (t.padded / 8 + 32) / 32 * 32);
  LocalTensor<T> lx = bx.Get<T>(), ly = by.Get<T>(), lz = bz.Get<T>(), lw = bw.Get<T>();
  LocalTensor<uint8_t> lm = bm.Get<uint8_t>();
  GlobalTensor<T> gx, gy, gz;
  gx.SetGlobalBuffer((__gm__ T*)x, t.padded);
  gy.SetGlobalBuffer((__gm__ T*)y, t.padded);
  gz.SetGlobalBuffer((__gm__ T*)z, t.padded);
  DataCopy(lx, gx, t.padded);
  DataCopy(ly, gy, t.padded);
  DataCopy(lz, gz, t.padded);
  PipeBarrier<PIPE_ALL>();
  const T s = static_cast<T>(t.scalar);
  const int32_t n = static_cast<int32_t>(t.n);
  switch (t.op) {
    case kAdd: Add(lz, lx, ly, n); break;
    case kSub: Sub(lz, lx, ly, n); break;
    case kMul: Mul(lz, lx, ly, n); break;
    case kDiv: Div(lz, lx, ly, n); break;
    case kMax: Max(lz, lx, ly, n); break;
    case kMin: Min(lz, lx, ly, n); break;
    case kAdds: Adds(lz, lx, s, n); break;
    case kMuls: Muls(lz, lx, s, n); break;
    case kMaxs: Maxs(lz, lx, s, n); break;
    case kMins: Mins(lz, lx, s, n); break;
    case kLeakyRelu: LeakyRelu(lz, lx, s, n); break;
    case kExp: Exp(lz, lx, n); break;
    case kLn: Ln(lz, lx, n); break;
    case kAbs: Abs(lz, lx, n); break;
    case kSqrt: Sqrt(lz, lx, n); break;
    case kRsqrt: Rsqrt(lz, lx, n); break;
    case kReciprocal: Reciprocal(lz, lx, n); break;
    case kRelu: Relu(lz, lx, n); break;
    case kDuplicate: Duplicate(lz, s, n); break;
    case kAxpy: Axpy(lz, lx, s, n); break;
    case kFusedMulAdd: FusedMulAdd(lz, lx, ly, n); break;
    case kMulAddDst: MulAddDst(lz, lx, ly, n); break;
    case kReduceMax: ReduceMax(lz, lx, lw, n, true); break;
    case kReduceMin: ReduceMin(lz, lx, lw, n, true); break;
    case kReduceSum: ReduceSum(lz, lx, lw, n); break;
    case kCompareSelect:
      Compare(lm, lx, ly, CMPMODE::LT, t.n);
      PipeBarrier<PIPE_V>();
      Select(lz, lm, lx, ly, SELMODE::VSEL_TENSOR_TENSOR_MODE, t.n);
      break;
    default: break;
  }
  PipeBarrier<PIPE_ALL>();
  DataCopy(gz, lz, t.padded);
}

extern "C" __global__ __aicore__ void probe_float(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(ProbeTiling, t, tiling);
  probe<float>(x, y, z, t);
}
extern "C" __global__ __aicore__ void probe_half(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(ProbeTiling, t, tiling);
  probe<half>(x, y, z, t);
}

// ---- row softmax, the way the samples write it: one row per iteration ---------------
struct SoftmaxTiling {
  uint32_t rows;  // split over blocks (rows % blocks == 0)
  uint32_t cols;  // cols * sizeof(float) a multiple of 32
};

class KernelSoftmax {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SoftmaxTiling& t) {
    cols = t.cols;
    rowsPerBlock = t.rows / GetBlockNum();
    xGm.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx() * rowsPerBlock * cols, rowsPerBlock * cols);
    yGm.SetGlobalBuffer((__gm__ float*)y + GetBlockIdx() * rowsPerBlock * cols, rowsPerBlock * cols);
    pipe.InitBuffer(inQueue, 2, cols * sizeof(float));
    pipe.InitBuffer(outQueue, 2, cols * sizeof(float));
    pipe.InitBuffer(workBuf, npurt::sim::vecapi::work_elems<float>(cols, true, false) * sizeof(float));
    pipe.InitBuffer(redBuf, 32);
  }
  __aicore__ inline void Process() {
    for (uint32_t r = 0; r < rowsPerBlock; ++r) {
      LocalTensor<float> in = inQueue.AllocTensor<float>();
      DataCopy(in, xGm[r * cols], cols);
      inQueue.EnQue(in);
      Compute();
      LocalTensor<float> out = outQueue.DeQue<float>();
      DataCopy(yGm[r * cols], out, cols);
      outQueue.FreeTensor(out);
    }
  }

 private:
  __aicore__ inline void Compute() {
    LocalTensor<float> in = inQueue.DeQue<float>();
    LocalTensor<float> out = outQueue.AllocTensor<float>();
    LocalTensor<float> work = workBuf.Get<float>(), red = redBuf.Get<float>();
    ReduceMax(red, in, work, cols);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    float rowMax = red.GetValue(0);
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    Adds(out, in, -rowMax, cols);
    PipeBarrier<PIPE_V>();
    Exp(out, out, cols);
    PipeBarrier<PIPE_V>();
    ReduceSum(red, out, work, cols);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    float inv = 1.0f / red.GetValue(0);
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    Muls(out, out, inv, cols);
    outQueue.EnQue(out);
    inQueue.FreeTensor(in);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, 2> inQueue;
  TQue<QuePosition::VECOUT, 2> outQueue;
  TBuf<TPosition::VECCALC> workBuf, redBuf;
  GlobalTensor<float> xGm, yGm;
  uint32_t cols = 0, rowsPerBlock = 0;
};

extern "C" __global__ __aicore__ void softmax_rows(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(SoftmaxTiling, t, tiling);
  KernelSoftmax op;
  op.Init(x, y, t);
  op.Process();
}

// ---- Cast and the integer APIs through the AscendC layer --------------------------------
struct CastTiling {
  uint32_t n;       // elements (a multiple of 16 so both DataCopy sizes are 32-byte multiples)
  uint32_t mode;    // RoundMode for float -> half
};

// x (float) -> h (half, mode) -> y (float, CAST_NONE); both results written back.
extern "C" __global__ __aicore__ void cast_roundtrip(GM_ADDR x, GM_ADDR h, GM_ADDR y, GM_ADDR workspace,
                                                     GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(CastTiling, t, tiling);
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQ;
  TQue<QuePosition::VECOUT, 1> halfQ, outQ;
  pipe.InitBuffer(inQ, 1, t.n * sizeof(float));
  pipe.InitBuffer(halfQ, 1, t.n * sizeof(half));
  pipe.InitBuffer(outQ, 1, t.n * sizeof(float));
  GlobalTensor<float> gx, gy;
  GlobalTensor<half> gh;
  gx.SetGlobalBuffer((__gm__ float*)x, t.n);
  gh.SetGlobalBuffer((__gm__ half*)h, t.n);
  gy.SetGlobalBuffer((__gm__ float*)y, t.n);
  LocalTensor<float> lx = inQ.AllocTensor<float>();
  DataCopy(lx, gx, t.n);
  inQ.EnQue(lx);
  lx = inQ.DeQue<float>();
  LocalTensor<half> lh = halfQ.AllocTensor<half>();
  LocalTensor<float> ly = outQ.AllocTensor<float>();
  Cast(lh, lx, static_cast<RoundMode>(t.mode), t.n);
  PipeBarrier<PIPE_V>();
  Cast(ly, lh, RoundMode::CAST_NONE, t.n);
  halfQ.EnQue(lh);
  outQ.EnQue(ly);
  inQ.FreeTensor(lx);
  lh = halfQ.DeQue<half>();
  ly = outQ.DeQue<float>();
  DataCopy(gh, lh, t.n);
  DataCopy(gy, ly, t.n);
  halfQ.FreeTensor(lh);
  outQ.FreeTensor(ly);
}

// int16: z0 = a & b, z1 = a | b, z2 = ~a; int32: w = Relu(c + d). n a multiple of 16.
extern "C" __global__ __aicore__ void int_ops(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR d, GM_ADDR z, GM_ADDR w,
                                              GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(uint32_t, n, tiling);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bb, bc, bd, bz, bw;
  for (auto* b : {&ba, &bb, &bz}) pipe.InitBuffer(*b, 3 * n * sizeof(int16_t));
  for (auto* b : {&bc, &bd, &bw}) pipe.InitBuffer(*b, n * sizeof(int32_t));
  GlobalTensor<int16_t> ga, gb, gz;
  GlobalTensor<int32_t> gc, gd, gw;
  ga.SetGlobalBuffer((__gm__ int16_t*)a, n);
  gb.SetGlobalBuffer((__gm__ int16_t*)b, n);
  gz.SetGlobalBuffer((__gm__ int16_t*)z, 3 * n);
  gc.SetGlobalBuffer((__gm__ int32_t*)c, n);
  gd.SetGlobalBuffer((__gm__ int32_t*)d, n);
  gw.SetGlobalBuffer((__gm__ int32_t*)w, n);
  LocalTensor<int16_t> la = ba.Get<int16_t>(), lb = bb.Get<int16_t>(), lz = bz.Get<int16_t>();
  LocalTensor<int32_t> lc = bc.Get<int32_t>(), ld = bd.Get<int32_t>(), lw = bw.Get<int32_t>();
  DataCopy(la, ga, n);
  DataCopy(lb, gb, n);
  DataCopy(lc, gc, n);
  DataCopy(ld, gd, n);
  PipeBarrier<PIPE_ALL>();
  And(lz, la, lb, n);
  Or(lz[n], la, lb, n);
  Not(lz[2 * n], la, n);
  Add(lw, lc, ld, n);
  PipeBarrier<PIPE_V>();
  Relu(lw, lw, n);
  PipeBarrier<PIPE_ALL>();
  DataCopy(gz, lz, 3 * n);
  DataCopy(gw, lw, n);
}

// ---- level-0 (mask, repeatTime, RepeatParams) forms ------------------------------------
// half: z = a + b with 100 enabled lanes, 3 repeats, strided sources;
// float: w = Exp(c) with a bit mask, 2 repeats, dst repeat stride 16 blocks.
// Buffers hold 4096 elements; the kernel writes what the API writes only.
constexpr uint32_t kL0Elems = 4096;

// The level-0 kernels' operands: half a, b, z and float c, w of kL0Elems
// elements each, copied into UB on construction; Store() writes z and w back.
struct Level0Io {
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bb, bz, bc, bw;
  GlobalTensor<half> ga, gb, gz;
  GlobalTensor<float> gc, gw;
  LocalTensor<half> la, lb, lz;
  LocalTensor<float> lc, lw;

  __aicore__ Level0Io(GM_ADDR a, GM_ADDR b, GM_ADDR z, GM_ADDR c, GM_ADDR w) {
    for (auto* t : {&ba, &bb, &bz}) pipe.InitBuffer(*t, kL0Elems * sizeof(half));
    for (auto* t : {&bc, &bw}) pipe.InitBuffer(*t, kL0Elems * sizeof(float));
    ga.SetGlobalBuffer((__gm__ half*)a, kL0Elems);
    gb.SetGlobalBuffer((__gm__ half*)b, kL0Elems);
    gz.SetGlobalBuffer((__gm__ half*)z, kL0Elems);
    gc.SetGlobalBuffer((__gm__ float*)c, kL0Elems);
    gw.SetGlobalBuffer((__gm__ float*)w, kL0Elems);
    la = ba.Get<half>(), lb = bb.Get<half>(), lz = bz.Get<half>();
    lc = bc.Get<float>(), lw = bw.Get<float>();
    DataCopy(la, ga, kL0Elems);
    DataCopy(lb, gb, kL0Elems);
    DataCopy(lz, gz, kL0Elems);
    DataCopy(lc, gc, kL0Elems);
    DataCopy(lw, gw, kL0Elems);
    PipeBarrier<PIPE_ALL>();
  }
  __aicore__ void Store() {
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, lz, kL0Elems);
    DataCopy(gw, lw, kL0Elems);
  }
};
extern "C" __global__ __aicore__ void level0_ops(GM_ADDR a, GM_ADDR b, GM_ADDR z, GM_ADDR c, GM_ADDR w,
                                                 GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  (void)tiling;
  Level0Io io(a, b, z, c, w);
  auto &la = io.la, &lb = io.lb, &lz = io.lz;
  auto &lc = io.lc, &lw = io.lw;
  Add(lz, la, lb, 100, 3, {1, 2, 1, 8, 16, 9});
  uint64_t mask[2] = {0xF0F0'0000'FFFF'0001ull, 0};
  Exp(lw, lc, mask, 2, {1, 1, 16, 8});
  io.Store();
}

// The level-0 forms the simulator runs on the operands in place (prefix masks,
// block stride 1, sources equal to or disjoint from dst), next to one it must
// gather: z (half) and w (float) hold the results, a/b/c are sources.
extern "C" __global__ __aicore__ void level0_dense_ops(GM_ADDR a, GM_ADDR b, GM_ADDR z, GM_ADDR c, GM_ADDR w,
                                                       GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  (void)tiling;
  Level0Io io(a, b, z, c, w);
  auto &la = io.la, &lb = io.lb, &lz = io.lz;
  auto &lc = io.lc, &lw = io.lw;
  Mul(lw, lc, lw, 64, 5, {1, 1, 1, 8, 8, 8});              // w[0, 320) = c * w: one packed call
  Add(lz, la, lb, 100, 3, {1, 1, 1, 9, 10, 8});            // prefix mask, repeat strides 9/10/8 halves blocks
  FusedMulAdd(lw[1024], lc, lc[2048], 48, 4, {1, 1, 1, 16, 8, 0});  // src1 rep stride 0: one row of "beta"
  Sqrt(lw[2048], lw[2048], 16, 6, {1, 1, 8, 8});           // in place, two blocks per repeat
  uint64_t holes[2] = {0x00FF'00FF'00FF'00FFull, 0xFF00'0000'0000'0000ull};
  Mul(lz[2048], lz[2048], lb, holes, 2, {1, 1, 1, 8, 8, 8});  // not a prefix mask: gathered lane by lane
  io.Store();
}

// ---- deliberately faulty uses of the vector API ----------------------------------------
enum VecFault : uint32_t {
  kCastBadMode, kPartialOverlap, kCountPastTensor, kCompareTail, kNegativeCount, kBadMask, kUninitRead,
  kSmallWorkBuffer, kSelectModeMismatch, kDstBlkStrideZero, kNumVecFaults
};

extern "C" __global__ __aicore__ void vec_faulty(GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(uint32_t, which, tiling);
  TPipe pipe;
  TBuf<TPosition::VECCALC> b0, b1;
  pipe.InitBuffer(b0, 1024);
  pipe.InitBuffer(b1, 1024);
  LocalTensor<float> a = b0.Get<float>();  // 256 floats
  LocalTensor<half> h = b1.Get<half>();    // 512 halves
  if (which != kUninitRead) {
    Duplicate(a, 1.0f, 256);
    Duplicate(h, half(1.0f), 512);
  }
  PipeBarrier<PIPE_V>();
  uint64_t empty_mask[2] = {0, 0};
  switch (which) {
    case kCastBadMode: Cast(a, h, RoundMode::CAST_RINT, 64); break;        // half -> float accepts only NONE
    case kPartialOverlap: Add(a[8], a, a, 64); break;                      // dst starts inside src
    case kCountPastTensor: Exp(a, a, 257); break;                          // 257 > 256 elements
    case kCompareTail: Compare(b1.Get<uint8_t>(), a, a, CMPMODE::LT, 65); break;  // 260 B not a multiple of 256
    case kNegativeCount: Muls(a, a, 2.0f, -1); break;
    case kBadMask: WholeReduceSum(a, a, empty_mask, 1, 1, 1, 8); break;
    case kUninitRead: Exp(a, a, 64); break;                                // UB never written (full)
    case kSmallWorkBuffer: ReduceMax(a[240], a, a[248], 200, true); break;  // work needs 24 elements, has 8
    case kSelectModeMismatch: Select(a, b1.Get<uint8_t>(), a, 2.0f, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64); break;
    case kDstBlkStrideZero: Add(a, a, a, 64, 1, {0, 1, 1, 8, 8, 8}); break;  // level 0, undefined on hardware
    default: break;
  }
}

}  // namespace vector_kernels
