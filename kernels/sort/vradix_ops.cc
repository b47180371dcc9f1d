// kernels/sort/vradix_ops.cc: host side of vsort_take / vsort_take_through
// (vradix_kernel.cc), the gathers of the two-pass radix sort of int32/uint32
// rows, and of the one pass of uint16 rows, on the vector unit (npurt::array::sort_last chains them:
//   keys = vsort_block(x, digit=0) + vsort_merge...; (v1, p1) = vsort_take(keys, x)
//   keys = vsort_block(v1, digit=1) + vsort_merge...; (values, indices) = vsort_take_through(keys, v1, p1)).
// Contract: keys are the fully sorted keys of x's rows (x's shape, uint64);
// values[k] = x[row, pos_k]; indices[k] = pos_k (int64) or perm[row, pos_k].
#include <string>
#include <vector>

#include "npurt/tensor.h"
#include "sort/sort_host.h"
#include "sort/sort_tiling.h"

namespace npurt::kernels::sort {

extern const SimKernelEntry kVsortTakeEntry;
extern const SimKernelEntry kVsortTakeThroughEntry;

namespace {

const DTypeMask kTakeTypes = dtype_mask({DType::kInt32, DType::kUInt32, DType::kUInt16});

void infer_take(const OpContext& ctx) {
  const TensorSpec &k = ctx.input(0), &x = ctx.input(1);
  if (k.shape != x.shape) ctx.fail("x", "shape differs from the keys' shape");
  if (ctx.num_inputs() > 2 && ctx.input(2).shape != x.shape) ctx.fail("perm", "shape differs from x's shape");
  uint64_t rows, n;
  rows_and_len(ctx, 1, rows, n);
  if (n >= (uint64_t{1} << 31)) ctx.fail("x", "rows of 2^31 or more elements do not fit the uint32 key index");
  ctx.set_output(0, x.shape, x.dtype);
  ctx.set_output(1, x.shape, DType::kInt64);
}

void take_tiling(const OpContext& ctx, TilingResult& r) {
  VsortTakeTiling t;
  rows_and_len(ctx, 1, t.rows, t.n);
  t.dtype = static_cast<uint32_t>(ctx.input(1).dtype);
  t.through = ctx.num_inputs() > 2 ? 1 : 0;
  t.segs = ceil_div(t.n, kVsortTakeSeg);
  t.units = t.rows * t.segs;
  split_units(ctx.profile(), t.units, t.per_core, r);
  r.set_tiling(t);
}

std::string describe_take(const OpContext&, const TilingResult& r) {
  const VsortTakeTiling t = tiling_as<VsortTakeTiling>(r, "describe_vsort_take");
  return "rows=" + str(t.rows) + " n=" + str(t.n) + " units=" + str(t.units) + " per_core=" + str(t.per_core);
}

void take_cost(const OpContext& ctx, OpCost& c) {
  const double n = static_cast<double>(ctx.input(0).numel());
  c.bytes = n * 28.0;
  c.flops = 0;
}

std::vector<OpDefBuilder> take_defs() {
  std::vector<OpDefBuilder> defs;
  OpDefBuilder take("vsort_take");
  take.doc("Radix pass gather of the vector-unit int32/uint32 sort: for the fully sorted keys of x's rows, "
           "values[k] = x[row, pos_k] and int64 indices[k] = pos_k (pos_k: the key's uint32 position).");
  take.input("keys", {DType::kUInt64}).input("x", kTakeTypes).output("values").output("indices")
      .infer(infer_take).tiling(take_tiling).describe_tiling(describe_take).cost(take_cost)
      .sim_kernel("npurt_vsort_take_kernel", kVsortTakeEntry);
  defs.push_back(std::move(take));

  OpDefBuilder through("vsort_take_through");
  through.doc("As vsort_take, but indices[k] = perm[row, pos_k]: the second radix pass composes its "
              "permutation with the first pass's indices `perm` (int64, x's shape).");
  through.input("keys", {DType::kUInt64}).input("x", kTakeTypes).input("perm", {DType::kInt64})
      .output("values").output("indices")
      .infer(infer_take).tiling(take_tiling).describe_tiling(describe_take).cost(take_cost)
      .sim_kernel("npurt_vsort_take_through_kernel", kVsortTakeThroughEntry);
  defs.push_back(std::move(through));
  return defs;
}

}  // namespace

NPURT_REGISTER_OPS(take_defs());

}  // namespace npurt::kernels::sort
