// aicore/tpipe.h: AscendC::TPipe, the owner of a core's local memory layout.
//
// Exactly one TPipe may exist per kernel (a second is ErrorBuffer4). InitBuffer
// carves `num` buffers of `len` bytes (len rounded up to 32 B, then to the
// pool's alignment) from the pool behind the queue's position with a bump
// pointer per pool, in call order. Errors (ErrorInitBuffer): len == 0, num not
// in [1, 64], position GM, pool end past the pool's capacity (UB: the profile's
// usable UB, i.e. GetUBSizeInBytes()); more than 64 buffers in total is
// ErrorBufferCount. These are checked at every level: a layout that does not
// fit cannot be simulated. Reset() forgets the layout so InitBuffer can start
// again (ErrorBuffer4 while a queue tensor is still allocated). Event IDs for SetFlag/WaitFlag: AllocEventID/ReleaseEventID/FetchEventID
// hand out IDs 0..5 per HardEvent (6 and 7 are reserved, as on hardware).
#pragma once

#include <cstdint>

#include "aicore/buffer_record.h"
#include "aicore/core_context.h"
#include "aicore/position.h"
#include "aicore/sync.h"
#include "aicore/tbuf.h"
#include "aicore/tque.h"
#include "npurt/export.h"

namespace npurt::sim {

constexpr uint32_t kMaxPipeBuffers = 64;

struct PipeLayout {
  uint64_t cursor[kNumPools] = {};
  uint32_t num_buffers = 0;
  uint8_t event_ids[kNumHardEvents] = {};  // bit i: event ID i allocated
};

NPURT_PUBLIC_BEGIN
// Allocates num buffers of len bytes at `pos`; returns the first of num
// consecutive records, each in state `initial`.
BufferRecord* pipe_init_buffer(CoreContext* c, PipeLayout& layout, AscendC::TPosition pos,
                               uint32_t num, uint32_t len, const void* owner, BufState initial,
                               const char* api);
void pipe_construct(CoreContext* c, void* pipe);
// Forgets the layout; raises ErrorBuffer4 if a queue buffer is still in use.
void pipe_reset(CoreContext* c, PipeLayout& layout);
void pipe_destruct(CoreContext* c, void* pipe);
// reserve=false peeks (FetchEventID) without taking the ID.
int32_t pipe_alloc_event_id(CoreContext* c, PipeLayout& layout, AscendC::HardEvent e, bool reserve);
void pipe_release_event_id(CoreContext* c, PipeLayout& layout, AscendC::HardEvent e, int32_t id);
NPURT_PUBLIC_END

}  // namespace npurt::sim

namespace AscendC {

class TPipe {
 public:
  TPipe() { npurt::sim::pipe_construct(npurt::sim::core(), this); }
  ~TPipe() {
    if (npurt::sim::CoreContext* c = npurt::sim::tls_core) npurt::sim::pipe_destruct(c, this);
  }
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;

  template <TPosition src, TPosition dst, int32_t depth, auto mask>
  bool InitBuffer(TQueBind<src, dst, depth, mask>& que, uint8_t num, uint32_t len) {
    npurt::sim::QueueState& q = que.npurt_state();
    q.bufs = npurt::sim::pipe_init_buffer(npurt::sim::core(), layout_, q.pos, num, len, &q,
                                          npurt::sim::BufState::kFree, "TPipe::InitBuffer");
    q.num = num;
    q.cursor = q.head = q.count = 0;
    return true;
  }

  template <TPosition pos>
  bool InitBuffer(TBuf<pos>& buf, uint32_t len) {
    buf.npurt_bind(npurt::sim::pipe_init_buffer(npurt::sim::core(), layout_, pos, 1, len, &buf,
                                                npurt::sim::BufState::kTBuf, "TPipe::InitBuffer"));
    return true;
  }

  void Reset() { npurt::sim::pipe_reset(npurt::sim::core(), layout_); }
  void Destroy() { Reset(); }

  template <HardEvent e>
  TEventID AllocEventID() {
    return static_cast<TEventID>(npurt::sim::pipe_alloc_event_id(npurt::sim::core(), layout_, e, true));
  }
  template <HardEvent e>
  TEventID FetchEventID() {
    return static_cast<TEventID>(npurt::sim::pipe_alloc_event_id(npurt::sim::core(), layout_, e, false));
  }
  template <HardEvent e>
  void ReleaseEventID(TEventID id) {
    npurt::sim::pipe_release_event_id(npurt::sim::core(), layout_, e, id);
  }

 private:
  npurt::sim::PipeLayout layout_;
};

inline TPipe* GetTPipePtr() { return static_cast<TPipe*>(npurt::sim::core()->tpipe); }

}  // namespace AscendC
