// examples/custom_layernorm/layernorm_op.cc: host side of the custom LayerNorm:
// signature, shape inference, dynamic tiling and the registration.
//
// Tiling (from shapes and the chip profile, cached by the dispatcher):
//   rows = numel / d; cores = min(vector cores, rows / 8) so every core gets a
//   few rows; rows_per_tile = the most rows whose x and y tiles fit UB twice
//   (double buffering) next to gamma/beta and the work buffers, each row padded
//   to 32 bytes. A row too long for UB is rejected with the limit in the message.
#include <algorithm>
#include <cstring>
#include <string>

#include "layernorm_tiling.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"

npurt::SimKernelEntry layernorm_custom_entry();

namespace {

using namespace npurt;

constexpr uint64_t kScalarBytes = 64;
constexpr uint64_t kReserve = 1024;  // TPipe bookkeeping margin

uint32_t align8(uint64_t d) { return static_cast<uint32_t>((d + 7) / 8 * 8); }  // 32 bytes of float

void layernorm_infer(const OpContext& ctx) {
  const TensorSpec& x = ctx.input(0);
  const int64_t d = x.shape.back();
  for (size_t i = 1; i <= 2; ++i) {
    if (!ctx.has_input(i)) continue;
    const TensorSpec& p = ctx.input(i);
    if (p.shape.size() != 1 || p.shape[0] != d)
      ctx.fail(i == 1 ? "gamma" : "beta", "must have shape (" + std::to_string(d) + ",) to match the last dim of x");
  }
  ctx.set_output(0, x.shape, x.dtype);
}

void layernorm_tiling(const OpContext& ctx, TilingResult& r) {
  const TensorSpec& x = ctx.input(0);
  LayerNormTiling t;
  t.d = static_cast<uint32_t>(x.shape.back());
  t.d_aligned = align8(t.d);
  t.rows = t.d == 0 ? 0 : static_cast<uint64_t>(x.numel()) / t.d;
  t.has_gamma = ctx.has_input(1);
  t.has_beta = ctx.has_input(2);
  t.eps = static_cast<float>(ctx.attr_float("eps"));
  if (!(ctx.attr_float("eps") >= 0)) ctx.fail("eps", "must be >= 0");
  if (t.rows == 0) {
    r.num_blocks = 0;
    return;
  }
  const uint64_t row_bytes = uint64_t{t.d_aligned} * sizeof(float);
  const uint64_t ub = ctx.profile().ub_usable_bytes;
  const uint64_t fixed = 4 * row_bytes + kScalarBytes + kReserve;  // gamma+beta, work (2 rows), scalar
  const uint64_t per_row = 4 * row_bytes;                           // x and y queues, 2 buffers each
  if (ub < fixed + per_row)
    ctx.fail("x", "the last dim " + std::to_string(t.d) + " is too long for one UB (" + std::to_string(ub) +
                      " bytes on " + ctx.profile().name + "); this example keeps a whole row in UB, so d <= " +
                      std::to_string((ub - kScalarBytes - kReserve) / 32));
  uint64_t cores = std::clamp<uint64_t>(t.rows / 8, 1, ctx.profile().vector_cores);
  t.rows_per_core = (t.rows + cores - 1) / cores;
  t.rows_per_tile = static_cast<uint32_t>(std::min<uint64_t>({(ub - fixed) / per_row, t.rows_per_core, 4095}));
  r.num_blocks = static_cast<uint32_t>((t.rows + t.rows_per_core - 1) / t.rows_per_core);
  r.set_tiling(t);
}

std::string layernorm_plan(const OpContext& ctx, const TilingResult& r) {
  if (r.num_blocks == 0) return "empty input: no launch";
  LayerNormTiling t;
  std::memcpy(&t, r.tiling.data(), sizeof t);
  uint64_t ub_used = 4ull * t.rows_per_tile * t.d_aligned * 4 + 4ull * t.d_aligned * 4 + kScalarBytes;
  return "rows=" + std::to_string(t.rows) + " rows_per_core=" + std::to_string(t.rows_per_core) +
         " rows_per_tile=" + std::to_string(t.rows_per_tile) + " d=" + std::to_string(t.d) +
         " d_aligned=" + std::to_string(t.d_aligned) + " buffers=2 ub_used=" + std::to_string(ub_used) + "/" +
         std::to_string(ctx.profile().ub_usable_bytes) + "B";
}

}  // namespace

NPURT_REGISTER_OP("layer_norm_custom")
    .doc("LayerNorm over the last dimension (float32): y = (x - mean) / sqrt(var + eps) * gamma + beta.\n"
         "x is [..., D] (the seeds use [B, S, D]); gamma and beta are optional [D] vectors.\n"
         "Dynamic tiling: rows per core, rows per tile fitted to UB with double buffering, 32-byte aligned rows.")
    .input("x", {DType::kFloat32})
    .rank(1)
    .optional_input("gamma", {DType::kFloat32})
    .optional_input("beta", {DType::kFloat32})
    .output("y")
    .attr("eps", AttrType::kFloat, AttrValue(1e-5))
    .infer(layernorm_infer)
    .tiling(layernorm_tiling)
    .describe_tiling(layernorm_plan)
    .cost([](const OpContext& ctx, OpCost& c) {
      double n = static_cast<double>(ctx.input(0).numel());
      c.bytes = 8 * n;
      c.flops = 8 * n;
    })
    .sim_kernel("layernorm_custom", layernorm_custom_entry());
