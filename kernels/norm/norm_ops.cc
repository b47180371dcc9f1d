// kernels/norm/norm_ops.cc: host side of layer_norm and rms_norm (forward):
// signature, inference, the tiling engine request and the registration (one
// table for both ops; the kernel is norm_kernel.cc).
//
//   layer_norm(x, gamma=None, beta=None; eps=1e-5, dtype="") -> (y, mean, rstd)
//   rms_norm(x, gamma=None; eps=1e-6, dtype="")              -> (y, rstd)
// over the last axis; mean/rstd are float32 of shape x.shape[:-1]; y has x's
// dtype or float32 with dtype="float32".
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "norm/norm_tiling.h"
#include "norm/row_op_util.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"

namespace npurt::kernels {

extern const SimKernelEntry kLayerNormEntry;
extern const SimKernelEntry kRmsNormEntry;

namespace {

namespace tl = npurt::tiling;

const DTypeMask kFloatTypes = dtype_mask({DType::kFloat32, DType::kFloat16, DType::kBFloat16});

// The UB buffers of norm_kernel.cc, in its InitBuffer order.
tl::RowRequest forward_request(const OpContext& ctx, NormKind kind, DType out) {
  const DType in = ctx.input(0).dtype;
  const RowView v = row_view(ctx.input(0));
  const bool params = ctx.has_input(1) || (kind == NormKind::kLayer && ctx.has_input(2));
  tl::RowRequest req;
  req.rows = v.rows, req.cols = v.cols;
  req.buffers.push_back({"x", tl::Scope::kTile, elem_bytes(in), true});
  req.buffers.push_back({"y", tl::Scope::kTile, elem_bytes(out), true});
  if (out != DType::kFloat32) req.buffers.push_back({"f32", tl::Scope::kTile, 4, false});
  req.buffers.push_back({"sq", tl::Scope::kColumns, 4, false});
  if (params) req.buffers.push_back({"gamma_beta", tl::Scope::kColumns, 8, false});
  if (params && in != DType::kFloat32) req.buffers.push_back({"param_stage", tl::Scope::kColumns, elem_bytes(in), false});
  req.buffers.push_back({"mean_rstd", tl::Scope::kRows, 8, false});
  req.buffers.push_back({"mean_rstd_pad", tl::Scope::kFixed, 32, false});
  req.buffers.push_back({"row_sums", tl::Scope::kRows, 32, false});  // one ReduceSum slot per row
  add_reduce_buffers(req, ctx.profile());
  return req;
}

float checked_eps(const OpContext& ctx) {
  const double eps = ctx.attr_float("eps");
  if (!(eps >= 0) || !std::isfinite(eps)) ctx.fail("eps", "must be a finite number >= 0, got " + std::to_string(eps));
  return static_cast<float>(eps);
}

void infer_norm(const OpContext& ctx, NormKind kind) {
  const TensorSpec& x = ctx.input(0);
  const Dims params{x.shape.back()};
  check_like(ctx, 1, "gamma", params, x.dtype);
  if (kind == NormKind::kLayer) check_like(ctx, 2, "beta", params, x.dtype);
  const Dims stats(x.shape.begin(), x.shape.end() - 1);
  size_t o = 0;
  ctx.set_output(o++, x.shape, row_out_dtype(ctx, x.dtype));
  if (kind == NormKind::kLayer) ctx.set_output(o++, stats, DType::kFloat32);
  ctx.set_output(o, stats, DType::kFloat32);
}

void tiling_norm(const OpContext& ctx, TilingResult& r, NormKind kind) {
  const DType in = ctx.input(0).dtype, out = row_out_dtype(ctx, in);
  check_row_profile(ctx, in);
  NormTiling t;
  t.kind = static_cast<uint32_t>(kind);
  t.in_dtype = static_cast<uint32_t>(in), t.out_dtype = static_cast<uint32_t>(out);
  t.has_gamma = ctx.has_input(1);
  t.has_beta = kind == NormKind::kLayer && ctx.has_input(2);
  t.eps = checked_eps(ctx);
  const tl::RowPlan plan = tl::plan_rows(forward_request(ctx, kind, out), ctx.profile());
  t.rows_plan = plan.data;
  t.inv_cols = plan.data.cols ? 1.0f / static_cast<float>(plan.data.cols) : 0.0f;
  r.num_blocks = plan.data.num_blocks;
  r.set_tiling(t);
}

std::string describe_norm(const OpContext& ctx, NormKind kind) {
  const DType in = ctx.input(0).dtype;
  const tl::RowPlan plan = tl::plan_rows(forward_request(ctx, kind, row_out_dtype(ctx, in)), ctx.profile());
  return std::string(plan.chunked() ? "multi-pass (statistics over chunks, then normalize): "
                                    : "single pass per row in UB: ") +
         plan.to_string();
}

struct NormRow {
  const char* name;
  NormKind kind;
  double eps;
  const char* kernel;
  const SimKernelEntry* entry;
  const char* doc;
};

const NormRow kNormOps[] = {
    {"layer_norm", NormKind::kLayer, 1e-5, "npurt_layer_norm_kernel", &kLayerNormEntry,
     "LayerNorm over the last axis: y = (x - mean) * rstd * gamma + beta, rstd = 1 / sqrt(var + eps)\n"
     "(biased variance). Returns (y, mean, rstd); mean and rstd are float32 of shape x.shape[:-1].\n"
     "float16/bfloat16 inputs are computed in float32; dtype=\"float32\" returns y in float32."},
    {"rms_norm", NormKind::kRms, 1e-6, "npurt_rms_norm_kernel", &kRmsNormEntry,
     "RMSNorm over the last axis: y = x * rstd * gamma, rstd = 1 / sqrt(mean(x^2) + eps).\n"
     "Returns (y, rstd); rstd is float32 of shape x.shape[:-1].\n"
     "float16/bfloat16 inputs are computed in float32; dtype=\"float32\" returns y in float32."},
};

std::vector<OpDefBuilder> norm_defs() {
  std::vector<OpDefBuilder> defs;
  for (const NormRow& row : kNormOps) {
    const NormKind kind = row.kind;
    OpDefBuilder b(row.name);
    b.doc(row.doc).input("x", kFloatTypes).rank(1).optional_input("gamma", kFloatTypes);
    if (kind == NormKind::kLayer) b.optional_input("beta", kFloatTypes);
    b.output("y");
    if (kind == NormKind::kLayer) b.output("mean");
    b.output("rstd")
        .attr("eps", AttrType::kFloat, AttrValue(row.eps))
        .attr("dtype", AttrType::kString, AttrValue(""))
        .infer([kind](const OpContext& ctx) { infer_norm(ctx, kind); })
        .tiling([kind](const OpContext& ctx, TilingResult& r) { tiling_norm(ctx, r, kind); })
        .describe_tiling([kind](const OpContext& ctx, const TilingResult&) { return describe_norm(ctx, kind); })
        .cost([](const OpContext& ctx, OpCost& c) {
          const double n = static_cast<double>(ctx.input(0).numel());
          c.bytes = n * itemsize(ctx.input(0).dtype) + n * itemsize(ctx.output(0).dtype);
          c.flops = 8 * n;
        })
        .sim_kernel(row.kernel, *row.entry);
    defs.push_back(std::move(b));
  }
  return defs;
}

}  // namespace

NPURT_REGISTER_OPS(norm_defs());

}  // namespace npurt::kernels
