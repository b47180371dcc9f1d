// runtime/ops/scan_ops.cc: npurt::array::scan (npurt/array_ops.h), the C++
// entry of cumulative_sum / cumulative_prod, and the one split rule of long
// 1-D scans (the array-API layer, _scan.py, calls through here).
//
// Why a split: the scan kernels' unit of work is one row (or one run of
// columns), so a single long 1-D scan runs on one core. Cut into k rows of
// n/k elements it runs on k cores; a second pass adds (multiplies) each row's
// offset, the exclusive scan of the row totals. The offsets are the scan of
// [start, total of row 0, ..., total of row k-2] with start = -0 for sums (the
// kernel's own start: include_initial's +0 would turn row 0's -0 sums into +0,
// and -0 + t == t for every t) and 1 for products, so row 0 is exactly the
// sequential scan and the other rows differ from it by rounding only.
//
// Invariants: the split applies to float32 results only (the combine pass is
// one vector add / multiply) of >= kSplitMin elements divisible by some k in
// kRows; everything else is one kernel launch with the caller's attributes.
// Kernel errors are re-raised under the public name ("npurt.ops.cumsum" ->
// "npurt.cumulative_sum"); nothing is enqueued when the arguments are bad.
#include <atomic>
#include <string>

#include "npurt/array_ops.h"
#include "npurt/dispatch.h"
#include "npurt/ops.h"
#include "npurt/runtime.h"
#include "npurt/status.h"

namespace npurt {
namespace array {
namespace {

constexpr uint64_t kSplitMin = uint64_t{1} << 18;  // below: one launch is as fast (docs/performance.md)
constexpr uint64_t kRows[] = {64, 32, 16, 8};      // the most rows that divide n, largest first
constexpr const char* kKernel[] = {"cumsum", "cumprod"};
constexpr const char* kPublic[] = {"cumulative_sum", "cumulative_prod"};

std::atomic<RegisteredOp*> g_scan_ops[2];

OpHandle kernel(ScanOp op) {
  std::atomic<RegisteredOp*>& slot = g_scan_ops[static_cast<int>(op)];
  RegisteredOp* h = slot.load(std::memory_order_acquire);
  if (h == nullptr) {
    h = OpHandle::find(kKernel[static_cast<int>(op)]).impl();
    slot.store(h, std::memory_order_release);
  }
  return OpHandle(h);
}

int check_op(ScanOp op) {
  const int i = static_cast<int>(op);
  if (i < 0 || i > 1) throw InvalidArgument("npurt.array.scan: argument 'op': unknown scan");
  return i;
}

// One launch of the scan kernel, its errors under the public name.
Tensor run_scan(ScanOp op, const Tensor& x, int64_t axis, const std::string& dtype, bool include_initial,
                const Stream& stream) {
  const AttrValue attrs[3] = {AttrValue(axis), AttrValue(include_initial), AttrValue(dtype)};
  Tensor result[1];
  try {
    dispatch(kernel(op), Span<const Tensor>(&x, 1), Span<const AttrValue>(attrs, 3), stream,
             Span<Tensor>(result, 1));
  } catch (const InvalidArgument& e) {
    std::string msg = e.what();
    const int i = static_cast<int>(op);
    const std::string from = std::string("npurt.ops.") + kKernel[i], to = std::string("npurt.") + kPublic[i];
    for (size_t at = msg.find(from); at != std::string::npos; at = msg.find(from, at + to.size()))
      msg.replace(at, from.size(), to);
    rethrow_invalid_argument(e, msg);  // keeps a dtype refusal's code
  }
  return result[0];
}

Tensor reshaped(const Tensor& contiguous, const Dims& shape) {
  return contiguous.view(shape, contiguous_strides(shape), contiguous.byte_offset());
}

// The split scan of a 1-D float32 x of n = k * m elements (see the file comment).
Tensor split_scan(ScanOp op, const Tensor& x, uint64_t k, const Stream& stream) {
  const Stream& s = stream.valid() ? stream : x.stream();
  const int64_t n = x.shape()[0], rows = static_cast<int64_t>(k), m = n / rows;
  const Tensor flat = x.is_contiguous() ? x : ops::copy(x, s);
  const Tensor part = run_scan(op, reshaped(flat, {rows, m}), 1, "float32", false, s);
  // [start, totals of rows 0..k-2]: the fill kernel writes start, the copy kernel the strided totals.
  const bool sum = op == ScanOp::kSum;
  Tensor starts = ops::fill({rows}, DType::kFloat32, sum ? -0.0 : 1.0, s);
  const int64_t elem = 4;
  const Tensor totals = part.view({rows - 1}, {m}, part.byte_offset() + (m - 1) * elem);
  ops::copy(totals, s, starts.view({rows - 1}, {1}, starts.byte_offset() + elem));
  const Tensor offsets = run_scan(op, starts, 0, "float32", false, s);
  Tensor y = binary(sum ? BinaryOp::kAdd : BinaryOp::kMultiply, part, reshaped(offsets, {rows, 1}), s);
  return reshaped(y, {n});
}

}  // namespace

const char* scan_op_name(ScanOp op) { return kPublic[check_op(op)]; }

uint64_t scan_split_rows(const Tensor& x, int64_t axis, const ScanArgs& args) {
  if (x.ndim() != 1 || args.include_initial || x.dtype() != DType::kFloat32) return 0;
  if (!(axis == 0 || axis == -1) || !(args.dtype.empty() || args.dtype == "float32")) return 0;
  const uint64_t n = static_cast<uint64_t>(x.shape()[0]);
  if (n < kSplitMin) return 0;
  for (uint64_t k : kRows)
    if (n % k == 0) return k;
  return 0;
}

Tensor scan(ScanOp op, const Tensor& x, int64_t axis, const ScanArgs& args, const Stream& stream) {
  check_op(op);
  const uint64_t k = scan_split_rows(x, axis, args);
  if (k != 0) return split_scan(op, x, k, stream);
  return run_scan(op, x, axis, args.dtype, args.include_initial, stream);
}

}  // namespace array
}  // namespace npurt
