// kernels/linalg/qr_ops.cc: host side of qr_kernel.cc: registration of
// linalg_qr(x, complete, gm_work) -> (Q, R) for a stack of matrices [..., m, n],
// k = min(m, n): reduced Q [..., m, k], R [..., k, n]; complete Q [..., m, m],
// R [..., m, n] (numpy.linalg.qr's shapes).
#include <vector>

#include "linalg/jacobi_host.h"

namespace npurt::kernels::linalg {

extern const SimKernelEntry kQrEntry;

namespace {

struct QrShape {
  uint64_t k, qc;  // min(m, n); Q's columns (= R's rows)
};

QrShape qr_shape(const OpContext& ctx, const MatrixView& v) {
  const uint64_t k = std::min(v.m, v.n);
  return {k, ctx.attr_bool("complete") ? v.m : k};
}

void infer_qr(const OpContext& ctx) {
  const MatrixView v = matrix_view(ctx);
  const QrShape s = qr_shape(ctx, v);
  const DType d = ctx.input(0).dtype;
  ctx.set_output(0, batched(v, {static_cast<int64_t>(v.m), static_cast<int64_t>(s.qc)}), d);
  ctx.set_output(1, batched(v, {static_cast<int64_t>(s.qc), static_cast<int64_t>(v.n)}), d);
}

void qr_tiling(const OpContext& ctx, TilingResult& r) {
  const MatrixView v = matrix_view(ctx);
  const QrShape s = qr_shape(ctx, v);
  const bool empty = v.m * s.qc == 0 && s.qc * v.n == 0;
  plan_spectral(ctx, v, v.m * v.n + s.k + v.m * s.qc, ctx.attr_bool("complete") ? kComplete : 0, empty, r);
}

std::vector<OpDefBuilder> qr_defs() {
  std::vector<OpDefBuilder> defs = spectral_def(
      "linalg_qr",
      "Householder QR of every matrix of x [..., m, n] (float32; float64 sim-only): (Q, R) with A = Q R, "
      "Q orthonormal columns, R upper triangular. complete=False: Q [..., m, k], R [..., k, n], "
      "k = min(m, n); complete=True: Q [..., m, m], R [..., m, n]. gm_work forces the GM work area "
      "(otherwise used only when a matrix's work does not fit the UB).",
      {"Q", "R"}, infer_qr, qr_tiling, "npurt_linalg_qr_kernel", kQrEntry);
  defs.back().attr("complete", AttrType::kBool, AttrValue(false));
  return defs;
}
}  // namespace

NPURT_REGISTER_OPS(qr_defs());

}  // namespace npurt::kernels::linalg
