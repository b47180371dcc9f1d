// sdk_python/bindings/linalg_bindings.cpp: npurt::ops::lu_factor / lu_solve /
// cholesky (npurt/linalg_ops.h) for nr.linalg (sdk_python/npurt/linalg/),
// which checks the public arguments, raises LinAlgError and composes det,
// slogdet, solve and inv from these. Errors are the C++ ones.
#include "bindings.h"
#include "npurt/linalg_ops.h"

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

}  // namespace

void bind_linalg(nb::module_& m) {
  m.def("_lu_factor", &lu_factor, nb::arg("a"),
        "npurt::ops::lu_factor: (lu, int32 pivots, sign, logabsdet) of a stack of square matrices.");
  m.def("_lu_solve", &lu_solve, nb::arg("lu"), nb::arg("pivots"), nb::arg("b"),
        "npurt::ops::lu_solve: x with a x = b from _lu_factor's (lu, pivots); b (..., n, m), same batch.");
  m.def("_cholesky", &cholesky, nb::arg("a"), nb::arg("upper") = false,
        "npurt::ops::cholesky: (factor, int32 info) from a's lower triangle; info j + 1 = not positive definite.");
}

}  // namespace npurt::python
