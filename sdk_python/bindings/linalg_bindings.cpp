// sdk_python/bindings/linalg_bindings.cpp: npurt::ops::svd (npurt/linalg_spectral.h)
// for npurt.linalg: _spectral.py's reduced SVDs call `_linalg_svd`, so the
// QR-first rule for long matrices and the convergence check exist only in
// C++. Errors are the C++ ones (InvalidArgument -> ValueError), named
// "npurt::ops::svd"; _spectral.py renames them after the public function.
#include "bindings.h"
#include "npurt/linalg_spectral.h"

namespace npurt::python {
namespace {

nb::tuple linalg_svd(const Tensor& x, bool full_matrices, bool vectors) {
  ops::SVD r = ops::svd(x, full_matrices, vectors);
  return nb::make_tuple(r.U, r.S, r.Vh);
}

}  // namespace

void bind_linalg(nb::module_& m) {
  m.def("_linalg_svd", &linalg_svd, nb::arg("x"), nb::arg("full_matrices") = true, nb::arg("vectors") = true,
        "npurt::ops::svd: (U, S, Vh) of the stack x [..., m, n]; a reduced SVD of a long matrix goes through "
        "its QR. Raises when Jacobi did not converge.");
}

}  // namespace npurt::python
