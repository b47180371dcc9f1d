// runtime/backends/sim/aicore/tque.cc: the TQue/TQueBind buffer state machine
// FREE -> OCCUPIED -> ENQUE -> DEQUE -> FREE, and the hardware syncs the queue
// operations imply (full-level pipe model).
#include <cstring>
#include <string>

#include "aicore/tque.h"
#include "backends/sim/aicore/core_state.h"

namespace npurt::sim {

namespace {

const char* state_name(BufState s) {
  static const char* const names[] = {"FREE", "OCCUPIED", "ENQUE", "DEQUE", "TBUF"};
  return names[static_cast<int>(s)];
}

std::string queue_desc(const QueueState& q) {
  return std::string("queue at ") + position_name(q.pos) + " (" + std::to_string(q.num) +
         " buffers, depth " + std::to_string(q.depth) + ")";
}

void require_initialised(const QueueState& q, const char* api) {
  if (q.bufs == nullptr || q.num == 0)
    raise_fault(Diag::kBuffer0, api, "the queue was not initialised with TPipe::InitBuffer");
}

// The buffer of `t` if it belongs to q; raises ErrorBuffer1/ErrorBuffer0 otherwise.
BufferRecord* own_buffer(CoreContext* c, QueueState& q, const LocalRef& t, const char* api) {
  if (t.buf == nullptr)
    raise_fault(Diag::kBuffer0, api, "tensor was not obtained from AllocTensor/DeQue");
  if (t.buf->owner != &q)
    raise_fault(Diag::kBuffer1, api,
                "tensor at " + local_addr(c, t.ptr) + " belongs to another " +
                    (t.buf->state == BufState::kTBuf ? std::string("TBuf") : std::string("queue")) +
                    ", not to this " + queue_desc(q));
  return t.buf;
}

// Joins the scalar pipe into a queue sync: S reads/writes (GetValue/SetValue)
// around EnQue/DeQue are ordered on hardware by the same flags.
void hand_off(CoreState& st, Pipe from, const uint32_t* clock_in, uint32_t* clock_out, Pipe to) {
  if (clock_out) {
    std::memset(clock_out, 0, sizeof(uint32_t) * kNumPipes);
    st.pipes.snapshot(from, clock_out);
    st.pipes.snapshot(Pipe::S, clock_out);
  }
  if (clock_in) {
    st.pipes.merge(to, clock_in);
    st.pipes.merge(Pipe::S, clock_in);
  }
}

}  // namespace

BufferRecord* queue_alloc(CoreContext* c, QueueState& q, const char* api) {
  require_initialised(q, api);
  for (int k = 0; k < q.num; ++k) {
    int i = (q.cursor + k) % q.num;
    BufferRecord& r = q.bufs[i];
    if (r.state != BufState::kFree) continue;
    q.cursor = static_cast<uint8_t>((i + 1) % q.num);
    r.state = BufState::kOccupied;
    if (c->level == SimCheckLevel::kFull) {
      CoreState& st = state_of(c);
      hand_off(st, q.pipes.consumer, r.free_clock, nullptr, q.pipes.producer);
      if (st.in_ub(r.addr)) std::memset(st.ub_written.data() + st.ub_offset(r.addr), 0, r.bytes);
    }
    return &r;
  }
  raise_fault(Diag::kQueue, api,
              "no FREE buffer in the " + queue_desc(q) + ": all " + std::to_string(q.num) +
                  " are allocated (missing FreeTensor, or more AllocTensor than buffers)");
}

bool queue_enque(CoreContext* c, QueueState& q, const LocalRef& t, const char* api) {
  require_initialised(q, api);
  BufferRecord* r = own_buffer(c, q, t, api);
  if (checks_on(c) && r->state != BufState::kOccupied && r->state != BufState::kDeque)
    raise_fault(Diag::kQueue, api,
                "buffer #" + std::to_string(r->index) + " is " + state_name(r->state) +
                    "; EnQue needs a tensor from AllocTensor (OCCUPIED) or DeQue (DEQUE)");
  if (q.count >= q.depth || q.count >= q.num) {
    if (checks_on(c))
      raise_fault(Diag::kQueue, api,
                  "the " + queue_desc(q) + " already holds " + std::to_string(q.count) +
                      " enqueued tensors; DeQue before enqueuing more");
    return false;
  }
  r->state = BufState::kEnque;
  q.fifo[(q.head + q.count) % kMaxQueueBuffers] = r->index;
  ++q.count;
  if (c->level == SimCheckLevel::kFull)
    hand_off(state_of(c), q.pipes.producer, nullptr, r->enque_clock, q.pipes.consumer);
  return true;
}

BufferRecord* queue_deque(CoreContext* c, QueueState& q, const char* api) {
  require_initialised(q, api);
  if (q.count == 0)
    raise_fault(Diag::kQueue, api,
                "DeQue on an empty " + queue_desc(q) + ": nothing was enqueued (on the NPU this "
                "waits forever)");
  BufferRecord& r = q.bufs[q.fifo[q.head]];
  q.head = static_cast<uint8_t>((q.head + 1) % kMaxQueueBuffers);
  --q.count;
  r.state = BufState::kDeque;
  if (c->level == SimCheckLevel::kFull)
    hand_off(state_of(c), q.pipes.producer, r.enque_clock, nullptr, q.pipes.consumer);
  return &r;
}

void queue_free(CoreContext* c, QueueState& q, const LocalRef& t, const char* api) {
  require_initialised(q, api);
  BufferRecord* r = own_buffer(c, q, t, api);
  if (r->state == BufState::kFree) {
    if (checks_on(c))
      raise_fault(Diag::kFree, api,
                  "buffer #" + std::to_string(r->index) + " at " + local_addr(c, r->addr) +
                      " of the " + queue_desc(q) + " is already FREE (double FreeTensor)");
    return;
  }
  if (r->state == BufState::kEnque) {  // freeing data nobody dequeued also corrupts the FIFO
    if (checks_on(c))
      raise_fault(Diag::kQueue, api,
                  "buffer #" + std::to_string(r->index) +
                      " is ENQUE (enqueued, not dequeued); DeQue it before FreeTensor");
    return;
  }
  r->state = BufState::kFree;
  if (c->level == SimCheckLevel::kFull)
    hand_off(state_of(c), q.pipes.consumer, nullptr, r->free_clock, q.pipes.producer);
}

}  // namespace npurt::sim
