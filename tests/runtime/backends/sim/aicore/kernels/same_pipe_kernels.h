// tests/runtime/backends/sim/aicore/kernels/same_pipe_kernels.h: kernels for
// the same-pipe ordering check (ErrorSync1, pipe_model.h): two GM -> UB
// copies (PIPE_MTE2) whose UB destinations share a 32-B block need
// PipeBarrier<PIPE_MTE2>, PIPE_ALL or a flag / queue round trip through
// another pipe in between. Each kernel has the signature
// (GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling), x and z holding
// kSameFloats floats; block b copies x[64 b, 64 b + 64) to z the same way.
// extern "C" definitions: include from one test translation unit only.
#pragma once

#include "../aicore_test_util.h"  // AICORE_TEST_KERNEL
#include "kernel_operator.h"

namespace same_pipe {

using namespace AscendC;

constexpr uint32_t kSameFloats = 256;  // 4 blocks x 64

// The block's 64 floats of x and of z.
struct BlockRows {
  GlobalTensor<float> x, z;
  BlockRows(GM_ADDR x_addr, GM_ADDR z_addr) {
    x.SetGlobalBuffer((__gm__ float*)x_addr + 64 * GetBlockIdx(), 64);
    z.SetGlobalBuffer((__gm__ float*)z_addr + 64 * GetBlockIdx(), 64);
  }
};

// How the second copy into the buffer is ordered after the first.
enum class Order {
  kNone,           // nothing: ErrorSync1
  kBarrierMte2,    // PipeBarrier<PIPE_MTE2>
  kBarrierAll,     // PipeBarrier<PIPE_ALL>
  kRoundTrip,      // SetFlag/WaitFlag<MTE2_V> then <V_MTE2>: MTE2 waited for its own copy
  kOneWayFlag,     // only SetFlag/WaitFlag<MTE2_V>: V knows, MTE2 does not (ErrorSync1)
  kBarrierOther,   // PipeBarrier<PIPE_V>: orders another pipe only (ErrorSync1)
};

template <Order kOrder>
void order_mte2() {
  if (kOrder == Order::kBarrierMte2) PipeBarrier<PIPE_MTE2>();
  if (kOrder == Order::kBarrierAll) PipeBarrier<PIPE_ALL>();
  if (kOrder == Order::kBarrierOther) PipeBarrier<PIPE_V>();
  if (kOrder == Order::kRoundTrip || kOrder == Order::kOneWayFlag) {
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
  }
  if (kOrder == Order::kRoundTrip) {
    SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
  }
}

// Loads the block's 64 floats into a TBuf twice: first the upper half at
// offset 32 elements (128 B), then the whole row from offset 0 (bytes
// [0, 256)), overlapping the first copy's blocks [128, 256). kOverlap false:
// the first copy goes to a second TBuf instead (disjoint, never flagged).
template <Order kOrder, bool kOverlap = true>
void reload_tbuf(GM_ADDR x, GM_ADDR z) {
  BlockRows gm(x, z);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bufs[2];
  for (auto& b : bufs) pipe.InitBuffer(b, 64 * sizeof(float));
  LocalTensor<float> ta = bufs[0].Get<float>();
  LocalTensor<float> first = kOverlap ? ta[32] : bufs[1].Get<float>();
  DataCopy(first, gm.x[32], 32);
  order_mte2<kOrder>();
  DataCopy(ta, gm.x, 64);
  SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID1);
  WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID1);
  DataCopy(gm.z, ta, 64);
}

AICORE_TEST_KERNEL(reload_unordered) { reload_tbuf<Order::kNone>(x, z); }
AICORE_TEST_KERNEL(reload_one_way_flag) { reload_tbuf<Order::kOneWayFlag>(x, z); }
AICORE_TEST_KERNEL(reload_other_barrier) { reload_tbuf<Order::kBarrierOther>(x, z); }
AICORE_TEST_KERNEL(reload_barrier_mte2) { reload_tbuf<Order::kBarrierMte2>(x, z); }
AICORE_TEST_KERNEL(reload_barrier_all) { reload_tbuf<Order::kBarrierAll>(x, z); }
AICORE_TEST_KERNEL(reload_round_trip) { reload_tbuf<Order::kRoundTrip>(x, z); }
AICORE_TEST_KERNEL(reload_disjoint) { reload_tbuf<Order::kNone, false>(x, z); }

// DataCopyPad of 5 floats (20 B) per row into two rows of a TBuf: each row
// fills one whole 32-B block (the tail gets filler), so the second pad copy
// into row 0's block overwrites the first one's filler. Flagged without a
// barrier; the two rows of one DataCopyPad (one instruction) never are.
template <bool kBarrier>
void pad_rows_twice(GM_ADDR x, GM_ADDR z) {
  BlockRows gm(x, z);
  TPipe pipe;
  TBuf<TPosition::VECCALC> a;
  pipe.InitBuffer(a, 64 * sizeof(float));
  LocalTensor<float> ta = a.Get<float>();
  DataCopyExtParams rows{2, 5 * sizeof(float), 0, 0, 0};
  DataCopyPadExtParams<float> no_pad{false, 0, 0, 0.0f};
  DataCopyPad(ta, gm.x, rows, no_pad);
  if (kBarrier) PipeBarrier<PIPE_MTE2>();
  DataCopyPad(ta, gm.x[8], rows, no_pad);
  SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID1);
  WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID1);
  DataCopyPad(gm.z, ta, rows);
}
AICORE_TEST_KERNEL(pad_rows_unordered) { pad_rows_twice<false>(x, z); }
AICORE_TEST_KERNEL(pad_rows_barrier) { pad_rows_twice<true>(x, z); }

// The queue pattern of every project kernel: one VECIN buffer reloaded each
// tile, ordered by EnQue/DeQue (MTE2 -> V) and FreeTensor/AllocTensor
// (V -> MTE2). kTiles tiles of 16 floats, copied out through a VECOUT queue.
AICORE_TEST_KERNEL(queue_reload) {
  constexpr int kTiles = 4, kTile = 16;
  BlockRows gm(x, z);
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> in;
  TQue<QuePosition::VECOUT, 1> out;
  pipe.InitBuffer(in, 1, kTile * sizeof(float));
  pipe.InitBuffer(out, 1, kTile * sizeof(float));
  for (int t = 0; t < kTiles; ++t) {
    LocalTensor<float> a = in.AllocTensor<float>();
    DataCopy(a, gm.x[t * kTile], kTile);
    in.EnQue(a);
    LocalTensor<float> b = in.DeQue<float>();
    LocalTensor<float> c = out.AllocTensor<float>();
    Adds(c, b, 0.0f, kTile);
    in.FreeTensor(b);
    out.EnQue(c);
    LocalTensor<float> d = out.DeQue<float>();
    DataCopy(gm.z[t * kTile], d, kTile);
    out.FreeTensor(d);
  }
}

// full, cross pipe (ErrorSync2, already modelled): a vector write into a UB
// buffer that MTE3 is still copying out (no SetFlag/WaitFlag<MTE3_V>).
AICORE_TEST_KERNEL(vector_overwrites_outgoing) {
  BlockRows gm(x, z);
  TPipe pipe;
  TBuf<TPosition::VECCALC> a;
  pipe.InitBuffer(a, 64 * sizeof(float));
  LocalTensor<float> ta = a.Get<float>();
  Duplicate(ta, 1.0f, 64);
  SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
  DataCopy(gm.z, ta, 64);
  Duplicate(ta, 2.0f, 64);
}

}  // namespace same_pipe
