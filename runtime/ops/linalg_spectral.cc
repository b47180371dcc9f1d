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

// info (int32 per matrix): QL steps / sweeps used, -1 when the cap was reached.
void check_converged(const char* where, const Tensor& info, const Stream& stream) {
  std::vector<int32_t> v(static_cast<size_t>(info.numel()));
  if (v.empty()) return;
  const Stream s = stream.valid() ? stream : Stream::current(info.device());
  copy_to_host(v.data(), info, v.size() * sizeof(int32_t), s, /*blocking=*/true);
  if (std::any_of(v.begin(), v.end(), [](int32_t i) { return i < 0; }))
    throw InvalidArgument(std::string(where) + ": argument 'x': the iteration (QL / Jacobi) did not converge "
                          "within its cap for at least one matrix of the stack");
}

}  // namespace

QR qr(const Tensor& x, bool complete, const Stream& stream) {
  std::vector<Tensor> r = call("linalg_qr", {x}, {{"complete", AttrValue(complete)}}, stream);
  return QR{r[0], r[1]};
}

Eigh eigh(const Tensor& x, bool vectors, const Stream& stream) {
  std::vector<Tensor> r = call("linalg_eigh", {x}, {{"vectors", AttrValue(vectors)}}, stream);
  check_converged("npurt::ops::eigh", r[2], stream);
  return Eigh{r[0], r[1]};
}

namespace {

// The one-sided Jacobi kernel itself (no QR first).
SVD jacobi_svd(const Tensor& x, bool full_matrices, bool vectors, const Stream& stream) {
  std::vector<Tensor> r = call("linalg_svd", {x},
                               {{"vectors", AttrValue(vectors)}, {"full_matrices", AttrValue(full_matrices)}}, stream);
  check_converged("npurt::ops::svd", r[3], stream);
  return SVD{r[0], r[1], r[2]};
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

}  // namespace

SVD svd(const Tensor& x, bool full_matrices, bool vectors, const Stream& stream) {
  // Reduced SVD of a long matrix: Jacobi's cost grows with the long side, QR's
  // much less, so A = Q R (A^T = Q R when wide) and Jacobi on the small R.
  const bool reduced = !vectors || !full_matrices;
  const int64_t m = x.ndim() >= 2 ? x.shape()[x.ndim() - 2] : 0, n = x.ndim() >= 2 ? x.shape().back() : 0;
  const bool floating = x.dtype() == DType::kFloat32 || x.dtype() == DType::kFloat64;  // else the op refuses
  if (!reduced || !floating || (m < 2 * n && n < 2 * m) || x.numel() == 0)
    return jacobi_svd(x, full_matrices, vectors, stream);
  if (m >= 2 * n) {
    const QR f = qr(x, false, stream);
    SVD r = jacobi_svd(f.R, false, vectors, stream);
    if (vectors) r.U = matmul_stack(f.Q, r.U, false, stream);
    return r;
  }
  const QR f = qr(matrix_transpose(x), false, stream);  // A^T = Q R: A = R^T Q^T
  SVD r = jacobi_svd(matrix_transpose(f.R), false, vectors, stream);
  if (vectors) r.Vh = matmul_stack(r.Vh, f.Q, true, stream);
  return r;
}

}  // namespace ops
}  // namespace npurt
