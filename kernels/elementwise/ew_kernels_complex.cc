// kernels/elementwise/ew_kernels_complex.cc: device code: the kernel entries of
// the complex-only rows NPURT_EW_COMPLEX_OPS (real, imag, conj), each one
// instance of EwKernel.
#include "elementwise/ew_complex_functors.h"
#include "elementwise/ew_complex_ops.h"
#include "elementwise/ew_kernel.h"
#include "elementwise/ew_op_info.h"

NPURT_EW_COMPLEX_OPS(NPURT_EW_DEFINE)
