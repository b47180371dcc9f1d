// kernels/linalg/svd_ops.cc: host side of svd_kernel.cc: registration of
// linalg_svd(x, vectors, full_matrices, gm_work) -> (U, S, Vh, info) for a
// stack of matrices x [..., m, n], k = min(m, n): S [..., k] descending;
// U [..., m, k] and Vh [..., k, n] (full_matrices: [..., m, m], [..., n, n]),
// both [..., 0, 0] when vectors=False; info int32 [...] as linalg_eigh's.
#include <vector>

#include "linalg/jacobi_host.h"

namespace npurt::kernels::linalg {

extern const SimKernelEntry kSvdEntry;

namespace {

void infer_svd(const OpContext& ctx) {
  const MatrixView v = matrix_view(ctx);
  const DType d = ctx.input(0).dtype;
  const int64_t m = static_cast<int64_t>(v.m), n = static_cast<int64_t>(v.n), k = std::min(m, n);
  const bool vectors = ctx.attr_bool("vectors"), full = ctx.attr_bool("full_matrices");
  ctx.set_output(0, vectors ? batched(v, {m, full ? m : k}) : batched(v, {0, 0}), d);
  ctx.set_output(1, batched(v, {k}), d);
  ctx.set_output(2, vectors ? batched(v, {full ? n : k, n}) : batched(v, {0, 0}), d);
  ctx.set_output(3, v.batch_dims, DType::kInt32);
}

void svd_tiling(const OpContext& ctx, TilingResult& r) {
  const MatrixView v = matrix_view(ctx);
  const bool vectors = ctx.attr_bool("vectors"), full = vectors && ctx.attr_bool("full_matrices");
  const uint64_t big = std::max(v.m, v.n), small = std::min(v.m, v.n);
  const uint64_t uc = full ? big : small;
  const uint32_t flags = (vectors ? kVectors : 0) | (full ? kFull : 0);
  // Empty matrices run too: info is written for each, and full U / Vh of a
  // [m, 0] or [0, n] matrix are identities.
  plan_spectral(ctx, v, big * uc + (vectors ? small * small : 0) + small, flags, v.batch == 0, r, sweep_cap(ctx));
}

std::vector<OpDefBuilder> svd_defs() {
  std::vector<OpDefBuilder> defs = spectral_def(
      "linalg_svd",
      "One-sided Jacobi SVD of every matrix of x [..., m, n] (float32; float64 sim-only): (U, S, Vh, info) "
      "with A = U diag(S) Vh, S [..., k] descending, k = min(m, n); U [..., m, k], Vh [..., k, n] "
      "(full_matrices: [..., m, m], [..., n, n]; [..., 0, 0] when vectors=False); info int32 [...]: sweeps "
      "used, -1 when Jacobi did not converge within the sweep cap. A matrix with NaN/inf gives NaN results, info -2 for a NaN.",
      {"U", "S", "Vh", "info"}, infer_svd, svd_tiling, "npurt_linalg_svd_kernel", kSvdEntry);
  defs.back()
      .attr("vectors", AttrType::kBool, AttrValue(true))
      .attr("full_matrices", AttrType::kBool, AttrValue(false));
  sweep_cap_attr(defs.back());
  return defs;
}
}  // namespace

NPURT_REGISTER_OPS(svd_defs());

}  // namespace npurt::kernels::linalg
