// kernels/softmax/softmax_ops.cc: host side of softmax, log_softmax and their
// backward ops: signature, inference, the tiling engine request and the
// registration (one table; kernels softmax_kernel.cc and
// softmax_backward_kernel.cc).
//
//   softmax(x; axis=-1, dtype="") -> y            log_softmax(x; axis=-1, dtype="") -> y
//   softmax_backward(dy, y; axis=-1, dtype="") -> dx   (same for log_softmax_backward)
// Only the last axis (or an axis followed by size-1 dims) is supported; other
// axes are rejected naming the fix (move the axis last first).
#include <cstring>
#include <string>
#include <vector>

#include "norm/row_op_util.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"
#include "softmax/softmax_tiling.h"

namespace npurt::kernels {

extern const SimKernelEntry kSoftmaxEntry;
extern const SimKernelEntry kSoftmaxBackwardEntry;

namespace {

namespace tl = npurt::tiling;

const DTypeMask kFloatTypes = dtype_mask({DType::kFloat32, DType::kFloat16, DType::kBFloat16});

void check_axis(const OpContext& ctx) {
  const Dims& s = ctx.input(0).shape;
  const int64_t n = static_cast<int64_t>(s.size()), axis = ctx.attr_int("axis");
  if (axis < -n || axis >= n)
    ctx.fail("axis", "axis " + std::to_string(axis) + " is out of bounds for an array of dimension " + std::to_string(n));
  const int64_t a = axis < 0 ? axis + n : axis;
  for (int64_t i = a + 1; i < n; ++i)
    if (s[static_cast<size_t>(i)] != 1)
      ctx.fail("axis", "only the last axis is supported (axis " + std::to_string(axis) +
                           " is followed by dims of size > 1); move that axis last first, e.g. nr.moveaxis(x, " +
                           std::to_string(axis) + ", -1)");
}

// The UB buffers of the forward / backward kernels, in their InitBuffer order.
tl::RowRequest softmax_request(const OpContext& ctx, bool backward, DType out) {
  const DType in = ctx.input(0).dtype;
  const TensorSpec& x = ctx.input(0);
  // An axis followed only by size-1 dims: rows are still contiguous runs of its length.
  const int64_t n = static_cast<int64_t>(x.shape.size()), axis = ctx.attr_int("axis");
  const size_t a = static_cast<size_t>(axis < 0 ? axis + n : axis);
  tl::RowRequest req;
  req.cols = static_cast<uint64_t>(x.shape[a]);
  req.rows = 1;
  for (size_t i = 0; i < a; ++i) req.rows *= static_cast<uint64_t>(x.shape[i]);
  if (backward) {
    req.buffers.push_back({"dy", tl::Scope::kTile, elem_bytes(in), true});
    req.buffers.push_back({"y", tl::Scope::kTile, elem_bytes(in), true});
    req.buffers.push_back({"dx", tl::Scope::kTile, elem_bytes(out), true});
    if (in != DType::kFloat32) req.buffers.push_back({"f32_dy_y", tl::Scope::kTile, 8, false});
  } else {
    req.buffers.push_back({"x", tl::Scope::kTile, elem_bytes(in), true});
    req.buffers.push_back({"y", tl::Scope::kTile, elem_bytes(out), true});
    if (out != DType::kFloat32) req.buffers.push_back({"f32", tl::Scope::kTile, 4, false});
  }
  req.buffers.push_back({"row_tmp", tl::Scope::kColumns, 4, false});
  if (!backward) req.buffers.push_back({"sums", tl::Scope::kRows, 4, false});
  add_reduce_buffers(req, ctx.profile());
  return req;
}

void infer_softmax(const OpContext& ctx, bool backward) {
  check_axis(ctx);
  if (backward) check_like(ctx, 1, "y", ctx.input(0).shape, ctx.input(0).dtype);
  ctx.set_output(0, ctx.input(0).shape, row_out_dtype(ctx, ctx.input(0).dtype));
}

void tiling_softmax(const OpContext& ctx, TilingResult& r, SoftmaxKind kind, bool backward) {
  const DType in = ctx.input(0).dtype, out = row_out_dtype(ctx, in);
  check_row_profile(ctx, in);
  SoftmaxTiling t;
  t.kind = static_cast<uint32_t>(kind);
  t.in_dtype = static_cast<uint32_t>(in), t.out_dtype = static_cast<uint32_t>(out);
  t.plan = tl::plan_rows(softmax_request(ctx, backward, out), ctx.profile()).data;
  r.num_blocks = t.plan.num_blocks;
  r.set_tiling(t);
}

std::string describe_softmax(const OpContext& ctx, bool backward) {
  const tl::RowPlan plan =
      tl::plan_rows(softmax_request(ctx, backward, row_out_dtype(ctx, ctx.input(0).dtype)), ctx.profile());
  const char* mode = !plan.chunked() ? "rows in UB: " : backward ? "multi-pass (row sum over chunks, then dx): "
                                                               : "online softmax (running max/sum over chunks, then output): ";
  return mode + plan.to_string();
}

struct SoftmaxRow {
  const char* name;
  SoftmaxKind kind;
  bool backward;
  const char* doc;
};

const SoftmaxRow kSoftmaxOps[] = {
    {"softmax", SoftmaxKind::kSoftmax, false,
     "Softmax over the last axis: y = exp(x - max) / sum(exp(x - max)); float32 inside, online max/sum for rows "
     "longer than UB. dtype=\"float32\" returns float32 for float16/bfloat16 inputs."},
    {"log_softmax", SoftmaxKind::kLogSoftmax, false,
     "Log-softmax over the last axis: y = x - max - ln(sum(exp(x - max))); float32 inside, online max/sum for rows "
     "longer than UB. dtype=\"float32\" returns float32 for float16/bfloat16 inputs."},
    {"softmax_backward", SoftmaxKind::kSoftmax, true,
     "Gradient of softmax from its output y: dx = y * (dy - sum(dy * y, axis=-1)); float32 inside."},
    {"log_softmax_backward", SoftmaxKind::kLogSoftmax, true,
     "Gradient of log_softmax from its output y: dx = dy - exp(y) * sum(dy, axis=-1); float32 inside."},
};

std::vector<OpDefBuilder> softmax_defs() {
  std::vector<OpDefBuilder> defs;
  for (const SoftmaxRow& row : kSoftmaxOps) {
    const SoftmaxKind kind = row.kind;
    const bool backward = row.backward;
    OpDefBuilder b(row.name);
    b.doc(row.doc).input(backward ? "dy" : "x", kFloatTypes).rank(1);
    if (backward) b.input("y", kFloatTypes);
    b.output(backward ? "dx" : "y")
        .attr("axis", AttrType::kInt, AttrValue(-1))
        .attr("dtype", AttrType::kString, AttrValue(""))
        .infer([backward](const OpContext& ctx) { infer_softmax(ctx, backward); })
        .tiling([kind, backward](const OpContext& ctx, TilingResult& r) { tiling_softmax(ctx, r, kind, backward); })
        .describe_tiling([backward](const OpContext& ctx, const TilingResult&) { return describe_softmax(ctx, backward); })
        .cost([backward](const OpContext& ctx, OpCost& c) {
          const double n = static_cast<double>(ctx.input(0).numel());
          c.bytes = n * itemsize(ctx.input(0).dtype) * (backward ? 2 : 1) + n * itemsize(ctx.output(0).dtype);
          c.flops = 5 * n;
        })
        .sim_kernel(backward ? "npurt_softmax_backward_kernel" : "npurt_softmax_kernel",
                    backward ? kSoftmaxBackwardEntry : kSoftmaxEntry);
    defs.push_back(std::move(b));
  }
  return defs;
}

}  // namespace

NPURT_REGISTER_OPS(softmax_defs());

}  // namespace npurt::kernels
