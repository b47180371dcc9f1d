// A plugin with an invalid OpDef (a kernel but no tiling function).
#include "test_kernels.h"

NPURT_REGISTER_OP("plugin_no_tiling")
    .input("x", {npurt::DType::kFloat32})
    .output("y")
    .infer_same_as(0)
    .sim_kernel("npurt_test_affine_kernel", NPURT_SIM_ENTRY(npurt_test_affine_kernel));
