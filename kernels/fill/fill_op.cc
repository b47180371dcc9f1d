// kernels/fill/fill_op.cc: host side of fill: value -> bit pattern, tiling, registration.
//
// With `strides`, y is the window of a strided view (x[::2] = v in one launch):
// the view of `shape` and `strides` (elements, any sign, zeros allowed) whose
// lowest element is y[0]; only its elements are written (fill_tiling.h).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common/tiling_util.h"
#include "fill/fill_tiling.h"
#include "npurt/fill_value.h"
#include "npurt/op_registry.h"
#include "npurt/strided_window.h"
#include "npurt/tensor.h"

namespace npurt::kernels {

extern const SimKernelEntry kFillKernelEntry;

namespace {

template <class T>
void put(uint8_t* dst, T v) { std::memcpy(dst, &v, sizeof v); }

template <class I>
void put_int(const OpContext& ctx, uint8_t* dst, double v, DType dt) {
  if (std::isnan(v) || std::trunc(v) != v || v < static_cast<double>(std::numeric_limits<I>::min()) ||
      v > static_cast<double>(std::numeric_limits<I>::max()))
    ctx.fail("value", std::to_string(v) + " is not representable as " + dtype_name(dt));
  put(dst, static_cast<I>(v));
}

template <class I>
void put_exact_int(const OpContext& ctx, uint8_t* dst, int64_t v, DType dt) {
  // value_int carries uint64 values >= 2^63 as their two's-complement bit pattern
  if (dt != DType::kUInt64 && (v < static_cast<int64_t>(std::numeric_limits<I>::min()) ||
                               (v > 0 && static_cast<uint64_t>(v) > static_cast<uint64_t>(std::numeric_limits<I>::max()))))
    ctx.fail("value_int", std::to_string(v) + " is not representable as " + dtype_name(dt));
  put(dst, static_cast<I>(v));
}

// Integers beyond 2^53 lose precision as doubles: integral dtypes take the exact value_int when use_int is set.
bool encode_exact_int(const OpContext& ctx, DType dt, uint8_t* p) {
  if (!ctx.attr_bool("use_int")) return false;
  const int64_t v = ctx.attr("value_int").as_int();
  switch (dt) {
    case DType::kInt8: put_exact_int<int8_t>(ctx, p, v, dt); return true;
    case DType::kInt16: put_exact_int<int16_t>(ctx, p, v, dt); return true;
    case DType::kInt32: put_exact_int<int32_t>(ctx, p, v, dt); return true;
    case DType::kInt64: put_exact_int<int64_t>(ctx, p, v, dt); return true;
    case DType::kUInt8: put_exact_int<uint8_t>(ctx, p, v, dt); return true;
    case DType::kUInt16: put_exact_int<uint16_t>(ctx, p, v, dt); return true;
    case DType::kUInt32: put_exact_int<uint32_t>(ctx, p, v, dt); return true;
    case DType::kUInt64: put_exact_int<uint64_t>(ctx, p, v, dt); return true;
    default: return false;
  }
}

// The element bit pattern of `v` (+ i*imag for complex) in dtype dt.
void encode(const OpContext& ctx, DType dt, double v, double imag, uint8_t* p) {
  if (encode_exact_int(ctx, dt, p)) return;
  switch (dt) {
    case DType::kBool: put<uint8_t>(p, v != 0 ? 1 : 0); break;
    case DType::kInt8: put_int<int8_t>(ctx, p, v, dt); break;
    case DType::kInt16: put_int<int16_t>(ctx, p, v, dt); break;
    case DType::kInt32: put_int<int32_t>(ctx, p, v, dt); break;
    case DType::kInt64: put_int<int64_t>(ctx, p, v, dt); break;
    case DType::kUInt8: put_int<uint8_t>(ctx, p, v, dt); break;
    case DType::kUInt16: put_int<uint16_t>(ctx, p, v, dt); break;
    case DType::kUInt32: put_int<uint32_t>(ctx, p, v, dt); break;
    case DType::kUInt64: put_int<uint64_t>(ctx, p, v, dt); break;
    // rounded once from the double (through float first would round twice: 1 + 2^-11 + 2^-40 -> 1)
    case DType::kFloat16: put(p, float_to_half_bits(static_cast<float>(round_to_float16(v)))); break;
    case DType::kBFloat16: put(p, float_to_bf16_bits(static_cast<float>(v))); break;
    case DType::kFloat32: put(p, static_cast<float>(v)); break;
    case DType::kFloat64: put(p, v); break;
    case DType::kComplex64: put(p, static_cast<float>(v)); put(p + 4, static_cast<float>(imag)); break;
    case DType::kComplex128: put(p, v); put(p + 8, imag); break;
  }
}

void fill_infer(const OpContext& ctx) {
  const Dims& shape = ctx.attr("shape").as_ints();
  for (int64_t d : shape)
    if (d < 0) ctx.fail("shape", "dimension " + std::to_string(d) + " is negative");
  const Dims& strides = ctx.attr("strides").as_ints();
  if (strides.empty()) {
    ctx.set_output(0, shape, ctx.attr_dtype("dtype"));
    return;
  }
  if (strides.size() != shape.size())
    ctx.fail("strides", "has " + std::to_string(strides.size()) + " entries for a shape of " +
                            std::to_string(shape.size()) + " dims");
  ctx.set_output(0, Dims{strided_window(shape, strides).extent}, ctx.attr_dtype("dtype"));
}

struct RunDim {
  int64_t n, s;
};

// The view as a grid of non-overlapping runs (fill_tiling.h): size-1 and
// stride-0 dims dropped (a value written twice is written once), negative
// strides flipped, dims sorted by decreasing stride and merged where
// contiguous; an innermost stride-1 dim becomes the run. Returns the run length.
int64_t canonical_runs(const OpContext& ctx, std::vector<RunDim>& dims) {
  const Dims& shape = ctx.attr("shape").as_ints();
  const Dims& strides = ctx.attr("strides").as_ints();
  std::vector<RunDim> all;
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] != 1 && strides[d] != 0) all.push_back({shape[d], strides[d] < 0 ? -strides[d] : strides[d]});
  std::stable_sort(all.begin(), all.end(), [](const RunDim& a, const RunDim& b) { return a.s > b.s; });
  for (const RunDim& d : all) {
    if (!dims.empty() && dims.back().s == d.s * d.n) dims.back() = {dims.back().n * d.n, d.s};
    else dims.push_back(d);
  }
  int64_t run = 1;
  if (!dims.empty() && dims.back().s == 1) {
    run = dims.back().n;
    dims.pop_back();
  }
  for (size_t d = 0; d < dims.size(); ++d) {
    const int64_t inner = d + 1 < dims.size() ? dims[d + 1].s * (dims[d + 1].n - 1) + run : run;
    if (dims[d].s < inner) ctx.fail("strides", "elements of the view overlap (stride " + std::to_string(dims[d].s) +
                                                   " within a span of " + std::to_string(inner) + ")");
  }
  if (dims.empty()) dims.push_back({1, 0});
  if (dims.size() > kFillMaxDims)
    ctx.fail("strides", "the view has " + std::to_string(dims.size()) + " dims after merging contiguous ones; the "
                        "fill kernel handles at most " + std::to_string(kFillMaxDims));
  return run;
}

void strided_tiling(const OpContext& ctx, FillTiling& t, TilingResult& r) {
  std::vector<RunDim> dims;
  const int64_t run = canonical_runs(ctx, dims);
  t.ndim = static_cast<uint32_t>(dims.size());
  t.runs = 1;
  for (size_t d = 0; d < dims.size(); ++d) {
    t.shape[d] = dims[d].n;
    t.stride[d] = dims[d].s;
    t.runs *= static_cast<uint64_t>(dims[d].n);
  }
  t.run_bytes = static_cast<uint64_t>(run) * t.itemsize;
  const uint64_t run_ub = round_up(t.run_bytes, 32);  // UB footprint of one run
  // Each core writes at least ~64 KiB of runs (the dense path's share), a scattered one ~2k elements.
  CoreSplit split = split_over_cores(t.runs, 1, ceil_div(64 * 1024, run_ub), ctx.profile());
  t.runs_per_core = split.per_core;
  t.tile_bytes = fit_tile(ub_budget(ctx.profile()), 1, 32, std::min<uint64_t>(split.per_core * run_ub, 64 * 1024));
  const uint64_t gap = static_cast<uint64_t>(dims.back().s) * t.itemsize - t.run_bytes;
  const bool batch = dims.back().n > 1 && run_ub <= t.tile_bytes && gap < (uint64_t{1} << 32);
  t.max_runs = batch ? static_cast<uint32_t>(std::min<uint64_t>(4095, t.tile_bytes / run_ub)) : 1;
  t.gap_bytes = batch ? static_cast<uint32_t>(gap) : 0;
  r.num_blocks = split.num_blocks;
}

void fill_tiling(const OpContext& ctx, TilingResult& r) {
  const TensorSpec& y = ctx.output(0);
  FillTiling t;
  t.itemsize = static_cast<uint32_t>(itemsize(y.dtype));
  t.total_bytes = static_cast<uint64_t>(y.numel()) * t.itemsize;
  encode(ctx, y.dtype, ctx.attr_float("value"), ctx.attr_float("value_imag"), t.pattern);
  if (!ctx.attr("strides").as_ints().empty()) {
    if (t.total_bytes > 0) strided_tiling(ctx, t, r);
    r.set_tiling(t);
    return;
  }
  CoreSplit split = split_over_cores(t.total_bytes, 32, 64 * 1024, ctx.profile());
  t.per_core_bytes = split.per_core;
  t.tile_bytes = fit_tile(ub_budget(ctx.profile()), 1, 32, std::min<uint64_t>(split.per_core, 64 * 1024));
  r.num_blocks = split.num_blocks;
  r.set_tiling(t);
}

}  // namespace

NPURT_REGISTER_OP("fill")
    .doc("A new tensor of `shape` and `dtype` with every element equal to `value`.\n"
         "Integer dtypes require an integral value in range; float16 rounds the double once, bfloat16\n"
         "through float32 (nearest even).\n"
         "use_int=True takes integral dtypes' value exactly from value_int (uint64 >= 2**63 as its\n"
         "two's-complement bits); value_imag is the imaginary part for complex dtypes.\n"
         "With strides (elements, one per dim, any sign), y is the window of the view of `shape` and\n"
         "`strides` from its lowest element to its highest (pass it as out=): only the view's elements\n"
         "are written, in one launch (x[::2] = v).")
    .output("y")
    .attr("shape", AttrType::kIntList)
    .attr("dtype", AttrType::kDType, AttrValue(DType::kFloat32))
    .attr("value", AttrType::kFloat, AttrValue(0.0))
    .attr("value_imag", AttrType::kFloat, AttrValue(0.0))
    .attr("value_int", AttrType::kInt, AttrValue(int64_t{0}))
    .attr("use_int", AttrType::kBool, AttrValue(false))
    .attr("strides", AttrType::kIntList, AttrValue(Dims{}))
    .infer(fill_infer)
    .tiling(fill_tiling)
    .cost([](const OpContext& ctx, OpCost& c) {  // the elements written (a strided y's window holds more)
      c.bytes = static_cast<double>(shape_numel(ctx.attr("shape").as_ints())) * itemsize(ctx.output(0).dtype);
    })
    .sim_kernel("npurt_fill_kernel", kFillKernelEntry);

}  // namespace npurt::kernels
