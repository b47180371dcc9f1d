// kernels/sort/vsort_ops.cc: host side of the vector-unit sort (vsort_kernel.cc):
// inference, tiling and registration of vsort_block, vsort_merge and
// vsort_extract for float32 and float16 rows (the dtypes Sort32/MrgSort take).
//
// Contract: vsort_block(x, descending, chunk) -> uint64 keys (x's shape),
// every chunk of `chunk` elements of each row sorted; vsort_merge(keys,
// width, dtype) merges neighbouring runs of `width` into 2*width; once runs
// cover the row, vsort_extract(keys, x, descending) -> (values, int64
// indices), stable, NaN last (first when descending). npurt::array::sort_last
// (runtime/ops/sort_ops.cc) chains them. chunk is a multiple
// of 128 up to 8192 that fits the UB (20 bytes an element + its mask bit).
#include <string>
#include <vector>

#include "npurt/sort_ops.h"
#include "npurt/tensor.h"
#include "sort/sort_host.h"
#include "sort/sort_tiling.h"

namespace npurt::kernels::sort {

extern const SimKernelEntry kVsortBlockEntry;
extern const SimKernelEntry kVsortMergeEntry;
extern const SimKernelEntry kVsortExtractEntry;

namespace {

// Inputs the vector sort takes: the score dtypes themselves, and the dtypes
// whose every value converts exactly to one (int16/bfloat16 -> float32,
// int8/uint8/bool -> float16).
const DTypeMask kScoreTypes = dtype_mask({DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kInt16,
                                          DType::kInt8, DType::kUInt8, DType::kBool});

// The last axis as [rows, n]; a row's positions must fit the keys' uint32 index.
void rows_and_len32(const OpContext& ctx, uint64_t& rows, uint64_t& n) {
  rows_and_len(ctx, 0, rows, n);
  if (n >= (uint64_t{1} << 31))
    ctx.fail(ctx.op().inputs[0].name, "rows of 2^31 or more elements do not fit the uint32 key index");
}

// The chunk rule lives in npurt::array::vsort_max_chunk (npurt/sort_ops.h), which
// the sort driver plans with; its constants must be this kernel's.
uint64_t max_chunk(const ChipProfile& p) { return npurt::array::vsort_max_chunk(p); }
static_assert(kVsortMaxChunk == 8192 && kVsortChunkStep == 128, "runtime/ops/sort_ops.cc plans with these");

void infer_keys(const OpContext& ctx) {
  uint64_t rows, n;
  rows_and_len32(ctx, rows, n);
  ctx.set_output(0, ctx.input(0).shape, DType::kUInt64);
}

void block_tiling(const OpContext& ctx, TilingResult& r) {
  VsortBlockTiling t;
  rows_and_len32(ctx, t.rows, t.n);
  t.dtype = static_cast<uint32_t>(ctx.input(0).dtype);
  t.descending = ctx.attr_bool("descending");
  t.digit = static_cast<int32_t>(ctx.attr_int("digit"));
  const DType d = ctx.input(0).dtype;
  const bool by_digit = d == DType::kInt32 || d == DType::kUInt32, one_digit = d == DType::kUInt16;
  if (by_digit ? (t.digit != 0 && t.digit != 1) : one_digit ? t.digit != 0 : t.digit != -1)
    ctx.fail("digit", std::string(by_digit    ? "must be 0 (low 16 bits) or 1 (high 16 bits) for "
                                  : one_digit ? "must be 0 (the one 16-bit digit) for "
                                              : "must be -1 for ") +
                          dtype_name(d) + ", got " + std::to_string(t.digit));
  const int64_t want = ctx.attr_int("chunk");
  const uint64_t most = max_chunk(ctx.profile());
  if (want <= 0 || want % kVsortChunkStep != 0 || static_cast<uint64_t>(want) > most)
    ctx.fail("chunk", "chunk " + std::to_string(want) + " must be a positive multiple of " +
                          str(kVsortChunkStep) + " up to " + str(most) + " on " + ctx.profile().name);
  t.chunk = static_cast<uint64_t>(want);
  t.chunks = ceil_div(t.n, t.chunk);
  t.units = t.rows * t.chunks;
  split_units(ctx.profile(), t.units, t.per_core, r);
  r.set_tiling(t);
}

void infer_merged(const OpContext& ctx) {
  uint64_t rows, n;
  rows_and_len32(ctx, rows, n);
  if (ctx.attr_int("width") <= 0) ctx.fail("width", "must be positive, got " + std::to_string(ctx.attr_int("width")));
  const DType d = ctx.attr_dtype("dtype");
  if (d != DType::kFloat32 && d != DType::kFloat16)
    ctx.fail_dtype("dtype", std::string("score dtype must be float32 or float16, got ") + dtype_name(d));
  ctx.set_output(0, ctx.input(0).shape, DType::kUInt64);
}

void merge_tiling(const OpContext& ctx, TilingResult& r) {
  VsortMergeTiling t;
  rows_and_len32(ctx, t.rows, t.n);
  t.dtype = static_cast<uint32_t>(ctx.attr_dtype("dtype"));
  t.width = static_cast<uint64_t>(ctx.attr_int("width"));
  t.pairs = ceil_div(t.n, 2 * t.width);
  t.segs = ceil_div(2 * t.width, kVsortMergeSeg);
  t.units = t.rows * t.pairs * t.segs;
  split_units(ctx.profile(), t.units, t.per_core, r);
  r.set_tiling(t);
}

void infer_extract(const OpContext& ctx) {
  const TensorSpec &k = ctx.input(0), &x = ctx.input(1);
  if (k.shape != x.shape) ctx.fail("x", "shape differs from the keys' shape");
  uint64_t rows, n;
  rows_and_len32(ctx, rows, n);
  ctx.set_output(0, x.shape, x.dtype);
  ctx.set_output(1, x.shape, DType::kInt64);
}

void extract_tiling(const OpContext& ctx, TilingResult& r) {
  VsortExtractTiling t;
  rows_and_len32(ctx, t.rows, t.n);
  t.dtype = static_cast<uint32_t>(ctx.input(1).dtype);
  t.descending = ctx.attr_bool("descending");
  t.segs = ceil_div(t.n, kVsortExtractSeg);
  t.units = t.rows * t.segs;
  split_units(ctx.profile(), t.units, t.per_core, r);
  r.set_tiling(t);
}

template <class Tiling>
std::string describe(const OpContext&, const TilingResult& r) {
  const Tiling t = tiling_as<Tiling>(r, "describe_vsort");
  return "rows=" + str(t.rows) + " n=" + str(t.n) + " units=" + str(t.units) + " per_core=" + str(t.per_core);
}

void sort_cost(const OpContext& ctx, OpCost& c) {
  const double n = static_cast<double>(ctx.input(0).numel());
  c.bytes = n * 24.0;
  c.flops = n;
}

std::vector<OpDefBuilder> vsort_defs() {
  std::vector<OpDefBuilder> defs;
  OpDefBuilder block("vsort_block");
  block.doc("Vector-unit sort, step 1: every chunk of `chunk` elements of each row (last axis) of x (float32/"
            "float16, or int16/bfloat16/int8/uint8/bool cast exactly to a float32/float16 score; int32/uint32 by "
            "one 16-bit `digit`, 0 = low, 1 = high, for the two radix passes; uint16 by digit 0) becomes sorted uint64 keys ((score, "
            "uint32 position) as Sort32 lays them out). Follow "
            "with vsort_merge(width=chunk, 2*chunk, ...) and vsort_extract.");
  block.input("x", kScoreTypes | dtype_mask({DType::kInt32, DType::kUInt32, DType::kUInt16})).output("keys")
      .attr("descending", AttrType::kBool, AttrValue(false))
      .attr("chunk", AttrType::kInt, AttrValue(int64_t{kVsortMaxChunk}))
      .attr("digit", AttrType::kInt, AttrValue(int64_t{-1}))
      .infer(infer_keys).tiling(block_tiling).describe_tiling(describe<VsortBlockTiling>).cost(sort_cost)
      .sim_kernel("npurt_vsort_block_kernel", kVsortBlockEntry);
  defs.push_back(std::move(block));

  OpDefBuilder merge("vsort_merge");
  merge.doc("Vector-unit sort, step 2: merges neighbouring sorted runs of `width` keys of every row into runs "
            "of 2*width (MrgSort, stable); `dtype` is the score dtype of the keys (float32 or float16).");
  merge.input("keys", {DType::kUInt64}).output("merged")
      .attr("width", AttrType::kInt, AttrValue(int64_t{kVsortMaxChunk}))
      .attr("dtype", AttrType::kDType, AttrValue(DType::kFloat32))
      .infer(infer_merged).tiling(merge_tiling).describe_tiling(describe<VsortMergeTiling>).cost(sort_cost)
      .sim_kernel("npurt_vsort_merge_kernel", kVsortMergeEntry);
  defs.push_back(std::move(merge));

  OpDefBuilder extract("vsort_extract");
  extract.doc("Vector-unit sort, step 3: fully sorted keys of x -> (values, int64 indices within the row); "
              "NaN last (first when descending), ties in position order.");
  extract.input("keys", {DType::kUInt64}).input("x", kScoreTypes).output("values").output("indices")
      .attr("descending", AttrType::kBool, AttrValue(false))
      .infer(infer_extract).tiling(extract_tiling).describe_tiling(describe<VsortExtractTiling>).cost(sort_cost)
      .sim_kernel("npurt_vsort_extract_kernel", kVsortExtractEntry);
  defs.push_back(std::move(extract));
  return defs;
}

}  // namespace

NPURT_REGISTER_OPS(vsort_defs());

}  // namespace npurt::kernels::sort
