// kernels/elementwise/ew_unary_functors.h: the unary rows of the elementwise
// functor table (see ew_functors.h for the contract). Float math the vector
// unit lacks is either composed from vector instructions (tanh, expm1, sinh,
// cosh, log1p, atan, asinh: ew_trans_vec.h; sin, cos, tan, asin, acos: ew_trig_vec.h;
// log2, log10, atanh, acosh: ew_log_vec.h); float64 keeps the scalar libm form.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "elementwise/ew_functors.h"
#include "elementwise/ew_log_vec.h"
#include "elementwise/ew_trans_vec.h"
#include "elementwise/ew_trig_vec.h"

namespace npurt::kernels::ew {

#define NPURT_EW_UNARY_VEC(NAME, MASK, VMASK, EXPR, VEC_STMT)                              \
  struct NAME : OpBase {                                                                    \
    static constexpr int kArity = 1;                                                        \
    static constexpr uint32_t kDTypes = MASK;                                               \
    static constexpr uint32_t kVec = VMASK;                                                 \
    template <class W> static W F(W a) { return EXPR; }                                     \
    template <class T> static void Vec(const LT<T>& z, const LT<T>& a, int32_t n) { VEC_STMT; } \
  };
NPURT_EW_UNARY_VEC(ExpF, kFloats, kVecFloat, std::exp(a), AscendC::Exp(z, a, n))
NPURT_EW_UNARY_VEC(LogF, kFloats, kVecFloat, std::log(a), AscendC::Ln(z, a, n))
NPURT_EW_UNARY_VEC(SqrtF, kFloats, kVecFloat, std::sqrt(a), AscendC::Sqrt(z, a, n))
NPURT_EW_UNARY_VEC(ReciprocalF, kFloats, kVecFloat, W(1) / a, AscendC::Reciprocal(z, a, n))
NPURT_EW_UNARY_VEC(SquareF, kNumeric, kVecArith, (kWrapInt<W> ? wrap<W>(uint64_t(a) * uint64_t(a)) : W(a * a)),
                   AscendC::Mul(z, a, a, n))
NPURT_EW_UNARY_VEC(NegativeF, kNumeric, kVecArith, (kWrapInt<W> ? wrap<W>(uint64_t{0} - uint64_t(a)) : W(-a)),
                   AscendC::Muls(z, a, T(-1), n))
#undef NPURT_EW_UNARY_VEC

struct AbsF : OpBase {
  static constexpr int kArity = 1;
  static constexpr uint32_t kDTypes = kNumeric;
  static constexpr uint32_t kVec = kVecFloat;
  template <class W> static W F(W a) {
    if constexpr (std::is_floating_point<W>::value) return std::fabs(a);
    else if constexpr (std::is_signed<W>::value) return a < 0 ? wrap<W>(uint64_t{0} - uint64_t(a)) : a;
    else return a;
  }
  template <class T> static void Vec(const LT<T>& z, const LT<T>& a, int32_t n) { AscendC::Abs(z, a, n); }
};

// +0 for either zero (the standard: "If x_i is either -0 or +0, the result is 0",
// checked as +0 by array-api-tests; numpy gives +0 too); NaN stays NaN.
struct SignF : OpBase {
  static constexpr int kArity = 1;
  static constexpr uint32_t kDTypes = kNumeric;
  template <class W> static W F(W a) {
    if constexpr (std::is_floating_point<W>::value) return a > 0 ? W(1) : (a < 0 ? W(-1) : (a == a ? W(0) : a));
    else return static_cast<W>((a > 0) - negative(a));
  }
};

struct BitInvertF : OpBase {
  static constexpr int kArity = 1;
  static constexpr uint32_t kDTypes = kInts | kBool;
  template <class W> static W F(W a) {
    if constexpr (std::is_same<W, bool>::value) return !a;
    else return static_cast<W>(~a);
  }
};

#define NPURT_EW_FLOAT_UNARY(NAME, EXPR)                                      \
  struct NAME : OpBase {                                                      \
    static constexpr int kArity = 1;                                          \
    static constexpr uint32_t kDTypes = kFloats;                              \
    template <class W> static W F(W a) { return EXPR; }                       \
  };
NPURT_EW_FLOAT_UNARY(CeilF, std::ceil(a))
NPURT_EW_FLOAT_UNARY(FloorF, std::floor(a))
NPURT_EW_FLOAT_UNARY(TruncF, std::trunc(a))
NPURT_EW_FLOAT_UNARY(RoundF, std::nearbyint(a))  // half to even, like numpy.round
#undef NPURT_EW_FLOAT_UNARY

// Functions with a float32 vector form (ew_trans_vec.h, ew_trig_vec.h, ew_log_vec.h;
// float16/bfloat16 through float UB tiles, rounded once), SCRATCH float tiles; CALL uses z, x,
// s, tile, n. float64 keeps the scalar libm form EXPR; sin, cos and tan also pass their scalar
// form for the rare lanes beyond the reduction's range (trigvec::FixLanes).
#define NPURT_EW_MATH_VEC(NAME, EXPR, SCRATCH, CALL)                                               \
  struct NAME : OpBase {                                                                           \
    static constexpr int kArity = 1;                                                               \
    static constexpr uint32_t kDTypes = kFloats;                                                   \
    static constexpr uint32_t kVec = bit(DType::kFloat32);                                         \
    static constexpr bool kWidenVec = true;                                                        \
    static constexpr uint32_t kScratch = SCRATCH;                                                  \
    static constexpr bool kWholeRepeats = true;                                                    \
    template <class W> static W F(W a) { return EXPR; }                                            \
    template <class T>                                                                             \
    static void Vec(const LT<T>& z, const LT<T>& x, const LT<float>& s, uint32_t tile, int32_t n) { \
      CALL;                                                                                        \
    }                                                                                              \
  };
NPURT_EW_MATH_VEC(TanhF, std::tanh(a), 4, transvec::Tanh(z, x, s, tile, n))
NPURT_EW_MATH_VEC(Expm1F, std::expm1(a), 3, transvec::Expm1(z, x, s, tile, n))
NPURT_EW_MATH_VEC(SinhF, std::sinh(a), 4, transvec::Sinh(z, x, s, tile, n))
NPURT_EW_MATH_VEC(CoshF, std::cosh(a), 2, transvec::Cosh(z, x, s, tile, n))
NPURT_EW_MATH_VEC(Log1pF, std::log1p(a), 4, transvec::Log1p(z, x, s, tile, n))
NPURT_EW_MATH_VEC(AtanF, std::atan(a), 5, transvec::Atan(z, x, s, tile, n))
NPURT_EW_MATH_VEC(AsinhF, std::asinh(a), 9, transvec::Asinh(z, x, s, tile, n))

NPURT_EW_MATH_VEC(SinF, std::sin(a), 6, trigvec::SinCos<false>(z, x, s, tile, n, [](float v) { return std::sin(v); }))
NPURT_EW_MATH_VEC(CosF, std::cos(a), 6, trigvec::SinCos<true>(z, x, s, tile, n, [](float v) { return std::cos(v); }))
NPURT_EW_MATH_VEC(TanF, std::tan(a), 6, trigvec::Tan(z, x, s, tile, n, [](float v) { return std::tan(v); }))
NPURT_EW_MATH_VEC(AsinF, std::asin(a), 4, trigvec::Asin(z, x, s, tile, n))
NPURT_EW_MATH_VEC(AcosF, std::acos(a), 5, trigvec::Acos(z, x, s, tile, n))
NPURT_EW_MATH_VEC(AtanhF, std::atanh(a), 7, logvec::Atanh(z, x, s, tile, n))
NPURT_EW_MATH_VEC(AcoshF, std::acosh(a), 8, logvec::Acosh(z, x, s, tile, n))
#undef NPURT_EW_MATH_VEC
template <> struct TailPad<AcoshF> { static constexpr float value = 1.0f; };  // acosh needs x >= 1

// log2 / log10: Ln times a constant (ew_log_vec.h), no scratch.
#define NPURT_EW_LOG_VEC(NAME, EXPR, FN)                                                      \
  struct NAME : OpBase {                                                                      \
    static constexpr int kArity = 1;                                                          \
    static constexpr uint32_t kDTypes = kFloats;                                              \
    static constexpr uint32_t kVec = bit(DType::kFloat32);                                    \
    static constexpr bool kWidenVec = true;                                                   \
    template <class W> static W F(W a) { return EXPR; }                                       \
    template <class T> static void Vec(const LT<T>& z, const LT<T>& x, int32_t n) { logvec::FN(z, x, n); } \
  };
NPURT_EW_LOG_VEC(Log2F, std::log2(a), Log2)
NPURT_EW_LOG_VEC(Log10F, std::log10(a), Log10)
#undef NPURT_EW_LOG_VEC

#define NPURT_EW_PREDICATE1(NAME, MASK, EXPR, INT_EXPR)                               \
  struct NAME : OpBase {                                                      \
    static constexpr int kArity = 1;                                          \
    static constexpr uint32_t kDTypes = MASK;                                 \
    static constexpr bool kBoolOut = true;                                    \
    template <class W> static bool F(W a) {                                   \
      if constexpr (std::is_floating_point<W>::value) return EXPR;           \
      else return INT_EXPR;                                                   \
    }                                                                         \
  };
// For integers and bool: isnan/isinf false, isfinite true, signbit = a < 0.
NPURT_EW_PREDICATE1(IsNanF, kAll, std::isnan(a), false)
NPURT_EW_PREDICATE1(IsInfF, kAll, std::isinf(a), false)
NPURT_EW_PREDICATE1(IsFiniteF, kAll, std::isfinite(a), true)
NPURT_EW_PREDICATE1(SignBitF, kNumeric, std::signbit(a), negative(a))
#undef NPURT_EW_PREDICATE1

struct LogicalNotF : OpBase {
  static constexpr int kArity = 1;
  static constexpr uint32_t kDTypes = kAll;
  static constexpr bool kBoolOut = true;
  template <class W> static bool F(W a) { return a == W(0); }
};

}  // namespace npurt::kernels::ew
