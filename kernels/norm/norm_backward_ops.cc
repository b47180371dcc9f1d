// kernels/norm/norm_backward_ops.cc: host side of layer_norm_backward and
// rms_norm_backward (kernel: norm_backward_kernel.cc): signature, inference,
// the two tiling-engine plans (dx over rows, dgamma/dbeta over columns) and
// the registration from one table.
//
//   layer_norm_backward(dy, x, mean, rstd, gamma=None; dtype="") -> (dx, dgamma, dbeta)
//   rms_norm_backward(dy, x, rstd, gamma=None; dtype="")         -> (dx, dgamma)
// mean/rstd are the float32 statistics the forward op returned. dgamma/dbeta
// have shape (D,) and are summed over every row in float32 on the device
// (without gamma, dgamma is the gradient for gamma = 1).
#include <algorithm>
#include <string>
#include <vector>

#include "norm/norm_tiling.h"
#include "norm/row_op_util.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"

namespace npurt::kernels {

extern const SimKernelEntry kLayerNormBackwardEntry;
extern const SimKernelEntry kRmsNormBackwardEntry;

namespace {

namespace tl = npurt::tiling;

const DTypeMask kFloatTypes = dtype_mask({DType::kFloat32, DType::kFloat16, DType::kBFloat16});
constexpr uint64_t kMinParamColumnsPerCore = 256;  // wide column blocks: fewer, longer vector ops per row

void add_stats(tl::RowRequest& req) {
  req.buffers.push_back({"mean_rstd", tl::Scope::kRows, 8, false});
  req.buffers.push_back({"mean_rstd_pad", tl::Scope::kFixed, 32, false});
}

// The UB buffers of DxPart / ParamGradPart, in their InitBuffer order.
tl::RowRequest backward_request(const OpContext& ctx, bool params_part, bool gamma, DType out) {
  const DType in = ctx.input(0).dtype;
  const RowView v = row_view(ctx.input(0));
  tl::RowRequest req;
  req.rows = v.rows, req.cols = v.cols;
  req.buffers.push_back({"dy", tl::Scope::kTile, elem_bytes(in), true});
  req.buffers.push_back({"x", tl::Scope::kTile, elem_bytes(in), true});
  if (params_part) {
    req.split = tl::Split::kColumns;
    req.min_elems_per_core = std::max<uint64_t>(1, v.rows) * kMinParamColumnsPerCore;
    if (in != DType::kFloat32) req.buffers.push_back({"f32_dy_x", tl::Scope::kTile, 8, false});
    req.buffers.push_back({"dgamma_dbeta_acc", tl::Scope::kColumns, 8, false});
    if (out != DType::kFloat32) req.buffers.push_back({"param_out", tl::Scope::kColumns, elem_bytes(out), false});
    add_stats(req);
    // No rows: dgamma/dbeta are sums over nothing; plan one row so the column
    // part still runs (the kernel then walks 0 rows and writes zeros).
    req.rows = std::max<uint64_t>(req.rows, 1);
    return req;
  }
  req.buffers.push_back({"dx", tl::Scope::kTile, elem_bytes(out), true});
  if (in != DType::kFloat32) req.buffers.push_back({"f32_dy_x", tl::Scope::kTile, 8, false});
  for (const char* row : {"xhat", "g", "tmp"}) req.buffers.push_back({row, tl::Scope::kColumns, 4, false});
  if (gamma) req.buffers.push_back({"gamma_f32", tl::Scope::kColumns, 4, false});
  if (gamma && in != DType::kFloat32) req.buffers.push_back({"gamma_stage", tl::Scope::kColumns, elem_bytes(in), false});
  add_stats(req);
  add_reduce_buffers(req, ctx.profile());
  return req;
}

void infer_backward(const OpContext& ctx, NormKind kind) {
  const TensorSpec& dy = ctx.input(0);
  const bool layer = kind == NormKind::kLayer;
  check_like(ctx, 1, "x", dy.shape, dy.dtype);
  const Dims stats(dy.shape.begin(), dy.shape.end() - 1);
  for (size_t i = 2; i < (layer ? 4u : 3u); ++i) {
    const char* name = layer && i == 2 ? "mean" : "rstd";
    check_like(ctx, i, name, stats, DType::kFloat32);
  }
  check_like(ctx, layer ? 4 : 3, "gamma", Dims{dy.shape.back()}, dy.dtype);
  const DType out = row_out_dtype(ctx, dy.dtype);
  ctx.set_output(0, dy.shape, out);
  ctx.set_output(1, Dims{dy.shape.back()}, out);
  if (layer) ctx.set_output(2, Dims{dy.shape.back()}, out);
}

void tiling_backward(const OpContext& ctx, TilingResult& r, NormKind kind) {
  const DType in = ctx.input(0).dtype, out = row_out_dtype(ctx, in);
  check_row_profile(ctx, in);
  const bool gamma = ctx.has_input(kind == NormKind::kLayer ? 4 : 3);
  NormTiling t;
  t.kind = static_cast<uint32_t>(kind);
  t.in_dtype = static_cast<uint32_t>(in), t.out_dtype = static_cast<uint32_t>(out);
  t.has_gamma = gamma;
  t.rows_plan = tl::plan_rows(backward_request(ctx, false, gamma, out), ctx.profile()).data;
  t.cols_plan = tl::plan_rows(backward_request(ctx, true, gamma, out), ctx.profile()).data;
  t.inv_cols = t.rows_plan.cols ? 1.0f / static_cast<float>(t.rows_plan.cols) : 0.0f;
  t.cols_plan.rows = t.rows_plan.rows;  // 0 rows: the column part writes zeros
  r.num_blocks = std::max(t.rows_plan.num_blocks, t.cols_plan.num_blocks);
  r.set_tiling(t);
}

std::string describe_backward(const OpContext& ctx, NormKind kind) {
  const DType out = row_out_dtype(ctx, ctx.input(0).dtype);
  const bool gamma = ctx.has_input(kind == NormKind::kLayer ? 4 : 3);
  return "dx: " + tl::plan_rows(backward_request(ctx, false, gamma, out), ctx.profile()).to_string() +
         "; dgamma/dbeta (columns over cores, float32 sums over all rows): " +
         tl::plan_rows(backward_request(ctx, true, gamma, out), ctx.profile()).to_string();
}

struct BackwardRow {
  const char* name;
  NormKind kind;
  const char* kernel;
  const SimKernelEntry* entry;
  const char* doc;
};

const BackwardRow kBackwardOps[] = {
    {"layer_norm_backward", NormKind::kLayer, "npurt_layer_norm_backward_kernel", &kLayerNormBackwardEntry,
     "Gradients of layer_norm from the saved mean and rstd: xhat = (x - mean) * rstd, g = dy * gamma,\n"
     "dx = rstd * (g - mean(g) - xhat * mean(g * xhat)), dgamma = sum(dy * xhat), dbeta = sum(dy)\n"
     "(sums over all rows in float32 on the device). Returns (dx, dgamma, dbeta)."},
    {"rms_norm_backward", NormKind::kRms, "npurt_rms_norm_backward_kernel", &kRmsNormBackwardEntry,
     "Gradients of rms_norm from the saved rstd: xhat = x * rstd, g = dy * gamma,\n"
     "dx = rstd * (g - xhat * mean(g * xhat)), dgamma = sum(dy * xhat) (float32 on the device).\n"
     "Returns (dx, dgamma)."},
};

std::vector<OpDefBuilder> backward_defs() {
  std::vector<OpDefBuilder> defs;
  for (const BackwardRow& row : kBackwardOps) {
    const NormKind kind = row.kind;
    const bool layer = kind == NormKind::kLayer;
    OpDefBuilder b(row.name);
    b.doc(row.doc).input("dy", kFloatTypes).rank(1).input("x", kFloatTypes);
    if (layer) b.input("mean", {DType::kFloat32});
    b.input("rstd", {DType::kFloat32}).optional_input("gamma", kFloatTypes).output("dx").output("dgamma");
    if (layer) b.output("dbeta");
    b.attr("dtype", AttrType::kString, AttrValue(""))
        .infer([kind](const OpContext& ctx) { infer_backward(ctx, kind); })
        .tiling([kind](const OpContext& ctx, TilingResult& r) { tiling_backward(ctx, r, kind); })
        .describe_tiling([kind](const OpContext& ctx, const TilingResult&) { return describe_backward(ctx, kind); })
        .cost([](const OpContext& ctx, OpCost& c) {
          const double n = static_cast<double>(ctx.input(0).numel());
          c.bytes = n * (4 * itemsize(ctx.input(0).dtype) + itemsize(ctx.output(0).dtype));
          c.flops = 14 * n;
        })
        .sim_kernel(row.kernel, *row.entry);
    defs.push_back(std::move(b));
  }
  return defs;
}

}  // namespace

NPURT_REGISTER_OPS(backward_defs());

}  // namespace npurt::kernels
