// tests/runtime/backends/sim/aicore/kernels/elision_kernels.h: kernels that
// poke at the simulator's copy elision (copy_elision.h, aicore/mirror.h): every
// one copies arg 0 (x, read-only when the test sets readonly_arg_mask bit 0)
// GM -> UB, then touches the buffer in a way that must either read the GM
// mirror or materialize the copy first. Correct, fully synced kernels: the
// outputs must be bit-identical with and without elision at every level.
// extern "C" definitions: include this header from one test translation unit only.
#pragma once

#include "kernel_operator.h"

namespace elision_kernels {

using namespace AscendC;

constexpr uint32_t kN = 256;  // floats per kernel (1 KiB: above kElideMinBytes)

template <HardEvent E>
__aicore__ inline void Sync() {
  SetFlag<E>(EVENT_ID0);
  WaitFlag<E>(EVENT_ID0);
}

// The frame of the two-buffer kernels below: x's kN floats copied GM -> UB
// into `in` (the copy the test elides or not), `out` for the result, which
// the kernel writes to z after its own sync.
struct CopyInFrame {
  __aicore__ CopyInFrame(GM_ADDR x, GM_ADDR z) {
    pipe.InitBuffer(a, kN * sizeof(float));
    pipe.InitBuffer(b, kN * sizeof(float));
    xg.SetGlobalBuffer((__gm__ float*)x, kN);
    zg.SetGlobalBuffer((__gm__ float*)z, kN);
    in = a.Get<float>();
    out = b.Get<float>();
    DataCopy(in, xg, kN);
  }
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  GlobalTensor<float> xg, zg;
  LocalTensor<float> in, out;
};

// z = (x with [16, 48) overwritten by 5) + 1: a partial vector write, then a read.
extern "C" __global__ __aicore__ void partial_write(GM_ADDR x, GM_ADDR z, GM_ADDR, GM_ADDR) {
  CopyInFrame f(x, z);
  Sync<HardEvent::MTE2_V>();
  Duplicate(f.in[16], 5.0f, 32);
  Adds(f.out, f.in, 1.0f, kN);
  Sync<HardEvent::V_MTE3>();
  DataCopy(f.zg, f.out, kN);
}

// z[i] = x[kN - 1 - i] through scalar GetValue/SetValue.
extern "C" __global__ __aicore__ void scalar_reverse(GM_ADDR x, GM_ADDR z, GM_ADDR, GM_ADDR) {
  CopyInFrame f(x, z);
  Sync<HardEvent::MTE2_S>();
  for (uint32_t i = 0; i < kN; ++i) f.out.SetValue(i, f.in.GetValue(kN - 1 - i));
  Sync<HardEvent::S_MTE3>();
  DataCopy(f.zg, f.out, kN);
}

// z = x: GM -> UB -> GM with nothing in between (UB -> GM reads the mirror).
extern "C" __global__ __aicore__ void round_trip(GM_ADDR x, GM_ADDR z, GM_ADDR, GM_ADDR) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> a;
  pipe.InitBuffer(a, kN * sizeof(float));
  GlobalTensor<float> xg, zg;
  xg.SetGlobalBuffer((__gm__ float*)x + kN * GetBlockIdx(), kN);
  zg.SetGlobalBuffer((__gm__ float*)z + kN * GetBlockIdx(), kN);
  LocalTensor<float> ta = a.Get<float>();
  DataCopy(ta, xg, kN);
  Sync<HardEvent::MTE2_MTE3>();
  DataCopy(zg, ta, kN);
}

// The frame of the re-copy kernels below: one kN-float buffer `in` filled
// with -7 (so bytes a wrong materialization skipped cannot hold x by chance),
// then GM -> UB copies into it (Copy: in[at, at + n) = x[from, from + n),
// each after a PipeBarrier<PIPE_MTE2>: overlapping UB destinations need one,
// ascend-facts.md 2.5), and z = in at the end (Finish).
struct RecopyFrame {
  __aicore__ RecopyFrame(GM_ADDR x, GM_ADDR z) {
    pipe.InitBuffer(a, kN * sizeof(float));
    xg.SetGlobalBuffer((__gm__ float*)x, kN);
    zg.SetGlobalBuffer((__gm__ float*)z, kN);
    in = a.Get<float>();
    Duplicate(in, -7.0f, kN);
    Sync<HardEvent::V_MTE2>();
  }
  __aicore__ void Copy(uint32_t at, uint32_t from, uint32_t n) {
    PipeBarrier<PIPE_MTE2>();
    DataCopy(in[at], xg[from], n);
  }
  __aicore__ void Finish() {
    Sync<HardEvent::MTE2_MTE3>();
    DataCopy(zg, in, kN);
  }
  TPipe pipe;
  TBuf<TPosition::VECCALC> a;
  GlobalTensor<float> xg, zg;
  LocalTensor<float> in;
};

// Shorter copies into a buffer holding a mirror: only the old mirror's bytes
// outside the new copy are materialized (copy_elision.cc), the rest keeps its
// GM -> UB meaning. in = x[0, kN); in[64, 128) = x[128, 192) (the old
// mirror's head and tail stay); in[0, 64) = x[192, 256) (no overlap with the
// second copy's mirror). z = in = [x[192, 256) | x[128, 192) | x[128, 256)].
extern "C" __global__ __aicore__ void shorter_recopy(GM_ADDR x, GM_ADDR z, GM_ADDR, GM_ADDR) {
  RecopyFrame f(x, z);
  f.Copy(0, 0, kN);
  f.Copy(64, 128, 64);
  f.Copy(0, 192, 64);
  f.Finish();
}

// The other overlaps of a copy with a pending mirror (copy_elision.cc
// settle_before_overwrite): the copy covering the mirror's back and running
// past it (the head stays), covering it exactly (dropped, nothing copied),
// covering its front (the tail stays); every kept piece stays visible in z.
// 1. in[0, 128) = x[0, 128);  2. in[64, 192) = x[128, 256);
// 3. in[64, 192) = x[0, 128);  4. in[48, 144) = x[128, 224).
// z = [x[0, 48) | x[128, 224) | x[80, 128) | -7 x 64].
extern "C" __global__ __aicore__ void overlap_recopy(GM_ADDR x, GM_ADDR z, GM_ADDR, GM_ADDR) {
  RecopyFrame f(x, z);
  f.Copy(0, 0, 128);
  f.Copy(64, 128, 128);
  f.Copy(64, 0, 128);
  f.Copy(48, 128, 96);
  f.Finish();
}

// The mirror-aware vector reads: z = [ReduceSum | pad to 8 | WholeReduceSum x4 |
// pad | BlockReduceSum 32 | Exp 256 | Muls 256 | Add(x, x) 256 | Add(x[64], x[64]) 64],
// h = Cast<half>(x). Sources are read whole, at an offset, and in place.
constexpr uint32_t kVecOut = 8 + 8 + 32 + 3 * kN + 64;
extern "C" __global__ __aicore__ void vector_reads(GM_ADDR x, GM_ADDR z, GM_ADDR h, GM_ADDR, GM_ADDR) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, o, w, hb;
  pipe.InitBuffer(a, kN * sizeof(float));
  pipe.InitBuffer(o, kVecOut * sizeof(float));
  pipe.InitBuffer(w, kN * sizeof(float));
  pipe.InitBuffer(hb, kN * sizeof(half));
  GlobalTensor<float> xg, zg;
  GlobalTensor<half> hg;
  xg.SetGlobalBuffer((__gm__ float*)x, kN);
  zg.SetGlobalBuffer((__gm__ float*)z, kVecOut);
  hg.SetGlobalBuffer((__gm__ half*)h, kN);
  LocalTensor<float> ta = a.Get<float>(), to = o.Get<float>(), tw = w.Get<float>();
  LocalTensor<half> th = hb.Get<half>();
  DataCopy(ta, xg, kN);
  Sync<HardEvent::MTE2_V>();
  Duplicate(to, 0.0f, kVecOut);
  ReduceSum(to, ta, tw, kN);
  WholeReduceSum(to[8], ta, 64, 4, 1, 1, 8);
  BlockReduceSum(to[16], ta, 4, 64, 1, 1, 8);
  Exp(to[48], ta, kN);
  Muls(to[48 + kN], ta, 0.5f, kN);
  Add(to[48 + 2 * kN], ta, ta, kN);
  Add(to[48 + 3 * kN], ta[64], ta[64], 64);
  Cast(th, ta, RoundMode::CAST_NONE, kN);
  Add(ta, ta, ta, kN);  // in place: dst materializes, then reads itself
  Add(to[48 + 2 * kN], to[48 + 2 * kN], ta, kN);
  Sync<HardEvent::V_MTE3>();
  DataCopy(zg, to, kVecOut);
  DataCopy(hg, th, kN);
}

// The unary ops read their source from the mirror too (nothing materialized):
// z = [Exp(x) 256 | Abs(x) 256 | Relu(x[64]) 64], whole and at an offset.
constexpr uint32_t kUnaryOut = 2 * kN + 64;
extern "C" __global__ __aicore__ void unary_reads(GM_ADDR x, GM_ADDR z, GM_ADDR, GM_ADDR) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, o;
  pipe.InitBuffer(a, kN * sizeof(float));
  pipe.InitBuffer(o, kUnaryOut * sizeof(float));
  GlobalTensor<float> xg, zg;
  xg.SetGlobalBuffer((__gm__ float*)x, kN);
  zg.SetGlobalBuffer((__gm__ float*)z, kUnaryOut);
  LocalTensor<float> ta = a.Get<float>(), to = o.Get<float>();
  DataCopy(ta, xg, kN);
  Sync<HardEvent::MTE2_V>();
  Exp(to, ta, kN);
  Abs(to[kN], ta, kN);
  Relu(to[2 * kN], ta[64], 64);
  Sync<HardEvent::V_MTE3>();
  DataCopy(zg, to, kUnaryOut);
}

// TPipe::Reset after an elided copy: the new layout's buffer covers the same
// UB bytes and (levels off/basic) reads them without writing first, so it
// must see the copied data: z = x.
extern "C" __global__ __aicore__ void reset_then_read(GM_ADDR x, GM_ADDR z, GM_ADDR, GM_ADDR) {
  TPipe pipe;
  GlobalTensor<float> xg, zg;
  xg.SetGlobalBuffer((__gm__ float*)x, kN);
  zg.SetGlobalBuffer((__gm__ float*)z, kN);
  {
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, kN * sizeof(float));
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xg, kN);
    q.EnQue(t);
    t = q.DeQue<float>();
    q.FreeTensor(t);
  }
  pipe.Reset();
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 2 * kN * sizeof(float));
  LocalTensor<float> tb = b.Get<float>();
  PipeBarrier<PIPE_ALL>();
  DataCopy(zg, tb, kN);
}

// The float16 sum's fold (kernels/reduction/reduce_kernel.cc): acc += x * 1 with
// Axpy(float, half) reading x (2 * kN halves, arg 0's bytes) from its mirror,
// whole and at an offset, next to the Cast + Add it replaces:
// z = [Axpy fold (2 * kN) | Cast + Add fold (2 * kN)], both from acc = 0.25.
constexpr uint32_t kHalves = 2 * kN;
extern "C" __global__ __aicore__ void axpy_widen(GM_ADDR x, GM_ADDR z, GM_ADDR, GM_ADDR) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> hb, acc, ref, conv;
  pipe.InitBuffer(hb, kHalves * sizeof(half));
  pipe.InitBuffer(acc, kHalves * sizeof(float));
  pipe.InitBuffer(ref, kHalves * sizeof(float));
  pipe.InitBuffer(conv, kHalves * sizeof(float));
  GlobalTensor<half> xg;
  GlobalTensor<float> zg;
  xg.SetGlobalBuffer((__gm__ half*)x, kHalves);
  zg.SetGlobalBuffer((__gm__ float*)z, 2 * kHalves);
  LocalTensor<half> th = hb.Get<half>();
  LocalTensor<float> ta = acc.Get<float>(), tr = ref.Get<float>(), tc = conv.Get<float>();
  DataCopy(th, xg, kHalves);
  Sync<HardEvent::MTE2_V>();
  Duplicate(ta, 0.25f, kHalves);
  Duplicate(tr, 0.25f, kHalves);
  Axpy(ta, th, static_cast<half>(1.0f), kHalves);
  Axpy(ta[64], th[128], static_cast<half>(1.0f), 128);
  Cast(tc, th, RoundMode::CAST_NONE, kHalves);
  Add(tr, tr, tc, kHalves);
  Add(tr[64], tr[64], tc[128], 128);
  Sync<HardEvent::V_MTE3>();
  DataCopy(zg, ta, kHalves);
  DataCopy(zg[kHalves], tr, kHalves);
}

// DataCopyPad (the row kernels' load, kernels/norm/row_tile.h): 4 rows of 64
// floats packed back to back are a plain contiguous copy and are elided; 4 rows
// of 60 floats from a 64-float pitch need the filler up to each 32-byte block
// end and are copied eagerly. z = [2 * x[0, 256) | the padded rows (4 x 64)].
constexpr uint32_t kPadRows = 4, kPadLen = 60;
extern "C" __global__ __aicore__ void pad_rows(GM_ADDR x, GM_ADDR z, GM_ADDR, GM_ADDR) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b, o;
  pipe.InitBuffer(a, kN * sizeof(float));
  pipe.InitBuffer(b, kN * sizeof(float));
  pipe.InitBuffer(o, kN * sizeof(float));
  GlobalTensor<float> xg, zg;
  xg.SetGlobalBuffer((__gm__ float*)x, kN);
  zg.SetGlobalBuffer((__gm__ float*)z, 2 * kN);
  LocalTensor<float> ta = a.Get<float>(), tb = b.Get<float>(), to = o.Get<float>();
  const DataCopyPadExtParams<float> no_pad(false, 0, 0, 0.0f);
  DataCopyPad(ta, xg, DataCopyExtParams(kPadRows, kN / kPadRows * sizeof(float), 0, 0, 0), no_pad);
  const uint32_t gap = (kN / kPadRows - kPadLen) * sizeof(float);  // source gap between rows, bytes
  DataCopyPad(tb, xg, DataCopyExtParams(kPadRows, kPadLen * sizeof(float), gap, 0, 0), no_pad);
  Sync<HardEvent::MTE2_V>();
  Muls(to, ta, 2.0f, kN);
  Sync<HardEvent::V_MTE3>();
  DataCopy(zg, to, kN);
  Sync<HardEvent::MTE2_MTE3>();
  DataCopy(zg[kN], tb, kN);
}

}  // namespace elision_kernels
