// npurt/linalg_ops.h: the dense linear-algebra kernels (kernels/linalg/) as
// C++ calls: LU with partial pivoting, the solve that uses it, and Cholesky.
// nr.linalg's det / slogdet / solve / inv / cholesky (sdk_python/npurt/linalg)
// are built on these three.
//
//   npurt::ops::LuFactors f = npurt::ops::lu_factor(a);   // a: (..., n, n)
//   npurt::Tensor x = npurt::ops::lu_solve(f, b);         // b: (..., n, m), a x = b
//   // det(a) = f.sign * exp(f.logabsdet); sign == 0 marks an exactly singular matrix
//
// Invariants: float32 and float64 (float64 is sim-only) stacks of square
// matrices, contiguous or not (views are copied by the dispatcher); results
// are contiguous. lu_solve's b must have the factors' batch dimensions (no
// broadcasting here) and dtype; a singular factorization gives inf/NaN, not an
// error (check `sign` first). Bad arguments throw InvalidArgument naming the
// op ("npurt.ops.lu_factor: argument 'a': ...") before anything is enqueued.
#pragma once

#include "npurt/stream.h"
#include "npurt/tensor.h"

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {
namespace ops {

struct LuFactors {
  Tensor lu;         // (..., n, n): unit lower L below the diagonal, U on and above it (P a = L U)
  Tensor pivots;     // (..., n) int32: step k swapped rows k and pivots[k]
  Tensor sign;       // (...): sign of det(a): -1, 1, or 0 when a is exactly singular
  Tensor logabsdet;  // (...): log |det(a)| (-inf when singular)
};

LuFactors lu_factor(const Tensor& a, const Stream& stream = Stream());

// x with a x = b for the a that `f` factors; b (..., n, m) with f's batch dims.
Tensor lu_solve(const LuFactors& f, const Tensor& b, const Stream& stream = Stream());

struct CholeskyFactor {
  Tensor factor;  // (..., n, n): L (lower, A = L L^T) or, with upper, U = L^T
  Tensor info;    // (...) int32: 0, or j + 1 when the leading (j+1) x (j+1) minor is not positive definite
};

// Reads a's lower triangle only (a is taken to be symmetric).
CholeskyFactor cholesky(const Tensor& a, bool upper = false, const Stream& stream = Stream());

}  // namespace ops
}  // namespace npurt
NPURT_PUBLIC_END
