// kernels/elementwise/ew_functors.h: the functor table of the elementwise
// family. One struct per op says: arity, the dtypes it takes (kDTypes), the
// dtypes the Ascend vector unit computes for it (kVec: a level-2 vector API
// call on the whole tile; every other allowed dtype runs the scalar form F on
// the core's scalar unit and is declared sim-only in the OpDef), whether the
// result is bool, and F on "wide" scalars (ew_types.h) with numpy semantics.
//
// Invariants: integer arithmetic wraps (computed in uint64 then narrowed);
// integer division or remainder by zero gives 0 (numpy's value, without its
// warning); float ops follow IEEE/C99 like numpy's ufunc loops.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "elementwise/ew_types.h"

namespace npurt::kernels::ew {

template <class T> using LT = AscendC::LocalTensor<T>;

struct OpBase {
  static constexpr uint32_t kVec = kNone;
  static constexpr bool kBoolOut = false;
  static constexpr bool kCondFirst = false;  // input 0 is a bool condition (where)
  static constexpr bool kWidenVec = false;   // 16-bit floats use the float32 Vec through UB casts
  static constexpr uint32_t kScratch = 0;    // float UB tiles Vec needs: Vec(z, x, scratch, tile, n)
  // Vec works on whole 256-B repeats (n rounded up to 64 lanes; tiles a multiple
  // of 64, ew_ops.cc): ew_kernel.h pads the inputs' partial repeat (PadTails).
  static constexpr bool kWholeRepeats = false;
  // Binary functors with a tensor-scalar vector form VecS(z, x, s, scalar_first, n):
  // z = Op(s, x) when scalar_first, else Op(x, s) (ew_kernel.h uses it for one-element inputs).
  static constexpr bool kScalarVec = false;
  // Comparisons (bool out) with a Compare/CompareScalar + Select form for these dtypes, in mode kCmpMode.
  static constexpr uint32_t kCmpVec = kNone;
  static constexpr AscendC::CMPMODE kCmpMode = AscendC::CMPMODE::EQ;
  // where(cond, x, y) with a Cast + CompareScalar + Select form for these dtypes.
  static constexpr uint32_t kWhereVec = kNone;
};

// The value ew_kernel.h writes to the lanes [n, n rounded up to 64) of a partial
// last tile's float operands before a kWholeRepeats functor runs: in every such
// functor's domain, so the discarded lanes compute finite values from written
// UB. 0 unless specialised next to the functor (acosh: 1).
template <class Op> struct TailPad { static constexpr float value = 0.0f; };

// -s with wrap-around for integers (no signed-overflow UB for INT_MIN); exact for floats.
template <class T> __aicore__ inline T Negated(T s) {
  if constexpr (std::is_integral<T>::value)
    return static_cast<T>(0u - static_cast<uint32_t>(static_cast<int32_t>(s)));
  else
    return static_cast<T>(-static_cast<float>(s));
}

template <class W> inline W wrap(uint64_t v) { return static_cast<W>(v); }
template <class W> constexpr bool kWrapInt = std::is_integral<W>::value && !std::is_same<W, bool>::value;

// ---- binary arithmetic ----------------------------------------------------------
#define NPURT_EW_WRAPPED(NAME, EXPR_INT, EXPR_FLT, VEC_MASK, VEC_CALL)                          \
  struct NAME : OpBase {                                                                         \
    static constexpr int kArity = 2;                                                             \
    static constexpr uint32_t kDTypes = kNumeric;                                                \
    static constexpr uint32_t kVec = VEC_MASK;                                                   \
    template <class W> static W F(W a, W b) {                                                    \
      if constexpr (kWrapInt<W>) { uint64_t x = static_cast<uint64_t>(a), y = static_cast<uint64_t>(b); \
                                   return wrap<W>(EXPR_INT); }                                   \
      else return EXPR_FLT;                                                                      \
    }                                                                                            \
    template <class T> static void Vec(const LT<T>& z, const LT<T>& a, const LT<T>& b, int32_t n) { \
      AscendC::VEC_CALL(z, a, b, n);                                                             \
    }                                                                                            \
  };
NPURT_EW_WRAPPED(AddBaseF, x + y, a + b, kVecArith, Add)
NPURT_EW_WRAPPED(SubBaseF, x - y, a - b, kVecArith, Sub)
NPURT_EW_WRAPPED(MulBaseF, x * y, a * b, kVecArith, Mul)
#undef NPURT_EW_WRAPPED

// Tensor-scalar forms: one Adds/Muls per tile instead of a Duplicate'd UB
// operand; add, multiply and x - s are exactly the tensor-tensor results
// (x - s == x + (-s) in IEEE and in wrapping integers); s - x is (-x) + s,
// also exact (negation is exact, the one rounding is the addition's).
struct AddF : AddBaseF {
  static constexpr bool kScalarVec = true;
  template <class T> static void VecS(const LT<T>& z, const LT<T>& a, T s, bool, int32_t n) {
    AscendC::Adds(z, a, s, n);
  }
};
struct MulF : MulBaseF {
  static constexpr bool kScalarVec = true;
  template <class T> static void VecS(const LT<T>& z, const LT<T>& a, T s, bool, int32_t n) {
    AscendC::Muls(z, a, s, n);
  }
};
struct SubF : SubBaseF {
  static constexpr bool kScalarVec = true;
  template <class T> static void VecS(const LT<T>& z, const LT<T>& a, T s, bool scalar_first, int32_t n) {
    if (!scalar_first) {
      AscendC::Adds(z, a, Negated(s), n);
      return;
    }
    AscendC::Muls(z, a, Negated(static_cast<T>(1.0f)), n);
    AscendC::Adds(z, z, s, n);
  }
};

struct DivF : OpBase {
  static constexpr int kArity = 2;
  static constexpr uint32_t kDTypes = kFloats;
  static constexpr uint32_t kVec = kVecFloat;
  template <class W> static W F(W a, W b) { return a / b; }
  template <class T> static void Vec(const LT<T>& z, const LT<T>& a, const LT<T>& b, int32_t n) {
    AscendC::Div(z, a, b, n);
  }
};

// NaN-propagating like numpy.maximum / minimum (and the vector Max / Min).
struct MaxF : OpBase {
  static constexpr int kArity = 2;
  static constexpr uint32_t kDTypes = kNumeric;
  static constexpr uint32_t kVec = kVecArith;
  template <class W> static W F(W a, W b) { return a != a ? a : (b != b ? b : (a >= b ? a : b)); }
  template <class T> static void Vec(const LT<T>& z, const LT<T>& a, const LT<T>& b, int32_t n) {
    AscendC::Max(z, a, b, n);
  }
  static constexpr bool kScalarVec = true;  // max/min commute, NaN propagates either way
  template <class T> static void VecS(const LT<T>& z, const LT<T>& a, T s, bool, int32_t n) {
    AscendC::Maxs(z, a, s, n);
  }
};
struct MinF : OpBase {
  static constexpr int kArity = 2;
  static constexpr uint32_t kDTypes = kNumeric;
  static constexpr uint32_t kVec = kVecArith;
  template <class W> static W F(W a, W b) { return a != a ? a : (b != b ? b : (a <= b ? a : b)); }
  template <class T> static void Vec(const LT<T>& z, const LT<T>& a, const LT<T>& b, int32_t n) {
    AscendC::Min(z, a, b, n);
  }
  static constexpr bool kScalarVec = true;
  template <class T> static void VecS(const LT<T>& z, const LT<T>& a, T s, bool, int32_t n) {
    AscendC::Mins(z, a, s, n);
  }
};

// numpy's npy_divmod for floats: returns floor division, stores the remainder.
template <class W> inline W float_divmod(W a, W b, W* mod_out) {
  W mod = std::fmod(a, b);
  if (b == 0) { *mod_out = mod; return a / b; }
  W div = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) { mod += b; div -= W(1); }
  } else {
    mod = std::copysign(W(0), b);
  }
  W floordiv;
  if (div != 0) {
    floordiv = std::floor(div);
    if (div - floordiv > W(0.5)) floordiv += W(1);
  } else {
    floordiv = std::copysign(W(0), a / b);
  }
  *mod_out = mod;
  return floordiv;
}

struct FloorDivF : OpBase {
  static constexpr int kArity = 2;
  static constexpr uint32_t kDTypes = kNumeric;
  template <class W> static W F(W a, W b) {
    if constexpr (std::is_floating_point<W>::value) { W m; return float_divmod(a, b, &m); }
    else {
      if (b == 0) return 0;
      if constexpr (std::is_signed<W>::value) {
        if (b == W(-1)) return wrap<W>(uint64_t{0} - static_cast<uint64_t>(a));
        W q = static_cast<W>(a / b);
        return (a % b != 0 && ((a < 0) != (b < 0))) ? static_cast<W>(q - 1) : q;
      } else {
        return static_cast<W>(a / b);
      }
    }
  }
};

struct RemainderF : OpBase {
  static constexpr int kArity = 2;
  static constexpr uint32_t kDTypes = kNumeric;
  template <class W> static W F(W a, W b) {
    if constexpr (std::is_floating_point<W>::value) { W m; float_divmod(a, b, &m); return m; }
    else {
      if (b == 0) return 0;
      if constexpr (std::is_signed<W>::value) {
        if (b == W(-1)) return 0;
        W r = static_cast<W>(a % b);
        return (r != 0 && ((r < 0) != (b < 0))) ? static_cast<W>(r + b) : r;
      } else {
        return static_cast<W>(a % b);
      }
    }
  }
};

// Integers: exponentiation by squaring, wrapping; a negative exponent gives 0
// (numpy raises; the kernel cannot, docs/numpy-users.md says so) except for a = 1 / -1.
struct PowF : OpBase {
  static constexpr int kArity = 2;
  static constexpr uint32_t kDTypes = kNumeric;
  template <class W> static W F(W a, W b) {
    if constexpr (std::is_floating_point<W>::value) return std::pow(a, b);
    else {
      if constexpr (std::is_signed<W>::value) {
        if (b < 0) return a == 1 ? W(1) : (a == -1 ? ((b & 1) ? W(-1) : W(1)) : W(0));
      }
      uint64_t base = static_cast<uint64_t>(a), r = 1, e = static_cast<uint64_t>(b);
      for (; e != 0; e >>= 1, base *= base)
        if (e & 1) r *= base;
      return wrap<W>(r);
    }
  }
};

#define NPURT_EW_FLOAT_BINARY(NAME, EXPR)                                     \
  struct NAME : OpBase {                                                      \
    static constexpr int kArity = 2;                                          \
    static constexpr uint32_t kDTypes = kFloats;                              \
    template <class W> static W F(W a, W b) { return EXPR; }                  \
  };
NPURT_EW_FLOAT_BINARY(Atan2F, std::atan2(a, b))
NPURT_EW_FLOAT_BINARY(HypotF, std::hypot(a, b))
NPURT_EW_FLOAT_BINARY(CopysignF, std::copysign(a, b))
NPURT_EW_FLOAT_BINARY(LogAddExpF, (a == b ? a + W(0.693147180559945309417232121458176568)
                                  : (a - b > 0 ? a + std::log1p(std::exp(b - a))
                                  : (a - b <= 0 ? b + std::log1p(std::exp(a - b)) : a - b))))
#undef NPURT_EW_FLOAT_BINARY

// nextafter must step in the storage precision: float32 / float64 only.
struct NextAfterF : OpBase {
  static constexpr int kArity = 2;
  static constexpr uint32_t kDTypes = bit(DType::kFloat32) | bit(DType::kFloat64);
  template <class W> static W F(W a, W b) { return std::nextafter(a, b); }
};

// ---- comparisons and logic (bool results) -------------------------------------------
#define NPURT_EW_PREDICATE2(NAME, MASK, EXPR)                                 \
  struct NAME : OpBase {                                                      \
    static constexpr int kArity = 2;                                          \
    static constexpr uint32_t kDTypes = MASK;                                 \
    static constexpr bool kBoolOut = true;                                    \
    template <class W> static bool F(W a, W b) { return EXPR; }               \
  };
// The six comparisons also have a vector form for float16/float32 (ew_kernel.h
// CmpTile): Compare -> bit mask, Select 1/0 halves, Cast half -> uint8. The
// vector unit compares in IEEE like F: NaN compares false (!= true), -0 == +0.
#define NPURT_EW_COMPARE(NAME, MODE, EXPR)                                    \
  struct NAME : OpBase {                                                      \
    static constexpr int kArity = 2;                                          \
    static constexpr uint32_t kDTypes = kAll;                                 \
    static constexpr bool kBoolOut = true;                                    \
    static constexpr uint32_t kCmpVec = kVecFloat;                            \
    static constexpr AscendC::CMPMODE kCmpMode = AscendC::CMPMODE::MODE;      \
    static constexpr bool kScalarVec = true;                                  \
    template <class W> static bool F(W a, W b) { return EXPR; }               \
  };
NPURT_EW_COMPARE(EqualF, EQ, a == b)
NPURT_EW_COMPARE(NotEqualF, NE, a != b)
NPURT_EW_COMPARE(LessF, LT, a < b)
NPURT_EW_COMPARE(LessEqualF, LE, a <= b)
NPURT_EW_COMPARE(GreaterF, GT, a > b)
NPURT_EW_COMPARE(GreaterEqualF, GE, a >= b)
#undef NPURT_EW_COMPARE
NPURT_EW_PREDICATE2(LogicalAndF, kAll, (a != 0) && (b != 0))
NPURT_EW_PREDICATE2(LogicalOrF, kAll, (a != 0) || (b != 0))
NPURT_EW_PREDICATE2(LogicalXorF, kAll, (a != 0) != (b != 0))
#undef NPURT_EW_PREDICATE2

// ---- bitwise (integers and bool) -------------------------------------------------
#define NPURT_EW_BITWISE(NAME, OP)                                            \
  struct NAME : OpBase {                                                      \
    static constexpr int kArity = 2;                                          \
    static constexpr uint32_t kDTypes = kInts | kBool;                        \
    template <class W> static W F(W a, W b) { return static_cast<W>(a OP b); } \
  };
NPURT_EW_BITWISE(BitAndF, &)
NPURT_EW_BITWISE(BitOrF, |)
NPURT_EW_BITWISE(BitXorF, ^)
#undef NPURT_EW_BITWISE

template <class W> inline bool negative(W v) {
  if constexpr (std::is_signed<W>::value) return v < 0;
  else return false;
}

// numpy: shifting by >= the bit width gives 0 (or -1 for a negative value shifted right).
struct ShiftLeftF : OpBase {
  static constexpr int kArity = 2;
  static constexpr uint32_t kDTypes = kInts;
  template <class W> static W F(W a, W b) {
    if (negative(b) || static_cast<uint64_t>(b) >= sizeof(W) * 8) return 0;
    return wrap<W>(static_cast<uint64_t>(a) << static_cast<uint64_t>(b));
  }
};
struct ShiftRightF : OpBase {
  static constexpr int kArity = 2;
  static constexpr uint32_t kDTypes = kInts;
  template <class W> static W F(W a, W b) {
    if (negative(b) || static_cast<uint64_t>(b) >= sizeof(W) * 8) return negative(a) ? W(-1) : W(0);
    return static_cast<W>(a >> b);
  }
};

// ---- ternary -------------------------------------------------------------------
struct WhereF : OpBase {
  static constexpr int kArity = 3;
  static constexpr uint32_t kDTypes = kAll;
  static constexpr bool kCondFirst = true;
  static constexpr uint32_t kWhereVec = kVecFloat;  // Select moves half/float bit patterns exactly
  template <class W> static W F(bool c, W a, W b) { return c ? a : b; }
};

}  // namespace npurt::kernels::ew
