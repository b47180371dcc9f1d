// aicore/local_access.h: the check every access to local memory (UB, L1, L0)
// goes through.
//
// check_local() is inline and does the whole basic-level check in a few
// compares; anything that fails, and every full-level access (shadow state,
// pipe model), goes to check_local_slow(), which raises the precise diagnostic
// or updates the full-level models. At level off nothing is checked.
#pragma once

#include <cstdint>

#include "aicore/buffer_record.h"
#include "aicore/core_context.h"
#include "npurt/export.h"

namespace npurt::sim {

// The fast path of every operand check is forced inline: a vector API checks
// 2-4 operands per call, and as out-of-line calls (GCC declined to inline them
// at -O2) they cost about as many instructions as a 256-lane loop
// (callgrind, layer_norm float16 [64,1024], 2026-11-30). Failures still go to
// the out-of-line check_local_slow, which raises exactly the same diagnostics.
#define NPURT_SIM_HOT_INLINE inline __attribute__((always_inline))

constexpr uint8_t pool_bit(Pool p) { return static_cast<uint8_t>(1u << static_cast<unsigned>(p)); }
constexpr uint8_t kUbOnly = pool_bit(Pool::kUB);
constexpr uint8_t kAnyLocal = 0x3f;

// What an API does to a local tensor.
struct AccessSpec {
  const char* api;
  Access access;
  Pipe pipe;
  uint32_t align;      // required alignment of the first byte (power of two)
  uint8_t pools;       // pools the API accepts (pool_bit mask)
};

NPURT_PUBLIC_BEGIN
void check_local_slow(CoreContext* c, const LocalRef& r, uint64_t offset, uint64_t bytes,
                      const AccessSpec& spec);
NPURT_PUBLIC_END

// Whether a tensor at `pos` lies in one of `pools`. The vector APIs' UB-only
// mask (a constant at every call) is a range test on the three consecutive UB
// positions instead of pool_of's table lookup.
static_assert(static_cast<int>(AscendC::TPosition::VECOUT) == static_cast<int>(AscendC::TPosition::VECIN) + 1 &&
                  static_cast<int>(AscendC::TPosition::VECCALC) == static_cast<int>(AscendC::TPosition::VECIN) + 2,
              "pool_allowed's UB range test needs VECIN, VECOUT, VECCALC consecutive");
NPURT_SIM_HOT_INLINE bool pool_allowed(AscendC::TPosition pos, uint8_t pools) {
  if (pools == pool_bit(Pool::kUB))
    return static_cast<unsigned>(pos) - static_cast<unsigned>(AscendC::TPosition::VECIN) < 3u;
  return ((pools >> static_cast<unsigned>(pool_of(pos))) & 1u) != 0;
}

NPURT_SIM_HOT_INLINE bool local_access_ok(const LocalRef& r, uint64_t offset, uint64_t bytes, const AccessSpec& s) {
  return r.buf != nullptr && r.buf->state != BufState::kFree && bytes <= r.bytes &&
         offset <= r.bytes - bytes &&
         ((reinterpret_cast<uintptr_t>(r.ptr) + offset) & (s.align - 1)) == 0 && pool_allowed(r.pos, s.pools);
}

// The out-of-line half of check_local, taking the spec's fields as values: a
// spec passed by reference must sit in memory, and GCC stored its fields on
// the fast path of every check (5 instructions per operand) to have it there.
[[gnu::cold, gnu::noinline]] inline void check_local_miss(CoreContext* c, const LocalRef& r, uint64_t offset,
                                                          uint64_t bytes, const char* api, Access access, Pipe pipe,
                                                          uint32_t align, uint8_t pools) {
  check_local_slow(c, r, offset, bytes, AccessSpec{api, access, pipe, align, pools});
}

NPURT_SIM_HOT_INLINE void check_local(CoreContext* c, const LocalRef& r, uint64_t offset, uint64_t bytes,
                        const AccessSpec& s) {
  if (c->level == SimCheckLevel::kOff) return;
  if (__builtin_expect(c->level == SimCheckLevel::kBasic && local_access_ok(r, offset, bytes, s), 1)) return;
  check_local_miss(c, r, offset, bytes, s.api, s.access, s.pipe, s.align, s.pools);
}

// Saturating element count -> byte count (negative int32 counts cast to
// uint64 must not wrap around to a small size).
template <class T>
NPURT_SIM_HOT_INLINE uint64_t bytes_of(uint64_t count) {
  return count > UINT64_MAX / sizeof(T) ? UINT64_MAX : count * sizeof(T);
}

}  // namespace npurt::sim
