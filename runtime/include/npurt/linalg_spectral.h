// npurt/linalg_spectral.h: the spectral decompositions of a stack of matrices
// as C++ calls (what npurt.linalg.qr / eigh / svd run, kernels/linalg/).
//
//   npurt::ops::SVD r = npurt::ops::svd(x, /*full_matrices=*/false);
//   // x [..., m, n] = r.U [..., m, k] * diag(r.S [..., k]) * r.Vh [..., k, n]
//
// x is float32 or float64 (sim-only), >= 2-D, any layout (the dispatcher
// copies a strided view). qr: Householder; eigh: Householder tridiagonalization
// + implicit QL of the lower triangle, eigenvalues ascending, eigenvectors as
// columns; svd: one-sided Jacobi, singular values descending. NaN/inf follow
// numpy (whose LAPACK reports non-convergence): eigh throws for a NaN/inf in
// the lower triangle, svd for a NaN; an inf alone gives svd NaN results.
// svd of a matrix at least twice as tall (wide) as wide (tall) runs Jacobi on
// the top square block of R of A = Q R (A^T = Q R) and multiplies U = Q U_R
// (Vh = Vh_R Q^T); full_matrices takes the complete Q, whose other columns
// complete U (Vh): reduced 1000x50 float32 56 -> 25 ms CPU.
//
// Invariants: eigh and svd wait for their kernel (they read its convergence
// report) and throw InvalidArgument "npurt::ops::<fn>: argument 'x': ..." when
// QL / Jacobi did not converge within the iteration cap or for the NaN/inf
// above ("... did not converge (the matrix has NaN ...)"); bad arguments throw before
// anything is enqueued (the ops' messages, "npurt.ops.linalg_<fn>: ...").
#pragma once

#include "npurt/stream.h"
#include "npurt/tensor.h"

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {
namespace ops {

struct QR {
  Tensor Q;  // [..., m, k] (complete: [..., m, m]), orthonormal columns
  Tensor R;  // [..., k, n] (complete: [..., m, n]), upper triangular
};

struct Eigh {
  Tensor eigenvalues;   // [..., n], ascending
  Tensor eigenvectors;  // [..., n, n] (columns); [..., 0, 0] when not asked for
};

struct SVD {
  Tensor U;   // [..., m, k] (full: [..., m, m]); [..., 0, 0] when not asked for
  Tensor S;   // [..., k], descending, k = min(m, n)
  Tensor Vh;  // [..., k, n] (full: [..., n, n]); [..., 0, 0] when not asked for
};

QR qr(const Tensor& x, bool complete = false, const Stream& stream = Stream());
Eigh eigh(const Tensor& x, bool vectors = true, const Stream& stream = Stream());
SVD svd(const Tensor& x, bool full_matrices = true, bool vectors = true, const Stream& stream = Stream());

}  // namespace ops
}  // namespace npurt
NPURT_PUBLIC_END
