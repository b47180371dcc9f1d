// kernels/indexing/indexing_op.cc: host side of the gather/scatter family:
// shapes, tilings and the registration of index_check, gather, scatter and
// mask_positions (kernels in gather_kernel.cc and index_kernel.cc).
//
// The Python layer (sdk_python/npurt/array_api/indexing.py) composes them:
// x[idx] = index_check + gather; x[idx] = v: index_check + scatter into x;
// x[mask]: mask_count + cumsum of the 64 block counts (scan family) + a
// one-element read of the total + mask_positions + gather. Indices are int64
// after index_check (or after the host check of list / numpy keys,
// sdk_python/bindings/host_index.cpp). scatter also takes one value element
// for any number of positions (x[idx] = scalar: GatherTiling::bcast).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "common/tiling_as.h"
#include "common/tiling_util.h"
#include "elementwise/ew_types.h"
#include "indexing/indexing_tiling.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"

namespace npurt::kernels {

extern const SimKernelEntry kGatherKernelEntry;
extern const SimKernelEntry kScatterKernelEntry;
extern const SimKernelEntry kIndexCheckKernelEntry;
extern const SimKernelEntry kMaskCountKernelEntry;
extern const SimKernelEntry kMaskPositionsKernelEntry;

namespace {

const DTypeMask kIndexDTypes = ew::kInts;

size_t norm_axis(const OpContext& ctx, int64_t a, size_t ndim) {
  const int64_t n = static_cast<int64_t>(ndim);
  if (a < -n || a >= n)
    ctx.fail("axis", "axis " + std::to_string(a) + " is out of bounds for array of dimension " + std::to_string(n));
  return static_cast<size_t>(a < 0 ? a + n : a);
}

struct Around {
  uint64_t outer = 1, n = 1, inner = 1;
};

Around around(const Dims& shape, size_t axis) {
  Around a;
  for (size_t i = 0; i < shape.size(); ++i) {
    const uint64_t s = static_cast<uint64_t>(shape[i]);
    if (i < axis) a.outer *= s;
    else if (i == axis) a.n = s;
    else a.inner *= s;
  }
  return a;
}

// Unit size and the inner length in units (16-byte dtypes move as two 8-byte units).
void set_units(GatherTiling& t, DType dt) {
  const uint32_t item = static_cast<uint32_t>(itemsize(dt));
  t.unit = item > 8 ? 8 : item;
  t.inner *= item / t.unit;
}

void split(const OpContext& ctx, GatherTiling& t, TilingResult& r, bool one_core) {
  CoreSplit cs = split_over_cores(t.total, 32, 8192, ctx.profile());
  if (one_core && t.total > 0) cs = CoreSplit{1, t.total};
  t.per_core = cs.per_core;
  // One queue, two buffers of `tile` units (index_check also needs an int64 buffer pair).
  t.tile = fit_tile(ub_budget(ctx.profile()) / 2, 8 + t.unit, 32, std::min<uint64_t>(8192, std::max<uint64_t>(t.per_core, 1)));
  r.num_blocks = cs.num_blocks;
  r.set_tiling(t);
}

// ---- gather ------------------------------------------------------------------

bool along(const OpContext& ctx) {
  const std::string& mode = ctx.attr("mode").as_string();
  if (mode != "take" && mode != "along") ctx.fail("mode", "'" + mode + "' is not 'take' or 'along'");
  return mode == "along";
}

void gather_infer(const OpContext& ctx) {
  const Dims& xs = ctx.input(0).shape;
  const Dims& is = ctx.input(1).shape;
  const size_t axis = norm_axis(ctx, ctx.attr_int("axis"), xs.size());
  if (along(ctx)) {
    if (is.size() != xs.size()) ctx.fail("indices", "must have the rank of x (" + std::to_string(xs.size()) + ")");
    for (size_t i = 0; i < xs.size(); ++i)
      if (i != axis && is[i] != xs[i])
        ctx.fail("indices", "dimension " + std::to_string(i) + " is " + std::to_string(is[i]) + " but x has " +
                                std::to_string(xs[i]) + " (broadcast the indices first)");
    ctx.set_output(0, is, ctx.input(0).dtype);
    return;
  }
  if (xs[axis] == 0 && ctx.input(1).numel() > 0) ctx.fail("indices", "cannot take from an empty axis");
  Dims out;
  for (size_t i = 0; i < axis; ++i) out.push_back(xs[i]);
  for (int64_t d : is) out.push_back(d);
  for (size_t i = axis + 1; i < xs.size(); ++i) out.push_back(xs[i]);
  ctx.set_output(0, out, ctx.input(0).dtype);
}

void gather_tiling(const OpContext& ctx, TilingResult& r) {
  const size_t axis = norm_axis(ctx, ctx.attr_int("axis"), ctx.input(0).shape.size());
  const Around a = around(ctx.input(0).shape, axis);
  GatherTiling t;
  t.mode = static_cast<uint32_t>(along(ctx) ? GatherMode::kAlong : GatherMode::kTake);
  t.axis = static_cast<uint32_t>(axis);
  t.outer = a.outer, t.n = a.n, t.inner = a.inner;
  t.m = along(ctx) ? static_cast<uint64_t>(ctx.input(1).shape[axis]) : static_cast<uint64_t>(ctx.input(1).numel());
  set_units(t, ctx.input(0).dtype);
  if (along(ctx) && t.unit < itemsize(ctx.input(0).dtype)) {  // one index per 16-byte element
    t.sub = static_cast<uint32_t>(itemsize(ctx.input(0).dtype) / t.unit);
    t.inner /= t.sub;
  }
  t.total = t.outer * t.m * t.inner * t.sub;
  split(ctx, t, r, false);
}

// ---- scatter -----------------------------------------------------------------

void scatter_infer(const OpContext& ctx) {
  const Dims& shape = ctx.attr("shape").as_ints();
  const size_t axis = norm_axis(ctx, ctx.attr_int("axis"), shape.size());
  const Around a = around(shape, axis);
  const uint64_t want = a.outer * static_cast<uint64_t>(ctx.input(0).numel()) * a.inner;
  const uint64_t have = static_cast<uint64_t>(ctx.input(1).numel());
  if (have != want && have != 1)
    ctx.fail("values", "has " + std::to_string(have) + " elements; [outer, len(indices), inner] around axis " +
                           std::to_string(axis) + " needs " + std::to_string(want) + " (or 1, written everywhere)");
  ctx.set_output(0, shape, ctx.input(1).dtype);
}

void scatter_tiling(const OpContext& ctx, TilingResult& r) {
  const Dims& shape = ctx.attr("shape").as_ints();
  const size_t axis = norm_axis(ctx, ctx.attr_int("axis"), shape.size());
  const Around a = around(shape, axis);
  GatherTiling t;
  t.axis = static_cast<uint32_t>(axis);
  t.outer = a.outer, t.n = a.n, t.inner = a.inner;
  t.m = static_cast<uint64_t>(ctx.input(0).numel());
  set_units(t, ctx.input(1).dtype);
  t.total = t.outer * t.m * t.inner;
  const bool one = ctx.input(1).numel() == 1 && a.outer * t.m * a.inner > 1;  // one value, several writes
  if (one) t.bcast = static_cast<uint32_t>(itemsize(ctx.input(1).dtype) / t.unit);  // the value's units
  // Repeated indices: the last write wins only when one core does every write in order
  // (one value: every write of an element is the same, any split gives the same result).
  split(ctx, t, r, !ctx.attr_bool("unique") && !one);
}

// ---- index_check -----------------------------------------------------------------

void index_check_infer(const OpContext& ctx) {
  if (ctx.attr_int("size") < 0) ctx.fail("size", "is negative");
  ctx.set_output(0, ctx.input(0).shape, DType::kInt64);
  ctx.set_output(1, Dims{kIndexSlots, 2}, DType::kInt64);
}

void index_check_tiling(const OpContext& ctx, TilingResult& r) {
  GatherTiling t;
  const DType dt = ctx.input(0).dtype;
  t.unit = 8;
  t.idx_unit = static_cast<uint32_t>(itemsize(dt));
  t.idx_signed = (ew::bit(dt) & ew::kSigned) != 0 ? 1 : 0;
  t.size = ctx.attr_int("size");
  t.total = static_cast<uint64_t>(ctx.input(0).numel());
  split(ctx, t, r, false);
  if (r.num_blocks > kIndexSlots) ctx.fail("indices", "more cores than status slots");
}

// ---- mask_positions -------------------------------------------------------------

// The block split both mask passes share (mask_positions reads mask_count's slots).
void mask_split(const OpContext& ctx, MaskTiling& t, TilingResult& r, uint64_t bytes_per_elem) {
  CoreSplit cs = split_over_cores(t.total, 32, 16384, ctx.profile());
  if (cs.num_blocks > kIndexSlots) ctx.fail("mask", "more cores than count slots");
  t.per_core = cs.per_core;
  t.tile = fit_tile(ub_budget(ctx.profile()), bytes_per_elem, 32, 4096);
  r.num_blocks = cs.num_blocks;
}

void mask_count_tiling(const OpContext& ctx, TilingResult& r) {
  MaskTiling t;
  t.dtype = static_cast<uint32_t>(ctx.input(0).dtype);
  t.total = static_cast<uint64_t>(ctx.input(0).numel());
  mask_split(ctx, t, r, 2 * itemsize(ctx.input(0).dtype));
  r.set_tiling(t);
}

void mask_infer(const OpContext& ctx) {
  const Dims& ms = ctx.input(0).shape;
  if (ctx.input(1).numel() != kIndexSlots + 1)
    ctx.fail("offsets", "must hold " + std::to_string(kIndexSlots + 1) +
                            " values (the exclusive scan of mask_count's slots, with the total last)");
  if (ms.size() > kMaskMaxDims) ctx.fail("mask", "more than " + std::to_string(kMaskMaxDims) + " dims");
  if (ctx.attr_int("count") < 0 || ctx.attr_int("count") > ctx.input(0).numel())
    ctx.fail("count", "must be the number of true elements (the last offset)");
  const int64_t rows = ctx.attr_bool("unravel") ? static_cast<int64_t>(ms.size()) : 1;
  ctx.set_output(0, Dims{rows, ctx.attr_int("count")}, DType::kInt64);
}

void mask_tiling(const OpContext& ctx, TilingResult& r) {
  MaskTiling t;
  const Dims& ms = ctx.input(0).shape;
  t.dtype = static_cast<uint32_t>(ctx.input(0).dtype);
  t.total = static_cast<uint64_t>(ctx.input(0).numel());
  t.count = static_cast<uint64_t>(ctx.attr_int("count"));
  t.ndim = ctx.attr_bool("unravel") ? static_cast<uint32_t>(ms.size()) : 1;
  for (size_t i = 0; i < ms.size(); ++i) t.shape[i] = ms[i];
  mask_split(ctx, t, r, 2 * itemsize(ctx.input(0).dtype) + 8 * std::max<uint32_t>(t.ndim, 1));
  if (t.count == 0 || t.ndim == 0) r.num_blocks = 0;  // nothing to write
  r.set_tiling(t);
}

std::string describe_gather(const OpContext&, const TilingResult& r) {
  const GatherTiling t = tiling_as<GatherTiling>(r, "describe_gather");
  return "[outer, n, inner]=[" + std::to_string(t.outer) + ", " + std::to_string(t.n) + ", " +
         std::to_string(t.inner) + "] m=" + std::to_string(t.m) + " unit=" + std::to_string(t.unit) +
         "B per_core=" + std::to_string(t.per_core) + " tile=" + std::to_string(t.tile);
}

void cost_moved(const OpContext& ctx, OpCost& c) {
  c.bytes = 2.0 * static_cast<double>(ctx.output(0).numel()) * itemsize(ctx.output(0).dtype);
}

}  // namespace

NPURT_REGISTER_OP("gather")
    .doc("mode 'take': y = x[..., indices, ...] along `axis` (y's shape: x's with that axis replaced by\n"
         "indices' shape); mode 'along': y[o, j, i] = x[o, indices[o, j, i], i] (take_along_axis; indices\n"
         "of x's shape except along axis). Indices are int64 in [0, x.shape[axis]) (see index_check); the\n"
         "kernel checks them: one outside stops it with a KernelFault naming 'indices' (at the next sync).")
    .input("x", all_dtypes_mask())
    .input("indices", {DType::kInt64})
    .output("y")
    .attr("axis", AttrType::kInt, AttrValue(int64_t{0}))
    .attr("mode", AttrType::kString, AttrValue("take"))
    .infer(gather_infer)
    .tiling(gather_tiling)
    .describe_tiling(describe_gather)
    .cost(cost_moved)
    .sim_kernel("npurt_gather_kernel", kGatherKernelEntry);

NPURT_REGISTER_OP("scatter")
    .doc("y[..., indices[j], ...] = values[..., j, ...] along `axis` of y (shape `shape`), written into\n"
         "out= (every other element of out= is left as it was). unique=False writes on one core in\n"
         "order, so a repeated index keeps the last value like numpy; unique=True spreads the work.\n"
         "A one-element `values` is written at every position (x[idx] = scalar: no broadcast copy).\n"
         "Indices must be in [0, shape[axis]): the kernel checks them like gather's.")
    .input("indices", {DType::kInt64})
    .input("values", all_dtypes_mask())
    .output("y")
    .attr("shape", AttrType::kIntList)
    .attr("axis", AttrType::kInt, AttrValue(int64_t{0}))
    .attr("unique", AttrType::kBool, AttrValue(false))
    .infer(scatter_infer)
    .tiling(scatter_tiling)
    .describe_tiling(describe_gather)
    .cost(cost_moved)
    .sim_kernel("npurt_scatter_kernel", kScatterKernelEntry);

NPURT_REGISTER_OP("index_check")
    .doc("Normalizes indices for an axis of length `size`: y = indices + size where indices < 0, as\n"
         "int64. status[b] = (count, first) of the indices outside [-size, size) seen by block b (64\n"
         "slots; the host sums them and raises IndexError). Bad indices become 0 in y.")
    .input("indices", kIndexDTypes)
    .output("y")
    .output("status")
    .attr("size", AttrType::kInt)
    .infer(index_check_infer)
    .tiling(index_check_tiling)
    .describe_tiling(describe_gather)
    .cost([](const OpContext& ctx, OpCost& c) { c.bytes = 16.0 * static_cast<double>(ctx.input(0).numel()); })
    .sim_kernel("npurt_index_check_kernel", kIndexCheckKernelEntry);

NPURT_REGISTER_OP("mask_count")
    .doc("First pass of the compaction of a mask (any dtype; an element is true when != 0):\n"
         "counts[b] = the true elements in block b's part (64 slots, unused ones 0). Scan them\n"
         "(include_initial) for mask_positions.")
    .input("mask", all_dtypes_mask())
    .sim_only({DType::kFloat64, DType::kComplex128})
    .output("counts")
    .infer([](const OpContext& ctx) { ctx.set_output(0, Dims{kIndexSlots}, DType::kInt64); })
    .tiling(mask_count_tiling)
    .cost([](const OpContext& ctx, OpCost& c) { c.bytes = static_cast<double>(ctx.input(0).numel()); })
    .sim_kernel("npurt_mask_count_kernel", kMaskCountKernelEntry);

NPURT_REGISTER_OP("mask_positions")
    .doc("Second pass of the compaction of a boolean mask: for every true element, its flat index\n"
         "(unravel=False, y [1, count]) or its coordinates (unravel=True, y [mask.ndim, count]), in C\n"
         "order. offsets: the exclusive scan of mask_count's slots with the total last (65 values);\n"
         "count: that total.")
    .input("mask", all_dtypes_mask())
    .sim_only({DType::kFloat64, DType::kComplex128})
    .input("offsets", {DType::kInt64})
    .output("y")
    .attr("count", AttrType::kInt)
    .attr("unravel", AttrType::kBool, AttrValue(false))
    .infer(mask_infer)
    .tiling(mask_tiling)
    .cost([](const OpContext& ctx, OpCost& c) { c.bytes = 9.0 * static_cast<double>(ctx.input(0).numel()); })
    .sim_kernel("npurt_mask_positions_kernel", kMaskPositionsKernelEntry);

}  // namespace npurt::kernels
