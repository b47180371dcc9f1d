// kernels/elementwise/ew_ops.cc: host side of the elementwise family: output
// inference (dtype rules, broadcasting), the shared tiling, and the OpDefs of
// every row of ew_op_list.h plus `astype`, registered from one table.
//
// Inputs are declared .strided(): the kernel reads views (transposes, slices,
// broadcasts) in place. Dtypes the functor computes without the vector unit
// are declared sim-only, so the ascend backend refuses them by name.
#include <algorithm>
#include <string>
#include <vector>

#include "common/tiling_as.h"
#include "common/tiling_util.h"
#include "elementwise/ew_broadcast.h"
#include "elementwise/ew_host.h"
#include "elementwise/ew_complex_ops.h"
#include "elementwise/ew_op_info.h"
#include "elementwise/ew_op_list.h"
#include "elementwise/ew_tiling.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"

NPURT_EW_ALL_OPS(NPURT_EW_DECLARE_INFO)
NPURT_EW_COMPLEX_OPS(NPURT_EW_DECLARE_INFO)
namespace npurt::kernels::ew {
extern const SimKernelEntry kAstypeEntry;
}

namespace npurt::kernels::ew {

// Row-scalar input of a binary op (EwTiling::row_scalar): stride 0 along rows
// that are long (a per-row vector call must pay off) and whole 32-B blocks (so
// every row starts aligned in the tile); the other input must vary along them.
namespace {
uint32_t row_scalar_bits(const EwTiling& t, uint64_t align) {
  const uint32_t last = t.ndim - 1;
  if (t.num_inputs != 2 || t.ndim < 2 || t.scalar != 0) return 0;
  const uint64_t row = static_cast<uint64_t>(t.shape[last]);
  if (row < 256 || row % align != 0) return 0;
  for (uint32_t i = 0; i < 2; ++i)
    if (t.strides[i][last] == 0 && t.strides[1 - i][last] != 0) return 1u << i;
  return 0;
}

// The other operand of a row-scalar op repeats every row (stride 0 on every
// outer axis: the (1, M) of (N, 1) + (1, M)). With tiles of whole rows every
// tile of a core then reads the same elements, and ew_kernel.h loads them once
// per core instead of once per tile (same test there: RepeatsEveryTile).
bool other_repeats_per_row(const EwTiling& t) {
  if (t.row_scalar != 1u && t.row_scalar != 2u) return false;
  const uint32_t other = t.row_scalar == 1u ? 1 : 0;
  for (uint32_t d = 0; d + 1 < t.ndim; ++d)
    if (t.strides[other][d] != 0) return false;
  return true;
}
}  // namespace

// Collapsed layout, cores, UB tile (every queue double-buffered).
void plan_ew(const OpContext& ctx, const Dims& out_shape, DType dtype, DType out_dtype, const TensorSpec* in,
             int n_in, EwTiling& t, uint32_t& num_blocks, uint64_t extra_ub_per_item) {
  int64_t total = 1;
  for (int64_t d : out_shape) total *= d;
  t.total = static_cast<uint64_t>(total);
  t.num_inputs = static_cast<uint32_t>(n_in);
  t.dtype = static_cast<uint32_t>(dtype);
  t.out_dtype = static_cast<uint32_t>(out_dtype);
  EwLayout lay;
  if (!collapse_layout(out_shape, in, n_in, lay))
    ctx.fail(ctx.op().inputs[0].name.c_str(), "the operands' layouts need more than " +
                                                   std::to_string(kEwMaxDims) +
                                                   " dims after merging (make an input contiguous first)");
  t.ndim = static_cast<uint32_t>(lay.ndim);
  uint64_t min_item = itemsize(out_dtype), ub_per_item = 2 * itemsize(out_dtype) + extra_ub_per_item;
  for (int d = 0; d < lay.ndim; ++d) t.shape[d] = lay.shape[d];
  for (int i = 0; i < n_in; ++i) {
    bool contiguous = lay.ndim == 1 && lay.strides[i][0] == 1;
    if (contiguous) t.contiguous |= 1u << i;
    if (std::all_of(lay.strides[i], lay.strides[i] + lay.ndim, [](int64_t s) { return s == 0; }))
      t.scalar |= 1u << i;
    for (int d = 0; d < lay.ndim; ++d) {
      t.strides[i][d] = lay.strides[i][d];
      t.base[i] += std::min<int64_t>(0, (lay.shape[d] - 1) * lay.strides[i][d]);
    }
    min_item = std::min<uint64_t>(min_item, itemsize(in[i].dtype));
    ub_per_item += 2 * itemsize(in[i].dtype);
  }
  const uint64_t align = 32 / min_item;
  t.row_scalar = row_scalar_bits(t, align);
  CoreSplit split = split_over_cores(t.total, align, 8192, ctx.profile());
  t.per_core = split.per_core;
  t.tile = fit_tile(ub_budget(ctx.profile()), ub_per_item, align, split.per_core);
  if (t.tile == 0) ctx.fail(ctx.op().inputs[0].name.c_str(), "no UB tile fits this chip profile");
  const uint64_t row = static_cast<uint64_t>(t.shape[t.ndim - 1]);
  if (other_repeats_per_row(t) && t.tile > row) t.tile = static_cast<uint32_t>(t.tile / row * row);  // whole rows
  num_blocks = split.num_blocks;
}

std::string describe_ew(const OpContext&, const TilingResult& r) {
  const EwTiling t = tiling_as<EwTiling>(r, "describe_ew");
  std::string s = "elements=" + std::to_string(t.total) + " per_core=" + std::to_string(t.per_core) +
                  " tile=" + std::to_string(t.tile) + " buffers=2 dims=" + std::to_string(t.ndim) + " inputs:";
  for (uint32_t i = 0; i < t.num_inputs; ++i)
    s += (t.contiguous >> i & 1) ? " contiguous" : ((t.scalar >> i & 1) ? " scalar" : " strided");
  return s;
}

void cost_ew(const OpContext& ctx, OpCost& c) {
  double n = static_cast<double>(ctx.output(0).numel());
  c.bytes = n * itemsize(ctx.output(0).dtype);
  for (size_t i = 0; i < ctx.num_inputs(); ++i) c.bytes += n * itemsize(ctx.input(i).dtype);
  c.flops = n;
}

namespace {

const char* arg_name(const OpContext& ctx, size_t i) { return ctx.op().inputs[i].name.c_str(); }

// Broadcast shape of every input; equal dtypes for the value inputs; where's
// condition must be bool. Output: bool for predicates, else the inputs' dtype.
void infer_ew(const OpContext& ctx, const EwOpInfo& info) {
  const size_t first = info.cond_first ? 1 : 0;
  if (info.cond_first && ctx.input(0).dtype != DType::kBool)
    ctx.fail_dtype(arg_name(ctx, 0), std::string("dtype ") + dtype_name(ctx.input(0).dtype) + " is not bool");
  const DType dt = ctx.input(first).dtype;
  Dims shape = ctx.input(0).shape;
  for (size_t i = 1; i < ctx.num_inputs(); ++i) {
    const TensorSpec& in = ctx.input(i);
    if (i > first && in.dtype != dt)
      ctx.fail_dtype(arg_name(ctx, i), std::string("dtype ") + dtype_name(in.dtype) + " differs from " +
                                          arg_name(ctx, first) + "'s " + dtype_name(dt) +
                                          " (the kernel takes equal dtypes; the Python functions promote first)");
    Dims out;
    std::string reason;
    if (!broadcast_shapes(shape, in.shape, out, reason)) ctx.fail(arg_name(ctx, i), reason);
    shape = out;
  }
  ctx.set_output(0, shape, info.bool_out ? DType::kBool : (info.real_out ? complex_part_dtype(dt) : dt));
}

// The shared tiling of the template (see tiling_ew).
void tiling_ew(const OpContext& ctx, TilingResult& r) {
  const int n_in = static_cast<int>(ctx.num_inputs());
  const TensorSpec& out = ctx.output(0);
  EwTiling t;
  plan_ew(ctx, out.shape, ctx.input(n_in == 3 ? 1 : 0).dtype, out.dtype, &ctx.input(0), n_in, t, r.num_blocks);
  r.set_tiling(t);
}

// Functors with float scratch tiles (EwKernel::kCalcTiles: the widened operands for
// 16-bit floats, then kScratch) get that UB reserved, and a tile that is a multiple of
// 64 elements: their CompareScalar masks cover n rounded up to 64 lanes (256 bytes).
void tiling_ew_calc(const OpContext& ctx, TilingResult& r, const EwOpInfo& info) {
  const int n_in = static_cast<int>(ctx.num_inputs());
  const TensorSpec& out = ctx.output(0);
  const bool wide = info.widen && itemsize(out.dtype) == 2;
  const uint64_t calc = ((wide ? n_in + 1u : 0u) + info.scratch) * sizeof(float);
  EwTiling t;
  plan_ew(ctx, out.shape, ctx.input(0).dtype, out.dtype, &ctx.input(0), n_in, t, r.num_blocks, calc);
  t.tile = t.tile >= 64 ? t.tile / 64 * 64 : 64;  // < 64 only for small arrays: 64 lanes always fit
  r.set_tiling(t);
}


void add_input(OpDefBuilder& b, const char* name, uint32_t dtypes, uint32_t vec) {
  b.input(name, dtypes).strided();  // complex: never in vec, so sim-only below
  for (int d = 0; d < kNumDTypes; ++d)
    if ((dtypes >> d & 1) && !(vec >> d & 1)) b.sim_only({static_cast<DType>(d)});
}

OpDefBuilder make_def(const char* name, const char* doc, const EwOpInfo& info) {
  static const char* kNames[3][3] = {{"x"}, {"x1", "x2"}, {"condition", "x1", "x2"}};
  OpDefBuilder b(name);
  std::string text = std::string(doc) + "\nBroadcasts its inputs and reads any strides in place.";
  if (info.vec_dtypes == 0) text += " Every dtype runs on the scalar unit (sim-only).";
  b.doc(text);
  for (int i = 0; i < info.arity; ++i) {
    if (info.cond_first && i == 0) add_input(b, kNames[2][0], 1u << static_cast<int>(DType::kBool), 1u);
    else add_input(b, kNames[info.arity - 1][i], info.dtypes, info.vec_dtypes);
  }
  const EwOpInfo* p = &info;
  b.output("y")
      .infer([p](const OpContext& ctx) { infer_ew(ctx, *p); })
      .tiling([p](const OpContext& ctx, TilingResult& r) {
        if ((p->scratch > 0 || p->widen) && p->arity == 1 && !p->cond_first) tiling_ew_calc(ctx, r, *p);
        else tiling_ew(ctx, r);
      })
      .describe_tiling(describe_ew)
      .cost(cost_ew)
      .sim_kernel(std::string("npurt_ew_") + name + "_kernel", info.entry);
  return b;
}

OpDefBuilder make_astype_def() {
  OpDefBuilder b("astype");
  b.doc("Converts x to `dtype` like numpy's astype: floats round to nearest even, float -> int\n"
        "(complex -> real keeps the real part, complex -> bool tests both parts)\n"
        "truncates (NaN -> 0, out of range saturates), int -> narrower int wraps, -> bool is x != 0.\n"
        "Reads any strides in place. Runs on the scalar unit (sim-only); nr.astype uses the vector\n"
        "`cast` kernel for the pairs it has.");
  add_input(b, "x", (1u << kNumDTypes) - 1, 0);  // every dtype; complex -> real takes the real part
  b.output("y")
      .attr("dtype", AttrType::kDType)
      .infer([](const OpContext& ctx) { ctx.set_output(0, ctx.input(0).shape, ctx.attr_dtype("dtype")); })
      .tiling(tiling_ew)
      .describe_tiling(describe_ew)
      .cost(cost_ew)
      .sim_kernel("npurt_ew_astype_kernel", kAstypeEntry);
  return b;
}

std::vector<OpDefBuilder> ew_defs() {
  std::vector<OpDefBuilder> defs;
#define NPURT_EW_ROW(name, Op, arity, doc) defs.push_back(make_def(#name, doc, kInfo_##name));
  NPURT_EW_ALL_OPS(NPURT_EW_ROW)
  NPURT_EW_COMPLEX_OPS(NPURT_EW_ROW)
#undef NPURT_EW_ROW
  defs.push_back(make_astype_def());
  return defs;
}

}  // namespace

NPURT_REGISTER_OPS(ew_defs());

}  // namespace npurt::kernels::ew
