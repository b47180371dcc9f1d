// kernels/fill/fill_op.cc: host side of fill: value -> bit pattern, tiling, registration.
#include <cmath>
#include <cstring>
#include <limits>

#include "common/tiling_util.h"
#include "fill/fill_tiling.h"
#include "npurt/op_registry.h"
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
    case DType::kFloat16: put(p, float_to_half_bits(static_cast<float>(v))); break;
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
  ctx.set_output(0, shape, ctx.attr_dtype("dtype"));
}

void fill_tiling(const OpContext& ctx, TilingResult& r) {
  const TensorSpec& y = ctx.output(0);
  FillTiling t;
  t.itemsize = static_cast<uint32_t>(itemsize(y.dtype));
  t.total_bytes = static_cast<uint64_t>(y.numel()) * t.itemsize;
  encode(ctx, y.dtype, ctx.attr_float("value"), ctx.attr_float("value_imag"), t.pattern);
  CoreSplit split = split_over_cores(t.total_bytes, 32, 64 * 1024, ctx.profile());
  t.per_core_bytes = split.per_core;
  t.tile_bytes = fit_tile(ub_budget(ctx.profile()), 1, 32, std::min<uint64_t>(split.per_core, 64 * 1024));
  r.num_blocks = split.num_blocks;
  r.set_tiling(t);
}

}  // namespace

NPURT_REGISTER_OP("fill")
    .doc("A new tensor of `shape` and `dtype` with every element equal to `value`.\n"
         "Integer dtypes require an integral value in range; float16/bfloat16 round to nearest even.\n"
         "use_int=True takes integral dtypes' value exactly from value_int (uint64 >= 2**63 as its\n"
         "two's-complement bits); value_imag is the imaginary part for complex dtypes.")
    .output("y")
    .attr("shape", AttrType::kIntList)
    .attr("dtype", AttrType::kDType, AttrValue(DType::kFloat32))
    .attr("value", AttrType::kFloat, AttrValue(0.0))
    .attr("value_imag", AttrType::kFloat, AttrValue(0.0))
    .attr("value_int", AttrType::kInt, AttrValue(int64_t{0}))
    .attr("use_int", AttrType::kBool, AttrValue(false))
    .infer(fill_infer)
    .tiling(fill_tiling)
    .cost([](const OpContext& ctx, OpCost& c) { c.bytes = static_cast<double>(ctx.output(0).numel()) * itemsize(ctx.output(0).dtype); })
    .sim_kernel("npurt_fill_kernel", kFillKernelEntry);

}  // namespace npurt::kernels
