// kernels/elementwise/ew_kernels_unary.cc: device code: the kernel entries of the
// NPURT_EW_UNARY_OPS rows (ew_op_list.h), each one instance of EwKernel.
#include "elementwise/ew_unary_functors.h"
#include "elementwise/ew_complex_functors.h"
#include "elementwise/ew_round_pred_functors.h"
#include "elementwise/ew_kernel.h"
#include "elementwise/ew_op_info.h"
#include "elementwise/ew_op_list.h"

NPURT_EW_UNARY_OPS(NPURT_EW_DEFINE)
