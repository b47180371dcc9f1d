// kernels/elementwise/ew_types.h: compile-time dtype facts of the elementwise
// family (device and host): DType <-> C++ element type, the "wide" type scalar
// math is done in, and constexpr dtype masks the functor table is written with.
//
// Invariants: bool is stored as one byte holding 0 or 1 (uint8_t in kernels);
// half and bfloat16 compute in float and round once on store, float64 in double.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernel_operator.h"
#include "npurt/dtype.h"

namespace npurt::kernels::ew {

constexpr uint32_t bit(DType t) { return 1u << static_cast<int>(t); }
constexpr uint32_t kBool = bit(DType::kBool);
constexpr uint32_t kSigned = bit(DType::kInt8) | bit(DType::kInt16) | bit(DType::kInt32) | bit(DType::kInt64);
constexpr uint32_t kUnsigned = bit(DType::kUInt8) | bit(DType::kUInt16) | bit(DType::kUInt32) | bit(DType::kUInt64);
constexpr uint32_t kInts = kSigned | kUnsigned;
constexpr uint32_t kFloats = bit(DType::kFloat16) | bit(DType::kBFloat16) | bit(DType::kFloat32) | bit(DType::kFloat64);
constexpr uint32_t kNumeric = kInts | kFloats;
constexpr uint32_t kAll = kNumeric | kBool;
// What the Ascend vector unit computes for the plain arithmetic APIs (Add Sub Mul Max Min).
constexpr uint32_t kVecArith = bit(DType::kInt16) | bit(DType::kInt32) | bit(DType::kFloat16) | bit(DType::kFloat32);
// Div Exp Ln Abs Sqrt Reciprocal.
constexpr uint32_t kVecFloat = bit(DType::kFloat16) | bit(DType::kFloat32);
constexpr uint32_t kNone = 0;

// bool's storage type: a distinct tag so templates tell it from uint8.
struct Bool8 {
  uint8_t v;
  Bool8() = default;
  constexpr Bool8(bool b) : v(b ? 1 : 0) {}  // NOLINT
  constexpr operator bool() const { return v != 0; }  // NOLINT
};

template <DType D> struct Elem;
template <> struct Elem<DType::kBool> { using T = Bool8; };
template <> struct Elem<DType::kInt8> { using T = int8_t; };
template <> struct Elem<DType::kInt16> { using T = int16_t; };
template <> struct Elem<DType::kInt32> { using T = int32_t; };
template <> struct Elem<DType::kInt64> { using T = int64_t; };
template <> struct Elem<DType::kUInt8> { using T = uint8_t; };
template <> struct Elem<DType::kUInt16> { using T = uint16_t; };
template <> struct Elem<DType::kUInt32> { using T = uint32_t; };
template <> struct Elem<DType::kUInt64> { using T = uint64_t; };
template <> struct Elem<DType::kFloat16> { using T = half; };
template <> struct Elem<DType::kBFloat16> { using T = bfloat16_t; };
template <> struct Elem<DType::kFloat32> { using T = float; };
template <> struct Elem<DType::kFloat64> { using T = double; };

// Scalar math type: float for 16-bit floats, the type itself otherwise.
template <class T> struct WideOf { using type = T; };
template <> struct WideOf<half> { using type = float; };
template <> struct WideOf<bfloat16_t> { using type = float; };
template <> struct WideOf<Bool8> { using type = bool; };
template <class T> using Wide = typename WideOf<T>::type;

template <class T> constexpr bool kIsFloat = std::is_floating_point<Wide<T>>::value;
template <class T> constexpr bool kIsBool = std::is_same<T, Bool8>::value;

template <DType D> using Tag = std::integral_constant<DType, D>;

// Calls f(Tag<D>{}) for the runtime dtype `d` when `d` is in kMask (else nothing:
// the OpDef rejected it before launch).
template <uint32_t kMask, class F>
__aicore__ inline void visit_dtype(uint32_t d, F&& f) {
#define NPURT_EW_CASE(D)                                                   \
  case static_cast<uint32_t>(D):                                           \
    if constexpr ((kMask & bit(D)) != 0) f(Tag<D>{});         \
    break;
  switch (d) {
    NPURT_EW_CASE(DType::kBool) NPURT_EW_CASE(DType::kInt8) NPURT_EW_CASE(DType::kInt16)
    NPURT_EW_CASE(DType::kInt32) NPURT_EW_CASE(DType::kInt64) NPURT_EW_CASE(DType::kUInt8)
    NPURT_EW_CASE(DType::kUInt16) NPURT_EW_CASE(DType::kUInt32) NPURT_EW_CASE(DType::kUInt64)
    NPURT_EW_CASE(DType::kFloat16) NPURT_EW_CASE(DType::kBFloat16) NPURT_EW_CASE(DType::kFloat32)
    NPURT_EW_CASE(DType::kFloat64)
    NPURT_EW_CASE(DType::kComplex64) NPURT_EW_CASE(DType::kComplex128)  // Elem: ew_complex_types.h
    default: break;
  }
#undef NPURT_EW_CASE
}

}  // namespace npurt::kernels::ew
