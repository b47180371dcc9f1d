// npurt/array_ops.h: the array API's common elementwise operators and
// reductions as direct C++ calls (what Python's `x + y` and `x.sum()` run).
//
//   npurt::Tensor z = npurt::array::binary(npurt::array::BinaryOp::kAdd, x, y);
//   npurt::Tensor s = npurt::array::reduce(npurt::array::ReduceOp::kSum, x);
//   npurt::Tensor c = npurt::array::scan(npurt::array::ScanOp::kSum, x, 0);
//
// These are the hot path of tiny ops: each call resolves its kernel once
// (cached OpHandle), builds no string and searches no map, then goes through
// dispatch() like any op. They cover the common cases only and say so with an
// InvalidArgument naming the function ("npurt.add: argument 'x2': ..."):
//   - binary(): both operands of one dtype (promotion between dtypes and
//     Python-scalar rules live in the array-API layer); shapes broadcast as
//     numpy does (in the kernel); divide takes floating/complex dtypes.
//   - reduce(op, x[, axes]): float16, float32, float64 inputs; the result
//     keeps the dtype (float16 is accumulated in float32 by the kernel).
//   - reduce(op, x, ReduceArgs): the general form behind nr.sum & co: every
//     dtype the reduce_<op> kernels take (kernels/reduction: also int32, bool
//     for any/all, int64/uint64/complex sim-only), axis None or a tuple,
//     float16 inputs with a float32 result. (numpy's int64 accumulation of
//     small integers is the array-API layer's conversion before this call.)
//   - every form splits long reductions over the cores the same way: when
//     the outputs are too few to occupy the cores, the reduced extent is cut
//     into ranges (any length; the last range may be shorter), one launch
//     writes a partial per range and a second combines them (array_ops.cc).
//   - scan(op, x, axis[, ScanArgs]): cumulative sum / product along one axis
//     (the cumsum / cumprod kernels, kernels/scan: every dtype they take;
//     ScanArgs.dtype is their dtype attribute, "" = the array-API default).
//     A long 1-D float32 scan (>= 2^18 elements, a multiple of 8, no
//     include_initial) is split into k rows scanned in parallel, the scan of
//     [start, row totals] (start -0 for sums, 1 for products) and one
//     broadcast add / multiply (scan_ops.cc, the only copy of this rule); it
//     differs from a sequential float32 scan by rounding only. Errors name
//     the public function ("npurt.cumulative_sum: argument 'axis': ...").
//
// Invariants: the results are exactly those of the array-API functions
// (npurt.add, npurt.sum, ...) for the same inputs: same kernels, same
// attributes, same split of long reductions (this file's rule is the only one).
// Errors of binary()'s kernels are re-raised under the public name
// ("npurt.ops.add_broadcast" -> "npurt.add"); nothing is enqueued on error.
#pragma once

#include <cstdint>
#include <string>

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
//
// Deferred fusion: a float32 add / subtract / multiply of >= 256 Ki elements
// (without `out`) is checked and its output allocated here, but its launch
// waits in one global slot; when the next binary() call reads that output as a
// temporary, ONE fused_elementwise launch computes both ops (bit-identical to
// the two launches; the first output is never written). Anything else (any
// other launch, copy, synchronize, query, event, DLPack export, another
// thread's call) enqueues the waiting launch first, so nothing can observe the
// difference but the speed. "Temporary": the operands are taken by value, so a
// prvalue argument (binary(op, binary(...), y)) fuses and a named Tensor does
// not (a helper that forwards a temporary should take it by value and
// std::move it on, as a const& parameter adds a handle); `x1_expiring` /
// `x2_expiring` tell that one more handle the caller passes (e.g. a Python
// object with no other reference) dies with the call.
Tensor binary(BinaryOp op, Tensor x1, Tensor x2, const Stream& stream = Stream(), const Tensor& out = Tensor());
Tensor binary(BinaryOp op, Tensor x1, Tensor x2, bool x1_expiring, bool x2_expiring);
// Like binary(op, x1, x2), where operand `constant_pos` (0: x1, 1: x2) is a
// 0-d float32 array that the caller guarantees holds exactly `value` (e.g. a
// cached constant, as Python's scalar operands are): the eager launch reads
// the array as usual; a deferred op may fuse the value into the program as a
// constant (Adds / Muls) instead of reading the array.
Tensor binary_with_constant(BinaryOp op, Tensor x1, Tensor x2, int constant_pos, float value);

// The deferral switch (default on; NPURT_DEFER=0 in the environment turns it
// off at start-up). Turning it off flushes.
void set_deferred_fusion(bool enabled);
bool deferred_fusion_enabled();
// Enqueues the deferred launch, if any (what every chokepoint calls).
void flush_deferred();
// Fused launches made so far by deferral (a process-wide counter, for tests
// and benchmarks that must know the fusion happened).
uint64_t deferred_fusion_count();

enum class ReduceOp : uint8_t { kSum, kProd, kMax, kMin, kMean, kAny, kAll };
const char* reduce_op_name(ReduceOp op);  // "sum", "prod", ...

// Over every axis: a 0-d result (keepdims: all dimensions kept as 1).
Tensor reduce(ReduceOp op, const Tensor& x, bool keepdims = false, const Stream& stream = Stream());

// Over `axes` (distinct, negative counts from the end). Empty `axes` reduces
// nothing: the result is a copy of x, as the standard says for axis=().
Tensor reduce(ReduceOp op, const Tensor& x, const Dims& axes, bool keepdims = false,
              const Stream& stream = Stream());

struct ReduceArgs {
  bool all_axes = true;         // axis=None (reduces a 0-d array too); false: over `axes`
  Dims axes;                    // distinct, negative counts from the end; empty = nothing (a copy)
  bool keepdims = false;
  bool float32_result = false;  // float16 input: return the float32 accumulation unrounded
};

// The general form (any/all take bool inputs). Kernel errors keep the
// kernel's name ("npurt.ops.reduce_sum: argument 'x': ...").
Tensor reduce(ReduceOp op, const Tensor& x, const ReduceArgs& args, const Stream& stream = Stream());

// How reduce(op, x, args) runs x (after moving non-adjacent reduced axes
// last): the kernel's [outer, len, inner] view and the split rule's choice,
// part_len == 0 for one launch, else `parts` ranges of part_len elements
// (the last one shorter when part_len does not divide len) and a combining launch.
struct ReducePlan {
  uint64_t outer = 1, len = 1, inner = 1;
  uint64_t part_len = 0;
  uint64_t parts = 1;
};
ReducePlan reduce_plan(const Tensor& x, const ReduceArgs& args);

enum class ScanOp : uint8_t { kSum, kProd };
const char* scan_op_name(ScanOp op);  // "cumulative_sum", "cumulative_prod"

struct ScanArgs {
  std::string dtype;             // the kernels' dtype attribute: "" = default (int64/uint64 for integers)
  bool include_initial = false;  // prepend the identity (the result is one longer along axis)
};

// Cumulative sum / product of x along `axis` (negative counts from the end;
// x has rank >= 1). Results are those of npurt.cumulative_sum / _prod.
Tensor scan(ScanOp op, const Tensor& x, int64_t axis, const ScanArgs& args = ScanArgs(),
            const Stream& stream = Stream());

// The split scan() uses: k rows (8..64) for a long 1-D float32 scan, 0 when
// it runs as one launch. (For tests and benchmarks.)
uint64_t scan_split_rows(const Tensor& x, int64_t axis, const ScanArgs& args = ScanArgs());

}  // namespace array
}  // namespace npurt
NPURT_PUBLIC_END
