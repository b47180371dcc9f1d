// npurt/array_ops.h: the array API's common elementwise operators and
// reductions as direct C++ calls (what Python's `x + y` and `x.sum()` run).
//
//   npurt::Tensor z = npurt::array::binary(npurt::array::BinaryOp::kAdd, x, y);
//   npurt::Tensor s = npurt::array::reduce(npurt::array::ReduceOp::kSum, x);
//
// These are the hot path of tiny ops: each call resolves its kernel once
// (cached OpHandle), builds no string and searches no map, then goes through
// dispatch() like any op. They cover the common cases only and say so with an
// InvalidArgument naming the function ("npurt.add: argument 'x2': ..."):
//   - binary(): both operands of one dtype (promotion between dtypes and
//     Python-scalar rules live in the array-API layer); shapes broadcast as
//     numpy does (in the kernel); divide takes floating/complex dtypes.
//   - reduce(): float16, float32, float64 inputs; the result keeps the dtype
//     (float16 is accumulated in float32 by the kernel). Integer and bool
//     inputs (numpy's int64 accumulation) go through nr.sum & co.
//
// Invariants: the results are exactly those of the array-API functions
// (npurt.add, npurt.sum, ...) for the same inputs: same kernels, same
// attributes, same two-pass split of large float32 whole-array reductions.
// Errors of binary()'s kernels are re-raised under the public name
// ("npurt.ops.add_broadcast" -> "npurt.add"); nothing is enqueued on error.
#pragma once

#include <cstdint>

#include "npurt/stream.h"
#include "npurt/tensor.h"

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {
namespace array {

enum class BinaryOp : uint8_t {
  kAdd, kSubtract, kMultiply, kDivide, kFloorDivide, kRemainder, kPow,
  kBitwiseAnd, kBitwiseOr, kBitwiseXor, kBitwiseLeftShift, kBitwiseRightShift,
  kEqual, kNotEqual, kLess, kLessEqual, kGreater, kGreaterEqual, kMaximum, kMinimum,
};
constexpr int kNumBinaryOps = 20;

// The array-API name of `op` ("add", "bitwise_left_shift", "less_equal", ...).
const char* binary_op_name(BinaryOp op);

// x1 <op> x2, broadcast; comparisons give bool. `out`, when given, receives
// the result (contiguous, the broadcast shape and the result dtype). A null
// stream means the inputs' current stream.
Tensor binary(BinaryOp op, const Tensor& x1, const Tensor& x2, const Stream& stream = Stream(),
              const Tensor& out = Tensor());

enum class ReduceOp : uint8_t { kSum, kProd, kMax, kMin, kMean };
const char* reduce_op_name(ReduceOp op);  // "sum", "prod", ...

// Over every axis: a 0-d result (keepdims: all dimensions kept as 1).
Tensor reduce(ReduceOp op, const Tensor& x, bool keepdims = false, const Stream& stream = Stream());

// Over `axes` (distinct, negative counts from the end). Empty `axes` reduces
// nothing: the result is a copy of x, as the standard says for axis=().
Tensor reduce(ReduceOp op, const Tensor& x, const Dims& axes, bool keepdims = false,
              const Stream& stream = Stream());

}  // namespace array
}  // namespace npurt
NPURT_PUBLIC_END
