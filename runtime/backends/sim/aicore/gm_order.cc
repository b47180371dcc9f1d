// runtime/backends/sim/aicore/gm_order.cc: the full-level GM ordering check
// inside one core (MTE3 write -> MTE2 read, MTE3 write -> MTE3 write; see
// gm_order.h).
#include "backends/sim/aicore/gm_order.h"

#include <algorithm>
#include <string>

#include "backends/sim/aicore/core_state.h"

namespace npurt::sim {

namespace {

constexpr int kMte2 = static_cast<int>(Pipe::MTE2);
constexpr int kMte3 = static_cast<int>(Pipe::MTE3);

// The first GM byte of [x, x + n) that write w covers, or 0 when none.
uintptr_t first_hit(const GmOrderLog::Write& w, uintptr_t x, uint64_t n) {
  if (x + n <= w.begin || x >= w.end) return 0;
  if (w.stride == w.block) return std::max(x, w.begin);  // contiguous span
  // Block k starts at or before x; block k + 1 is the first starting after it.
  const uint64_t k = x > w.begin ? (x - w.begin) / w.stride : 0;
  const uintptr_t s = w.begin + k * w.stride;
  if (s < x + n && s + w.block > x) return std::max(x, s);
  const uintptr_t next = s + w.stride;
  return next < w.end && next < x + n ? next : 0;
}

// The first GM byte of span s that write w covers, or 0.
uintptr_t first_hit(const GmOrderLog::Write& w, const GmSpan& s) {
  const uintptr_t end = s.begin + (uint64_t{s.count} - 1) * s.stride + s.block;
  if (end <= w.begin || s.begin >= w.end) return 0;  // disjoint spans: the common case
  for (uint32_t i = 0; i < s.count; ++i)
    if (uintptr_t at = first_hit(w, s.begin + i * s.stride, s.block)) return at;
  return 0;
}

// Drops the writes both MTE2 and MTE3 know complete (gm_order.h invariant).
void prune(CoreState& st) {
  const uint32_t seen = st.pipes.vc[kMte2][kMte3], done = st.pipes.done[kMte3];
  auto& w = st.gm_order.pending;
  w.erase(std::remove_if(w.begin(), w.end(),
                         [&](const GmOrderLog::Write& e) {
                           return e.op <= seen && (e.atomic || e.op <= done);
                         }),
          w.end());
}

[[noreturn]] void hazard(CoreState& st, Diag code, const char* api, uintptr_t at,
                         const GmOrderLog::Write& w, const char* what, const char* fix) {
  raise_fault(code, api,
              std::string(what) + " hazard on GM " + gm_where(*st.view, at) + ": " + api +
                  (code == Diag::kSync2 ? " on PIPE_MTE2 reads" : " on PIPE_MTE3 writes") +
                  " GM bytes an earlier PIPE_MTE3 " + (w.api ? w.api : "?") +
                  " may still be writing (the NPU's DMA does not order them) with no " + fix +
                  " in between");
}

}  // namespace

void gm_order_read(CoreState& st, const GmSpan& s, const char* api) {
  if (st.gm_order.pending.empty() || s.count == 0) return;
  prune(st);
  const uint32_t seen = st.pipes.vc[kMte2][kMte3];
  for (const GmOrderLog::Write& w : st.gm_order.pending)
    if (w.op > seen)
      if (uintptr_t at = first_hit(w, s))
        hazard(st, Diag::kSync2, api, at, w, "read-after-write",
               "SetFlag/WaitFlag<MTE3_MTE2>, PipeBarrier<PIPE_ALL> or flag / queue chain "
               "from MTE3 to MTE2");
}

void gm_order_write(CoreState& st, const GmSpan& s, bool atomic, const char* api) {
  if (s.count == 0 || s.block == 0) return;
  const uint32_t op = st.pipes.vc[kMte3][kMte3];
  if (!st.gm_order.pending.empty()) {
    prune(st);
    const uint32_t done = st.pipes.done[kMte3];
    for (const GmOrderLog::Write& w : st.gm_order.pending)
      if (w.op > done && !(atomic && w.atomic))
        if (uintptr_t at = first_hit(w, s))
          hazard(st, Diag::kSync1, api, at, w, "write-after-write",
                 "PipeBarrier<PIPE_MTE3>, PipeBarrier<PIPE_ALL> or flag / queue round trip");
  }
  const uint64_t stride = s.count > 1 ? s.stride : s.block;
  st.gm_order.pending.push_back(
      {s.begin, s.begin + (uint64_t{s.count} - 1) * stride + s.block, s.block, stride, op, atomic, api});
}

}  // namespace npurt::sim
