// kernels/linalg/cholesky_ops.cc: host side of `cholesky`
// (cholesky_kernel.cc): shape and dtype rules, tiling (lu_host.h).
//
// Contract: cholesky(a (..., n, n), upper=false) -> factor (..., n, n), info
// (...) int32. factor = L with A = L L^T from A's lower triangle (upper: U =
// L^T); info = 0, or j + 1 when the leading (j + 1) x (j + 1) minor is not
// positive definite (the factor is then unspecified; callers raise).
// dtypes: float32 and float64 (sim-only).
#include <string>

#include "common/tiling_as.h"
#include "linalg/lu_host.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"

namespace npurt::kernels {

extern const SimKernelEntry kCholeskyEntry;

namespace {

void cholesky_infer(const OpContext& ctx) {
  linalg::square_n(ctx, 0, "a");
  const Dims& s = ctx.input(0).shape;
  ctx.set_output(0, s, ctx.input(0).dtype);
  ctx.set_output(1, linalg::batch_dims(s, 2, {}), DType::kInt32);
}

void cholesky_tiling(const OpContext& ctx, TilingResult& r) {
  const uint64_t n = linalg::square_n(ctx, 0, "a");
  const DType d = ctx.input(0).dtype;
  // staged: info (common/gm_stage.h); the GM path scalar-writes the factor
  LuTiling t = linalg::batch_tiling(ctx, d, linalg::batch_of(ctx.input(0).shape, 2), n, n, n * linalg::ub_ld(n, d),
                                    kStageBytes, {n * n * itemsize(d)}, r);
  t.upper = ctx.attr_bool("upper") ? 1 : 0;
  r.set_tiling(t);
}

std::string describe_cholesky(const OpContext&, const TilingResult& r) {
  const LuTiling t = tiling_as<LuTiling>(r, "describe_cholesky");
  return std::string(t.in_ub ? "ub" : "gm") + " batch=" + std::to_string(t.batch) + " n=" + std::to_string(t.n) +
         (t.upper ? " upper" : " lower") + " per_core=" + std::to_string(t.per_core);
}

std::vector<OpDefBuilder> cholesky_defs() {
  OpDefBuilder b("cholesky");
  b.doc("Cholesky factor of a stack of symmetric positive-definite matrices (lower triangle read; `upper` "
        "returns U = L^T); info = j + 1 where a leading minor is not positive definite, else 0.")
      .input("a", {DType::kFloat32, DType::kFloat64})
      .sim_only({DType::kFloat64})
      .rank(2)
      .output("factor").output("info")
      .attr("upper", AttrType::kBool, AttrValue(false))
      .infer(cholesky_infer)
      .tiling(cholesky_tiling)
      .describe_tiling(describe_cholesky)
      .cost([](const OpContext& ctx, OpCost& c) {
        const double n = static_cast<double>(ctx.input(0).shape.back());
        c.bytes = 2.0 * static_cast<double>(ctx.input(0).numel()) * itemsize(ctx.input(0).dtype);
        c.flops = static_cast<double>(linalg::batch_of(ctx.input(0).shape, 2)) * n * n * n / 3.0;
      })
      .sim_kernel("npurt_cholesky_kernel", kCholeskyEntry);
  std::vector<OpDefBuilder> defs;
  defs.push_back(std::move(b));
  return defs;
}

}  // namespace

NPURT_REGISTER_OPS(cholesky_defs());

}  // namespace npurt::kernels
