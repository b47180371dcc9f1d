// kernels/linalg/jacobi_ops.cc: host side of jacobi_kernel.cc: registration of
// linalg_eigh(x, vectors, gm_work) -> (eigenvalues [..., n] ascending,
// eigenvectors [..., n, n] as columns ([..., 0, 0] when vectors=False),
// info int32 [...]: sweeps used, -1 when the sweep cap was hit) for a stack of
// symmetric matrices x [..., n, n] read from their lower triangle.
#include <vector>

#include "linalg/jacobi_host.h"

namespace npurt::kernels::linalg {

extern const SimKernelEntry kEighEntry;

namespace {

MatrixView square_view(const OpContext& ctx) {
  const MatrixView v = matrix_view(ctx);
  if (v.m != v.n)
    ctx.fail("x", "must be a stack of square matrices, got " + std::to_string(v.m) + " x " + std::to_string(v.n));
  return v;
}

void infer_eigh(const OpContext& ctx) {
  const MatrixView v = square_view(ctx);
  const DType d = ctx.input(0).dtype;
  const int64_t n = static_cast<int64_t>(v.n), vn = ctx.attr_bool("vectors") ? n : 0;
  ctx.set_output(0, batched(v, {n}), d);
  ctx.set_output(1, batched(v, {vn, vn}), d);
  ctx.set_output(2, v.batch_dims, DType::kInt32);
}

void eigh_tiling(const OpContext& ctx, TilingResult& r) {
  const MatrixView v = square_view(ctx);
  const bool vectors = ctx.attr_bool("vectors");
  plan_spectral(ctx, v, (vectors ? 2 : 1) * v.n * v.n, vectors ? kVectors : 0, v.batch == 0, r, sweep_cap(ctx));
}

std::vector<OpDefBuilder> eigh_defs() {
  std::vector<OpDefBuilder> defs = spectral_def(
      "linalg_eigh",
      "Cyclic Jacobi eigen-decomposition of every symmetric matrix of x [..., n, n] (float32; float64 "
      "sim-only), read from the lower triangle: (eigenvalues [..., n] ascending, eigenvectors [..., n, n] "
      "as columns, or [..., 0, 0] when vectors=False, info int32 [...]: sweeps used, -1 when Jacobi did not "
      "converge within the sweep cap). A matrix with NaN/inf gives NaN results.",
      {"eigenvalues", "eigenvectors", "info"}, infer_eigh, eigh_tiling, "npurt_linalg_eigh_kernel", kEighEntry);
  defs.back().attr("vectors", AttrType::kBool, AttrValue(true));
  sweep_cap_attr(defs.back());
  return defs;
}
}  // namespace

NPURT_REGISTER_OPS(eigh_defs());

}  // namespace npurt::kernels::linalg
