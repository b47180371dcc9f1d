// kernels/scan/scan_op.cc: host side of the scan family: the [outer, len,
// inner] view around the axis, the dtype rules, the tiling and the
// registration of cumsum and cumprod (one table, one kernel: scan_kernel.cc).
//
// Contract: input x (contiguous: the dispatcher copies views; rank >= 1),
// attrs axis (int, negative allowed), include_initial (bool), dtype (str: ""
// = the array API default: signed integers and bool -> int64, unsigned ->
// uint64, floats and complex keep their dtype; else the input's dtype or that
// widening). Complex inputs scan as interleaved real/imaginary float lanes:
// the tiling doubles `inner` and hands the kernel float dtypes.
#include <cstring>
#include <string>
#include <vector>

#include "common/tiling_as.h"
#include "common/tiling_util.h"
#include "elementwise/ew_types.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"
#include "scan/scan_tiling.h"

namespace npurt::kernels {

extern const SimKernelEntry kScanKernelEntry;

namespace {

size_t scan_axis(const OpContext& ctx) {
  const int64_t n = static_cast<int64_t>(ctx.input(0).shape.size());
  const int64_t a = ctx.attr_int("axis");
  if (n == 0) ctx.fail("x", "a 0-d array has no axis to scan (reshape it to 1-d)");
  if (a < -n || a >= n)
    ctx.fail("axis", "axis " + std::to_string(a) + " is out of bounds for array of dimension " + std::to_string(n));
  return static_cast<size_t>(a < 0 ? a + n : a);
}

bool is_unsigned(DType d) {
  return d == DType::kUInt8 || d == DType::kUInt16 || d == DType::kUInt32 || d == DType::kUInt64;
}
bool is_integral_or_bool(DType d) { return d == DType::kBool || (ew::bit(d) & ew::kInts) != 0; }

bool is_complex_dtype(DType d) { return d == DType::kComplex64 || d == DType::kComplex128; }

DType scan_out_dtype(const OpContext& ctx) {
  const DType in = ctx.input(0).dtype;
  const DType wide = is_unsigned(in) ? DType::kUInt64 : DType::kInt64;
  const std::string& want = ctx.attr("dtype").as_string();
  if (want.empty()) return is_integral_or_bool(in) ? wide : in;
  if (want == dtype_name(in) && in != DType::kBool) return in;
  if (is_integral_or_bool(in) && want == dtype_name(wide)) return wide;
  ctx.fail_dtype("dtype", "'" + want + "' is not available for " + dtype_name(in) + " inputs (\"\" = the default; the " +
                             "input's own dtype, or int64/uint64 for integers; cast the input for other dtypes)");
}

void scan_infer(const OpContext& ctx) {
  Dims shape = ctx.input(0).shape;
  shape[scan_axis(ctx)] += ctx.attr_bool("include_initial") ? 1 : 0;
  ctx.set_output(0, shape, scan_out_dtype(ctx));
}

void scan_tiling(const OpContext& ctx, TilingResult& r, ScanKind kind) {
  const Dims& shape = ctx.input(0).shape;
  const size_t axis = scan_axis(ctx);
  ScanTiling t;
  t.kind = static_cast<uint32_t>(kind);
  t.in_dtype = static_cast<uint32_t>(ctx.input(0).dtype);
  t.out_dtype = static_cast<uint32_t>(scan_out_dtype(ctx));
  t.outer = t.len = t.inner = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    uint64_t n = static_cast<uint64_t>(shape[i]);
    if (i < axis) t.outer *= n;
    else if (i == axis) t.len = n;
    else t.inner *= n;
  }
  t.include_initial = ctx.attr_bool("include_initial") ? 1 : 0;
  if (is_complex_dtype(ctx.input(0).dtype)) {  // (real, imag) float lanes; sums are componentwise
    const DType part = ctx.input(0).dtype == DType::kComplex64 ? DType::kFloat32 : DType::kFloat64;
    t.in_dtype = t.out_dtype = static_cast<uint32_t>(part);
    t.inner *= 2;
    t.complex_pairs = 1;
  }
  // UB per element (lane): two input and two output buffers, the 8-byte accumulator.
  const uint64_t per_elem = 2 * 8 + 2 * 8 + 8;
  t.tile = fit_tile(ub_budget(ctx.profile()), per_elem, 32, 4096);
  t.mode = static_cast<uint32_t>(t.inner == 1 ? ScanMode::kRows : ScanMode::kColumns);
  t.units = t.inner == 1 ? t.outer : t.outer * ceil_div(t.inner, t.tile);
  const uint64_t out_elems = t.outer * (t.len + t.include_initial) * t.inner;
  const uint64_t per_unit = std::max<uint64_t>(1, (t.len + 1) * std::min<uint64_t>(t.inner, t.tile));
  CoreSplit cs = split_over_cores(out_elems == 0 ? 0 : t.units, 1, ceil_div(16384, per_unit), ctx.profile());
  t.per_core = cs.per_core;
  r.num_blocks = cs.num_blocks;
  r.set_tiling(t);
}

std::string describe_scan(const OpContext&, const TilingResult& r) {
  const ScanTiling t = tiling_as<ScanTiling>(r, "describe_scan");
  return std::string(t.mode == 0 ? "rows" : "columns") + " [outer, len, inner]=[" + std::to_string(t.outer) + ", " +
         std::to_string(t.len) + ", " + std::to_string(t.inner) + "] units=" + std::to_string(t.units) +
         " per_core=" + std::to_string(t.per_core) + " tile=" + std::to_string(t.tile);
}

struct ScanRow {
  const char* name;
  ScanKind kind;
  const char* doc;
};

const ScanRow kScanOps[] = {
    {"cumsum", ScanKind::kSum, "Cumulative sum along `axis` (float16/bfloat16 accumulate in float32; integers wrap)."},
    {"cumprod", ScanKind::kProd,
     "Cumulative product along `axis` (float16/bfloat16 accumulate in float32; integers wrap)."},
};

std::vector<OpDefBuilder> scan_defs() {
  std::vector<OpDefBuilder> defs;
  for (const ScanRow& row : kScanOps) {
    const ScanKind kind = row.kind;
    OpDefBuilder b(row.name);
    b.doc(std::string(row.doc) + "\n`include_initial` prepends the identity (output one longer along axis); "
                                 "`dtype` \"\" = int64 for signed integers and bool, uint64 for unsigned, "
                                 "else the input dtype.")
        .input("x", ew::kNumeric | ew::kBool | dtype_mask({DType::kComplex64, DType::kComplex128}))
        .sim_only({DType::kFloat64, DType::kComplex128})
        .rank(1)
        .output("y")
        .attr("axis", AttrType::kInt, AttrValue(int64_t{-1}))
        .attr("include_initial", AttrType::kBool, AttrValue(false))
        .attr("dtype", AttrType::kString, AttrValue(""))
        .infer(scan_infer)
        .tiling([kind](const OpContext& ctx, TilingResult& r) { scan_tiling(ctx, r, kind); })
        .describe_tiling(describe_scan)
        .cost([](const OpContext& ctx, OpCost& c) {
          const double n = static_cast<double>(ctx.input(0).numel());
          c.bytes = n * (itemsize(ctx.input(0).dtype) + itemsize(ctx.output(0).dtype));
          c.flops = n;
        })
        .sim_kernel("npurt_scan_kernel", kScanKernelEntry);
    defs.push_back(std::move(b));
  }
  return defs;
}

}  // namespace

NPURT_REGISTER_OPS(scan_defs());

}  // namespace npurt::kernels
