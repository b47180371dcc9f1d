// kernels/elementwise/ew_host.h: the host-side planner of the elementwise
// template, shared by every op built on EwKernel (ew_ops.cc, ew_act_ops.cc).
//
// Invariants of the plan: the output is the contiguous iteration space
// out_shape; input i is read through in[i]'s strides (0 on broadcast dims);
// per_core and tile are multiples of 32 bytes of the narrowest operand.
#pragma once

#include <cstdint>
#include <string>

#include "elementwise/ew_tiling.h"
#include "npurt/op_def.h"

namespace npurt::kernels::ew {

// Fills t (collapsed layout, core split, UB tile) and num_blocks. `dtype` is
// the computing inputs' dtype, `out_dtype` the output's. Fails through
// ctx.fail when the layout cannot be collapsed to kEwMaxDims or no tile fits.
// extra_ub_per_item: UB bytes per element of scratch buffers beyond the queues.
void plan_ew(const OpContext& ctx, const Dims& out_shape, DType dtype, DType out_dtype, const TensorSpec* in,
             int n_in, EwTiling& t, uint32_t& num_blocks, uint64_t extra_ub_per_item = 0);

// describe_tiling / cost functions of the template (the first EwTiling of r.tiling).
std::string describe_ew(const OpContext& ctx, const TilingResult& r);
void cost_ew(const OpContext& ctx, OpCost& c);

}  // namespace npurt::kernels::ew
