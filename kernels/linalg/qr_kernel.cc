// kernels/linalg/qr_kernel.cc: Householder QR of every matrix of a batch
// (device code), LAPACK's geqr2 + org2r on the scalar unit.
//
// For a matrix A (m x n), k = min(m, n): reflectors H_j = I - tau_j v_j v_j^T
// (v_j[j] = 1, stored below the diagonal of the work copy W) zero column j
// below the diagonal, so W's upper triangle is R; Q = H_0 ... H_{k-1} applied
// to the first qc columns of the identity, accumulated backwards in place
// (reduced mode qc = k, R is k x n; complete mode qc = m, R is m x n with zero
// rows below k). Work area: W (m*n), tau (k), Q (m*qc). W is A scaled by a
// power of two (PowerOfTwoScale: exact; the column norms cannot overflow or
// underflow for huge or tiny entries), R is scaled back.
//
// Invariants: Q has orthonormal columns and A = Q R to rounding; R is upper
// triangular with exact zeros below the diagonal; a zero column gives tau 0
// (H = I) rather than a division by zero; NaN/inf propagate (no iteration).
#include <cstdint>

#include "common/gm_scalar.h"
#include "kernel_operator.h"
#include "linalg/jacobi_work.h"
#include "npurt/backend.h"
#include "npurt/dtype.h"

namespace npurt::kernels::linalg {
namespace {

template <class T, class Matrix>
class HouseholderQr {
 public:
  __aicore__ HouseholderQr(GM_ADDR x, GM_ADDR q, GM_ADDR r, GM_ADDR workspace, const SpectralTiling& t)
      : t_(t), m_(t.m), n_(t.n), k_(t.m < t.n ? t.m : t.n) {
    const bool complete = (t.flags & kComplete) != 0;
    qc_ = complete ? m_ : k_;
    rr_ = complete ? m_ : k_;
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t.batch * m_ * n_);
    q_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(q), t.batch * m_ * qc_);
    r_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(r), t.batch * rr_ * n_);
    InitWork(w_, pipe_, buf_, workspace, t);
  }

  __aicore__ void Run() { ForEachOwnedMatrix(t_, [&](uint64_t b) { Solve(b); }); }

 private:
  // One matrix of the batch.
  __aicore__ void Solve(uint64_t b) {
    const T scale = PowerOfTwoScale(MaxAbsOrNan(x_, b * m_ * n_, m_ * n_));  // NaN/inf: 1
    for (uint64_t i = 0; i < m_ * n_; ++i) w_.Set(i, scale * x_.GetValue(b * m_ * n_ + i));
    Factor();
    WriteR(b, scale);
    FormQ();
    for (uint64_t i = 0; i < m_ * qc_; ++i) q_.SetValue(b * m_ * qc_ + i, w_.Get(QAt(0) + i));
  }

  __aicore__ uint64_t WAt(uint64_t i, uint64_t j) const { return i * n_ + j; }
  __aicore__ uint64_t TauAt(uint64_t j) const { return m_ * n_ + j; }
  __aicore__ uint64_t QAt(uint64_t i, uint64_t j = 0) const { return m_ * n_ + k_ + i * qc_ + j; }

  // geqr2: reflector j from column j of W, applied to the columns right of it.
  __aicore__ void Factor() {
    for (uint64_t j = 0; j < k_; ++j) {
      const T alpha = w_.Get(WAt(j, j));
      T xnorm2 = T(0);
      for (uint64_t i = j + 1; i < m_; ++i) xnorm2 += w_.Get(WAt(i, j)) * w_.Get(WAt(i, j));
      if (xnorm2 == T(0)) {  // already zero below the diagonal: H = I
        w_.Set(TauAt(j), T(0));
        continue;
      }
      const T norm = std::sqrt(alpha * alpha + xnorm2);
      const T beta = alpha >= T(0) ? -norm : norm;
      w_.Set(TauAt(j), (beta - alpha) / beta);
      const T scale = T(1) / (alpha - beta);
      for (uint64_t i = j + 1; i < m_; ++i) w_.Set(WAt(i, j), w_.Get(WAt(i, j)) * scale);
      w_.Set(WAt(j, j), beta);
      for (uint64_t c = j + 1; c < n_; ++c) Reflect(j, WAt(0, c), n_);
    }
  }

  // Applies H_j to rows j.. of the column starting at `col` (row stride `ld`).
  __aicore__ void Reflect(uint64_t j, uint64_t col, uint64_t ld) {
    const T tau = w_.Get(TauAt(j));
    if (tau == T(0)) return;
    T s = w_.Get(col + j * ld);
    for (uint64_t i = j + 1; i < m_; ++i) s += w_.Get(WAt(i, j)) * w_.Get(col + i * ld);
    s *= tau;
    w_.Set(col + j * ld, w_.Get(col + j * ld) - s);
    for (uint64_t i = j + 1; i < m_; ++i) w_.Set(col + i * ld, w_.Get(col + i * ld) - s * w_.Get(WAt(i, j)));
  }

  __aicore__ void WriteR(uint64_t b, T scale) {
    for (uint64_t i = 0; i < rr_; ++i)
      for (uint64_t c = 0; c < n_; ++c)
        r_.SetValue(b * rr_ * n_ + i * n_ + c, c >= i && i < k_ ? w_.Get(WAt(i, c)) / scale : T(0));
  }

  // org2r: Q = H_0 ... H_{k-1} [I_qc; 0], applying H_j for j = k-1 .. 0 to
  // columns j.. only (columns left of j are still unit vectors e_c, c < j,
  // which H_j leaves alone).
  __aicore__ void FormQ() {
    for (uint64_t i = 0; i < m_; ++i)
      for (uint64_t c = 0; c < qc_; ++c) w_.Set(QAt(i, c), i == c ? T(1) : T(0));
    for (uint64_t j = k_; j-- > 0;)
      for (uint64_t c = j; c < qc_; ++c) Reflect(j, QAt(0, c), qc_);
  }

  const SpectralTiling& t_;
  uint64_t m_, n_, k_, qc_ = 0, rr_ = 0;
  AscendC::GlobalTensor<T> x_, q_, r_;
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf_;
  Matrix w_;  // the work area (jacobi_work.h InitWork)
};

}  // namespace
}  // namespace npurt::kernels::linalg

extern "C" __global__ __aicore__ void npurt_linalg_qr_kernel(GM_ADDR x, GM_ADDR q, GM_ADDR r, GM_ADDR workspace,
                                                             GM_ADDR tiling) {
  using namespace npurt::kernels::linalg;
  GET_TILING_DATA_WITH_STRUCT(SpectralTiling, t, tiling);
  RunPlaced<HouseholderQr>(t.in_ub != 0, t.dtype, x, q, r, workspace, t);
  npurt::kernels::WriteBackScalarGm(r);  // q, r and the GM work area: SetValue
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels::linalg {
extern const SimKernelEntry kQrEntry = NPURT_SIM_ENTRY(npurt_linalg_qr_kernel);
}  // namespace npurt::kernels::linalg
#endif  // NPURT_ASCEND_DEVICE_BUILD
