// A plugin whose op name clashes with plugin_scale's; its other op must not be
// registered either (a library loads all-or-nothing).
#include "test_kernels.h"

NPURT_REGISTER_OPS(std::vector<npurt::OpDefBuilder>{
    npurt_test::affine_def("plugin_clash_other", NPURT_SIM_ENTRY(npurt_test_affine_kernel)),
    npurt_test::affine_def("plugin_scale", NPURT_SIM_ENTRY(npurt_test_affine_kernel))});
