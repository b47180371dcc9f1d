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
    auto* r = npurt::sim::queue_alloc(npurt::sim::core(), q_, "TQue::AllocTensor");
    return LocalTensor<T>(npurt::sim::whole_buffer(r));
  }
  template <class T>
  void AllocTensor(LocalTensor<T>& t) {
    t = AllocTensor<T>();
  }
  template <class T>
  bool EnQue(const LocalTensor<T>& t) {
    return npurt::sim::queue_enque(npurt::sim::core(), q_, t.npurt_ref_lazy(), "TQue::EnQue");
  }
  template <class T>
  LocalTensor<T> DeQue() {
    auto* r = npurt::sim::queue_deque(npurt::sim::core(), q_, "TQue::DeQue");
    return LocalTensor<T>(npurt::sim::whole_buffer(r));
  }
  template <class T>
  void FreeTensor(LocalTensor<T>& t) {
    npurt::sim::queue_free(npurt::sim::core(), q_, t.npurt_ref_lazy(), "TQue::FreeTensor");
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
