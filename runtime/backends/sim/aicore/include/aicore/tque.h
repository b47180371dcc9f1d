// aicore/tque.h: AscendC::TQueBind<src, dst, depth> and TQue<pos, depth>, the
// queues that hand local buffers between pipes.
//
// Each of the queue's `num` buffers (given by TPipe::InitBuffer) follows
// FREE -> OCCUPIED (AllocTensor) -> ENQUE (EnQue) -> DEQUE (DeQue) -> FREE
// (FreeTensor). AllocTensor takes buffers round-robin; DeQue returns the oldest
// enqueued one; at most `depth` tensors are enqueued at once. Violations are
// ErrorQueue (no free buffer, DeQue of an empty queue, EnQue when full or from
// the wrong state), ErrorBuffer1 (tensor of another queue) and ErrorFree
// (double free). The two that leave no sensible result (alloc with nothing free,
// DeQue of an empty queue) are raised at every check level; the rest at basic+.
// On hardware EnQue/DeQue set and wait the producer->consumer event and
// FreeTensor/AllocTensor the reverse one; the full-level pipe model does the
// same with the pipes of queue_pipes(). The state lives in QueueState and the
// core's BufferRecords, the logic in tque.cc.
#pragma once

#include <cstdint>

#include "aicore/buffer_record.h"
#include "aicore/core_context.h"
#include "aicore/local_access.h"
#include "aicore/local_tensor.h"
#include "aicore/position.h"
#include "npurt/export.h"

namespace npurt::sim {

constexpr int kMaxQueueBuffers = 64;

struct QueuePipes {
  Pipe producer;
  Pipe consumer;
};

// Which pipe fills a queue's buffers and which drains them.
constexpr QueuePipes queue_pipes(AscendC::TPosition src, AscendC::TPosition dst) {
  using AscendC::TPosition;
  if (src == TPosition::GM) {  // copy-in: GM -> UB / L1 by MTE2
    return dst == TPosition::VECIN || dst == TPosition::VECCALC || dst == TPosition::VECOUT
               ? QueuePipes{Pipe::MTE2, Pipe::V}
               : QueuePipes{Pipe::MTE2, Pipe::MTE1};
  }
  if (dst == TPosition::GM || dst == TPosition::CO2) {  // copy-out
    return src == TPosition::CO1 ? QueuePipes{Pipe::M, Pipe::FIX} : QueuePipes{Pipe::V, Pipe::MTE3};
  }
  if (src == TPosition::VECIN && dst == TPosition::VECOUT) return {Pipe::MTE2, Pipe::MTE3};
  switch (pool_of(src)) {
    case Pool::kL1: return {Pipe::MTE2, Pipe::MTE1};
    case Pool::kL0A:
    case Pool::kL0B: return {Pipe::MTE1, Pipe::M};
    case Pool::kL0C: return {Pipe::M, Pipe::FIX};
    default: return {Pipe::V, Pipe::V};
  }
}

struct QueueState {
  BufferRecord* bufs = nullptr;  // num records, owned by the core state
  uint8_t num = 0;
  uint8_t cursor = 0;            // next buffer AllocTensor tries
  uint8_t head = 0;              // FIFO of enqueued buffer indices
  uint8_t count = 0;
  uint8_t fifo[kMaxQueueBuffers] = {};
  int32_t depth = 1;
  AscendC::TPosition pos = AscendC::TPosition::VECCALC;
  QueuePipes pipes{Pipe::V, Pipe::V};
};

NPURT_PUBLIC_BEGIN
BufferRecord* queue_alloc(CoreContext* c, QueueState& q, const char* api);
bool queue_enque(CoreContext* c, QueueState& q, const LocalRef& t, const char* api);
BufferRecord* queue_deque(CoreContext* c, QueueState& q, const char* api);
void queue_free(CoreContext* c, QueueState& q, const LocalRef& t, const char* api);
NPURT_PUBLIC_END

// Inline fast paths of the four queue operations (a streaming kernel calls
// each once per UB tile: as out-of-line calls they were ~190 instructions per
// tile). Each handles only the case where the operation is legal and has no
// full-level side effect (pipe clocks, shadow state), and then does exactly
// what the out-of-line function does; anything else (level full, an
// uninitialised queue, a wrong state, a tensor of another queue, no free
// buffer at the cursor, a full or empty FIFO) takes the out-of-line function,
// which raises the same diagnostics as before.
NPURT_SIM_HOT_INLINE bool queue_fast(const CoreContext* c, const QueueState& q) {
  return c->level != SimCheckLevel::kFull && q.num != 0 && q.bufs != nullptr;
}

// r belongs to q and holds a tensor from AllocTensor or DeQue (OCCUPIED or DEQUE).
NPURT_SIM_HOT_INLINE bool queue_holds(const CoreContext* c, const QueueState& q, const BufferRecord* r) {
  return queue_fast(c, q) && r != nullptr && r->owner == &q &&
         (r->state == BufState::kOccupied || r->state == BufState::kDeque);
}

NPURT_SIM_HOT_INLINE BufferRecord* queue_alloc_inline(CoreContext* c, QueueState& q, const char* api) {
  if (__builtin_expect(queue_fast(c, q), 1)) {
    BufferRecord& r = q.bufs[q.cursor];
    if (__builtin_expect(r.state == BufState::kFree, 1)) {
      q.cursor = static_cast<uint8_t>(q.cursor + 1 == q.num ? 0 : q.cursor + 1);
      r.state = BufState::kOccupied;
      return &r;
    }
  }
  return queue_alloc(c, q, api);
}

NPURT_SIM_HOT_INLINE bool queue_enque_inline(CoreContext* c, QueueState& q, const LocalRef& t, const char* api) {
  BufferRecord* r = t.buf;
  if (__builtin_expect(queue_holds(c, q, r) && q.count < q.depth && q.count < q.num, 1)) {
    r->state = BufState::kEnque;
    q.fifo[(q.head + q.count) % kMaxQueueBuffers] = r->index;
    ++q.count;
    return true;
  }
  return queue_enque(c, q, t, api);
}

NPURT_SIM_HOT_INLINE BufferRecord* queue_deque_inline(CoreContext* c, QueueState& q, const char* api) {
  if (__builtin_expect(queue_fast(c, q) && q.count != 0, 1)) {
    BufferRecord& r = q.bufs[q.fifo[q.head]];
    q.head = static_cast<uint8_t>((q.head + 1) % kMaxQueueBuffers);
    --q.count;
    r.state = BufState::kDeque;
    return &r;
  }
  return queue_deque(c, q, api);
}

NPURT_SIM_HOT_INLINE void queue_free_inline(CoreContext* c, QueueState& q, const LocalRef& t, const char* api) {
  BufferRecord* r = t.buf;
  if (__builtin_expect(queue_holds(c, q, r), 1)) {
    r->state = BufState::kFree;
    return;
  }
  queue_free(c, q, t, api);
}

// The position a queue's buffers have: the local end of the binding.
constexpr AscendC::TPosition queue_buffer_position(AscendC::TPosition src, AscendC::TPosition dst) {
  return src == AscendC::TPosition::GM ? dst : src;
}

}  // namespace npurt::sim

namespace AscendC {

class TPipe;

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
 public:
  TQueBind() {
    q_.depth = depth;
    q_.pos = npurt::sim::queue_buffer_position(src, dst);
    q_.pipes = npurt::sim::queue_pipes(src, dst);
  }
  TQueBind(const TQueBind&) = delete;
  TQueBind& operator=(const TQueBind&) = delete;

  template <class T>
  LocalTensor<T> AllocTensor() {
    auto* r = npurt::sim::queue_alloc_inline(npurt::sim::core(), q_, "TQue::AllocTensor");
    return LocalTensor<T>(npurt::sim::whole_buffer(r));
  }
  template <class T>
  void AllocTensor(LocalTensor<T>& t) {
    t = AllocTensor<T>();
  }
  template <class T>
  bool EnQue(const LocalTensor<T>& t) {
    return npurt::sim::queue_enque_inline(npurt::sim::core(), q_, t.npurt_ref_lazy(), "TQue::EnQue");
  }
  template <class T>
  LocalTensor<T> DeQue() {
    auto* r = npurt::sim::queue_deque_inline(npurt::sim::core(), q_, "TQue::DeQue");
    return LocalTensor<T>(npurt::sim::whole_buffer(r));
  }
  template <class T>
  void FreeTensor(LocalTensor<T>& t) {
    npurt::sim::queue_free_inline(npurt::sim::core(), q_, t.npurt_ref_lazy(), "TQue::FreeTensor");
  }

  bool VacantInQue() const { return q_.count < q_.depth; }
  bool HasTensorInQue() const { return q_.count > 0; }
  int32_t GetTensorCountInQue() const { return q_.count; }
  bool HasIdleBuffer() const {
    for (int i = 0; i < q_.num; ++i)
      if (q_.bufs[i].state == npurt::sim::BufState::kFree) return true;
    return false;
  }
  void FreeAllEvent() {}  // the simulated core has no hardware events to release

  // npurt extension: the queue's state, for TPipe::InitBuffer and tests.
  npurt::sim::QueueState& npurt_state() { return q_; }

 private:
  npurt::sim::QueueState q_;
};

namespace detail {
constexpr TPosition que_src(TPosition p) {
  return p == TPosition::VECIN || p == TPosition::A1 || p == TPosition::B1 || p == TPosition::C1
             ? TPosition::GM
             : p;
}
constexpr TPosition que_dst(TPosition p) {
  return p == TPosition::VECOUT ? TPosition::GM : p == TPosition::CO1 ? TPosition::CO2 : p;
}
}  // namespace detail

// TQue<VECIN> is TQueBind<GM, VECIN>; TQue<VECOUT> is TQueBind<VECOUT, GM>.
template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<detail::que_src(pos), detail::que_dst(pos), depth, mask> {};

}  // namespace AscendC
