// runtime/ops/deferred_fusion.h: one-deep deferred elementwise fusion behind
// npurt::array::binary (the public switch is in npurt/array_ops.h).
//
// A large float32 add / subtract / multiply is validated and its output
// allocated at the call, but its launch waits in ONE global slot. If the next
// binary() call reads that output as a temporary (no handle to it outlives the
// call), one fused_elementwise launch computes both ops into the new output and
// the deferred output is never written; otherwise the slot is flushed (its
// launch enqueued unchanged) before the next call does anything.
//
// Invariants:
//   - Stream order is eager order: the exec layer flushes the slot before every
//     submit, synchronize, query, close and capture (exec/deferred_flush.h),
//     dispatch() and binary() flush before their checks, DLPack export flushes.
//   - Results are bit-identical to eager: float32 only, the fused program runs
//     the same two float32 ops in the same order (one rounding each).
//   - Errors are raised at the call that caused them; a failed fusion falls
//     back to the deferred launch + the eager op.
//   - The slot's mutex is taken only when the slot is non-empty; the thread
//     that flushes may re-enter (its own submits) without deadlock.
#pragma once

#include "npurt/array_ops.h"
#include "npurt/stream.h"
#include "npurt/tensor.h"

namespace npurt::array::deferral {

// Elements from which an op is deferred (measured: below it the saved pass is
// smaller than the deferral's bookkeeping; far above the tiny-op sizes).
constexpr int64_t kDeferMinElements = int64_t{1} << 18;

// The fused result, or an undefined Tensor when this call is not the second
// op of a fusable pair (the slot is then still as it was).
Tensor try_fuse(BinaryOp op, const Tensor& x1, const Tensor& x2, const Stream& stream, bool x1_expiring,
                bool x2_expiring);

// Operand `pos` (0 or 1; -1: none) is a 0-d float32 array holding `value`
// (binary_with_constant's promise): the fused program may use the value.
struct Constant {
  int pos = -1;
  float value = 0.0f;
};

// The deferred output, or an undefined Tensor when the call is not deferrable
// (the caller dispatches it eagerly). Errors are those of the eager call.
Tensor try_defer(BinaryOp op, const Tensor& x1, const Tensor& x2, const Stream& stream, const Constant& constant);

// True when a binary call of these operands could be deferred or fused (cheap
// pre-check on the hot path: dtype, op, size, switch).
bool candidate(BinaryOp op, const Tensor& x1, const Tensor& x2, const Tensor& out);

}  // namespace npurt::array::deferral
