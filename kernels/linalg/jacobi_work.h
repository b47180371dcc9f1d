// kernels/linalg/jacobi_work.h: what the spectral kernels (QR, Jacobi eigh,
// one-sided Jacobi SVD) share between host and device: the tiling struct, the
// placing of the matrix work area (a view of matrix_view.h) and the scalar
// helpers the three algorithms are written in.
//
// A launch works a batch of `batch` matrices (the leading axes of x flattened),
// `per_core` consecutive matrices per block. Each matrix is copied into a work
// area of `work_elems` elements that lives in UB when it fits next to nothing
// else (`in_ub`, decided by the host from the profile's UB size, checked by the
// sim in InitBuffer) and otherwise in the block's slice of the GM workspace, so
// any size works; only the access cost differs. Each kernel is a class
// template over the place (UbMatrix or GmMatrix, matrix_view.h; RunPlaced
// picks it once per launch) and addresses the area linearly. Every access is
// a scalar Get/Set (pipe S): the algorithms walk rows and columns one element
// at a time.
//
// Invariants: dtype is float32 or float64 (float64 is sim-only); `info` of a
// matrix is the number of sweeps used, -1 when the sweep cap was reached, or
// kInfoNonFinite (-2) for a matrix numpy's LAPACK refuses ("did not
// converge": eigh with NaN/inf in the lower triangle, svd with a NaN); the
// runtime op raises for both. A matrix with a NaN/inf gets NaN results
// without iterating, so no input can make a kernel spin.
#pragma once

#include <cmath>
#include <cstdint>

#ifndef NPURT_SPECTRAL_HOST_ONLY
#include "kernel_operator.h"
#include "linalg/matrix_view.h"
#include "npurt/dtype.h"
#endif

namespace npurt::kernels::linalg {

struct SpectralTiling {
  uint32_t dtype = 0;       // npurt::DType: float32 or float64
  uint32_t flags = 0;       // qr: kComplete; eigh: kVectors | kQl; svd: kVectors | kFull
  uint32_t in_ub = 0;       // 1: the work area is a UB buffer, 0: the block's GM workspace slice
  uint32_t max_sweeps = 0;  // Jacobi sweep cap
  uint64_t batch = 0, m = 0, n = 0;
  uint64_t per_core = 0;    // matrices per block
  uint64_t work_elems = 0;  // elements of one matrix's work area (a multiple of 16: blocks' GM work areas on separate 64 B lines)
};

constexpr uint32_t kComplete = 1;  // qr: mode='complete'
constexpr uint32_t kVectors = 2;   // eigh / svd: compute the vectors
constexpr uint32_t kFull = 4;      // svd: full_matrices=True
constexpr uint32_t kQl = 8;        // eigh: tridiagonalization + implicit QL instead of Jacobi

// info of a matrix whose entries make numpy's LAPACK report non-convergence
// (see the invariants above): the op raises LinAlgError-like errors for it.
constexpr int32_t kInfoNonFinite = -2;

#ifndef NPURT_SPECTRAL_HOST_ONLY

// The work area of one matrix (t.work_elems elements, addressed linearly by
// Get(k) / Set(k, v)): a UB buffer of the kernel's pipe, or this block's
// slice of the GM workspace.
template <class T>
__aicore__ inline void InitWork(UbMatrix<T>& w, AscendC::TPipe& pipe, AscendC::TBuf<AscendC::TPosition::VECCALC>& buf,
                                GM_ADDR, const SpectralTiling& t) {
  pipe.InitBuffer(buf, static_cast<uint32_t>(t.work_elems * sizeof(T)));
  w.data = buf.template Get<T>();
}
template <class T>
__aicore__ inline void InitWork(GmMatrix<T>& w, AscendC::TPipe&, AscendC::TBuf<AscendC::TPosition::VECCALC>&,
                                GM_ADDR workspace, const SpectralTiling& t) {
  GM_ADDR base = AscendC::GetUserWorkspace(workspace) +
                 static_cast<uint64_t>(AscendC::GetBlockIdx()) * t.work_elems * sizeof(T);
  w.data.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(base), t.work_elems);
}

template <class T>
__aicore__ inline T Abs(T v) { return v < T(0) ? -v : v; }

template <class T>
__aicore__ inline T Eps() { return sizeof(T) == 8 ? T(2.220446049250313e-16) : T(1.1920929e-07f); }

template <class T>
__aicore__ inline T QuietNan() { return T(__builtin_nan("")); }

template <class T>
__aicore__ inline bool Finite(T v) { return v - v == T(0); }  // false for NaN and +-inf

// tan of the Jacobi angle that zeroes the off-diagonal entry: the smaller root
// of t^2 + 2 zeta t - 1 = 0 (|angle| <= pi/4), written to avoid overflow.
template <class T>
__aicore__ inline T JacobiTan(T zeta) {
  const T a = Abs(zeta);
  const T t = a > T(1e15) ? T(0.5) / a : T(1) / (a + std::sqrt(T(1) + a * a));
  return zeta < T(0) ? -t : t;
}

// Largest |x[base + i]| for i < count (0 when count is 0); NaN when one of
// them is NaN or inf.
template <class T>
__aicore__ inline T MaxAbsOrNan(const AscendC::GlobalTensor<T>& x, uint64_t base, uint64_t count) {
  T most = T(0);
  for (uint64_t i = 0; i < count; ++i) {
    const T v = x.GetValue(base + i);
    if (!Finite(v)) return QuietNan<T>();
    most = Abs(v) > most ? Abs(v) : most;
  }
  return most;
}

// True when one of x[base + i], i < count, is NaN (inf is not).
template <class T>
__aicore__ inline bool HasNan(const AscendC::GlobalTensor<T>& x, uint64_t base, uint64_t count) {
  for (uint64_t i = 0; i < count; ++i) {
    const T v = x.GetValue(base + i);
    if (v != v) return true;
  }
  return false;
}

// A power of two p with max_abs * p in [0.5, 2) (1 for a zero matrix; at most
// 2^126 / 2^1022 so p stays finite for subnormal input). Scaling by p is exact, keeps
// squares and products of the entries clear of overflow and underflow, and
// leaves the algorithms' rounding unchanged (they are scale-invariant).
template <class T>
__aicore__ inline T PowerOfTwoScale(T max_abs) {
  T p = T(1);
  if (!(max_abs > T(0))) return p;
  while (max_abs * p >= T(2)) p *= T(0.5);
  const T most = sizeof(T) == 8 ? T(4.49423283715579e307) : T(8.507059e37f);
  while (max_abs * p < T(0.5) && p < most) p *= T(2);
  return p;
}

// Writes `count` NaNs at out[base..).
template <class T>
__aicore__ inline void FillNan(const AscendC::GlobalTensor<T>& out, uint64_t base, uint64_t count) {
  for (uint64_t i = 0; i < count; ++i) out.SetValue(base + i, QuietNan<T>());
}

// Runs sweep() (true when it rotated something) until a sweep rotates nothing
// or `cap` sweeps ran. Returns the info value: sweeps used, -1 at the cap.
template <class Sweep>
__aicore__ inline int32_t IterateSweeps(uint32_t cap, Sweep&& sweep) {
  int32_t sweeps = 0;
  bool rotated = true;
  while (rotated && sweeps < static_cast<int32_t>(cap)) {
    rotated = sweep();
    ++sweeps;
  }
  return rotated ? -1 : sweeps;
}

// Selection sort of `count` keys (ascending, or descending): key(i) reads key
// i, swap(i, j) exchanges entries i and j with whatever travels with them.
template <class Key, class Swap>
__aicore__ inline void SelectionSort(uint64_t count, bool descending, Key&& key, Swap&& swap) {
  for (uint64_t i = 0; i + 1 < count; ++i) {
    uint64_t best = i;
    for (uint64_t j = i + 1; j < count; ++j)
      if (descending ? key(j) > key(best) : key(j) < key(best)) best = j;
    if (best != i) swap(i, best);
  }
}

// Calls one(b) for every matrix b of the batch this block owns.
template <class One>
__aicore__ inline void ForEachOwnedMatrix(const SpectralTiling& t, One&& one) {
  const uint64_t first = static_cast<uint64_t>(AscendC::GetBlockIdx()) * t.per_core;
  const uint64_t end = first + t.per_core < t.batch ? first + t.per_core : t.batch;
  for (uint64_t b = first; b < end; ++b) one(b);
}

#endif  // NPURT_SPECTRAL_HOST_ONLY

}  // namespace npurt::kernels::linalg
