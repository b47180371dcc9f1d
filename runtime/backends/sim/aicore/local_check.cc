// runtime/backends/sim/aicore/local_check.cc: the slow path of every local
// memory access check: precise diagnostics for basic-level failures, and the
// full-level shadow state (written bytes, unconsumed queue data) and pipe model.
#include <cstring>
#include <string>

#include "aicore/local_access.h"
#include "backends/sim/aicore/core_state.h"

namespace npurt::sim {

namespace {

bool is_read(const AccessSpec& s) { return s.access == Access::kRead; }

std::string allowed_pools(uint8_t mask) {
  std::string s;
  for (int i = 0; i < kNumPools; ++i)
    if (mask & (1u << i)) s += (s.empty() ? "" : "/") + std::string(pool_name(Pool(i)));
  return s;
}

void check_basic(CoreContext* c, const LocalRef& r, uint64_t off, uint64_t bytes,
                 const AccessSpec& s) {
  if (r.buf == nullptr)
    raise_fault(Diag::kBuffer0, s.api,
                "tensor was not obtained from AllocTensor/DeQue/TBuf::Get (a default-"
                "constructed LocalTensor has no buffer)");
  if (r.buf->state == BufState::kFree)
    raise_fault(is_read(s) ? Diag::kRead1 : Diag::kWrite1, s.api,
                std::string(is_read(s) ? "reads" : "writes") + " buffer #" +
                    std::to_string(r.buf->index) + " of a " + position_name(r.buf->pos) +
                    " queue at " + local_addr(c, r.buf->addr) +
                    " that is FREE (used after FreeTensor or before AllocTensor)");
  Pool pool = pool_of(r.pos);
  if (((s.pools >> static_cast<unsigned>(pool)) & 1u) == 0)
    raise_fault(Diag::kBuffer2, s.api,
                std::string("tensor is at position ") + position_name(r.pos) + " (" +
                    pool_name(pool) + ") but this API needs " + allowed_pools(s.pools));
  if (bytes > r.bytes || off > r.bytes - bytes)
    raise_fault(is_read(s) ? Diag::kRead3 : Diag::kWrite2, s.api,
                std::string(is_read(s) ? "reads" : "writes") + " bytes [" + std::to_string(off) +
                    ", " + (bytes == UINT64_MAX ? std::string("overflow") : std::to_string(off + bytes)) +
                    ") of a tensor at " + local_addr(c, r.ptr) + " that has only " +
                    std::to_string(r.bytes) + " bytes");
  const uint8_t* p = r.ptr + off;
  if ((reinterpret_cast<uintptr_t>(p) & (s.align - 1)) != 0)
    raise_fault(is_read(s) ? Diag::kRead4 : Diag::kWrite4, s.api,
                std::string("local address ") + local_addr(c, p) + " is not " +
                    std::to_string(s.align) + "-byte aligned");
}

void check_full(CoreContext* c, const LocalRef& r, uint64_t off, uint64_t bytes,
                const AccessSpec& s) {
  CoreState& st = state_of(c);
  uint8_t* p = r.ptr + off;
  if (!st.in_ub(p) || bytes == 0) return;  // the shadow and pipe models cover UB
  uint64_t ub_off = st.ub_offset(p);
  if (s.access == Access::kWrite && r.buf->state == BufState::kEnque)
    raise_fault(Diag::kWrite3, s.api,
                "writes " + local_addr(c, p) + " (" + std::to_string(bytes) +
                    " B) inside a buffer that is enqueued and not yet dequeued: its data has "
                    "not been consumed");
  if (s.access == Access::kRead) {
    const void* hole = std::memchr(st.ub_written.data() + ub_off, 0, bytes);
    if (hole != nullptr) {
      uint64_t at = uint64_t(static_cast<const uint8_t*>(hole) - st.ub_written.data());
      raise_fault(Diag::kRead2, s.api,
                  "reads " + std::to_string(bytes) + " B at " + local_addr(c, p) + ", but UB+" +
                      hex(at) + " was never written since the buffer was allocated");
    }
  }
  PipeModel::Hazard hazard = st.pipes.access(s.pipe, s.access, ub_off, bytes, s.api);
  if (!hazard.detail.empty()) raise_fault(hazard.code, s.api, hazard.detail);
  if (s.access == Access::kWrite) std::memset(st.ub_written.data() + ub_off, 1, bytes);
}

}  // namespace

void check_local_bounds(CoreContext* c, const LocalRef& r, uint64_t off, uint64_t bytes,
                        const AccessSpec& s) {
  if (c->level != SimCheckLevel::kOff && !local_access_ok(r, off, bytes, s)) check_basic(c, r, off, bytes, s);
}

void check_local_slow(CoreContext* c, const LocalRef& r, uint64_t off, uint64_t bytes,
                      const AccessSpec& s) {
  if (c->level == SimCheckLevel::kOff) return;
  check_basic(c, r, off, bytes, s);
  if (c->level == SimCheckLevel::kFull) check_full(c, r, off, bytes, s);
}

}  // namespace npurt::sim
