// aicore/vec_common.h: shared plumbing of the AscendC vector APIs (vec_*.h):
// operand checking through aicore/check.h, count validation, the
// overlap rule, and compile-time dtype checks.
//
// Invariants every vector API keeps (ascend-facts.md 2.7):
//   - count == 0 is a NOP: no check, no access (A2/A3 behaviour).
//   - Sources are checked (vec_operand, Access::kRead) before the destination
//     (kWrite), so an in-place op sees the source's written state.
//   - A destination may coincide exactly with a same-type source; any other
//     overlap is the "partial overlap" the hardware does not support, raised
//     as a parameter diagnostic at every check level but off.
//   - Unsupported dtypes are compile errors (static_assert naming the API).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "aicore/check.h"
#include "aicore/macros.h"
#include "aicore/types.h"
#include "aicore/vec_raw.h"

namespace npurt::sim::vecapi {

namespace vec = npurt::aicore::vec;

template <class T> inline constexpr bool kVecElem =
    std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, bfloat16_t> ||
    std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> ||
    std::is_same_v<T, uint32_t> || std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> ||
    std::is_same_v<T, int64_t>;

// Element count from an Ascend C calCount argument; negative counts are a parameter fault.
[[noreturn, gnu::cold, gnu::noinline]] inline void negative_count_fault(const char* api, int64_t count) {
  vec_fault(api, "calCount " + std::to_string(count) + " is negative");
}
NPURT_SIM_HOT_INLINE uint64_t count_arg(const char* api, int64_t count) {
  if (__builtin_expect(count < 0, 0)) negative_count_fault(api, count);
  return static_cast<uint64_t>(count);
}

template <class T>
NPURT_SIM_HOT_INLINE T* src_operand(CoreContext* c, const char* api, const AscendC::LocalTensor<T>& t, uint64_t n) {
  return vec_operand(c, api, t, n, Access::kRead);
}
template <class T>
NPURT_SIM_HOT_INLINE T* dst_operand(CoreContext* c, const char* api, const AscendC::LocalTensor<T>& t, uint64_t n) {
  return vec_operand(c, api, t, n, Access::kWrite);
}
template <class T> NPURT_SIM_HOT_INLINE T* src_operand(const char* api, const AscendC::LocalTensor<T>& t, uint64_t n) {
  return src_operand(core(), api, t, n);
}
template <class T> NPURT_SIM_HOT_INLINE T* dst_operand(const char* api, const AscendC::LocalTensor<T>& t, uint64_t n) {
  return dst_operand(core(), api, t, n);
}

// The overlap rule between dst and one source (byte ranges).
[[noreturn, gnu::cold, gnu::noinline]] inline void overlap_fault(const char* api, uintptr_t d, uint64_t dst_bytes,
                                                                 uintptr_t s, uint64_t src_bytes) {
  vec_fault(api, "dst [" + std::to_string(d) + ", +" + std::to_string(dst_bytes) + ") partially overlaps a source [" +
                     std::to_string(s) + ", +" + std::to_string(src_bytes) +
                     "); the vector unit needs dst and src either identical or disjoint");
}
NPURT_SIM_HOT_INLINE void check_overlap(CoreContext* c, const char* api, const void* dst, uint64_t dst_bytes,
                                        const void* src, uint64_t src_bytes, bool same_type) {
  if (!checks_on(c)) return;
  auto d = reinterpret_cast<uintptr_t>(dst), s = reinterpret_cast<uintptr_t>(src);
  bool overlap = d < s + src_bytes && s < d + dst_bytes;
  if (__builtin_expect(!overlap || (same_type && d == s), 1)) return;
  overlap_fault(api, d, dst_bytes, s, src_bytes);
}
NPURT_SIM_HOT_INLINE void check_overlap(const char* api, const void* dst, uint64_t dst_bytes, const void* src,
                                        uint64_t src_bytes, bool same_type) {
  check_overlap(core(), api, dst, dst_bytes, src, src_bytes, same_type);
}

// The raw layer refuses only what the static checks already exclude; a false
// here is a bug in npurt, reported as a fault rather than silently ignored.
[[noreturn, gnu::cold, gnu::noinline]] inline void raw_rejected_fault(const char* api) {
  vec_fault(api, "internal: the vector layer rejected a dtype the API accepted");
}
NPURT_SIM_HOT_INLINE void raw_ok(const char* api, bool ok) {
  if (__builtin_expect(!ok, 0)) raw_rejected_fault(api);
}

}  // namespace npurt::sim::vecapi
