// kernels/linalg/svd_kernel.cc: singular values (and vectors) of every matrix
// of a batch by one-sided (Hestenes) Jacobi (device code).
//
// W = A (m x n), or A^T when m < n, so W is M x N with M >= N. Each sweep
// visits every column pair p < q and rotates them (V accumulates the same
// rotations) until all pairs are orthogonal: a pair is skipped when
// |w_p . w_q| <= sqrt(M) eps ||w_p|| ||w_q|| (LAPACK gesvj's tolerance) or
// when one of the two has ||w||^2 <= eps^2 ||A||_F^2 (negligible: it is
// replaced below); a sweep without rotation ends
// the iteration; kMaxSweeps sweeps without that gives info -1. Then
// S_j = ||w_j|| sorted descending (columns of W and V alike), U = W S^-1.
// Columns with S_j <= 2 eps ||A||_F (rank deficiency: their direction is
// noise) and, for full_matrices, columns N..M-1 are completed to an
// orthonormal basis by Gram-Schmidt (twice) of unit vectors e_i (accepted
// when >= 1/2 of e_i is left, the threshold halving when no e_i passes, so
// it always ends: some e_i keeps >= 1/sqrt(M)). W is A scaled by
// a power of two (PowerOfTwoScale), so huge and tiny entries neither overflow
// nor underflow the column dot products; S is scaled back. Outputs:
// m >= n: U = W-part [m, uc], Vh = V^T; m < n: U = V, Vh = W-part^T.
// Work area: W/U (M*uc, uc = M when full else N), V (N*N, vectors only), S (N).
// A NaN or inf gives NaN results; with a NaN info is kInfoNonFinite (numpy's
// gesdd fails on NaN; an inf alone gives it NaN singular values).
#include <cstdint>

#include "common/gm_scalar.h"
#include "kernel_operator.h"
#include "linalg/jacobi_work.h"
#include "npurt/backend.h"
#include "npurt/dtype.h"

namespace npurt::kernels::linalg {
namespace {

template <class T, class Matrix>
class JacobiSvd {
 public:
  __aicore__ JacobiSvd(GM_ADDR x, GM_ADDR u, GM_ADDR s, GM_ADDR vh, GM_ADDR info, GM_ADDR workspace,
                       const SpectralTiling& t)
      : t_(t), tr_(t.m < t.n), M_(tr_ ? t.n : t.m), N_(tr_ ? t.m : t.n), vectors_((t.flags & kVectors) != 0) {
    uc_ = vectors_ && (t.flags & kFull) != 0 ? M_ : N_;
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t.batch * M_ * N_);
    s_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(s), t.batch * N_);
    if (vectors_) {
      u_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(u), t.batch * t.m * (tr_ ? N_ : uc_));
      vh_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(vh), t.batch * t.n * (tr_ ? uc_ : N_));
    }
    info_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(info), t.batch);
    InitWork(work_, pipe_, buf_, workspace, t);
  }

  __aicore__ void Run() { ForEachOwnedMatrix(t_, [&](uint64_t b) { Solve(b); }); }

 private:
  // One matrix of the batch.
  __aicore__ void Solve(uint64_t b) {
    const T max_abs = MaxAbsOrNan(x_, b * M_ * N_, M_ * N_);
    if (!Finite(max_abs)) {
      FillNan(s_, b * N_, N_);
      if (vectors_) {
        FillNan(u_, b * USize(), USize());
        FillNan(vh_, b * VhSize(), VhSize());
      }
      info_.SetValue(b, HasNan(x_, b * M_ * N_, M_ * N_) ? kInfoNonFinite : 0);
      return;
    }
    const T scale = PowerOfTwoScale(max_abs);
    const T fro2 = Load(b, scale);
    info_.SetValue(b, IterateSweeps(t_.max_sweeps, [&] { return Sweep(fro2); }));
    SortDescending();
    for (uint64_t j = 0; j < N_; ++j) s_.SetValue(b * N_ + j, work_.Get(S(j)) / scale);
    if (!vectors_) return;
    Orthonormalize(T(2) * Eps<T>() * std::sqrt(fro2));
    WriteVectors(b);
  }

  __aicore__ uint64_t W(uint64_t i, uint64_t j) const { return i * uc_ + j; }
  __aicore__ uint64_t V(uint64_t i, uint64_t j) const { return M_ * uc_ + i * N_ + j; }
  __aicore__ uint64_t S(uint64_t j) const { return M_ * uc_ + (vectors_ ? N_ * N_ : 0) + j; }
  __aicore__ uint64_t USize() const { return t_.m * (tr_ ? N_ : uc_); }
  __aicore__ uint64_t VhSize() const { return t_.n * (tr_ ? uc_ : N_); }

  // W = scale * (A or A^T), V = I; returns ||W||_F^2.
  __aicore__ T Load(uint64_t b, T scale) {
    T sum2 = T(0);
    for (uint64_t i = 0; i < M_; ++i)
      for (uint64_t j = 0; j < N_; ++j) {
        const T a = scale * x_.GetValue(b * M_ * N_ + (tr_ ? j * M_ + i : i * N_ + j));
        work_.Set(W(i, j), a);
        sum2 += a * a;
      }
    if (vectors_)
      for (uint64_t i = 0; i < N_; ++i)
        for (uint64_t j = 0; j < N_; ++j) work_.Set(V(i, j), i == j ? T(1) : T(0));
    return sum2;
  }

  __aicore__ T ColumnDot(uint64_t p, uint64_t q) const {
    T d = T(0);
    for (uint64_t i = 0; i < M_; ++i) d += work_.Get(W(i, p)) * work_.Get(W(i, q));
    return d;
  }

  // One cyclic sweep over the column pairs; false when all were orthogonal.
  // The squared column norms live in S during the sweep: computed once at its
  // start, then updated by each rotation (||w_p'||^2 = alpha - t gamma,
  // ||w_q'||^2 = beta + t gamma), so a pair costs one dot product, not three.
  __aicore__ bool Sweep(T fro2) {
    const T eps = Eps<T>();
    const T tol = eps * std::sqrt(T(M_ > 0 ? M_ : 1)), floor = eps * eps * fro2;
    for (uint64_t j = 0; j < N_; ++j) work_.Set(S(j), ColumnDot(j, j));
    bool rotated = false;
    for (uint64_t p = 0; p + 1 < N_; ++p)
      for (uint64_t q = p + 1; q < N_; ++q) {
        const T alpha = work_.Get(S(p)), beta = work_.Get(S(q)), gamma = ColumnDot(p, q);
        // A column of norm <= eps ||A||_F is below Orthonormalize's null
        // threshold (it is replaced), so its pairs need no rotation; any
        // other pair must pass the relative test, however small the two
        // columns (an absolute floor on gamma left the vectors of
        // singular values ~1e-6 ||A|| unorthogonal in float32).
        if ((alpha < beta ? alpha : beta) <= floor || Abs(gamma) <= tol * std::sqrt(alpha * beta)) continue;
        const T t = JacobiTan((beta - alpha) / (T(2) * gamma));
        const T c = T(1) / std::sqrt(T(1) + t * t), s = t * c;
        RotateColumns(work_, W(0, p), W(0, q), uc_, M_, c, s);
        if (vectors_) RotateColumns(work_, V(0, p), V(0, q), N_, N_, c, s);
        work_.Set(S(p), alpha - t * gamma);
        work_.Set(S(q), beta + t * gamma);
        rotated = true;
      }
    return rotated;
  }

  // S_j = ||w_j||, sorted descending with W's and V's columns.
  __aicore__ void SortDescending() {
    for (uint64_t j = 0; j < N_; ++j) work_.Set(S(j), std::sqrt(ColumnDot(j, j)));
    SelectionSort(
        N_, true, [&](uint64_t j) { return work_.Get(S(j)); },
        [&](uint64_t i, uint64_t j) {
          const T d = work_.Get(S(i));
          work_.Set(S(i), work_.Get(S(j)));
          work_.Set(S(j), d);
          SwapColumns(work_, W(0, i), W(0, j), uc_, M_);
          if (vectors_) SwapColumns(work_, V(0, i), V(0, j), N_, N_);
        });
  }

  // U's columns: w_j / S_j, then every column with S_j <= null (and, for
  // full_matrices, j >= N) becomes the next unit vector orthogonalized
  // against the valid columns.
  __aicore__ void Orthonormalize(T null) {
    for (uint64_t j = 0; j < N_; ++j) {
      if (work_.Get(S(j)) <= null) continue;
      const T inv = T(1) / work_.Get(S(j));
      for (uint64_t i = 0; i < M_; ++i) work_.Set(W(i, j), work_.Get(W(i, j)) * inv);
    }
    uint64_t cand = 0;
    T keep = T(0.5);
    for (uint64_t j = 0; j < uc_; ++j) {
      if (Valid(j, j, null)) continue;
      // Candidates left of `cand` were used or rejected; once none is left at
      // this threshold, scan them all again at half of it. Some e_i keeps
      // >= 1/sqrt(M) of itself (the residuals' squares sum to M - rank >= 1),
      // so the loop ends with an orthonormal column.
      while (!Complete(j, cand, null, keep)) {
        if (++cand == M_) {
          cand = 0;
          keep *= T(0.5);
        }
      }
      if (++cand == M_) cand = 0;
    }
  }

  // Column c holds a unit vector while column j is being completed.
  __aicore__ bool Valid(uint64_t c, uint64_t j, T null) const {
    return c < j || (c < N_ && work_.Get(S(c)) > null);
  }

  // Column j = e_cand minus its projections on the valid columns (twice);
  // accepted (normalized) when at least `keep` of it is left.
  __aicore__ bool Complete(uint64_t j, uint64_t cand, T null, T keep) {
    for (uint64_t i = 0; i < M_; ++i) work_.Set(W(i, j), i == cand ? T(1) : T(0));
    for (int pass = 0; pass < 2; ++pass)
      for (uint64_t c = 0; c < uc_; ++c) {
        if (c == j || !Valid(c, j, null)) continue;
        const T d = ColumnDot(c, j);
        for (uint64_t i = 0; i < M_; ++i) work_.Set(W(i, j), work_.Get(W(i, j)) - d * work_.Get(W(i, c)));
      }
    const T norm = std::sqrt(ColumnDot(j, j));
    if (norm < keep) return false;
    for (uint64_t i = 0; i < M_; ++i) work_.Set(W(i, j), work_.Get(W(i, j)) / norm);
    return true;
  }

  __aicore__ void WriteVectors(uint64_t b) {
    // The W part: U [m, uc] (m >= n) or Vh [uc, n] = its transpose (m < n).
    for (uint64_t i = 0; i < M_; ++i)
      for (uint64_t j = 0; j < uc_; ++j) {
        const T e = work_.Get(W(i, j));
        if (tr_) vh_.SetValue(b * VhSize() + j * M_ + i, e);
        else u_.SetValue(b * USize() + i * uc_ + j, e);
      }
    // The V part: Vh = V^T [n, n] (m >= n) or U = V [m, m] (m < n).
    for (uint64_t i = 0; i < N_; ++i)
      for (uint64_t j = 0; j < N_; ++j) {
        const T e = work_.Get(V(i, j));
        if (tr_) u_.SetValue(b * USize() + i * N_ + j, e);
        else vh_.SetValue(b * VhSize() + j * N_ + i, e);
      }
  }

  const SpectralTiling& t_;
  bool tr_;
  uint64_t M_, N_;
  bool vectors_;
  uint64_t uc_ = 0;
  AscendC::GlobalTensor<T> x_, u_, s_, vh_;
  AscendC::GlobalTensor<int32_t> info_;
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf_;
  Matrix work_;  // the work area (jacobi_work.h InitWork)
};

}  // namespace
}  // namespace npurt::kernels::linalg

extern "C" __global__ __aicore__ void npurt_linalg_svd_kernel(GM_ADDR x, GM_ADDR u, GM_ADDR s, GM_ADDR vh,
                                                              GM_ADDR info, GM_ADDR workspace, GM_ADDR tiling) {
  using namespace npurt::kernels::linalg;
  GET_TILING_DATA_WITH_STRUCT(SpectralTiling, t, tiling);
  RunPlaced<JacobiSvd>(t.in_ub != 0, t.dtype, x, u, s, vh, info, workspace, t);
  npurt::kernels::WriteBackScalarGm(info);  // u, s, vh, info and the GM work area: SetValue
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels::linalg {
extern const SimKernelEntry kSvdEntry = NPURT_SIM_ENTRY(npurt_linalg_svd_kernel);
}  // namespace npurt::kernels::linalg
#endif  // NPURT_ASCEND_DEVICE_BUILD
