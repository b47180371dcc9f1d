// aicore/vec_elementwise.h: the count-based ("level 2") element-wise vector
// APIs: Add Sub Mul Div Max Min And Or (tensor-tensor), Adds Muls Maxs Mins
// LeakyRelu (tensor-scalar), Exp Ln Abs Sqrt Rsqrt Reciprocal Relu Not
// (unary), FusedMulAdd and MulAddDst (multiply-add, dst read and written), Axpy
// and Duplicate. Each is a one-line binding of an op code to one
// of four templates; dtype support is checked at compile time against
// vec_raw.h's tables (A2/A3 lists of ascend-facts.md 2.7).
// Invariants: see aicore/vec_common.h (count 0 NOP, operand checks, overlap).
#pragma once

#include "aicore/vec_common.h"

namespace npurt::sim::vecapi {

template <vec::BinaryOp Op, class T>
void binary(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a,
            const AscendC::LocalTensor<T>& b, int32_t count) {
  static_assert(kVecElem<T> && vec::binary_supported(Op, vec::vtype_of<T>),
                "this vector API does not support this element type on A2/A3 (see docs/aicore-vector.md)");
  const uint64_t n = count_arg(api, count);
  if (n == 0) return;
  CoreContext* c = core();
  const T* pa = vec_source_view(c, api, a, n);
  const T* pb = vec_source_view(c, api, b, n);
  T* pd = dst_operand(c, api, dst, n);
  check_overlap(c, api, pd, n * sizeof(T), pa, n * sizeof(T), true);
  check_overlap(c, api, pd, n * sizeof(T), pb, n * sizeof(T), true);
  raw_ok(api, vec::binary(Op, vec::vtype_of<T>, pd, read_source(a, pa, n), read_source(b, pb, n), n));
}

template <vec::ScalarOp Op, class T, class U>
void scalar(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const U& s,
            int32_t count) {
  static_assert(kVecElem<T> && vec::scalar_op_supported(Op, vec::vtype_of<T>),
                "this vector API does not support this element type on A2/A3 (see docs/aicore-vector.md)");
  static_assert(std::is_arithmetic_v<U> || std::is_same_v<U, half> || std::is_same_v<U, T>,
                "the scalar must be a number");
  const uint64_t n = count_arg(api, count);
  if (n == 0) return;
  const T value = static_cast<T>(s);
  CoreContext* c = core();
  const T* ps = vec_source_view(c, api, src, n);
  T* pd = dst_operand(c, api, dst, n);
  check_overlap(c, api, pd, n * sizeof(T), ps, n * sizeof(T), true);
  raw_ok(api, vec::binary_scalar(Op, vec::vtype_of<T>, pd, read_source(src, ps, n), &value, n));
}

template <vec::UnaryOp Op, class T>
void unary(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, int32_t count) {
  static_assert(kVecElem<T> && vec::unary_supported(Op, vec::vtype_of<T>),
                "this vector API does not support this element type on A2/A3 (see docs/aicore-vector.md)");
  const uint64_t n = count_arg(api, count);
  if (n == 0) return;
  // src is mirror-aware like the binary and scalar ops: an elided GM -> UB
  // copy is read in place. (Wave 10 kept unary ops off the mirror: without a
  // prefetch ahead of the read Exp lost to the copy; the chunk loop now
  // prefetches ahead of mirrored sources, stream_window.h.)
  CoreContext* c = core();
  const T* ps = vec_source_view(c, api, src, n);
  T* pd = dst_operand(c, api, dst, n);
  check_overlap(c, api, pd, n * sizeof(T), ps, n * sizeof(T), true);
  raw_ok(api, vec::unary(Op, vec::vtype_of<T>, pd, read_source(src, ps, n), n));
}

// FusedMulAdd / MulAddDst: dst is a third source (checked as read, then written).
template <vec::TernaryOp Op, class T>
void ternary(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a,
             const AscendC::LocalTensor<T>& b, int32_t count) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "this vector API supports half and float on A2/A3");
  const uint64_t n = count_arg(api, count);
  if (n == 0) return;
  CoreContext* c = core();
  const T* pa = src_operand(c, api, a, n);
  const T* pb = src_operand(c, api, b, n);
  src_operand(c, api, dst, n);
  T* pd = dst_operand(c, api, dst, n);
  check_overlap(c, api, pd, n * sizeof(T), pa, n * sizeof(T), true);
  check_overlap(c, api, pd, n * sizeof(T), pb, n * sizeof(T), true);
  raw_ok(api, vec::ternary(Op, vec::vtype_of<T>, pd, pa, pb, n));
}

}  // namespace npurt::sim::vecapi

namespace AscendC {

#define NPURT_VEC_BINARY(Name, Op)                                                                              \
  template <typename T>                                                                                         \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                              const int32_t& calCount) {                                                        \
    npurt::sim::vecapi::binary<npurt::aicore::vec::BinaryOp::Op>(#Name, dst, src0, src1, calCount);             \
  }
NPURT_VEC_BINARY(Add, kAdd)
NPURT_VEC_BINARY(Sub, kSub)
NPURT_VEC_BINARY(Mul, kMul)
NPURT_VEC_BINARY(Div, kDiv)
NPURT_VEC_BINARY(Max, kMax)
NPURT_VEC_BINARY(Min, kMin)
NPURT_VEC_BINARY(And, kAnd)
NPURT_VEC_BINARY(Or, kOr)
#undef NPURT_VEC_BINARY

// The scalar may be of another arithmetic type (Ascend C's `const U& scalarValue`); it is converted to T.
#define NPURT_VEC_SCALAR(Name, Op)                                                                            \
  template <typename T, typename U>                                                                           \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,     \
                              const int32_t& calCount) {                                                      \
    npurt::sim::vecapi::scalar<npurt::aicore::vec::ScalarOp::Op>(#Name, dst, src, scalarValue, calCount);     \
  }
NPURT_VEC_SCALAR(Adds, kAdds)
NPURT_VEC_SCALAR(Muls, kMuls)
NPURT_VEC_SCALAR(Maxs, kMaxs)
NPURT_VEC_SCALAR(Mins, kMins)
NPURT_VEC_SCALAR(LeakyRelu, kLeakyRelu)
#undef NPURT_VEC_SCALAR

#define NPURT_VEC_UNARY(Name, Op)                                                                         \
  template <typename T>                                                                                   \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& calCount) { \
    npurt::sim::vecapi::unary<npurt::aicore::vec::UnaryOp::Op>(#Name, dst, src, calCount);                \
  }
NPURT_VEC_UNARY(Exp, kExp)
NPURT_VEC_UNARY(Ln, kLn)
NPURT_VEC_UNARY(Abs, kAbs)
NPURT_VEC_UNARY(Sqrt, kSqrt)
NPURT_VEC_UNARY(Rsqrt, kRsqrt)
NPURT_VEC_UNARY(Reciprocal, kReciprocal)
NPURT_VEC_UNARY(Relu, kRelu)
NPURT_VEC_UNARY(Not, kNot)
#undef NPURT_VEC_UNARY

// dst[i] = src0[i] * dst[i] + src1[i] (half, float). The simulator rounds the
// product to T before the add (the same bits as Mul then Add).
template <typename T>
__aicore__ inline void FusedMulAdd(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                                   const int32_t& calCount) {
  npurt::sim::vecapi::ternary<npurt::aicore::vec::TernaryOp::kFusedMulAdd>("FusedMulAdd", dst, src0, src1, calCount);
}

// dst[i] = src0[i] * src1[i] + dst[i] (half, float; same-type form), product rounded as FusedMulAdd.
template <typename T>
__aicore__ inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                                 const int32_t& calCount) {
  npurt::sim::vecapi::ternary<npurt::aicore::vec::TernaryOp::kMulAddDst>("MulAddDst", dst, src0, src1, calCount);
}

// dst[i] = scalarValue for i < calCount.
template <typename T>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const int32_t& calCount) {
  namespace va = npurt::sim::vecapi;
  static_assert(va::kVecElem<T> && npurt::aicore::vec::duplicate_supported(npurt::aicore::vec::vtype_of<T>),
                "Duplicate does not support this element type on A2/A3");
  const uint64_t n = va::count_arg("Duplicate", calCount);
  if (n == 0) return;
  T* pd = va::dst_operand("Duplicate", dst, n);
  va::raw_ok("Duplicate", npurt::aicore::vec::duplicate(npurt::aicore::vec::vtype_of<T>, pd, &scalarValue, n));
}

// dst[i] = dst[i] + src[i] * scalarValue; (T, U) in {(half, half), (float, float), (float, half)}.
template <typename T, typename U>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue,
                            const int32_t& calCount) {
  namespace va = npurt::sim::vecapi;
  static_assert((std::is_same_v<T, U> && (std::is_same_v<T, half> || std::is_same_v<T, float>)) ||
                    (std::is_same_v<T, float> && std::is_same_v<U, half>),
                "Axpy supports (dst, src) = (half, half), (float, float), (float, half)");
  const uint64_t n = va::count_arg("Axpy", calCount);
  if (n == 0) return;
  // src is mirror-aware (a cheap op, like Add): a float16 sum folds each tile
  // into its float32 accumulator with Axpy straight from GM.
  const U* ps = npurt::sim::vec_source_view("Axpy", src, n);
  va::src_operand("Axpy", dst, n);  // dst is read too (must have been written, at full)
  T* pd = va::dst_operand("Axpy", dst, n);
  va::check_overlap("Axpy", pd, n * sizeof(T), ps, n * sizeof(U), std::is_same_v<T, U>);
  va::raw_ok("Axpy", npurt::aicore::vec::axpy(npurt::aicore::vec::vtype_of<T>, npurt::aicore::vec::vtype_of<U>, pd,
                                              npurt::sim::read_source(src, ps, n), &scalarValue, n));
}

}  // namespace AscendC
