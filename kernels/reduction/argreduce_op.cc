// kernels/reduction/argreduce_op.cc: host side of argmax / argmin: the
// [outer, len, inner] view around one axis, tiling and the two OpDefs (one
// table, one kernel: argreduce_kernel.cc).
//
// Contract: input x (contiguous; the dispatcher copies views), attrs axis (int
// list: empty = the flattened array, else exactly one axis, negative allowed)
// and keepdims; output int64 indices. An empty reduced axis is an error.
#include <algorithm>
#include <string>
#include <vector>

#include "common/tiling_as.h"
#include "common/tiling_util.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"
#include "reduction/argreduce_tiling.h"

namespace npurt::kernels {

extern const SimKernelEntry kArgReduceEntry;

namespace {

struct ArgShape {
  uint64_t outer = 1, len = 1, inner = 1;
  Dims out_shape;
};

ArgShape arg_shape(const OpContext& ctx) {
  const Dims& shape = ctx.input(0).shape;
  const Dims& axes = ctx.attr("axis").as_ints();
  const int64_t nd = static_cast<int64_t>(shape.size());
  ArgShape s;
  if (axes.size() > 1)
    ctx.fail("axis", "takes one axis (or none for the flattened array), got " + std::to_string(axes.size()) + " axes");
  if (axes.empty()) {
    s.len = static_cast<uint64_t>(ctx.input(0).numel());
    if (ctx.attr_bool("keepdims"))
      for (size_t i = 0; i < shape.size(); ++i) s.out_shape.push_back(1);
  } else {
    const int64_t a = axes[0];
    if (a < -nd || a >= nd)
      ctx.fail("axis", "axis " + std::to_string(a) + " is out of bounds for array of dimension " + std::to_string(nd));
    const size_t ax = static_cast<size_t>(a < 0 ? a + nd : a);
    for (size_t i = 0; i < shape.size(); ++i) {
      const uint64_t n = static_cast<uint64_t>(shape[i]);
      if (i < ax) s.outer *= n;
      else if (i > ax) s.inner *= n;
      else s.len = n;
      if (i != ax) s.out_shape.push_back(shape[i]);
      else if (ctx.attr_bool("keepdims")) s.out_shape.push_back(1);
    }
  }
  if (s.len == 0) ctx.fail("x", "attempt to get the arg-extreme of an empty sequence (the reduced axis has size 0)");
  return s;
}

void arg_tiling(const OpContext& ctx, TilingResult& r, bool is_max) {
  const ArgShape s = arg_shape(ctx);
  ArgReduceTiling t;
  t.dtype = static_cast<uint32_t>(ctx.input(0).dtype);
  t.is_max = is_max;
  t.outer = s.outer, t.len = s.len, t.inner = s.inner;
  t.mode = s.inner == 1 ? 0 : 1;
  // UB per lane: the input tile, the best values, the int64 indices.
  const uint64_t per_lane = 2 * itemsize(ctx.input(0).dtype) + 8;
  const uint64_t want = std::min<uint64_t>(s.inner == 1 ? s.len : s.inner, 8192);
  t.tile = fit_tile(ub_budget(ctx.profile(), 4096), per_lane, 64, want);
  t.units = s.inner == 1 ? s.outer : s.outer * ceil_div(s.inner, t.tile);
  const uint64_t per_unit = std::max<uint64_t>(1, s.len * std::min<uint64_t>(s.inner, t.tile));
  const CoreSplit cs = split_over_cores(s.outer * s.inner == 0 ? 0 : t.units, 1, ceil_div(16384, per_unit),
                                        ctx.profile());
  t.per_core = cs.per_core;
  r.num_blocks = cs.num_blocks;
  r.set_tiling(t);
}

std::string describe_arg(const OpContext&, const TilingResult& r) {
  const ArgReduceTiling t = tiling_as<ArgReduceTiling>(r, "describe_arg");
  return std::string(t.mode == 0 ? "inner" : "outer") + " [outer, len, inner]=[" + std::to_string(t.outer) + ", " +
         std::to_string(t.len) + ", " + std::to_string(t.inner) + "] units=" + std::to_string(t.units) +
         " per_core=" + std::to_string(t.per_core) + " tile=" + std::to_string(t.tile);
}

std::vector<OpDefBuilder> arg_defs() {
  std::vector<OpDefBuilder> defs;
  const DTypeMask real = all_dtypes_mask() & ~dtype_mask({DType::kComplex64, DType::kComplex128});
  for (bool is_max : {true, false}) {
    OpDefBuilder b(is_max ? "argmax" : "argmin");
    b.doc(std::string("Index (int64) of the ") + (is_max ? "largest" : "smallest") +
          " element over `axis` (empty = the flattened array); the first occurrence wins and a NaN beats "
          "every number (first NaN). `keepdims` keeps the reduced axis as size 1.")
        .input("x", real)
        .sim_only({DType::kFloat64})
        .output("indices")
        .attr("axis", AttrType::kIntList, AttrValue(Dims{}))
        .attr("keepdims", AttrType::kBool, AttrValue(false))
        .infer([](const OpContext& ctx) { ctx.set_output(0, arg_shape(ctx).out_shape, DType::kInt64); })
        .tiling([is_max](const OpContext& ctx, TilingResult& r) { arg_tiling(ctx, r, is_max); })
        .describe_tiling(describe_arg)
        .cost([](const OpContext& ctx, OpCost& c) {
          c.bytes = static_cast<double>(ctx.input(0).numel()) * itemsize(ctx.input(0).dtype);
          c.flops = static_cast<double>(ctx.input(0).numel());
        })
        // The name is the entry symbol, which the device build exports (runtime/ops/device_dispatch.h).
        .sim_kernel("npurt_argreduce_kernel", kArgReduceEntry);
    defs.push_back(std::move(b));
  }
  return defs;
}

}  // namespace

NPURT_REGISTER_OPS(arg_defs());

}  // namespace npurt::kernels
