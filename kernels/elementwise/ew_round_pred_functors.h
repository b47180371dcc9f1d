// kernels/elementwise/ew_round_pred_functors.h: vector forms of the rounding
// functions (floor / ceil / trunc / round) and the float predicates (isnan /
// isinf / isfinite), layered on the scalar functors of ew_unary_functors.h
// (F unchanged: the scalar unit keeps computing the dtypes and tails the
// vector unit does not take). The op list (ew_op_list.h) names these.
//
// Invariants: results are bit-identical to F. Rounding is one Cast
// float -> float with the round mode (A2/A3 Cast pair fp32 -> fp32 with
// CAST_FLOOR / CEIL / TRUNC / RINT: an integral value, -0, inf and NaN pass
// through, |x| >= 2^23 is already integral); float16 / bfloat16 through
// float UB tiles (kWidenVec: Cast up, round, Cast back, exact: an integral
// value of a 16-bit float is representable in it). The
// predicates build a bit mask (Compare x != x; |x| == inf; |x| < inf) that
// ew_kernel.h CmpTile turns into bool 0/1; Mask may clobber x's tile.
#pragma once

#include <limits>

#include "elementwise/ew_complex_functors.h"

namespace npurt::kernels::ew {

#define NPURT_EW_ROUND_VEC(NAME, BASE, MODE)                                  \
  struct NAME : BASE {                                                        \
    static constexpr uint32_t kVec = bit(DType::kFloat32);                    \
    static constexpr bool kWidenVec = true;                                   \
    template <class T> static void Vec(const LT<T>& z, const LT<T>& a, int32_t n) { \
      AscendC::Cast(z, a, AscendC::RoundMode::MODE, static_cast<uint32_t>(n)); \
    }                                                                         \
  };
NPURT_EW_ROUND_VEC(FloorVF, FloorF, CAST_FLOOR)
NPURT_EW_ROUND_VEC(CeilVF, CeilF, CAST_CEIL)
NPURT_EW_ROUND_VEC(TruncVF, TruncF, CAST_TRUNC)
NPURT_EW_ROUND_VEC(RoundVF, RoundF, CAST_RINT)  // ties to even, like std::nearbyint
#undef NPURT_EW_ROUND_VEC

struct IsNanVF : IsNanF {
  static constexpr uint32_t kCmpVec = kVecFloat;
  template <class T> static void Mask(const LT<uint8_t>& m, const LT<T>& a, uint32_t n) {
    AscendC::Compare(m, a, a, AscendC::CMPMODE::NE, n);  // only NaN differs from itself
  }
};
struct IsInfVF : IsInfF {
  static constexpr uint32_t kCmpVec = kVecFloat;
  template <class T> static void Mask(const LT<uint8_t>& m, const LT<T>& a, uint32_t n) {
    AscendC::Abs(a, a, static_cast<int32_t>(n));
    AscendC::CompareScalar(m, a, static_cast<T>(std::numeric_limits<float>::infinity()), AscendC::CMPMODE::EQ, n);
  }
};
struct IsFiniteVF : IsFiniteF {
  static constexpr uint32_t kCmpVec = kVecFloat;
  template <class T> static void Mask(const LT<uint8_t>& m, const LT<T>& a, uint32_t n) {
    AscendC::Abs(a, a, static_cast<int32_t>(n));  // NaN < inf is false: NaN is not finite
    AscendC::CompareScalar(m, a, static_cast<T>(std::numeric_limits<float>::infinity()), AscendC::CMPMODE::LT, n);
  }
};

// The complex forms of round / isnan / isinf / isfinite, as for the scalar functors.
template <> struct ComplexExt<RoundVF> { using type = WithComplex<RoundVF, CRound>; };
template <> struct ComplexExt<IsNanVF> { using type = WithComplex<IsNanVF, CIsNan>; };
template <> struct ComplexExt<IsInfVF> { using type = WithComplex<IsInfVF, CIsInf>; };
template <> struct ComplexExt<IsFiniteVF> { using type = WithComplex<IsFiniteVF, CIsFinite>; };

}  // namespace npurt::kernels::ew
