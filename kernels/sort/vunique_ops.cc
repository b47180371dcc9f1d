// kernels/sort/vunique_ops.cc: host side of vunique_kernel.cc: registration of
// vunique_count(s) -> int64 run starts per block and vunique_values(s, counts)
// -> (values: n elements of which the first `total` are the distinct values,
// total: int64[1]) for a sorted 1-D float32/float16 s. Both cut s the same way
// (vunique_plan: ranges of >= 4096 elements per core, tiles of a multiple of
// 128 elements so every Compare covers whole 256-byte repeats).
#include <string>
#include <vector>

#include "npurt/tensor.h"
#include "sort/sort_host.h"
#include "sort/sort_tiling.h"

namespace npurt::kernels::sort {

extern const SimKernelEntry kVuniqueCountEntry;
extern const SimKernelEntry kVuniqueValuesEntry;

namespace {

UniqueTiling vunique_plan(const OpContext& ctx) {
  UniqueTiling t = unique_split(ctx, 128);
  // cur, prev and the compacted output, plus one mask bit, per element.
  t.tile = fit_tile(ub_budget(ctx.profile(), 2048), 3 * itemsize(ctx.input(0).dtype) + 1, 128,
                    std::min<uint64_t>(t.n, 4096));
  return t;
}

void set_plan(const OpContext& ctx, TilingResult& r) { set_unique_tiling(vunique_plan(ctx), r); }

void infer_count(const OpContext& ctx) { set_block_counts_output(ctx, vunique_plan(ctx)); }

void infer_values(const OpContext& ctx) {
  const UniqueTiling t = vunique_plan(ctx);
  if (ctx.input(1).shape != Dims{static_cast<int64_t>(t.blocks)})
    ctx.fail("counts", "must be vunique_count(s)'s output of " + str(t.blocks) + " elements");
  ctx.set_output(0, Dims{static_cast<int64_t>(t.n)}, ctx.input(0).dtype);
  ctx.set_output(1, Dims{1}, DType::kInt64);
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
  return defs;
}

}  // namespace

NPURT_REGISTER_OPS(vunique_defs());

}  // namespace npurt::kernels::sort
