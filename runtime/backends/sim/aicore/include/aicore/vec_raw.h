// aicore/vec_raw.h: the raw, vectorised math layer under the AscendC vector
// APIs: functions over host pointers and element counts, implemented once per
// ISA (AVX-512, AVX2+F16C+FMA, portable) in runtime/backends/sim/aicore/simd/
// and chosen at first use from the host CPU (NPURT_SIM_ISA=avx512|avx2|generic
// overrides, for tests and benchmarks).
//
// Invariants:
//   - Results do not depend on the ISA chosen: every ISA computes bit-identical
//     values (same algorithms, same rounding; tests compare them).
//   - half arithmetic rounds per operation to binary16 (RNE); bfloat16 likewise.
//   - n == 0 is a NOP. dst may equal a source exactly (in place); partial
//     overlap is the caller's bug (AscendC rule, checked one layer up).
//   - A function returns false (and writes nothing) for a dtype/op pair the
//     simulated hardware does not support; the AscendC layer rejects those at
//     compile time, so false only reaches callers of this raw layer.
#pragma once

#include <cstddef>
#include <cstdint>

#include "aicore/types.h"
#include "npurt/export.h"

namespace AscendC {
// Ascend C enums (CANN 8.x names and values, kernel_utils_mode.h).
enum class RoundMode : uint8_t {
  CAST_NONE = 0,  // exact when representable, else RINT
  CAST_RINT,      // nearest, ties to even
  CAST_FLOOR,
  CAST_CEIL,
  CAST_ROUND,     // nearest, ties away from zero
  CAST_TRUNC,
  CAST_ODD,       // von Neumann round to odd (float -> half only)
};
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
}  // namespace AscendC

NPURT_PUBLIC_BEGIN
namespace npurt::aicore::vec {

enum class VType : uint8_t { kI8, kU8, kI16, kU16, kI32, kU32, kI64, kF16, kBF16, kF32 };
const char* vtype_name(VType t);
size_t vtype_size(VType t);

template <class T> struct VTypeOf;
template <> struct VTypeOf<int8_t> { static constexpr VType value = VType::kI8; };
template <> struct VTypeOf<uint8_t> { static constexpr VType value = VType::kU8; };
template <> struct VTypeOf<int16_t> { static constexpr VType value = VType::kI16; };
template <> struct VTypeOf<uint16_t> { static constexpr VType value = VType::kU16; };
template <> struct VTypeOf<int32_t> { static constexpr VType value = VType::kI32; };
template <> struct VTypeOf<uint32_t> { static constexpr VType value = VType::kU32; };
template <> struct VTypeOf<int64_t> { static constexpr VType value = VType::kI64; };
template <> struct VTypeOf<half> { static constexpr VType value = VType::kF16; };
template <> struct VTypeOf<bfloat16_t> { static constexpr VType value = VType::kBF16; };
template <> struct VTypeOf<float> { static constexpr VType value = VType::kF32; };
template <class T> inline constexpr VType vtype_of = VTypeOf<T>::value;

// dst[i] = a[i] op b[i]. Max/Min propagate NaN; And/Or are bitwise.
enum class BinaryOp : uint8_t { kAdd, kSub, kMul, kDiv, kMax, kMin, kAnd, kOr };
// dst[i] = op(src[i], s). kLeakyRelu: src >= 0 ? src : src * s.
enum class ScalarOp : uint8_t { kAdds, kMuls, kMaxs, kMins, kLeakyRelu };
enum class UnaryOp : uint8_t { kExp, kLn, kAbs, kSqrt, kRsqrt, kReciprocal, kRelu, kNot };
enum class ReduceOp : uint8_t { kSum, kMax, kMin };
// Multiply-add with two roundings (the product is rounded to T, then the sum):
// kFusedMulAdd dst[i] = a[i] * dst[i] + b[i]; kMulAddDst dst[i] = a[i] * b[i] + dst[i].
enum class TernaryOp : uint8_t { kFusedMulAdd, kMulAddDst };

const char* binary_op_name(BinaryOp op);
const char* scalar_op_name(ScalarOp op);
const char* unary_op_name(UnaryOp op);

// Which dtypes the simulated A2/A3 vector unit accepts for each op (Ascend C
// docs, ascend-facts.md 2.7); constexpr so the AscendC layer can static_assert.
constexpr uint32_t vtype_bit(VType t) { return 1u << static_cast<uint32_t>(t); }
inline constexpr uint32_t kHalfFloatTypes = vtype_bit(VType::kF16) | vtype_bit(VType::kF32);
inline constexpr uint32_t kArithTypes = kHalfFloatTypes | vtype_bit(VType::kI16) | vtype_bit(VType::kI32);
inline constexpr uint32_t kBitwiseTypes = vtype_bit(VType::kI16) | vtype_bit(VType::kU16);
inline constexpr uint32_t kDuplicateTypes =
    kHalfFloatTypes | kBitwiseTypes | vtype_bit(VType::kBF16) | vtype_bit(VType::kI32) | vtype_bit(VType::kU32);
constexpr bool binary_supported(BinaryOp op, VType t) {
  constexpr uint32_t kSets[] = {kArithTypes, kArithTypes, kArithTypes, kHalfFloatTypes,
                                kArithTypes, kArithTypes, kBitwiseTypes, kBitwiseTypes};
  return kSets[static_cast<int>(op)] & vtype_bit(t);
}
constexpr bool scalar_op_supported(ScalarOp op, VType t) {
  constexpr uint32_t kSets[] = {kArithTypes, kArithTypes, kArithTypes, kArithTypes, kHalfFloatTypes};
  return kSets[static_cast<int>(op)] & vtype_bit(t);
}
constexpr bool unary_supported(UnaryOp op, VType t) {
  constexpr uint32_t kSets[] = {kHalfFloatTypes, kHalfFloatTypes, kHalfFloatTypes, kHalfFloatTypes,
                                kHalfFloatTypes, kHalfFloatTypes, kHalfFloatTypes | vtype_bit(VType::kI32),
                                kBitwiseTypes};
  return kSets[static_cast<int>(op)] & vtype_bit(t);
}
constexpr bool duplicate_supported(VType t) { return kDuplicateTypes & vtype_bit(t); }
// Compare/Select/Axpy/reductions: half and float (Compare also int32 with EQ).
constexpr bool half_or_float(VType t) { return kHalfFloatTypes & vtype_bit(t); }
// nullptr when (dst, src, mode) is a supported Cast, else the reason.
const char* cast_unsupported_reason(VType dst, VType src, AscendC::RoundMode mode);

bool binary(BinaryOp op, VType t, void* dst, const void* a, const void* b, uint64_t n);
// `scalar` points to one element of type t.
bool binary_scalar(ScalarOp op, VType t, void* dst, const void* src, const void* scalar, uint64_t n);
bool unary(UnaryOp op, VType t, void* dst, const void* src, uint64_t n);
// dst is read and written (half, float only).
bool ternary(TernaryOp op, VType t, void* dst, const void* a, const void* b, uint64_t n);
// ternary() with a and b each one 32-byte block whose lanes repeat over dst's n
// lanes (lane i reads a[i % lanes_per_block]); same bits as ternary() on
// copies of the blocks widened to n lanes.
bool ternary_blocks(TernaryOp op, VType t, void* dst, const void* a, const void* b, uint64_t n);
// Fills n elements of size vtype_size(t) with *scalar (any dtype).
bool duplicate(VType t, void* dst, const void* scalar, uint64_t n);
bool cast(VType dst_t, VType src_t, AscendC::RoundMode mode, void* dst, const void* src, uint64_t n);
// cast() for a (dst, src, mode) the caller has already accepted (AscendC::Cast
// tests the pair's compile-time mode mask, vec_cast_pairs.h): skips the
// run-time pair lookup that cast() repeats, twice per float16 norm row.
void cast_prechecked(VType dst_t, VType src_t, AscendC::RoundMode mode, void* dst, const void* src, uint64_t n);

// Bit i of bits (byte i/8, LSB first) = a[i] <mode> b[i] (or the scalar *b);
// IEEE: every mode but NE is false with a NaN. Bits past n in the last byte are 0.
bool compare(AscendC::CMPMODE mode, VType t, uint8_t* bits, const void* a, const void* b, bool b_is_scalar,
             uint64_t n);
// dst[i] = bit(mask, i % period) ? src0[i] : (src1_is_scalar ? *src1 : src1[i]); period 0 = none.
bool select(VType t, void* dst, const uint8_t* mask, uint64_t mask_period, const void* src0, const void* src1,
            bool src1_is_scalar, uint64_t n);
// dst[i] = dst[i] + src[i] * s (two roundings, in dst's type); (dst, src) in
// {(half, half), (float, float), (float, half)}; `scalar` is of src's type.
bool axpy(VType dst_t, VType src_t, void* dst, const void* src, const void* scalar, uint64_t n);

// --- reductions (half, float) -----------------------------------------------
// Level-2 ReduceSum/Max/Min over n elements: dst[0] = result. Sum: binary tree
// of adjacent pairs inside each 256-byte repeat, repeats accumulated in order;
// half partials saturate at +-65504 (finite inputs). Max/Min: NaN wins; with
// with_index dst[1] = index of the first occurrence, bit-cast into T.
bool reduce(ReduceOp op, VType t, void* dst, const void* src, uint64_t n, bool with_index);

// One repeat = 256 bytes of T, lanes enabled by `mask` (bit mode, mask[0] low
// lanes, mask[1] the upper 64 lanes of a half repeat). Sources are read with
// block stride src_blk_stride and repeat stride src_rep_stride (32-byte units).
struct RepeatShape {
  uint64_t mask[2] = {0, 0};
  uint32_t repeat = 1;
  uint32_t src_blk_stride = 1;
  uint32_t src_rep_stride = 8;
};
// Continuous mask (first `count` lanes) in bit form.
RepeatShape continuous_mask(VType t, uint32_t count);

// WholeReduce*: one result per repeat r at dst + r * dst_rep_stride * unit
// elements, unit = 2 when max/min write a (value, index) pair (ORDER_VALUE_INDEX
// or ORDER_INDEX_VALUE), else 1 (sum always writes the value only). The index
// is the lane inside the repeat. Empty masks give 0 (sum) / -inf (max) / +inf (min).
bool whole_reduce(ReduceOp op, VType t, void* dst, const void* src, const RepeatShape& shape,
                  uint32_t dst_rep_stride, AscendC::ReduceOrder order);
// BlockReduce*: one result per 32-byte block (8 per repeat), written densely
// per repeat at dst + r * dst_rep_stride * (32 / sizeof(T)) elements.
bool block_reduce(ReduceOp op, VType t, void* dst, const void* src, const RepeatShape& shape,
                  uint32_t dst_rep_stride);
// Mask/repeat ReduceSum/Max/Min: WholeReduce per repeat, then rounds of
// WholeReduce over the partial results (a tree across repeats) until one
// value remains; dst[0] = value, dst[1] = first index (bit-cast) if with_index.
bool reduce_repeat(ReduceOp op, VType t, void* dst, const void* src, const RepeatShape& shape, bool with_index);

// Name of the ISA in use ("avx512", "avx2", "generic"); forcing is for tests.
const char* active_isa();
bool force_isa(const char* name);  // false if unknown or unsupported by the host

}  // namespace npurt::aicore::vec
NPURT_PUBLIC_END
