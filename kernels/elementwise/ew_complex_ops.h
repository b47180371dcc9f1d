// kernels/elementwise/ew_complex_ops.h: the complex-only rows of the
// elementwise op table, X(op_name, Functor, arity, doc) as in ew_op_list.h
// (functors in ew_complex_functors.h, entries in ew_kernels_complex.cc), and the
// dtype rule of the ops whose complex result is real (abs, real, imag).
#pragma once

#include "npurt/dtype.h"

#define NPURT_EW_COMPLEX_OPS(X)                                                                 \
  X(real, RealPartF, 1, "Real part of a complex x (float32 for complex64, float64 for complex128).") \
  X(imag, ImagPartF, 1, "Imaginary part of a complex x (float32 for complex64, float64 for complex128).") \
  X(conj, ConjF, 1, "Complex conjugate: the imaginary part negated (signed zeros kept).")

namespace npurt::kernels::ew {

// float32 for complex64, float64 for complex128, the dtype itself otherwise.
inline DType complex_part_dtype(DType d) {
  if (d == DType::kComplex64) return DType::kFloat32;
  if (d == DType::kComplex128) return DType::kFloat64;
  return d;
}

}  // namespace npurt::kernels::ew
