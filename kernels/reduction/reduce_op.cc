// kernels/reduction/reduce_op.cc: host side of the reduction family: the
// [outer, len, inner] view, tiling and the registration of reduce_sum,
// reduce_prod, reduce_max, reduce_min, reduce_mean, reduce_any, reduce_all
// (one table, one kernel: reduce_kernel.cc).
//
// Contract of every op: input x (contiguous: the dispatcher copies views),
// attrs axis (int list, negative allowed; empty = every axis), keepdims (bool),
// dtype (str: "" = the input's dtype; "float32" for float16 inputs gives float32
// results of the float32 accumulation; "float16" for float32 inputs rounds the
// result once, which is how float16 partials are combined), part_len (int: 0 =
// whole reduction; > 0 = first launch of a split reduction: the reduced extent
// is cut into ranges of part_len elements and the output is their partial
// results [outer, parts, inner] in the accumulation dtype; mean gives sums),
// count (int: mean denominator, 0 = the reduced extent; the combining launch
// of a split mean passes the original extent), lanes (int: 0 = one block per
// vector core, as far as the units go; > 0 = the sim's grouped layout for that
// many host lanes, group_blocks: the same units, so the same results bit for
// bit, in fewer blocks). The reduced axes must be
// adjacent once size-1 dims are ignored (npurt::array::reduce permutes them
// there first). The split rule itself lives in runtime/ops/array_ops.cc.
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "common/tiling_as.h"
#include "common/tiling_util.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"
#include "reduction/reduce_tiling.h"

namespace npurt::kernels {

extern const SimKernelEntry kReduceKernelEntry;

namespace {

struct ReduceShape {
  uint64_t outer = 1, len = 1, inner = 1;
  uint64_t parts = 1, part_len = 0;  // split into ranges (parts > 1: partial results)
  Dims out_shape;
};

// The part_len attribute: 0 or >= len keeps one range.
void apply_split(const OpContext& ctx, ReduceShape& rs) {
  const int64_t want = ctx.attr("part_len").as_int();
  if (want < 0) ctx.fail("part_len", "must be >= 0 (0 = no split), got " + std::to_string(want));
  rs.part_len = rs.len;
  if (want == 0 || static_cast<uint64_t>(want) >= rs.len) return;
  rs.part_len = static_cast<uint64_t>(want);
  rs.parts = (rs.len + rs.part_len - 1) / rs.part_len;
  rs.out_shape = Dims{static_cast<int64_t>(rs.outer), static_cast<int64_t>(rs.parts), static_cast<int64_t>(rs.inner)};
}

std::vector<bool> reduced_axes(const OpContext& ctx, size_t ndim) {
  std::vector<bool> red(ndim, ctx.attr("axis").as_ints().empty());
  for (int64_t a : ctx.attr("axis").as_ints()) {
    int64_t n = static_cast<int64_t>(ndim);
    if (a < -n || a >= n)
      ctx.fail("axis", "axis " + std::to_string(a) + " is out of bounds for array of dimension " + std::to_string(n));
    size_t i = static_cast<size_t>(a < 0 ? a + n : a);
    if (red[i] && !ctx.attr("axis").as_ints().empty()) ctx.fail("axis", "repeated axis " + std::to_string(a));
    red[i] = true;
  }
  return red;
}

ReduceShape reduce_shape(const OpContext& ctx) {
  const Dims& shape = ctx.input(0).shape;
  std::vector<bool> red = reduced_axes(ctx, shape.size());
  ReduceShape rs;
  size_t first = shape.size(), last = 0;
  for (size_t i = 0; i < shape.size(); ++i)
    if (red[i]) first = std::min(first, i), last = i;
  for (size_t i = 0; i < shape.size(); ++i) {
    const uint64_t n = static_cast<uint64_t>(shape[i]);
    if (red[i]) rs.len *= n;
    else if (i < first) rs.outer *= n;
    else if (i > last) rs.inner *= n;
    else if (n != 1) ctx.fail("axis", "the reduced axes must be adjacent (ignoring size-1 dims); axis " +
                                          std::to_string(i) + " of size " + std::to_string(n) +
                                          " lies between them: permute the input first");
    if (!red[i]) rs.out_shape.push_back(shape[i]);
    else if (ctx.attr_bool("keepdims")) rs.out_shape.push_back(1);
  }
  apply_split(ctx, rs);
  return rs;
}

DType out_dtype(const OpContext& ctx, ReduceKind kind, const ReduceShape& rs) {
  const DType in = ctx.input(0).dtype;
  const bool logical = kind == ReduceKind::kAny || kind == ReduceKind::kAll;
  if (logical != (in == DType::kBool))
    ctx.fail_dtype("x", logical ? std::string("any/all take bool inputs (compare with 0 first), got ") + dtype_name(in)
                               : std::string("bool inputs are reduced with reduce_any/reduce_all; cast them first"));
  if (kind == ReduceKind::kMean && in == DType::kInt32) ctx.fail_dtype("x", "mean needs a floating-point input");
  const std::string& want = ctx.attr("dtype").as_string();
  if (rs.parts > 1) {  // partial results keep the accumulation dtype
    if (!want.empty()) ctx.fail("dtype", "a split reduction (part_len > 0) gives accumulation-dtype partials; pass \"\"");
    return in == DType::kFloat16 ? DType::kFloat32 : in;
  }
  if (want.empty() || want == dtype_name(in)) return in;
  if (in == DType::kFloat16 && want == dtype_name(DType::kFloat32)) return DType::kFloat32;
  if (in == DType::kFloat32 && want == dtype_name(DType::kFloat16)) return DType::kFloat16;
  ctx.fail_dtype("dtype", "'" + want + "' is not available for " + dtype_name(in) +
                             " inputs (\"\" keeps the input dtype; float16 inputs may ask for \"float32\", float32 "
                             "inputs for \"float16\")");
}

// UB bytes per lane beyond the 4-byte accumulators of reduce_kernel.cc (0 for its dtypes).
uint64_t wide_extra_bytes(DType d) { return itemsize(d) > 4 ? itemsize(d) : 0; }

// Elements per UB load for rows (kInner) folded into `span` accumulator lanes:
// 2 * span (up to kReduceRowTile) when the range is longer than one span, the
// input is not a reduce_wide.h type and the UB holds the larger input queue
// (reduce_kernel.cc's layout: 2 queue buffers and, when the input is not the
// accumulation type, the conversion of a chunk; span-lane accumulator and
// block total; work area; kReduceOutBatch results). Same lane order either way.
uint32_t row_tile(const OpContext& ctx, const ReduceShape& rs, uint32_t span) {
  const DType in = ctx.input(0).dtype;
  if (span != kReduceRowChunk || rs.part_len <= span || wide_extra_bytes(in) > 0) return span;
  const uint64_t tile = std::min<uint64_t>(kReduceRowTile, 2 * uint64_t{span});
  const bool converts = in != DType::kFloat32 && in != DType::kInt32;
  const uint64_t ub = tile * (2 * itemsize(in) + (converts ? 4 : 0) + 1) + span * 8 + kReduceOutBatch * 4 + 2048;
  return ub <= ub_budget(ctx.profile()) ? static_cast<uint32_t>(tile) : span;
}

uint32_t pow2_at_least(uint64_t n, uint32_t cap) {
  uint32_t p = 32;
  while (p < n && p < cap) p *= 2;
  return p;
}

// The grouped layout of ReduceBlockUnits for `lanes` host lanes running the
// blocks (the simulator's pool), when there are more than kGroupMinUnits units
// per lane: `lanes` one-unit lead blocks, 2 * lanes run blocks sharing the
// middle units, `lanes` one-unit tail blocks. A sim block costs ~2.5 us beyond
// its work, so fewer blocks save time; but equal big blocks alone (two per
// lane) were 40 % slower under the default scheduler: the caller waiting in
// synchronize asks a pool helper for its lane and gets it only after the
// helper's current block, spinning beside both lanes until then. One-unit
// lead blocks hand the lane over after one unit, and the one-unit tail evens
// out the lanes' ends (docs/performance.md "Sum against PyTorch (wave 13)").
constexpr uint64_t kGroupMinUnits = 5;

void group_blocks(ReduceTiling& t, TilingResult& r, uint64_t lanes) {
  if (t.units <= kGroupMinUnits * lanes) return;
  t.lead_blocks = lanes;
  t.run_units = t.units - 2 * lanes;
  t.per_core = ceil_div(t.run_units, 2 * lanes);
  t.run_blocks = ceil_div(t.run_units, t.per_core);
  r.num_blocks = static_cast<uint32_t>(t.lead_blocks + t.run_blocks + lanes);
}

void reduce_tiling(const OpContext& ctx, TilingResult& r, ReduceKind kind) {
  ReduceShape rs = reduce_shape(ctx);
  ReduceTiling t;
  // A split mean's partials are sums; the combining launch divides by `count`.
  t.kind = static_cast<uint32_t>(kind == ReduceKind::kMean && rs.parts > 1 ? ReduceKind::kSum : kind);
  t.in_dtype = static_cast<uint32_t>(ctx.input(0).dtype);
  t.out_dtype = static_cast<uint32_t>(out_dtype(ctx, kind, rs));
  t.outer = rs.outer, t.len = rs.len, t.inner = rs.inner;
  t.parts = rs.parts, t.part_len = rs.part_len;
  const int64_t count = ctx.attr("count").as_int();
  if (count < 0) ctx.fail("count", "must be >= 0 (0 = the reduced extent), got " + std::to_string(count));
  t.count = count > 0 ? static_cast<uint64_t>(count) : rs.len;
  if (rs.len == 0 && (kind == ReduceKind::kMax || kind == ReduceKind::kMin))
    ctx.fail("x", "zero-size reduction has no identity (max/min of an empty axis)");
  // UB bytes per lane: input queue (2 buffers), conversion, accumulator, output
  // (all <= 4 bytes), the ReduceX work area (< 1 byte per lane) and, for rows,
  // the block total.
  const uint64_t per_lane = 2 * itemsize(ctx.input(0).dtype) + 4 + 4 + 4 + 1 + (rs.inner == 1 ? 4 : 0) +
                            3 * wide_extra_bytes(ctx.input(0).dtype);  // reduce_wide.h's lanes are 8-16 B
  uint32_t cap = 32;
  while (cap * 2 * per_lane + 2048 <= ub_budget(ctx.profile()) && cap < 8192) cap *= 2;
  if (rs.inner == 1) cap = std::min(cap, kReduceRowChunk);
  t.mode = static_cast<uint32_t>(rs.inner == 1 ? ReduceMode::kInner : ReduceMode::kOuter);
  t.tile = pow2_at_least(rs.inner == 1 ? rs.part_len : rs.inner, cap);
  t.span = t.tile;
  if (rs.inner == 1) t.tile = row_tile(ctx, rs, t.span);
  t.units = rs.outer * rs.parts * (rs.inner == 1 ? 1 : ceil_div(rs.inner, t.tile));
  t.scale = t.count ? static_cast<float>(1.0 / static_cast<double>(t.count)) : std::numeric_limits<float>::quiet_NaN();
  const uint64_t per_unit = std::max<uint64_t>(1, rs.part_len * std::min<uint64_t>(rs.inner, t.tile));
  CoreSplit cs = split_over_cores(rs.outer * rs.inner == 0 ? 0 : t.units, 1, ceil_div(16384, per_unit),
                                  ctx.profile());
  t.per_core = cs.per_core;
  r.num_blocks = cs.num_blocks;
  const int64_t lanes = ctx.attr("lanes").as_int();
  if (lanes < 0) ctx.fail("lanes", "must be >= 0 (0 = one block per vector core), got " + std::to_string(lanes));
  if (lanes > 0) group_blocks(t, r, static_cast<uint64_t>(lanes));
  r.set_tiling(t);
}

// The grouped layout (lanes > 0) names its three kinds of blocks, so that
// numBlocks and the units add up; the uniform one its units per block.
std::string describe_reduce(const OpContext&, const TilingResult& r) {
  const ReduceTiling t = tiling_as<ReduceTiling>(r, "describe_reduce");
  const std::string blocks =
      t.run_blocks == 0 ? " per_core=" + std::to_string(t.per_core)
                        : " blocks=" + std::to_string(t.lead_blocks) + " lead + " + std::to_string(t.run_blocks) +
                              " run x " + std::to_string(t.per_core) + " + " +
                              std::to_string(r.num_blocks - t.lead_blocks - t.run_blocks) + " tail";
  return std::string(t.mode == 0 ? "inner" : "outer") + " [outer, len, inner]=[" + std::to_string(t.outer) + ", " +
         std::to_string(t.len) + ", " + std::to_string(t.inner) + "] units=" + std::to_string(t.units) + blocks +
         " tile=" + std::to_string(t.tile) +
         (t.parts > 1 ? " parts=" + std::to_string(t.parts) + " part_len=" + std::to_string(t.part_len) : "");
}

struct ReduceRow {
  const char* name;
  ReduceKind kind;
  DTypeMask dtypes;
  const char* doc;
};

// The dtypes of reduce_wide.h (scalar unit, sim-only) each kind takes: float64
// for every numeric kind, complex for sum/prod/mean (max/min of complex is
// unspecified by the standard), int64/uint64 for sum/prod/max/min (wrapping).
DTypeMask wide_dtypes(ReduceKind k) {
  if (k == ReduceKind::kSum || k == ReduceKind::kProd)
    return dtype_mask({DType::kFloat64, DType::kComplex64, DType::kComplex128, DType::kInt64, DType::kUInt64});
  if (k == ReduceKind::kMean) return dtype_mask({DType::kFloat64, DType::kComplex64, DType::kComplex128});
  if (k == ReduceKind::kMax || k == ReduceKind::kMin) return dtype_mask({DType::kFloat64, DType::kInt64, DType::kUInt64});
  return 0;
}

const ReduceRow kReduceOps[] = {
    {"reduce_sum", ReduceKind::kSum, dtype_mask({DType::kFloat32, DType::kFloat16, DType::kInt32}),
     "Sum over `axis` (float16 accumulates in float32; int32 wraps around)."},
    {"reduce_prod", ReduceKind::kProd, dtype_mask({DType::kFloat32, DType::kFloat16, DType::kInt32}),
     "Product over `axis` (float16 accumulates in float32; int32 wraps around)."},
    {"reduce_max", ReduceKind::kMax, dtype_mask({DType::kFloat32, DType::kFloat16, DType::kInt32}),
     "Maximum over `axis`; NaN propagates; an empty axis is an error."},
    {"reduce_min", ReduceKind::kMin, dtype_mask({DType::kFloat32, DType::kFloat16, DType::kInt32}),
     "Minimum over `axis`; NaN propagates; an empty axis is an error."},
    {"reduce_mean", ReduceKind::kMean, dtype_mask({DType::kFloat32, DType::kFloat16}),
     "Arithmetic mean over `axis` (float32 accumulation); an empty axis gives NaN."},
    {"reduce_any", ReduceKind::kAny, dtype_mask({DType::kBool}), "True where any element over `axis` is true."},
    {"reduce_all", ReduceKind::kAll, dtype_mask({DType::kBool}), "True where every element over `axis` is true."},
};

std::vector<OpDefBuilder> reduce_defs() {
  std::vector<OpDefBuilder> defs;
  for (const ReduceRow& row : kReduceOps) {
    const ReduceKind kind = row.kind;
    OpDefBuilder b(row.name);
    const DTypeMask wide = wide_dtypes(kind);
    b.doc(std::string(row.doc) + "\nAxes: `axis` (empty = all), reduced axes adjacent after ignoring size-1 dims; "
                                 "`keepdims`; `dtype` \"\" or \"float32\" for float16 inputs; `part_len` > 0 gives "
                                 "[outer, parts, inner] partials (npurt::array::reduce's split); `count` the mean's "
                                 "denominator; `lanes` > 0 groups the units into fewer blocks for that many host lanes (same results)." +
          (wide ? "\nfloat64 and complex inputs run on the scalar unit (sim-only)." : ""))
        .input("x", row.dtypes | wide)
        .output("y")
        .attr("axis", AttrType::kIntList, AttrValue(Dims{}))
        .attr("keepdims", AttrType::kBool, AttrValue(false))
        .attr("dtype", AttrType::kString, AttrValue(""))
        .attr("part_len", AttrType::kInt, AttrValue(int64_t{0}))
        .attr("count", AttrType::kInt, AttrValue(int64_t{0}))
        .attr("lanes", AttrType::kInt, AttrValue(int64_t{0}))
        .infer([kind](const OpContext& ctx) {
          const ReduceShape rs = reduce_shape(ctx);
          ctx.set_output(0, rs.out_shape, out_dtype(ctx, kind, rs));
        })
        .tiling([kind](const OpContext& ctx, TilingResult& r) { reduce_tiling(ctx, r, kind); })
        .describe_tiling(describe_reduce)
        .cost([](const OpContext& ctx, OpCost& c) {
          double n = static_cast<double>(ctx.input(0).numel());
          c.bytes = n * itemsize(ctx.input(0).dtype);
          c.flops = n;
        })
        .sim_kernel("npurt_reduce_kernel", kReduceKernelEntry);
    for (int d = 0; d < kNumDTypes; ++d)
      if (mask_has(wide, static_cast<DType>(d))) b.sim_only({static_cast<DType>(d)});
    defs.push_back(std::move(b));
  }
  return defs;
}

}  // namespace

NPURT_REGISTER_OPS(reduce_defs());

}  // namespace npurt::kernels
