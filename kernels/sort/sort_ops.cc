// kernels/sort/sort_ops.cc: host side of the sort kernel template: inference,
// tiling and registration of sort_block and sort_merge (sort_kernel.cc).
//
// Contract: sort_block(x, descending, chunk) sorts every chunk of `chunk`
// elements of every row of the last axis and returns (values, int64 indices
// within the row); sort_merge(values, indices, width, descending) merges
// neighbouring sorted runs of `width` into runs of 2*width. Running
// sort_merge with width = chunk, 2*chunk, ... until width >= n sorts whole
// rows (npurt.sort / npurt.argsort do this). chunk = 0 picks the largest
// chunk the UB holds; an explicit chunk must be a multiple of 64 that fits.
#include <algorithm>
#include <string>
#include <vector>

#include "npurt/sort_ops.h"
#include "npurt/tensor.h"
#include "sort/sort_host.h"
#include "sort/sort_tiling.h"

namespace npurt::kernels::sort {

extern const SimKernelEntry kSortBlockEntry;
extern const SimKernelEntry kSortMergeEntry;

namespace {

void infer_sorted(const OpContext& ctx) {
  uint64_t rows, n;
  rows_and_len(ctx, 0, rows, n);
  ctx.set_output(0, ctx.input(0).shape, ctx.input(0).dtype);
  ctx.set_output(1, ctx.input(0).shape, DType::kInt64);
}

void block_tiling(const OpContext& ctx, TilingResult& r) {
  SortBlockTiling t;
  rows_and_len(ctx, 0, t.rows, t.n);
  const DType d = ctx.input(0).dtype;
  t.dtype = static_cast<uint32_t>(d);
  t.descending = ctx.attr_bool("descending");
  const int64_t want = ctx.attr_int("chunk");
  // The chunk rule is npurt::array::sort_block_chunk (npurt/sort_ops.h), the one
  // the sort driver plans with: two value and two int64 index buffers per element.
  const uint64_t most = npurt::array::sort_block_chunk(ctx.profile(), d, ~uint64_t{0} >> 8);
  if (want < 0 || want % 64 != 0 || static_cast<uint64_t>(want) > most)
    ctx.fail("chunk", "chunk " + std::to_string(want) + " must be 0 (auto) or a multiple of 64 up to " +
                          str(most) + " for " + dtype_name(d) + " on " + ctx.profile().name);
  t.chunk = want ? static_cast<uint64_t>(want) : npurt::array::sort_block_chunk(ctx.profile(), d, t.n);
  t.chunks = ceil_div(t.n, t.chunk);
  // Rows that fit one chunk share a unit (one copy in and out for many rows)
  // as far as the UB holds them, keeping at least one unit per core.
  if (t.chunks == 1 && t.n > 0) {
    const uint64_t by_cores = ceil_div(t.rows, std::max<uint32_t>(1, ctx.profile().vector_cores));
    t.rows_per_unit = std::max<uint64_t>(1, std::min<uint64_t>(most / t.n, by_cores));
  }
  t.ub_elems = t.rows_per_unit > 1 ? std::max<uint64_t>(t.chunk, t.rows_per_unit * t.n) : t.chunk;
  t.units = t.rows_per_unit > 1 ? ceil_div(t.rows, t.rows_per_unit) : t.rows * t.chunks;
  split_units(ctx.profile(), t.units, t.per_core, r);
  r.set_tiling(t);
}

void infer_merged(const OpContext& ctx) {
  const TensorSpec &v = ctx.input(0), &i = ctx.input(1);
  if (v.shape.empty()) ctx.fail("values", "a 0-d array has no axis to merge along");
  if (i.shape != v.shape) ctx.fail("indices", "shape differs from the values' shape");
  if (ctx.attr_int("width") <= 0) ctx.fail("width", "must be positive, got " + std::to_string(ctx.attr_int("width")));
  ctx.set_output(0, v.shape, v.dtype);
  ctx.set_output(1, v.shape, DType::kInt64);
}

void merge_tiling(const OpContext& ctx, TilingResult& r) {
  SortMergeTiling t;
  rows_and_len(ctx, 0, t.rows, t.n);
  const DType d = ctx.input(0).dtype;
  t.dtype = static_cast<uint32_t>(d);
  t.descending = ctx.attr_bool("descending");
  t.width = static_cast<uint64_t>(ctx.attr_int("width"));
  t.pairs = ceil_div(t.n, 2 * t.width);
  // Three (value, index) buffers: run A's part, run B's part, the output.
  t.seg = fit64(ctx.profile(), 3 * (itemsize(d) + sizeof(int64_t)), std::min<uint64_t>(2 * t.width, 8192));
  t.segs = ceil_div(2 * t.width, t.seg);
  t.units = t.rows * t.pairs * t.segs;
  split_units(ctx.profile(), t.units, t.per_core, r);
  r.set_tiling(t);
}

std::string describe_block(const OpContext&, const TilingResult& r) {
  const SortBlockTiling t = tiling_as<SortBlockTiling>(r, "describe_block");
  return "rows=" + str(t.rows) + " n=" + str(t.n) + " chunk=" + str(t.chunk) + " rows_per_unit=" +
         str(t.rows_per_unit) + " units=" + str(t.units) +
         " per_core=" + str(t.per_core);
}

std::string describe_merge(const OpContext&, const TilingResult& r) {
  const SortMergeTiling t = tiling_as<SortMergeTiling>(r, "describe_merge");
  return "rows=" + str(t.rows) + " n=" + str(t.n) + " width=" + str(t.width) + " seg=" + str(t.seg) +
         " units=" + str(t.units) + " per_core=" + str(t.per_core);
}

void sort_cost(const OpContext& ctx, OpCost& c) {
  const double n = static_cast<double>(ctx.input(0).numel());
  c.bytes = n * (2.0 * itemsize(ctx.input(0).dtype) + 16.0);
  c.flops = n;
}

std::vector<OpDefBuilder> sort_defs() {
  std::vector<OpDefBuilder> defs;
  OpDefBuilder block("sort_block");
  block.doc("Sorts every chunk of `chunk` elements of each row (last axis) in UB, stably, NaN last "
            "(first when descending). Returns (values, int64 indices within the row). chunk=0: as large "
            "as the UB holds. Follow with sort_merge(width=chunk, 2*chunk, ...) to sort whole rows.");
  sortable_input(block, "x");
  block.output("values").output("indices")
      .attr("descending", AttrType::kBool, AttrValue(false))
      .attr("chunk", AttrType::kInt, AttrValue(0))
      .infer(infer_sorted)
      .tiling(block_tiling)
      .describe_tiling(describe_block)
      .cost(sort_cost)
      .sim_kernel("npurt_sort_block_kernel", kSortBlockEntry);
  defs.push_back(std::move(block));

  OpDefBuilder merge("sort_merge");
  merge.doc("Merges neighbouring sorted runs of `width` elements of every row (last axis) into runs of "
            "2*width, stably (run order breaks ties), carrying the int64 indices along.");
  sortable_input(merge, "values");
  merge.input("indices", {DType::kInt64})
      .output("merged_values").output("merged_indices")
      .attr("width", AttrType::kInt, AttrValue(64))
      .attr("descending", AttrType::kBool, AttrValue(false))
      .infer(infer_merged)
      .tiling(merge_tiling)
      .describe_tiling(describe_merge)
      .cost(sort_cost)
      .sim_kernel("npurt_sort_merge_kernel", kSortMergeEntry);
  defs.push_back(std::move(merge));
  return defs;
}

}  // namespace

NPURT_REGISTER_OPS(sort_defs());

}  // namespace npurt::kernels::sort
