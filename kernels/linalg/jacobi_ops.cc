// kernels/linalg/jacobi_ops.cc: host side of jacobi_kernel.cc: registration of
// linalg_eigh(x, vectors, method, max_sweeps, gm_work) -> (eigenvalues
// [..., n] ascending, eigenvectors [..., n, n] as columns ([..., 0, 0] when
// vectors=False), info int32 [...]: QL steps / sweeps used, -1 when the cap was
// hit, -2 for NaN/inf in the lower triangle) for a stack of symmetric matrices x [..., n, n] read from their lower
// triangle. method 'ql' (default: tridiagonalization + implicit QL, ~4x
// cheaper at n = 100) or 'jacobi' (cyclic Jacobi).
#include <string>
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

bool use_ql(const OpContext& ctx) {
  const std::string& m = ctx.attr("method").as_string();
  if (m != "ql" && m != "jacobi") ctx.fail("method", "must be 'ql' or 'jacobi', got '" + m + "'");
  return m == "ql";
}

void infer_eigh(const OpContext& ctx) {
  const MatrixView v = square_view(ctx);
  use_ql(ctx);  // checks the method
  const DType d = ctx.input(0).dtype;
  const int64_t n = static_cast<int64_t>(v.n), vn = ctx.attr_bool("vectors") ? n : 0;
  ctx.set_output(0, batched(v, {n}), d);
  ctx.set_output(1, batched(v, {vn, vn}), d);
  ctx.set_output(2, v.batch_dims, DType::kInt32);
}


void eigh_tiling(const OpContext& ctx, TilingResult& r) {
  const MatrixView v = square_view(ctx);
  const bool vectors = ctx.attr_bool("vectors"), ql = use_ql(ctx);
  // QL: V, d, e; Jacobi: A (and V).
  const uint64_t work = ql ? v.n * v.n + 2 * v.n : (vectors ? 2 : 1) * v.n * v.n;
  const uint32_t flags = (vectors ? kVectors : 0) | (ql ? kQl : 0);
  plan_spectral(ctx, v, work, flags, v.batch == 0, r, sweep_cap(ctx));
}

std::vector<OpDefBuilder> eigh_defs() {
  std::vector<OpDefBuilder> defs = spectral_def(
      "linalg_eigh",
      "Eigen-decomposition of every symmetric matrix of x [..., n, n] (float32; float64 sim-only), read "
      "from the lower triangle, by Householder tridiagonalization + implicit QL (method='ql') or cyclic "
      "Jacobi (method='jacobi'): (eigenvalues [..., n] ascending, eigenvectors [..., n, n] as columns, or "
      "[..., 0, 0] when vectors=False, info int32 [...]: QL steps / Jacobi sweeps used, -1 past the cap "
      "max_sweeps), -2 (NaN results) for a NaN/inf in the lower triangle.",
      {"eigenvalues", "eigenvectors", "info"}, infer_eigh, eigh_tiling, "npurt_linalg_eigh_kernel", kEighEntry);
  defs.back()
      .attr("vectors", AttrType::kBool, AttrValue(true))
      .attr("method", AttrType::kString, AttrValue(std::string("ql")));
  sweep_cap_attr(defs.back());
  return defs;
}
}  // namespace

NPURT_REGISTER_OPS(eigh_defs());

}  // namespace npurt::kernels::linalg
