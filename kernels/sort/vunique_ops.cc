// kernels/sort/vunique_ops.cc: host side of vunique_kernel.cc: registration of
// vunique_count(s) -> int64 run starts per block and vunique_values(s, counts)
// -> (values: n elements of which the first `total` are the distinct values,
// total: int64[1]) for a sorted 1-D float32/float16 s, and vunique_runs(s,
// counts) -> (values, starts: n + 1 int64 run-start positions, the first
// `total` of them followed by n, total). All cut s the same way (unique_split:
// ranges of >= 4096 elements per core); tiles are a multiple of 128 elements
// so every Compare covers whole 256-byte repeats (vunique_runs' tile is
// smaller: it also holds positions).
#include <string>
#include <vector>

#include "npurt/tensor.h"
#include "sort/sort_host.h"
#include "sort/sort_tiling.h"

namespace npurt::kernels::sort {

extern const SimKernelEntry kVuniqueCountEntry;
extern const SimKernelEntry kVuniqueValuesEntry;
extern const SimKernelEntry kVuniqueRunsEntry;

namespace {

// with_starts: vunique_runs' tile, which also holds an int32 iota, the
// compacted int32 positions and their int64 widening (16 more bytes each).
UniqueTiling vunique_plan(const OpContext& ctx, bool with_starts = false) {
  UniqueTiling t = unique_split(ctx, 128);
  // cur, prev and the compacted output, plus one mask bit, per element.
  const uint64_t per_elem = 3 * itemsize(ctx.input(0).dtype) + 1 + (with_starts ? 16 : 0);
  t.tile = fit_tile(ub_budget(ctx.profile(), 2048), per_elem, 128, std::min<uint64_t>(t.n, 4096));
  return t;
}

void set_plan(const OpContext& ctx, TilingResult& r) { set_unique_tiling(vunique_plan(ctx), r); }
void set_runs_plan(const OpContext& ctx, TilingResult& r) { set_unique_tiling(vunique_plan(ctx, true), r); }

void infer_count(const OpContext& ctx) { set_block_counts_output(ctx, vunique_plan(ctx)); }

void infer_values(const OpContext& ctx) {
  const UniqueTiling t = vunique_plan(ctx);
  if (ctx.input(1).shape != Dims{static_cast<int64_t>(t.blocks)})
    ctx.fail("counts", "must be vunique_count(s)'s output of " + str(t.blocks) + " elements");
  ctx.set_output(0, Dims{static_cast<int64_t>(t.n)}, ctx.input(0).dtype);
  ctx.set_output(1, Dims{1}, DType::kInt64);
}

void infer_runs(const OpContext& ctx) {
  const UniqueTiling t = vunique_plan(ctx, true);
  if (t.n >= (uint64_t{1} << 31)) ctx.fail("s", "2^31 or more elements do not fit the int32 positions");
  if (ctx.input(1).shape != Dims{static_cast<int64_t>(t.blocks)})
    ctx.fail("counts", "must be vunique_count(s)'s output of " + str(t.blocks) + " elements");
  ctx.set_output(0, Dims{static_cast<int64_t>(t.n)}, ctx.input(0).dtype);
  ctx.set_output(1, Dims{static_cast<int64_t>(t.n + 1)}, DType::kInt64);
  ctx.set_output(2, Dims{1}, DType::kInt64);
}

std::vector<OpDefBuilder> vunique_defs() {
  const DTypeMask scores = dtype_mask({DType::kFloat32, DType::kFloat16});
  std::vector<OpDefBuilder> defs;
  OpDefBuilder count("vunique_count");
  count.doc("Vector unit: number of runs of equal values starting in each block's range of the sorted 1-D "
            "float32/float16 s (every NaN starts a run; -0.0 == 0.0). Input of vunique_values.");
  count.input("s", scores).output("counts")
      .infer(infer_count).tiling(set_plan).describe_tiling(describe_unique)
      .sim_kernel("npurt_vunique_count_kernel", kVuniqueCountEntry);
  defs.push_back(std::move(count));

  OpDefBuilder values("vunique_values");
  values.doc("Vector unit: the first value of every run of the sorted 1-D s (GatherMask compaction), in order, "
             "and their number `total` (values holds n elements; the first `total` are the result).");
  values.input("s", scores).input("counts", {DType::kInt64}).output("values").output("total")
      .infer(infer_values).tiling(set_plan).describe_tiling(describe_unique)
      .sim_kernel("npurt_vunique_values_kernel", kVuniqueValuesEntry);
  defs.push_back(std::move(values));

  OpDefBuilder runs("vunique_runs");
  runs.doc("Vector unit: vunique_values plus `starts` (n + 1 int64): the sorted position of every run start "
           "(GatherMask of the positions), starts[total] = n, so run j has starts[j+1] - starts[j] elements.");
  runs.input("s", scores).input("counts", {DType::kInt64}).output("values").output("starts").output("total")
      .infer(infer_runs).tiling(set_runs_plan).describe_tiling(describe_unique)
      .sim_kernel("npurt_vunique_runs_kernel", kVuniqueRunsEntry);
  defs.push_back(std::move(runs));
  return defs;
}

}  // namespace

NPURT_REGISTER_OPS(vunique_defs());

}  // namespace npurt::kernels::sort
