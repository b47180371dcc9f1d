// runtime/backends/sim/aicore/tpipe.cc: TPipe's buffer layout (bump allocation
// per pool), the one-TPipe-per-kernel rule and event ID allocation.
#include <cstring>
#include <string>

#include "aicore/tpipe.h"
#include "backends/sim/aicore/copy_elision.h"
#include "backends/sim/aicore/core_state.h"

namespace npurt::sim {

namespace {

void check_layout_request(CoreContext* c, AscendC::TPosition pos, uint32_t num, uint32_t len,
                          const char* api) {
  if (pool_of(pos) == Pool::kNone)
    raise_fault(Diag::kInitBuffer, api,
                std::string("position ") + position_name(pos) +
                    " is not local memory: InitBuffer needs VECIN/VECOUT/VECCALC, A1/B1/C1, "
                    "A2, B2, CO1 or C2");
  if (num < 1 || num > kMaxQueueBuffers)
    raise_fault(Diag::kInitBuffer, api, "num = " + std::to_string(num) + " is not in [1, 64]");
  if (len == 0) raise_fault(Diag::kInitBuffer, api, "len = 0: a buffer needs at least one byte");
  (void)c;
}

}  // namespace

BufferRecord* pipe_init_buffer(CoreContext* c, PipeLayout& layout, AscendC::TPosition pos,
                               uint32_t num, uint32_t len, const void* owner, BufState initial,
                               const char* api) {
  check_layout_request(c, pos, num, len, api);
  CoreState& st = state_of(c);
  const Pool pool = pool_of(pos);
  const int pi = static_cast<int>(pool);
  const uint32_t align = pool_alignment(pool);
  const uint64_t rounded = (uint64_t{len} + 31) / 32 * 32;
  const uint64_t stride = (rounded + align - 1) / align * align;
  const uint64_t start = (layout.cursor[pi] + align - 1) / align * align;
  const uint64_t end = start + stride * num;
  if (end > c->pool_capacity[pi])
    raise_fault(Diag::kInitBuffer, api,
                std::to_string(num) + " x " + std::to_string(rounded) + " B at " +
                    position_name(pos) + " would end at " + pool_name(pool) + "+" +
                    std::to_string(end) + ", past the " + pool_name(pool) + " capacity of " +
                    std::to_string(c->pool_capacity[pi]) + " B (" + std::to_string(start) +
                    " B already used by earlier InitBuffer calls)");
  if (layout.num_buffers + num > kMaxPipeBuffers)
    raise_fault(Diag::kBufferCount, api,
                "this InitBuffer would bring the TPipe to " +
                    std::to_string(layout.num_buffers + num) + " buffers; at most 64 are allowed");
  uint8_t* base = st.ensure_pool(pool);
  // Records are indexed by the TPipe's buffer count, so Reset() reuses them.
  BufferRecord* first = &st.records[layout.num_buffers];
  for (uint32_t i = 0; i < num; ++i) {
    BufferRecord& r = first[i];
    settle(&r);  // its pending bytes belong to the UB, which the new layout may reach
    r = BufferRecord{};
    r.addr = base + start + i * stride;
    r.bytes = static_cast<uint32_t>(rounded);
    r.pos = pos;
    r.state = initial;
    r.index = static_cast<uint8_t>(i);
    r.owner = owner;
  }
  layout.cursor[pi] = end;
  layout.num_buffers += num;
  st.records_used = std::max(st.records_used, layout.num_buffers);
  if (c->level == SimCheckLevel::kFull && pool == Pool::kUB)  // fresh buffers hold garbage
    std::memset(st.ub_written.data() + (start), 0, end - start);
  return first;
}

void pipe_construct(CoreContext* c, void* pipe) {
  if (c->pipe_alive)
    raise_fault(Diag::kBuffer4, "TPipe::TPipe",
                "a TPipe already exists in this kernel; exactly one TPipe per kernel is allowed");
  c->pipe_alive = true;
  c->tpipe = pipe;
  // A TPipe of this block destroyed earlier may have left pending copies: its
  // UB bytes keep their data, and this TPipe's buffers may reach them.
  // (Not done at destruction: that is the end of nearly every kernel.)
  settle_mirrors(state_of(c));
}

void pipe_reset(CoreContext* c, PipeLayout& layout) {
  CoreState& st = state_of(c);
  for (uint32_t i = 0; i < layout.num_buffers && checks_on(c); ++i) {
    BufState s = st.records[i].state;
    if (s == BufState::kOccupied || s == BufState::kEnque || s == BufState::kDeque)
      raise_fault(Diag::kBuffer4, "TPipe::Reset",
                  "buffer #" + std::to_string(st.records[i].index) + " of a " +
                      position_name(st.records[i].pos) + " queue at " +
                      local_addr(c, st.records[i].addr) +
                      " is still in use; FreeTensor every tensor before Reset");
  }
  settle_mirrors(st);  // the next layout may place other records over these bytes
  // Records past the new layout are free again, so they cannot count as leaks.
  for (uint32_t i = 0; i < st.records_used; ++i) st.records[i].state = BufState::kFree;
  st.records_used = 0;
  layout = PipeLayout{};
}

void pipe_destruct(CoreContext* c, void* pipe) {
  if (c->tpipe == pipe) {
    c->pipe_alive = false;
    c->tpipe = nullptr;
  }
}

int32_t pipe_alloc_event_id(CoreContext* c, PipeLayout& layout, AscendC::HardEvent e, bool reserve) {
  (void)c;
  uint8_t& used = layout.event_ids[static_cast<int>(e)];
  for (int id = 0; id < 6; ++id)  // IDs 6 and 7 are reserved for the framework
    if (!(used & (1u << id))) {
      if (reserve) used = static_cast<uint8_t>(used | (1u << id));
      return id;
    }
  raise_fault(Diag::kSync4, "TPipe::AllocEventID",
              std::string("all event IDs 0..5 of HardEvent::") + hard_event_name(e) +
                  " are allocated; release one with ReleaseEventID");
}

void pipe_release_event_id(CoreContext* c, PipeLayout& layout, AscendC::HardEvent e, int32_t id) {
  uint8_t& used = layout.event_ids[static_cast<int>(e)];
  if (checks_on(c) && (id < 0 || id > 5 || !(used & (1u << id))))
    raise_fault(Diag::kSync3, "TPipe::ReleaseEventID",
                "event ID " + std::to_string(id) + " of HardEvent::" + hard_event_name(e) +
                    " was not allocated");
  if (id >= 0 && id < 8) used = static_cast<uint8_t>(used & ~(1u << id));
}

}  // namespace npurt::sim
