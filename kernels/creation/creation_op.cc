// kernels/creation/creation_op.cc: host side of the creation family: the
// registration of arange, linspace, eye, tril and triu over the one kernel of
// creation_kernel.cc (modes in creation_tiling.h).
//
// The host only chooses the mode and sends start/step/shape: every element is
// computed on the device. Length rules (the array API's ceil((stop - start) /
// step) for arange) are the Python layer's; these ops take the length `num`.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "common/tiling_util.h"
#include "creation/creation_tiling.h"
#include "elementwise/ew_types.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"

namespace npurt::kernels {

extern const SimKernelEntry kCreationKernelEntry;
extern const SimKernelEntry kCreationGenKernelEntry;

namespace {

const DTypeMask kIotaMask = ew::kNumeric | ew::kBool;

void check_count(const OpContext& ctx, const char* arg, int64_t n) {
  if (n < 0) ctx.fail(arg, "must be >= 0, got " + std::to_string(n));
}

void split_elements(const OpContext& ctx, CreationTiling& t, TilingResult& r, uint64_t bytes_per_item) {
  CoreSplit cs = split_over_cores(t.total, 32, t.mode == 0 ? 16384 : 8, ctx.profile());
  t.per_core = cs.per_core;
  t.tile = fit_tile(ub_budget(ctx.profile()), 4 * bytes_per_item, 32, 8192);
  r.num_blocks = cs.num_blocks;
  r.set_tiling(t);
}

// ---- arange / linspace ---------------------------------------------------------

void iota_infer(const OpContext& ctx) {
  check_count(ctx, "num", ctx.attr_int("num"));
  const DType dt = ctx.attr_dtype("dtype");
  if (!mask_has(kIotaMask, dt)) ctx.fail_dtype("dtype", std::string(dtype_name(dt)) + " is not supported");
  ctx.set_output(0, Dims{ctx.attr_int("num")}, dt);
}

void arange_tiling(const OpContext& ctx, TilingResult& r) {
  CreationTiling t;
  t.mode = static_cast<uint32_t>(CreationMode::kIota);
  t.dtype = static_cast<uint32_t>(ctx.output(0).dtype);
  t.total = static_cast<uint64_t>(ctx.attr_int("num"));
  t.start = ctx.attr_float("start");
  t.step = ctx.attr_float("step");
  t.int_exact = ctx.attr_bool("integral") ? 1 : 0;
  t.istart = ctx.attr_int("int_start");
  t.istep = ctx.attr_int("int_step");
  split_elements(ctx, t, r, itemsize(ctx.output(0).dtype));
}

void linspace_tiling(const OpContext& ctx, TilingResult& r) {
  CreationTiling t;
  t.mode = static_cast<uint32_t>(CreationMode::kIota);
  t.dtype = static_cast<uint32_t>(ctx.output(0).dtype);
  t.total = static_cast<uint64_t>(ctx.attr_int("num"));
  const bool endpoint = ctx.attr_bool("endpoint");
  const int64_t div = endpoint ? ctx.attr_int("num") - 1 : ctx.attr_int("num");
  t.start = ctx.attr_float("start");
  t.stop = ctx.attr_float("stop");
  t.step = div > 0 ? (t.stop - t.start) / static_cast<double>(div) : 0.0;  // numpy: step of (stop-start)/div
  t.last_is_stop = endpoint && t.total > 1 ? 1 : 0;
  t.floor_ints = 1;
  split_elements(ctx, t, r, itemsize(ctx.output(0).dtype));
}

// ---- eye / tril / triu ----------------------------------------------------------

void encode_one(DType dt, uint8_t* p) {
  auto put = [p](auto v) { std::memcpy(p, &v, sizeof v); };
  switch (dt) {
    case DType::kFloat16: put(float_to_half_bits(1.0f)); break;
    case DType::kBFloat16: put(float_to_bf16_bits(1.0f)); break;
    case DType::kFloat32: case DType::kComplex64: put(1.0f); break;
    case DType::kFloat64: case DType::kComplex128: put(1.0); break;
    default: p[0] = 1; break;  // integers and bool: little-endian 1
  }
}

void tri_common(const OpContext& ctx, TilingResult& r, CreationMode mode, DType dt, const Dims& shape) {
  CreationTiling t;
  t.mode = static_cast<uint32_t>(mode);
  t.dtype = static_cast<uint32_t>(dt);
  const uint64_t item = itemsize(dt);
  t.unit = static_cast<uint32_t>(item > 8 ? 8 : item);
  t.rows = static_cast<uint64_t>(shape[shape.size() - 2]);
  t.cols = static_cast<uint64_t>(shape[shape.size() - 1]);
  t.total = t.cols == 0 ? 0 : static_cast<uint64_t>(ctx.output(0).numel()) / t.cols;  // matrix rows
  t.k = ctx.attr_int("k");
  encode_one(dt, t.one);
  CoreSplit cs = split_over_cores(t.total, 1, std::max<uint64_t>(1, 16384 / std::max<uint64_t>(1, t.cols)), ctx.profile());
  t.per_core = cs.per_core;
  t.tile = fit_tile(ub_budget(ctx.profile()), 4 * t.unit, 32, std::min<uint64_t>(8192, round_up(std::max<uint64_t>(t.cols * (item / t.unit), 1), 32)));
  r.num_blocks = cs.num_blocks;
  r.set_tiling(t);
}

void eye_infer(const OpContext& ctx) {
  check_count(ctx, "n_rows", ctx.attr_int("n_rows"));
  check_count(ctx, "n_cols", ctx.attr_int("n_cols"));
  ctx.set_output(0, Dims{ctx.attr_int("n_rows"), ctx.attr_int("n_cols")}, ctx.attr_dtype("dtype"));
}

void tri_infer(const OpContext& ctx) {
  if (ctx.input(0).shape.size() < 2)
    ctx.fail("x", "must have at least 2 dimensions (a stack of matrices), got " +
                      std::to_string(ctx.input(0).shape.size()));
  ctx.set_output(0, ctx.input(0).shape, ctx.input(0).dtype);
}

void cost_out(const OpContext& ctx, OpCost& c) {
  c.bytes = static_cast<double>(ctx.output(0).numel()) * itemsize(ctx.output(0).dtype);
}

OpDefBuilder tri_def(const char* name, CreationMode mode, const char* doc) {
  OpDefBuilder b(name);
  b.doc(doc)
      .input("x", all_dtypes_mask())
      .output("y")
      .attr("k", AttrType::kInt, AttrValue(int64_t{0}))
      .infer(tri_infer)
      .tiling([mode](const OpContext& ctx, TilingResult& r) {
        tri_common(ctx, r, mode, ctx.input(0).dtype, ctx.input(0).shape);
      })
      .cost(cost_out)
      .sim_kernel("npurt_creation_kernel", kCreationKernelEntry);
  return b;
}

std::vector<OpDefBuilder> creation_defs() {
  std::vector<OpDefBuilder> defs;
  OpDefBuilder arange("arange");
  arange.doc("y[i] = start + i * step for i < num, computed on the device (integral=True: exactly, in\n"
             "int64 from int_start/int_step; else in double, rounded once to dtype).")
      .output("y")
      .attr("num", AttrType::kInt)
      .attr("dtype", AttrType::kDType, AttrValue(DType::kFloat32))
      .attr("start", AttrType::kFloat, AttrValue(0.0))
      .attr("step", AttrType::kFloat, AttrValue(1.0))
      .attr("integral", AttrType::kBool, AttrValue(false))
      .attr("int_start", AttrType::kInt, AttrValue(int64_t{0}))
      .attr("int_step", AttrType::kInt, AttrValue(int64_t{1}))
      .infer(iota_infer)
      .tiling(arange_tiling)
      .cost(cost_out)
      .sim_kernel("npurt_creation_gen_kernel", kCreationGenKernelEntry);
  defs.push_back(std::move(arange));
  OpDefBuilder linspace("linspace");
  linspace.doc("num evenly spaced values from start to stop (numpy's linspace: start + i * step in double,\n"
               "step = (stop - start) / (num - endpoint), the last one exactly stop with endpoint; floored\n"
               "for integer dtypes).")
      .output("y")
      .attr("num", AttrType::kInt)
      .attr("dtype", AttrType::kDType, AttrValue(DType::kFloat32))
      .attr("start", AttrType::kFloat, AttrValue(0.0))
      .attr("stop", AttrType::kFloat, AttrValue(1.0))
      .attr("endpoint", AttrType::kBool, AttrValue(true))
      .infer(iota_infer)
      .tiling(linspace_tiling)
      .cost(cost_out)
      .sim_kernel("npurt_creation_gen_kernel", kCreationGenKernelEntry);
  defs.push_back(std::move(linspace));
  OpDefBuilder eye("eye");
  eye.doc("[n_rows, n_cols] with ones on diagonal k (k > 0: above the main diagonal), zeros elsewhere.")
      .output("y")
      .attr("n_rows", AttrType::kInt)
      .attr("n_cols", AttrType::kInt)
      .attr("k", AttrType::kInt, AttrValue(int64_t{0}))
      .attr("dtype", AttrType::kDType, AttrValue(DType::kFloat32))
      .infer(eye_infer)
      .tiling([](const OpContext& ctx, TilingResult& r) {
        tri_common(ctx, r, CreationMode::kEye, ctx.output(0).dtype, ctx.output(0).shape);
      })
      .cost(cost_out)
      .sim_kernel("npurt_creation_gen_kernel", kCreationGenKernelEntry);
  defs.push_back(std::move(eye));
  defs.push_back(tri_def("tril", CreationMode::kTril,
                         "Lower triangle of every matrix of x (the last two dims): x[..., i, j] where j - i <= k, "
                         "else 0."));
  defs.push_back(tri_def("triu", CreationMode::kTriu,
                         "Upper triangle of every matrix of x (the last two dims): x[..., i, j] where j - i >= k, "
                         "else 0."));
  return defs;
}

}  // namespace

NPURT_REGISTER_OPS(creation_defs());

}  // namespace npurt::kernels
