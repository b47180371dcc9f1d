// kernels/softmax/softmax_ops.cc: host side of softmax, log_softmax and their
// backward ops: signature, inference, the tiling engine request and the
// registration (one table; kernels softmax_kernel.cc and
// softmax_backward_kernel.cc).
//
//   softmax(x; axis=-1, dtype="") -> y            log_softmax(x; axis=-1, dtype="") -> y
//   softmax_backward(dy, y; axis=-1, dtype="") -> dx   (same for log_softmax_backward)
// The forward ops take any axis (a non-last one runs the column plan of
// softmax_columns.h); the backward ops only the last axis (or an axis followed
// by size-1 dims), other axes are rejected naming the fix.
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

// x as [outer, C, inner] around the normalized axis.
struct AxisView {
  uint64_t outer = 1, len = 0, inner = 1;
};

AxisView axis_view(const OpContext& ctx) {
  const Dims& s = ctx.input(0).shape;
  const int64_t n = static_cast<int64_t>(s.size()), axis = ctx.attr_int("axis");
  if (axis < -n || axis >= n)
    ctx.fail("axis", "axis " + std::to_string(axis) + " is out of bounds for an array of dimension " + std::to_string(n));
  const size_t a = static_cast<size_t>(axis < 0 ? axis + n : axis);
  AxisView v;
  v.len = static_cast<uint64_t>(s[a]);
  for (size_t i = 0; i < a; ++i) v.outer *= static_cast<uint64_t>(s[i]);
  for (size_t i = a + 1; i < s.size(); ++i) v.inner *= static_cast<uint64_t>(s[i]);
  return v;
}

// Forward ops take any axis; the backward kernels only the last one (or an
// axis followed by size-1 dims).
void check_axis(const OpContext& ctx, bool backward) {
  const AxisView v = axis_view(ctx);
  if (!backward || v.inner <= 1 || v.outer * v.len == 0) return;
  const int64_t axis = ctx.attr_int("axis");
  ctx.fail("axis", "the backward kernel supports only the last axis (axis " + std::to_string(axis) +
                       " is followed by dims of size > 1); move that axis last first, e.g. nr.moveaxis(x, " +
                       std::to_string(axis) + ", -1)");
}

// Forward tiles hold at most kForwardTileBytes of output rows (a row longer
// than that gets a tile of its own). Why: on the sim each tile's local -> GM
// copy is a memcpy whose destination lines the Exp loops of the following tile
// prefetch for write (stream_window.h); with the output tile, its next
// destination and the input rows all inside the host's 48 KiB L1, softmax
// [4096, 1024] float32 took ~17 % less time than with 11-row (44 KiB) tiles,
// and 2-4 rows were within noise of each other; 8 KiB tiles of 2 KiB rows
// (streamed 256 MiB outputs) were 5-8 % slower than 16 KiB ones
// (docs/performance-history.md "Softmax (wave 12)"). On an NPU, 16 KiB DMA bursts
// still run near the MTE's peak.
constexpr uint64_t kForwardTileBytes = 16 * 1024;

uint32_t forward_tile_rows(uint64_t row_bytes) {
  const uint64_t rows = row_bytes == 0 ? 1 : kForwardTileBytes / row_bytes;
  return static_cast<uint32_t>(rows < 1 ? 1 : rows > 4095 ? 4095 : rows);
}

// The UB buffers of the forward / backward kernels, in their InitBuffer order.
tl::RowRequest softmax_request(const OpContext& ctx, bool backward, DType out) {
  const DType in = ctx.input(0).dtype;
  const AxisView v = axis_view(ctx);  // inner == 1 here: rows are contiguous runs of the axis
  tl::RowRequest req;
  req.cols = v.len;
  req.rows = v.outer;
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
  if (!backward) req.max_rows_per_tile = forward_tile_rows(v.len * elem_bytes(out));
  return req;
}

// The column plan (softmax_columns.h) of a forward op over a non-last axis:
// [C, inner] slabs, columns over cores, all C rows of a column chunk in one
// tile when UB allows (narrower chunks rather than three passes over GM).
tl::RowPlan column_plan(const OpContext& ctx, const AxisView& v, DType out) {
  const DType in = ctx.input(0).dtype;
  const ChipProfile& p = ctx.profile();
  tl::RowRequest req;
  req.rows = v.len, req.cols = v.inner, req.split = tl::Split::kColumns;
  req.buffers.push_back({"x", tl::Scope::kTile, elem_bytes(in), true});
  req.buffers.push_back({"y", tl::Scope::kTile, elem_bytes(out), true});
  if (out != DType::kFloat32) req.buffers.push_back({"f32", tl::Scope::kTile, 4, false});
  for (const char* row : {"col_max", "col_sum", "col_tmp"})  // one TBuf of three rows in the kernel
    req.buffers.push_back({row, tl::Scope::kColumns, 4, false});
  tl::RowPlan plan = tl::plan_rows(req, p);
  tl::RowTilingData& d = plan.data;
  if (d.num_blocks > 0 && d.rows_per_tile < req.rows && req.rows <= req.max_rows_per_tile) {
    const uint32_t rows = static_cast<uint32_t>(req.rows), a = d.align_elems;
    for (uint32_t depth : {2u, 1u}) {
      uint64_t lo = 0, hi = (d.per_core + a - 1) / a;  // largest k with k * a columns fitting
      while (lo < hi) {
        const uint64_t mid = (lo + hi + 1) / 2;
        if (tl::ub_bytes_needed(req, rows, static_cast<uint32_t>(mid * a), depth) <= p.ub_usable_bytes) lo = mid;
        else hi = mid - 1;
      }
      if (lo == 0) continue;
      d.rows_per_tile = rows, d.depth = depth;
      d.chunk = d.chunk_stride = static_cast<uint32_t>(lo * a);
      d.num_chunks = static_cast<uint32_t>((d.per_core + d.chunk - 1) / d.chunk);
      plan.ub_used = tl::ub_bytes_needed(req, rows, d.chunk_stride, depth);
      plan.buffers.clear();  // the per-buffer list of the first plan no longer applies
      break;
    }
  }
  d.rows = v.outer * v.len;  // the GM extent: every slab
  if (d.rows == 0) d.num_blocks = 0;
  return plan;
}

void infer_softmax(const OpContext& ctx, bool backward) {
  check_axis(ctx, backward);
  if (backward) check_like(ctx, 1, "y", ctx.input(0).shape, ctx.input(0).dtype);
  ctx.set_output(0, ctx.input(0).shape, row_out_dtype(ctx, ctx.input(0).dtype));
}

void tiling_softmax(const OpContext& ctx, TilingResult& r, SoftmaxKind kind, bool backward) {
  const DType in = ctx.input(0).dtype, out = row_out_dtype(ctx, in);
  check_row_profile(ctx, in);
  SoftmaxTiling t;
  t.kind = static_cast<uint32_t>(kind);
  t.in_dtype = static_cast<uint32_t>(in), t.out_dtype = static_cast<uint32_t>(out);
  const AxisView v = axis_view(ctx);
  if (!backward && v.inner > 1) {
    t.plan = column_plan(ctx, v, out).data;
    t.axis_len = v.len;
  } else {
    t.plan = tl::plan_rows(softmax_request(ctx, backward, out), ctx.profile()).data;
  }
  r.num_blocks = t.plan.num_blocks;
  r.set_tiling(t);
}

std::string describe_softmax(const OpContext& ctx, bool backward) {
  const AxisView v = axis_view(ctx);
  if (!backward && v.inner > 1) {
    const tl::RowPlan plan = column_plan(ctx, v, row_out_dtype(ctx, ctx.input(0).dtype));
    return "column plan (" + std::to_string(v.outer) + " slabs of [" + std::to_string(v.len) + ", " +
           std::to_string(v.inner) + "], the axis down the columns" +
           (plan.data.rows_per_tile >= v.len ? ", one load per chunk): " : ", three passes per chunk): ") +
           plan.to_string();
  }
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
     "Softmax over `axis` (any axis, default the last): y = exp(x - max) / sum(exp(x - max)); float32 inside, "
     "online max/sum for rows longer than UB. dtype=\"float32\" returns float32 for float16/bfloat16 inputs."},
    {"log_softmax", SoftmaxKind::kLogSoftmax, false,
     "Log-softmax over `axis` (any axis, default the last): y = x - max - ln(sum(exp(x - max))); float32 inside, "
     "online max/sum for rows longer than UB. dtype=\"float32\" returns float32 for float16/bfloat16 inputs."},
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
