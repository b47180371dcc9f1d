// aicore/vec_cast.h: AscendC::Cast(dst, src, RoundMode, count), the dtype
// conversion of the vector unit. Supported (dst, src) pairs are a compile-time
// check against aicore/vec_cast_pairs.h; a RoundMode the pair does not accept
// on A2/A3 (e.g. half -> float with CAST_RINT, float -> bfloat16 with
// CAST_NONE) is a parameter diagnostic naming the pair and the mode.
// Invariants: see aicore/vec_common.h; dst and src of different widths must
// not overlap at all (the conversion streams through both).
#pragma once

#include "aicore/vec_cast_pairs.h"
#include "aicore/vec_common.h"

namespace AscendC {

template <typename T, typename U>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& round_mode,
                            const uint32_t calCount) {
  namespace vec = npurt::aicore::vec;
  namespace va = npurt::sim::vecapi;
  static_assert(vec::cast_pair_exists<T, U>(), "Cast: this (dst, src) dtype pair is not supported on A2/A3 "
                                               "(see docs/aicore-vector.md; int32 -> half needs SetDeqScale)");
  const uint64_t n = calCount;
  if (n == 0) return;
  // The pair's accepted modes are a compile-time mask: only a rejected mode
  // pays for the run-time lookup that words the diagnostic.
  constexpr uint8_t kModes = vec::cast_pair_modes<T, U>();
  const auto mode = static_cast<uint8_t>(round_mode);
  if (__builtin_expect(mode >= 8 || !(kModes & (1u << mode)), 0)) {
    const char* why = vec::cast_unsupported_reason(vec::vtype_of<T>, vec::vtype_of<U>, round_mode);
    if (why == nullptr) why = "this RoundMode is not supported for this (dst, src) dtype pair";
    npurt::sim::vec_fault("Cast", std::string(why) + ": " + vec::vtype_name(vec::vtype_of<U>) + " -> " +
                                      vec::vtype_name(vec::vtype_of<T>) + " with RoundMode " +
                                      std::to_string(static_cast<int>(round_mode)));
  }
  npurt::sim::CoreContext* c = npurt::sim::core();
  const U* ps = npurt::sim::vec_source_view(c, "Cast", src, n);
  T* pd = va::dst_operand(c, "Cast", dst, n);
  va::check_overlap(c, "Cast", pd, n * sizeof(T), ps, n * sizeof(U), sizeof(T) == sizeof(U));
  // The mode passed the mask above, so the dispatcher's own re-check is skipped.
  vec::cast_prechecked(vec::vtype_of<T>, vec::vtype_of<U>, round_mode, pd, npurt::sim::read_source(src, ps, n), n);
}

}  // namespace AscendC
