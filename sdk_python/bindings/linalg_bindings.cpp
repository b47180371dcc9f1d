// sdk_python/bindings/linalg_bindings.cpp: the linalg kernels' C++ API for
// nr.linalg (sdk_python/npurt/linalg/): npurt::ops::lu_factor / lu_solve /
// cholesky (npurt/linalg_ops.h), from which _factor.py composes det, slogdet,
// solve and inv and raises LinAlgError, and npurt::ops::svd
// (npurt/linalg_spectral.h), which _spectral.py's reduced SVDs call so the
// QR-first rule for long matrices and the convergence check exist only in
// C++. Errors are the C++ ones (InvalidArgument -> ValueError), named after
// the C++ function; the Python layer renames them after the public function.
#include "bindings.h"
#include "npurt/linalg_ops.h"
#include "npurt/linalg_spectral.h"

namespace npurt::python {
namespace {

nb::tuple lu_factor(const Tensor& a) {
  const ops::LuFactors f = ops::lu_factor(a);
  return nb::make_tuple(f.lu, f.pivots, f.sign, f.logabsdet);
}

Tensor lu_solve(const Tensor& lu, const Tensor& pivots, const Tensor& b) {
  ops::LuFactors f;
  f.lu = lu;
  f.pivots = pivots;
  return ops::lu_solve(f, b);
}

nb::tuple cholesky(const Tensor& a, bool upper) {
  const ops::CholeskyFactor c = ops::cholesky(a, upper);
  return nb::make_tuple(c.factor, c.info);
}

nb::tuple linalg_svd(const Tensor& x, bool full_matrices, bool vectors) {
  ops::SVD r = ops::svd(x, full_matrices, vectors);
  return nb::make_tuple(r.U, r.S, r.Vh);
}

}  // namespace

void bind_linalg(nb::module_& m) {
  m.def("_lu_factor", &lu_factor, nb::arg("a"),
        "npurt::ops::lu_factor: (lu, int32 pivots, sign, logabsdet) of a stack of square matrices.");
  m.def("_lu_solve", &lu_solve, nb::arg("lu"), nb::arg("pivots"), nb::arg("b"),
        "npurt::ops::lu_solve: x with a x = b from _lu_factor's (lu, pivots); b (..., n, m), same batch.");
  m.def("_cholesky", &cholesky, nb::arg("a"), nb::arg("upper") = false,
        "npurt::ops::cholesky: (factor, int32 info) from a's lower triangle; info j + 1 = not positive definite.");
  m.def("_linalg_svd", &linalg_svd, nb::arg("x"), nb::arg("full_matrices") = true, nb::arg("vectors") = true,
        "npurt::ops::svd: (U, S, Vh) of the stack x [..., m, n]; a reduced SVD of a long matrix goes through "
        "its QR. Raises when Jacobi did not converge.");
}

}  // namespace npurt::python
