// tests/runtime/backends/sim/aicore/kernels/gm_order_kernels.h: kernels for
// the in-core GM ordering check (runtime/backends/sim/aicore/gm_order.h): an
// MTE2 read of GM bytes an earlier MTE3 copy of the same core wrote needs
// SetFlag/WaitFlag<MTE3_MTE2>, PipeBarrier<PIPE_ALL> or a flag chain through
// another pipe in between (ErrorSync2); two MTE3 copies into overlapping GM
// need PipeBarrier<PIPE_MTE3> (ErrorSync1). Signature (GM_ADDR x, GM_ADDR z,
// GM_ADDR workspace, GM_ADDR tiling), x and z holding kGmFloats floats;
// block b works on [64 b, 64 b + 64) of both.
// extern "C" definitions: include from one test translation unit only.
#pragma once

#include "../aicore_test_util.h"  // AICORE_TEST_KERNEL
#include "kernel_operator.h"

namespace gm_order {

using namespace AscendC;

constexpr uint32_t kGmFloats = 256;  // 4 blocks x 64

// How the read (or second write) is ordered after the MTE3 write.
enum class Order {
  kNone,         // nothing
  kFlag,         // SetFlag/WaitFlag<MTE3_MTE2>
  kBarrierAll,   // PipeBarrier<PIPE_ALL>
  kBarrierMte3,  // PipeBarrier<PIPE_MTE3>: orders MTE3 with itself only
  kChain,        // SetFlag/WaitFlag<MTE3_V> then <V_MTE2>
};

template <Order kOrder>
void order_after_mte3() {
  if (kOrder == Order::kFlag) {
    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
  }
  if (kOrder == Order::kBarrierAll) PipeBarrier<PIPE_ALL>();
  if (kOrder == Order::kBarrierMte3) PipeBarrier<PIPE_MTE3>();
  if (kOrder == Order::kChain) {
    SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
    SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
  }
}

// The block's 64 floats of x and z and two UB buffers of 64 floats.
struct Block {
  GlobalTensor<float> x, z;
  TPipe pipe;
  TBuf<TPosition::VECCALC> bufs[2];
  LocalTensor<float> a, b;
  Block(GM_ADDR x_addr, GM_ADDR z_addr) {
    x.SetGlobalBuffer((__gm__ float*)x_addr + 64 * GetBlockIdx(), 64);
    z.SetGlobalBuffer((__gm__ float*)z_addr + 64 * GetBlockIdx(), 64);
    for (auto& t : bufs) pipe.InitBuffer(t, 64 * sizeof(float));
    a = bufs[0].Get<float>();
    b = bufs[1].Get<float>();
  }
  // x -> a, ready for MTE3 (one MTE2 copy and the MTE2_MTE3 flag).
  void load_x() {
    DataCopy(a, x, 64);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID1);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID1);
  }
  // x -> a -> z[0, 64): one MTE2 and one MTE3 copy.
  void stage_x_to_z() {
    load_x();
    DataCopy(z, a, 64);
  }
  // b -> z[0, 64) after b's load: z ends up as z read back (+ 1 when kAdd).
  void store_b(bool add) {
    SetFlag<HardEvent::MTE2_V>(EVENT_ID2);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID2);
    if (add) Adds(b, b, 1.0f, 64);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID2);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID2);
    PipeBarrier<PIPE_MTE3>();  // the second write of z: ordered after the first
    DataCopy(z, b, 64);
  }
};

// Writes x to z, reads z[read_at, read_at + 8) back (after kOrder), and
// stores it + 1 over z: z[i] = x[i] + 1 for i in the read window.
template <Order kOrder, uint32_t kReadAt = 0>
void write_then_read(GM_ADDR x, GM_ADDR z) {
  Block k(x, z);
  k.stage_x_to_z();
  order_after_mte3<kOrder>();
  DataCopy(k.b, k.z[kReadAt], 64 - kReadAt);
  k.store_b(true);
}

AICORE_TEST_KERNEL(raw_unordered) { write_then_read<Order::kNone>(x, z); }
AICORE_TEST_KERNEL(raw_barrier_mte3) { write_then_read<Order::kBarrierMte3>(x, z); }
AICORE_TEST_KERNEL(raw_tail_unordered) { write_then_read<Order::kNone, 56>(x, z); }
AICORE_TEST_KERNEL(raw_flag) { write_then_read<Order::kFlag>(x, z); }
AICORE_TEST_KERNEL(raw_barrier_all) { write_then_read<Order::kBarrierAll>(x, z); }
AICORE_TEST_KERNEL(raw_chain) { write_then_read<Order::kChain>(x, z); }

// Strided write: DataCopyParams{2 blocks, 32 B, dst gap 32 B} puts x[0, 8)
// and x[8, 16) at z[0, 8) and z[16, 24); then reads z[kReadAt, kReadAt + 8)
// unordered: the gap z[8, 16) is clean, z[16, 24) is flagged at 'z'+0x40.
template <uint32_t kReadAt>
void strided_write_then_read(GM_ADDR x, GM_ADDR z) {
  Block k(x, z);
  k.load_x();
  DataCopy(k.z, k.a, DataCopyParams{2, 1, 0, 1});
  DataCopy(k.b, k.z[kReadAt], 8);
}
AICORE_TEST_KERNEL(strided_gap_read) { strided_write_then_read<8>(x, z); }
AICORE_TEST_KERNEL(strided_hit_read) { strided_write_then_read<16>(x, z); }

// Reads x (never written by the kernel) after writing z: disjoint, clean.
AICORE_TEST_KERNEL(raw_disjoint) {
  Block k(x, z);
  k.stage_x_to_z();
  DataCopy(k.b, k.x, 64);
}

// Two MTE3 copies into z: all 64 floats, then 8 floats over z[56, 64)
// (the tail pattern). kOrder kBarrierMte3 orders them; kNone is ErrorSync1.
template <Order kOrder>
void overlapping_writes(GM_ADDR x, GM_ADDR z) {
  Block k(x, z);
  DataCopy(k.a, k.x, 64);
  SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
  WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
  Muls(k.b, k.a, 2.0f, 64);
  SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
  DataCopy(k.z, k.a, 64);
  order_after_mte3<kOrder>();
  DataCopy(k.z[56], k.b[56], 8);
}
AICORE_TEST_KERNEL(waw_unordered) { overlapping_writes<Order::kNone>(x, z); }
AICORE_TEST_KERNEL(waw_barrier_mte3) { overlapping_writes<Order::kBarrierMte3>(x, z); }

// Two atomic-add copies of x into z (z += 2 x): they commute, never flagged.
AICORE_TEST_KERNEL(waw_atomic_adds) {
  Block k(x, z);
  k.load_x();
  SetAtomicAdd<float>();
  DataCopy(k.z, k.a, 64);
  DataCopy(k.z, k.a, 64);
  SetAtomicNone();
}

// Reads z with no sync at all: clean when an earlier launch wrote it (the
// log is per block, and a launch boundary orders everything).
AICORE_TEST_KERNEL(read_z_only) {
  Block k(x, z);
  DataCopy(k.b, k.z, 64);
  k.store_b(true);
}

}  // namespace gm_order
