// kernels/sort/unique_ops.cc: host side of unique_kernel.cc: registration of
// unique_count(s) -> int64 run starts per block, and unique_compact(s, perm,
// counts) -> (values, index, counts, inverse: n elements each, of which the
// first `total` are meaningful, and total: int64[1]). Both cut the sorted 1-D
// s into the same ranges (unique_plan), so counts[b] belongs to block b.
// The Python layer reads back `total` only, to slice the outputs.
#include <string>
#include <vector>

#include "npurt/tensor.h"
#include "sort/sort_host.h"
#include "sort/sort_tiling.h"

namespace npurt::kernels::sort {

extern const SimKernelEntry kUniqueCountEntry;
extern const SimKernelEntry kUniqueCompactEntry;

namespace {

UniqueTiling unique_plan(const OpContext& ctx) {
  UniqueTiling t = unique_split(ctx, 64);
  t.tile = static_cast<uint32_t>(fit64(ctx.profile(), UniqueCompactUbPerElem(itemsize(ctx.input(0).dtype)),
                                          std::min<uint64_t>(t.n, 4096)));
  return t;
}

void set_plan(const OpContext& ctx, TilingResult& r) { set_unique_tiling(unique_plan(ctx), r); }

void infer_count(const OpContext& ctx) { set_block_counts_output(ctx, unique_plan(ctx)); }

void infer_compact(const OpContext& ctx) {
  const UniqueTiling t = unique_plan(ctx);
  const int64_t n = static_cast<int64_t>(t.n);
  if (ctx.input(1).shape != Dims{n}) ctx.fail("perm", "must have the shape of s (" + str(t.n) + ",)");
  if (ctx.input(2).shape != Dims{static_cast<int64_t>(t.blocks)})
    ctx.fail("counts", "must be unique_count(s)'s output of " + str(t.blocks) + " elements");
  ctx.set_output(0, Dims{n}, ctx.input(0).dtype);
  for (size_t i = 1; i < 4; ++i) ctx.set_output(i, Dims{n}, DType::kInt64);
  ctx.set_output(4, Dims{1}, DType::kInt64);
}

std::vector<OpDefBuilder> unique_defs() {
  std::vector<OpDefBuilder> defs;
  OpDefBuilder count("unique_count");
  count.doc("Number of runs of equal values starting in each block's range of the sorted 1-D s (every NaN "
            "starts a run). Input of unique_compact.");
  sortable_input(count, "s");
  count.output("counts")
      .infer(infer_count)
      .tiling(set_plan)
      .describe_tiling(describe_unique)
      .sim_kernel("npurt_unique_count_kernel", kUniqueCountEntry);
  defs.push_back(std::move(count));

  OpDefBuilder compact("unique_compact");
  compact.doc("From the sorted 1-D s, the stable permutation perm that sorted it and unique_count(s): the "
              "distinct values, the index of each one's first occurrence, their counts, the inverse "
              "(run number of every original element) and the number of runs `total` (outputs hold n "
              "elements; the first `total` are the result).");
  sortable_input(compact, "s");
  compact.input("perm", {DType::kInt64})
      .input("counts", {DType::kInt64})
      .output("values").output("index").output("run_counts").output("inverse").output("total")
      .infer(infer_compact)
      .tiling(set_plan)
      .describe_tiling(describe_unique)
      .sim_kernel("npurt_unique_compact_kernel", kUniqueCompactEntry);
  defs.push_back(std::move(compact));
  return defs;
}

}  // namespace

NPURT_REGISTER_OPS(unique_defs());

}  // namespace npurt::kernels::sort
