// tests/runtime/backends/sim/aicore/kernels/faulty_kernels.h: the corpus of
// deliberately faulty kernels. Each has the signature
//   (GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
// with x and z holding kFaultGmFloats floats each, and breaks exactly one rule
// (see the comment on each); test_faults.cc states the diagnostic expected.
// The kernels are extern "C" definitions: include this header from one test
// translation unit only.
#pragma once

#include <stdexcept>

#include "../aicore_test_util.h"  // AICORE_TEST_KERNEL
#include "kernel_operator.h"

namespace faulty {

using namespace AscendC;

constexpr uint32_t kFaultGmFloats = 256;
constexpr int64_t kFaultBlock = 2;  // kernels that fault in one block only use this one

#define FAULTY_KERNEL(name) AICORE_TEST_KERNEL(name)

// InitBuffer asks for 2 x 100 KiB of UB (capacity 196352 B).
FAULTY_KERNEL(ub_overflow) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> q;
  pipe.InitBuffer(q, 2, 100 * 1024);
}

// 65 TBufs in one TPipe (at most 64 buffers).
FAULTY_KERNEL(too_many_buffers) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> bufs[65];
  for (auto& b : bufs) pipe.InitBuffer(b, 32);
}

// DataCopy into a UB address 12 B past a 32-B boundary.
FAULTY_KERNEL(misaligned_datacopy) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 1024);
  GlobalTensor<float> xGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, kFaultGmFloats);
  LocalTensor<float> t = q.AllocTensor<float>();
  DataCopy(t[3], xGm, 8);
  q.FreeTensor(t);
}

// DataCopy of 10 floats = 40 B, not a multiple of 32 B.
FAULTY_KERNEL(datacopy_count_not_32b) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 1024);
  GlobalTensor<float> xGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, kFaultGmFloats);
  LocalTensor<float> t = q.AllocTensor<float>();
  DataCopy(t, xGm, 10);
  q.FreeTensor(t);
}

// Block i reads 64 floats at x + 64 i + 8: the last block (of 4) runs past x's end.
FAULTY_KERNEL(gm_read_past_end) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 64 * sizeof(float));
  GlobalTensor<float> xGm;
  xGm.SetGlobalBuffer((__gm__ float*)x + 64 * GetBlockIdx() + 8);
  LocalTensor<float> t = q.AllocTensor<float>();
  DataCopy(t, xGm, 64);
  q.FreeTensor(t);
}

// Block kFaultBlock writes 64 floats at z + 224: past the end of z.
FAULTY_KERNEL(gm_write_past_end) {
  TPipe pipe;
  TQue<QuePosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, 64 * sizeof(float));
  GlobalTensor<float> zGm;
  zGm.SetGlobalBuffer((__gm__ float*)z + (GetBlockIdx() == kFaultBlock ? 224 : 0));
  LocalTensor<float> t = q.AllocTensor<float>();
  for (uint32_t i = 0; i < 64; ++i) t.SetValue(i, 1.0f);
  q.EnQue(t);
  t = q.DeQue<float>();
  if (GetBlockIdx() == kFaultBlock) DataCopy(zGm, t, 64);
  q.FreeTensor(t);
}

// SetGlobalBuffer(z, 32) but DataCopy writes 64 floats: inside the allocation,
// past the declared size.
FAULTY_KERNEL(gm_write_past_size) {
  TPipe pipe;
  TQue<QuePosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, 64 * sizeof(float));
  GlobalTensor<float> zGm;
  zGm.SetGlobalBuffer((__gm__ float*)z, 32);
  LocalTensor<float> t = q.AllocTensor<float>();
  for (uint32_t i = 0; i < 64; ++i) t.SetValue(i, 1.0f);
  q.EnQue(t);
  t = q.DeQue<float>();
  DataCopy(zGm, t, 64);
  q.FreeTensor(t);
}

// GlobalTensor::GetValue one element past SetGlobalBuffer's size.
FAULTY_KERNEL(gm_scalar_read_past_size) {
  GlobalTensor<float> xGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, 16);
  float v = xGm.GetValue(16);
  (void)v;
}

// A GM pointer that belongs to no allocation of the launch (host static memory).
inline float g_not_device_memory[16];
FAULTY_KERNEL(gm_pointer_outside_regions) {
  GlobalTensor<float> xGm;
  xGm.SetGlobalBuffer(g_not_device_memory);
  float v = xGm.GetValue(0);
  (void)v;
}

// AllocTensor twice from a queue with one buffer.
FAULTY_KERNEL(alloc_without_free_buffer) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 256);
  LocalTensor<float> a = q.AllocTensor<float>();
  LocalTensor<float> b = q.AllocTensor<float>();
  q.FreeTensor(a);
  q.FreeTensor(b);
}

// DeQue on a queue nothing was enqueued on.
FAULTY_KERNEL(deque_empty) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 256);
  LocalTensor<float> t = q.DeQue<float>();
  q.FreeTensor(t);
}

// FreeTensor twice.
FAULTY_KERNEL(double_free) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> q;
  pipe.InitBuffer(q, 2, 256);
  LocalTensor<float> t = q.AllocTensor<float>();
  q.FreeTensor(t);
  q.FreeTensor(t);
}

// EnQue on queue B of a tensor allocated from queue A.
FAULTY_KERNEL(enque_foreign_tensor) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> a;
  TQue<QuePosition::VECOUT, 1> b;
  pipe.InitBuffer(a, 1, 256);
  pipe.InitBuffer(b, 1, 256);
  LocalTensor<float> t = a.AllocTensor<float>();
  b.EnQue(t);
}

// Two EnQue on a depth-1 queue without DeQue in between.
FAULTY_KERNEL(enque_full_queue) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 2, 256);
  LocalTensor<float> t0 = q.AllocTensor<float>();
  LocalTensor<float> t1 = q.AllocTensor<float>();
  q.EnQue(t0);
  q.EnQue(t1);
}

// A one-buffer VECIN queue and its TPipe, for the queue-misuse kernels below.
struct OneBufferQueue {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  OneBufferQueue() { pipe.InitBuffer(q, 1, 256); }
};

// FreeTensor of a tensor that was enqueued and never dequeued.
FAULTY_KERNEL(free_enqueued) {
  OneBufferQueue k;
  LocalTensor<float> t = k.q.AllocTensor<float>();
  k.q.EnQue(t);
  k.q.FreeTensor(t);
}

// EnQue of a FREE tensor (freed after its DeQue).
FAULTY_KERNEL(enque_freed) {
  OneBufferQueue k;
  LocalTensor<float> t = k.q.AllocTensor<float>();
  k.q.EnQue(t);
  t = k.q.DeQue<float>();
  k.q.FreeTensor(t);
  k.q.EnQue(t);
}

// AllocTensor on a queue without InitBuffer.
FAULTY_KERNEL(alloc_uninitialised) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  LocalTensor<float> t = q.AllocTensor<float>();
  q.FreeTensor(t);
}

// AllocTensor without FreeTensor (only in block kFaultBlock).
FAULTY_KERNEL(leak_tensor) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> q;
  pipe.InitBuffer(q, 2, 256);
  LocalTensor<float> t = q.AllocTensor<float>();
  if (GetBlockIdx() != kFaultBlock) q.FreeTensor(t);
}

// Reads a tensor after FreeTensor.
FAULTY_KERNEL(use_after_free) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 256);
  GlobalTensor<float> zGm;
  zGm.SetGlobalBuffer((__gm__ float*)z, kFaultGmFloats);
  LocalTensor<float> t = q.AllocTensor<float>();
  for (uint32_t i = 0; i < 64; ++i) t.SetValue(i, 0.0f);
  q.FreeTensor(t);
  DataCopy(zGm, t, 64);
}

// DataCopy of 128 floats into a 64-float tensor.
FAULTY_KERNEL(local_write_past_tensor) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 64 * sizeof(float));
  GlobalTensor<float> xGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, kFaultGmFloats);
  LocalTensor<float> t = q.AllocTensor<float>();
  DataCopy(t, xGm, 128);
  q.FreeTensor(t);
}

// LocalTensor::GetValue one past the tensor's end.
FAULTY_KERNEL(local_scalar_read_past_tensor) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 64);
  LocalTensor<float> t = b.Get<float>();
  for (uint32_t i = 0; i < 16; ++i) t.SetValue(i, 1.0f);
  float v = t.GetValue(16);
  (void)v;
}

// A default-constructed LocalTensor used as a DataCopy destination.
FAULTY_KERNEL(tensor_not_from_initbuffer) {
  GlobalTensor<float> xGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, kFaultGmFloats);
  LocalTensor<float> t;
  DataCopy(t, xGm, 8);
}

// Two TPipes in one kernel.
FAULTY_KERNEL(second_tpipe) {
  TPipe a;
  TPipe b;
}

// full: MTE2 writes a TBuf, then PIPE_V (UB->UB DataCopy) reads it with no
// SetFlag/WaitFlag<MTE2_V> in between. The variants below sync correctly.
template <int kSync>  // 0: none, 1: SetFlag/WaitFlag, 2: PipeBarrier<PIPE_ALL>
void copy_through_tbuf(GM_ADDR x, GM_ADDR z) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 64 * sizeof(float));
  pipe.InitBuffer(b, 64 * sizeof(float));
  GlobalTensor<float> xGm, zGm;
  xGm.SetGlobalBuffer((__gm__ float*)x + 64 * GetBlockIdx(), 64);
  zGm.SetGlobalBuffer((__gm__ float*)z + 64 * GetBlockIdx(), 64);
  LocalTensor<float> ta = a.Get<float>(), tb = b.Get<float>();
  DataCopy(ta, xGm, 64);
  if (kSync == 1) {
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
  } else if (kSync == 2) {
    PipeBarrier<PIPE_ALL>();
  }
  DataCopy(tb, ta, 64);
  SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
  DataCopy(zGm, tb, 64);
}
FAULTY_KERNEL(missing_sync) { copy_through_tbuf<0>(x, z); }
FAULTY_KERNEL(synced_with_flags) { copy_through_tbuf<1>(x, z); }
FAULTY_KERNEL(synced_with_barrier) { copy_through_tbuf<2>(x, z); }

// full: scalar read of a vector result without SetFlag/WaitFlag<V_S>
// (kSync = true: with the flag pair, clean).
template <bool kSync>
void scalar_after_vector(GM_ADDR z) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 64 * sizeof(float));
  LocalTensor<float> t = b.Get<float>();
  Duplicate(t, 3.0f, 64);
  if (kSync) {
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
  }
  GlobalTensor<float> zGm;
  zGm.SetGlobalBuffer((__gm__ float*)z + 16 * GetBlockIdx(), 1);  // a 64 B line per block
  zGm.SetValue(0, t.GetValue(5));
  DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(zGm);
}
FAULTY_KERNEL(scalar_read_without_v_s) { scalar_after_vector<false>(z); }
FAULTY_KERNEL(scalar_read_with_v_s) { scalar_after_vector<true>(z); }

// basic: a vector instruction on an L1 (A1) tensor.
FAULTY_KERNEL(vector_op_on_l1) {
  TPipe pipe;
  TQue<TPosition::A1, 1> q;
  pipe.InitBuffer(q, 1, 1024);
  LocalTensor<float> t = q.AllocTensor<float>();
  Duplicate(t, 1.0f, 64);
  q.FreeTensor(t);
}

// full: WaitFlag with no SetFlag.
FAULTY_KERNEL(wait_without_set) { WaitFlag<HardEvent::MTE2_V>(EVENT_ID3); }

// full: SetFlag never waited for.
FAULTY_KERNEL(set_without_wait) { SetFlag<HardEvent::V_MTE3>(EVENT_ID2); }

// full: SetFlag twice on the same event ID.
FAULTY_KERNEL(double_set_flag) {
  SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
  SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
}

// basic: event ID outside 0..7.
FAULTY_KERNEL(bad_event_id) { SetFlag<HardEvent::MTE2_V>(9); }

// full: every block writes z[0, 64).
FAULTY_KERNEL(overlapping_block_writes) {
  TPipe pipe;
  TQue<QuePosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, 64 * sizeof(float));
  GlobalTensor<float> zGm;
  zGm.SetGlobalBuffer((__gm__ float*)z, 64);
  LocalTensor<float> t = q.AllocTensor<float>();
  for (uint32_t i = 0; i < 64; ++i) t.SetValue(i, 2.0f);
  q.EnQue(t);
  t = q.DeQue<float>();
  DataCopy(zGm, t, 64);
  q.FreeTensor(t);
}

// full: a VECOUT tensor copied out without ever being written.
FAULTY_KERNEL(uninitialised_read) {
  TPipe pipe;
  TQue<QuePosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, 64 * sizeof(float));
  GlobalTensor<float> zGm;
  zGm.SetGlobalBuffer((__gm__ float*)z + 64 * GetBlockIdx(), 64);
  LocalTensor<float> t = q.AllocTensor<float>();
  for (uint32_t i = 0; i < 32; ++i) t.SetValue(i, 2.0f);  // half of it
  q.EnQue(t);
  t = q.DeQue<float>();
  DataCopy(zGm, t, 64);
  q.FreeTensor(t);
}

// full: writes into a tensor after EnQue, before the consumer dequeued it.
FAULTY_KERNEL(overwrite_enqueued) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 64 * sizeof(float));
  GlobalTensor<float> xGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, kFaultGmFloats);
  LocalTensor<float> t = q.AllocTensor<float>();
  DataCopy(t, xGm, 64);
  q.EnQue(t);
  DataCopy(t, xGm[64], 64);
  t = q.DeQue<float>();
  q.FreeTensor(t);
}

// TPipe::Reset while a tensor is allocated (after freeing it, Reset and a new
// layout are fine: block 0 takes that path).
FAULTY_KERNEL(reset_with_live_tensor) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 96 * 1024);
  LocalTensor<float> t = q.AllocTensor<float>();
  if (GetBlockIdx() == 0) q.FreeTensor(t);
  pipe.Reset();
  pipe.InitBuffer(q, 1, 150 * 1024);  // only fits because Reset released the first layout
  t = q.AllocTensor<float>();
  q.FreeTensor(t);
}

// The kernel throws an exception of its own.
FAULTY_KERNEL(throws_exception) { throw std::runtime_error("tiling says no"); }

// DataCopyPad on a profile without it (run with the 310P profile).
FAULTY_KERNEL(datacopy_pad_unsupported) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 256);
  GlobalTensor<float> xGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, kFaultGmFloats);
  LocalTensor<float> t = q.AllocTensor<float>();
  DataCopyPad(t, xGm, DataCopyExtParams{1, 12, 0, 0, 0}, DataCopyPadExtParams<float>{});
  q.FreeTensor(t);
}

// Tiling struct larger than the tiling bytes the host passed.
struct BigTiling {
  uint32_t words[64];
};
FAULTY_KERNEL(tiling_too_small) {
  GET_TILING_DATA_WITH_STRUCT(BigTiling, t, tiling);
  (void)t;
}

#undef FAULTY_KERNEL

}  // namespace faulty
