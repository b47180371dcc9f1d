// runtime/ops/linalg_spectral.cc: npurt::ops::qr / eigh / svd
// (npurt/linalg_spectral.h) over the linalg_qr / linalg_eigh / linalg_svd ops
// (kernels/linalg/), with the Jacobi ops' convergence report checked here,
// and the QR-first path of a reduced SVD of a long matrix (the only copy of
// that rule: npurt.linalg's svd / svdvals / pinv / matrix_rank / matrix_norm
// call svd() through the _linalg_svd binding).
#include "npurt/linalg_spectral.h"

#include <algorithm>
#include <string>
#include <vector>

#include "npurt/copy.h"
#include "npurt/ops.h"
#include "npurt/status.h"

namespace npurt {
namespace ops {
namespace {

// The worst info (int32 per matrix) of a launch: its smallest value, 0 for
// none. Steps / sweeps used are >= 0; -1: the cap was reached; -2: the input
// had what numpy's LAPACK refuses (kernels/linalg/jacobi_work.h kInfoNonFinite).
int32_t worst_info(const Tensor& info, const Stream& stream) {
  std::vector<int32_t> v(static_cast<size_t>(info.numel()));
  if (v.empty()) return 0;
  const Stream s = stream.valid() ? stream : Stream::current(info.device());
  copy_to_host(v.data(), info, v.size() * sizeof(int32_t), s, /*blocking=*/true);
  return std::min(0, *std::min_element(v.begin(), v.end()));
}

// Throws for a negative worst info; `non_finite` says what -2 means for the op.
void check_converged(const char* where, int32_t worst, const char* non_finite) {
  if (worst == -1)
    throw InvalidArgument(std::string(where) + ": argument 'x': the iteration (QL / Jacobi) did not converge "
                          "within its cap for at least one matrix of the stack");
  if (worst < 0) throw InvalidArgument(std::string(where) + ": argument 'x': " + non_finite);
}

}  // namespace

QR qr(const Tensor& x, bool complete, const Stream& stream) {
  std::vector<Tensor> r = call("linalg_qr", {x}, {{"complete", AttrValue(complete)}}, stream);
  return QR{r[0], r[1]};
}

Eigh eigh(const Tensor& x, bool vectors, const Stream& stream) {
  std::vector<Tensor> r = call("linalg_eigh", {x}, {{"vectors", AttrValue(vectors)}}, stream);
  check_converged("npurt::ops::eigh", worst_info(r[2], stream),
                  "Eigenvalues did not converge (a matrix of the stack has NaN or inf in its lower triangle)");
  return Eigh{r[0], r[1]};
}

namespace {

constexpr const char* kSvdNan = "SVD did not converge (a matrix of the stack has NaN)";

// The one-sided Jacobi kernel itself (no QR first); *worst: its worst info.
SVD jacobi_svd_info(const Tensor& x, bool full_matrices, bool vectors, const Stream& stream, int32_t* worst) {
  std::vector<Tensor> r = call("linalg_svd", {x},
                               {{"vectors", AttrValue(vectors)}, {"full_matrices", AttrValue(full_matrices)}}, stream);
  *worst = worst_info(r[3], stream);
  return SVD{r[0], r[1], r[2]};
}

SVD jacobi_svd(const Tensor& x, bool full_matrices, bool vectors, const Stream& stream) {
  int32_t worst = 0;
  SVD r = jacobi_svd_info(x, full_matrices, vectors, stream, &worst);
  check_converged("npurt::ops::svd", worst, kSvdNan);
  return r;
}

// x [..., r, c] as the view [..., c, r] (no copy; the ops copy strided inputs).
Tensor matrix_transpose(const Tensor& x) {
  Dims shape = x.shape(), strides = x.strides();
  const size_t n = shape.size();
  std::swap(shape[n - 1], shape[n - 2]);
  std::swap(strides[n - 1], strides[n - 2]);
  return x.view(shape, strides, x.byte_offset());
}

// a [..., p, k] @ b [..., k, q] with the same batch axes (b given as
// [..., q, k] when trans_b): the cube matmul for float32, matmul_generic
// (scalar unit, sim-only) for float64 on [B, ., .] copies.
Tensor matmul_stack(const Tensor& a, const Tensor& b_in, bool trans_b, const Stream& stream) {
  if (a.dtype() != DType::kFloat64) return call("matmul", {a, b_in}, {{"trans_b", AttrValue(trans_b)}}, stream)[0];
  const Tensor b = trans_b ? matrix_transpose(b_in) : b_in;
  const Dims& as = a.shape();
  const size_t n = as.size();
  const int64_t p = as[n - 2], k = as[n - 1], q = b.shape()[n - 1], batch = shape_numel(as) / std::max<int64_t>(p * k, 1);
  const Tensor a3 = contiguous(a, stream), b3 = contiguous(b, stream);
  const Tensor y = call("matmul_generic", {a3.view({batch, p, k}, contiguous_strides({batch, p, k}), a3.byte_offset()),
                                          b3.view({batch, k, q}, contiguous_strides({batch, k, q}), b3.byte_offset())},
                        {}, stream)[0];
  Dims ys = as;
  ys[n - 1] = q;
  return y.view(ys, contiguous_strides(ys), y.byte_offset());
}

// x [..., r, c] cut to its first `count` rows (axis -2) or columns (axis -1): a view.
Tensor leading(const Tensor& x, size_t axis_from_end, int64_t count) {
  Dims shape = x.shape();
  shape[shape.size() - axis_from_end] = count;
  return x.view(shape, x.strides(), x.byte_offset());
}

}  // namespace

SVD svd(const Tensor& x, bool full_matrices, bool vectors, const Stream& stream) {
  // A long matrix (at least twice as tall as wide; a wide one as A^T): Jacobi's
  // cost grows with the long side, QR's much less, so A = Q R and Jacobi runs
  // on R's top k x k block (k = min(m, n)): U = Q1 U_R (Q1: Q's first k
  // columns). Full vectors take the complete Q, whose last columns already
  // complete Q1 U_R to an orthonormal basis (U = Q diag(U_R, I): Q1 is
  // overwritten in place), instead of the kernel's Gram-Schmidt of M - k columns.
  const int64_t m = x.ndim() >= 2 ? x.shape()[x.ndim() - 2] : 0, n = x.ndim() >= 2 ? x.shape().back() : 0;
  const bool floating = x.dtype() == DType::kFloat32 || x.dtype() == DType::kFloat64;  // else the op refuses
  if (!floating || (m < 2 * n && n < 2 * m) || x.numel() == 0) return jacobi_svd(x, full_matrices, vectors, stream);
  const bool wide = n > m, complete = vectors && full_matrices;
  const int64_t k = std::min(m, n);
  const QR f = qr(wide ? matrix_transpose(x) : x, complete, stream);  // wide: A^T = Q R, A = R^T Q^T
  const Tensor r1 = complete ? leading(f.R, 2, k) : f.R;
  int32_t worst = 0;
  SVD r = jacobi_svd_info(wide ? matrix_transpose(r1) : r1, false, vectors, stream, &worst);
  // R has a NaN for an inf in A too (Householder's inf - inf): only the
  // kernel on A itself tells a NaN (raise) from an inf alone (NaN results).
  if (worst == -2) return jacobi_svd(x, full_matrices, vectors, stream);
  check_converged("npurt::ops::svd", worst, kSvdNan);
  if (!vectors) return r;
  const Tensor q1 = complete ? leading(f.Q, 1, k) : f.Q;
  // tall: U = Q1 U_R [..., m, k]; wide: Vh = Vh_R Q1^T [..., k, n].
  Tensor& out = wide ? r.Vh : r.U;
  out = wide ? matmul_stack(r.Vh, q1, true, stream) : matmul_stack(q1, r.U, false, stream);
  if (complete) {
    copy_into(q1, wide ? matrix_transpose(out) : out, stream);
    out = wide ? contiguous(matrix_transpose(f.Q), stream) : f.Q;
  }
  return r;
}

}  // namespace ops
}  // namespace npurt
