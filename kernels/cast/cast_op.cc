// kernels/cast/cast_op.cc: host side of cast: table check, tiling, registration.
#include <algorithm>
#include <string>

#include "cast/cast_table.h"
#include "common/tiling_util.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"

namespace npurt::kernels {

extern const SimKernelEntry kCastKernelEntry;

namespace {

void cast_infer(const OpContext& ctx) {
  DType src = ctx.input(0).dtype;
  DType dst = ctx.attr_dtype("dtype");
  if (src != dst && !find_cast(dst, src)) {
    DTypeMask reachable = 0;
    for (const CastRow& r : kCastRows)
      if (r.src == src) reachable |= dtype_mask({r.dst});
    ctx.fail_dtype("dtype", std::string("casting ") + dtype_name(src) + " to " + dtype_name(dst) +
                               " is not a single vector-unit conversion (from " + dtype_name(src) + ": " +
                               (reachable ? dtype_mask_names(reachable) : std::string("none")) + ")");
  }
  ctx.set_output(0, ctx.input(0).shape, dst);
}

void cast_tiling(const OpContext& ctx, TilingResult& r) {
  DType src = ctx.input(0).dtype, dst = ctx.output(0).dtype;
  uint32_t si = static_cast<uint32_t>(itemsize(src)), di = static_cast<uint32_t>(itemsize(dst));
  CastTiling t;
  t.total = static_cast<uint64_t>(ctx.input(0).numel());
  t.src = static_cast<uint32_t>(src);
  t.dst = static_cast<uint32_t>(dst);
  const CastRow* row = find_cast(dst, src);
  t.mode = row ? static_cast<uint32_t>(row->mode) : 0;
  uint64_t align = std::max(block_elems(si), block_elems(di));  // both sides 32-byte aligned
  CoreSplit split = split_over_cores(t.total, align, 16384 / std::max(si, di), ctx.profile());
  t.per_core = split.per_core;
  uint64_t per_item = src == dst ? 2ull * si : 2ull * (si + di);  // double-buffered queues
  t.tile = fit_tile(ub_budget(ctx.profile()), per_item, align, split.per_core);
  r.num_blocks = split.num_blocks;
  r.set_tiling(t);
}

}  // namespace

NPURT_REGISTER_OP("cast")
    .doc("x converted to `dtype` elementwise, like numpy's astype: floats round to nearest even,\n"
         "float -> integer truncates toward zero. Each supported pair is one vector-unit Cast;\n"
         "casting to the same dtype copies.")
    .input("x", all_dtypes_mask())
    .output("y")
    .attr("dtype", AttrType::kDType)
    .infer(cast_infer)
    .tiling(cast_tiling)
    .cost([](const OpContext& ctx, OpCost& c) {
      double n = static_cast<double>(ctx.input(0).numel());
      c.bytes = n * (itemsize(ctx.input(0).dtype) + itemsize(ctx.output(0).dtype));
      c.flops = n;
    })
    .sim_kernel("npurt_cast_kernel", kCastKernelEntry);

}  // namespace npurt::kernels
