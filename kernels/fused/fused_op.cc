// kernels/fused/fused_op.cc: host side of `fused_elementwise`: the OpDef,
// output inference (numpy broadcasting of every input), and the tiling that
// carries the decoded program, the collapsed strided layout and the UB tile.
//
// C++ and Python callers alike pass the program as the int-list attribute
// `program` (fused_program.h) and the output dtype as `dtype`; nr.fuse
// (sdk_python/npurt/fuse.py) is one producer of such programs.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "common/tiling_as.h"
#include "common/tiling_util.h"
#include "fused/fused_decode.h"
#include "fused/fused_program.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"

namespace npurt::kernels::fused {
extern const SimKernelEntry kFusedEntry;

namespace {

const DTypeMask kFloats = dtype_mask({DType::kFloat16, DType::kBFloat16, DType::kFloat32});
const char* const kInputNames[kFusedMaxInputs] = {"x0", "x1", "x2", "x3"};

std::string dims_text(const Dims& d) {
  std::string s = "(";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + (d.size() == 1 ? ",)" : ")");
}

int count_inputs(const OpContext& ctx) {
  int n = 0;
  while (n < kFusedMaxInputs && ctx.has_input(static_cast<size_t>(n))) ++n;
  for (int i = n; i < kFusedMaxInputs; ++i)
    if (ctx.has_input(static_cast<size_t>(i))) ctx.fail(kInputNames[i], "inputs must be given in order x0, x1, ...");
  return n;
}

DecodedProgram decode(const OpContext& ctx, int n_in) {
  DecodedProgram p;
  std::string reason;
  if (!decode_program(ctx.attr("program").as_ints(), p, reason)) ctx.fail("program", reason);
  if (p.num_inputs != n_in)
    ctx.fail("program", "reads " + std::to_string(p.num_inputs) + " inputs but " + std::to_string(n_in) +
                            " were given");
  return p;
}

void infer_fused(const OpContext& ctx) {
  const int n_in = count_inputs(ctx);
  decode(ctx, n_in);
  const DType out = ctx.attr_dtype("dtype");
  if (!mask_has(kFloats, out))
    ctx.fail_dtype("dtype", std::string(dtype_name(out)) + " is not a fused output dtype (float16, bfloat16, float32)");
  Dims shape = ctx.input(0).shape;
  for (int i = 1; i < n_in; ++i) {
    const Dims& b = ctx.input(static_cast<size_t>(i)).shape;
    const size_t r = std::max(shape.size(), b.size());
    Dims o(r, 1);
    for (size_t k = 0; k < r; ++k) {  // k counts from the last dim
      const int64_t da = k < shape.size() ? shape[shape.size() - 1 - k] : 1;
      const int64_t db = k < b.size() ? b[b.size() - 1 - k] : 1;
      if (da != db && da != 1 && db != 1)
        ctx.fail(kInputNames[i], "shapes " + dims_text(shape) + " and " + dims_text(b) +
                                     " cannot be broadcast (dimension -" + std::to_string(k + 1) + ")");
      o[r - 1 - k] = da == 1 ? db : da;
    }
    shape = o;
  }
  ctx.set_output(0, shape, out);
}

// The output's iteration space without size-1 dims, adjacent dims merged when
// every input is contiguous across them; strides 0 on broadcast dims.
void collapse(const OpContext& ctx, int n_in, FusedTiling& t) {
  const Dims& out = ctx.output(0).shape;
  const int r = static_cast<int>(out.size());
  int n = 0;
  int64_t shape[64];
  int64_t strides[kFusedMaxInputs][64];
  for (int d = 0; d < r && d < 64; ++d) {
    if (out[d] == 1) continue;
    shape[n] = out[d];
    for (int i = 0; i < n_in; ++i) {
      const TensorSpec& in = ctx.input(static_cast<size_t>(i));
      const int id = d - (r - static_cast<int>(in.shape.size()));
      strides[i][n] = (id < 0 || in.shape[id] == 1) ? 0 : in.strides[id];
    }
    bool merge = n > 0;
    for (int i = 0; merge && i < n_in; ++i) merge = strides[i][n - 1] == strides[i][n] * shape[n];
    if (merge) {
      shape[n - 1] *= shape[n];
      for (int i = 0; i < n_in; ++i) strides[i][n - 1] = strides[i][n];
      continue;
    }
    ++n;
  }
  if (n > kFusedMaxDims)
    ctx.fail("x0", "the operands' layouts need more than " + std::to_string(kFusedMaxDims) +
                       " dims after merging (make an input contiguous first)");
  t.ndim = static_cast<uint32_t>(std::max(n, 1));
  t.shape[0] = 1;
  for (int d = 0; d < n; ++d) t.shape[d] = shape[d];
  for (int i = 0; i < n_in; ++i) {
    if (n <= 1 && (n == 0 || strides[i][0] == 1)) t.contiguous |= 1u << i;
    for (int d = 0; d < n; ++d) {
      t.strides[i][d] = strides[i][d];
      t.base[i] += std::min<int64_t>(0, (shape[d] - 1) * strides[i][d]);
    }
  }
}

void tiling_fused(const OpContext& ctx, TilingResult& r) {
  const int n_in = count_inputs(ctx);
  const DecodedProgram p = decode(ctx, n_in);
  FusedTiling t;
  t.total = static_cast<uint64_t>(ctx.output(0).numel());
  t.num_inputs = static_cast<uint32_t>(n_in);
  t.num_regs = static_cast<uint32_t>(p.num_regs);
  t.num_instr = static_cast<uint32_t>(p.num_instr);
  t.result = static_cast<uint32_t>(p.result);
  t.out_dtype = static_cast<uint32_t>(ctx.output(0).dtype);
  t.needs_scratch = p.needs_scratch ? 1 : 0;
  t.needs_mask = p.needs_mask ? 1 : 0;
  std::copy(p.code, p.code + p.num_instr, t.code);
  collapse(ctx, n_in, t);
  // UB bytes per element: double-buffered input and output queues, float32
  // copies of 16-bit inputs (of every input when the program compares), the temporaries, the scratch tiles, the mask bit.
  uint64_t per_item = 2 * itemsize(ctx.output(0).dtype) + 4 * p.num_regs +
                      (p.needs_scratch ? 4 * kFusedScratchTiles : 0) + (p.needs_mask ? 1 : 0);
  for (int i = 0; i < n_in; ++i) {
    const DType d = ctx.input(static_cast<size_t>(i)).dtype;
    t.in_dtype[i] = static_cast<uint32_t>(d);
    per_item += 2 * itemsize(d) + (d == DType::kFloat32 && !p.needs_mask ? 0 : 4);  // calc copy
  }
  constexpr uint64_t kAlign = 64;  // 256 B of float32: Compare's granule; 32-B aligned for every dtype
  const CoreSplit split = split_over_cores(t.total, kAlign, 8192, ctx.profile());
  t.per_core = split.per_core;
  t.tile = fit_tile(ub_budget(ctx.profile()), per_item, kAlign, split.per_core);
  if (t.tile == 0) ctx.fail("program", "no UB tile fits this chip profile (too many registers)");
  r.num_blocks = split.num_blocks;
  r.set_tiling(t);
}

std::string describe_fused(const OpContext&, const TilingResult& r) {
  const FusedTiling t = tiling_as<FusedTiling>(r, "describe_fused");
  std::string s = "elements=" + std::to_string(t.total) + " per_core=" + std::to_string(t.per_core) +
                  " tile=" + std::to_string(t.tile) + " buffers=2 dims=" + std::to_string(t.ndim) +
                  " instructions=" + std::to_string(t.num_instr) + " registers=" + std::to_string(t.num_regs) +
                  " inputs:";
  for (uint32_t i = 0; i < t.num_inputs; ++i) s += (t.contiguous >> i & 1) ? " contiguous" : " strided";
  return s;
}

void cost_fused(const OpContext& ctx, OpCost& c) {
  const double n = static_cast<double>(ctx.output(0).numel());
  c.bytes = n * itemsize(ctx.output(0).dtype);
  for (int i = 0; i < count_inputs(ctx); ++i) c.bytes += n * itemsize(ctx.input(static_cast<size_t>(i)).dtype);
  const Dims& words = ctx.attr("program").as_ints();
  c.flops = n * static_cast<double>(words.size() > kFusedHeader ? words[4] : 0);
}

OpDefBuilder make_fused_def() {
  OpDefBuilder b("fused_elementwise");
  b.doc("Runs an elementwise expression program over x0..x3 (broadcast, any strides) in one kernel:\n"
        "each input is read once, every intermediate stays in UB (float32), the result is written once.\n"
        "program: [1, num_inputs, num_regs, result_slot, num_instr, then num_instr x (opcode, dst, a, b, c)]\n"
        "(kernels/fused/fused_program.h, docs/kernels.md); dtype: the output dtype. nr.fuse builds programs.");
  b.input(kInputNames[0], kFloats).strided();
  for (int i = 1; i < kFusedMaxInputs; ++i) b.optional_input(kInputNames[i], kFloats).strided();
  b.output("y")
      .attr("program", AttrType::kIntList)
      .attr("dtype", AttrType::kDType)
      .infer(infer_fused)
      .tiling(tiling_fused)
      .describe_tiling(describe_fused)
      .cost(cost_fused)
      .sim_kernel("npurt_fused_elementwise_kernel", kFusedEntry);
  return b;
}

}  // namespace

NPURT_REGISTER_OPS(std::vector<OpDefBuilder>{make_fused_def()});

}  // namespace npurt::kernels::fused
