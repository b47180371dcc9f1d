// aicore/buffer_record.h: the bookkeeping behind every local buffer and the
// plain view (LocalRef) every LocalTensor<T> carries.
//
// A BufferRecord describes one buffer handed out by TPipe::InitBuffer (one of
// a queue's `num` buffers, or a TBuf). Records live in the running core's
// state, not in the queue object, so they outlive queues and the TPipe in any
// destruction order; the launch runner scans them for leaks at kernel end.
// A LocalRef is a window [ptr, ptr + bytes) inside one record's buffer;
// buf == nullptr means "not from InitBuffer" (a default-constructed tensor).
//
// Copy elision (aicore/mirror.h): a record may hold one pending "mirror": the
// UB bytes [addr + mirror_off, + mirror_bytes) are defined to equal the GM
// bytes at mirror_src, which the launch never writes (a read-only argument),
// but the memcpy has not been done. Invariant: every access to the buffer's
// bytes that is not mirror-aware goes through LocalTensor::npurt_ref() /
// npurt_host() / GetPhyAddr() / the scalar accessors, which call
// materialize_mirror() first, so no code ever sees the UB bytes stale.
#pragma once

#include <cstdint>

#include "aicore/core_context.h"
#include "aicore/position.h"
#include "npurt/export.h"

namespace npurt::sim {

// FREE -> OCCUPIED (AllocTensor) -> ENQUE (EnQue) -> DEQUE (DeQue) -> FREE (FreeTensor).
// TBuf buffers are permanently kTBuf.
enum class BufState : uint8_t { kFree, kOccupied, kEnque, kDeque, kTBuf };

struct BufferRecord {
  uint8_t* addr = nullptr;  // host address inside the pool arena
  uint32_t bytes = 0;       // InitBuffer len rounded up to 32 B
  AscendC::TPosition pos = AscendC::TPosition::VECCALC;
  BufState state = BufState::kFree;
  uint8_t index = 0;         // index within its queue
  const void* owner = nullptr;  // the QueueState or TBuf that owns it
  // full: pipe clock snapshot taken at EnQue (producer side) and FreeTensor
  // (consumer side); DeQue/AllocTensor merge it, modelling the hardware flags
  // the queue sets and waits.
  uint32_t enque_clock[kNumPipes] = {};
  uint32_t free_clock[kNumPipes] = {};
  // Pending mirror (mirror_bytes == 0: none); see the file comment.
  const uint8_t* mirror_src = nullptr;
  uint32_t mirror_off = 0;
  uint32_t mirror_bytes = 0;
};

NPURT_PUBLIC_BEGIN
// Performs r's pending copy (GM -> UB) and clears the mirror.
void materialize_mirror(BufferRecord* r);
// Performs every pending copy of the core: for APIs that take raw UB
// addresses (TransDataTo5HD address lists), which bypass the records.
void materialize_all_mirrors(CoreContext* c);
NPURT_PUBLIC_END

inline void settle(BufferRecord* r) {
  if (r != nullptr && r->mirror_bytes != 0) materialize_mirror(r);
}

struct LocalRef {
  uint8_t* ptr = nullptr;
  uint32_t bytes = 0;
  AscendC::TPosition pos = AscendC::TPosition::VECCALC;
  BufferRecord* buf = nullptr;
};

inline LocalRef whole_buffer(BufferRecord* r) { return LocalRef{r->addr, r->bytes, r->pos, r}; }

}  // namespace npurt::sim
