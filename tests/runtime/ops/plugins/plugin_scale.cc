// A plugin registering "plugin_scale" (y = x * a + b with the test kernel).
#include "test_kernels.h"

NPURT_REGISTER_OPS(std::vector<npurt::OpDefBuilder>{
    npurt_test::affine_def("plugin_scale", NPURT_SIM_ENTRY(npurt_test_affine_kernel))});
