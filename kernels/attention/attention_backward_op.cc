// kernels/attention/attention_backward_op.cc: host side of
// `attention_backward(dout, q, k, v, o, lse, attn_mask?)` -> (dq, dk, dv):
// checks, tiling and registration of attention_bwd_kernel.cc. Items: BH * q
// tiles dQ items, then BH * kv tiles dK/dV items, spread over the cube cores.
#include <algorithm>
#include <string>

#include "attention/attention_host.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"

namespace npurt_kernels {
npurt::SimKernelEntry npurt_attention_backward_entry();
}

namespace {

using namespace npurt;
using namespace npurt_kernels;

constexpr size_t kQ = 1, kMask = 6;

AttnShapes backward_shapes(const OpContext& ctx) {
  AttnShapes s = attn_shapes(ctx, kQ, kMask);
  const TensorSpec& q = ctx.input(kQ);
  for (size_t i : {size_t{0}, size_t{4}}) {
    const char* name = i == 0 ? "dout" : "o";
    if (ctx.input(i).shape != q.shape) ctx.fail(name, "shape must equal q's");
    if (ctx.input(i).dtype != q.dtype) ctx.fail_dtype(name, "dtype must match q's");
  }
  const TensorSpec& lse = ctx.input(5);
  if (lse.dtype != DType::kFloat32) ctx.fail_dtype("lse", "must be float32 (the lse output of attention)");
  if (lse.shape != Dims(q.shape.begin(), q.shape.end() - 1)) ctx.fail("lse", "shape must be q's shape without D");
  return s;
}

void backward_infer(const OpContext& ctx) {
  backward_shapes(ctx);
  for (size_t i = 0; i < 3; ++i) ctx.set_output(i, ctx.input(kQ + i).shape, ctx.input(kQ + i).dtype);
}

// UB: S, dP float + cast (input type) squares; dK/dQ, dV, x, dO, O float +
// stage (input type) rects; 4 row vectors.
AttnUbPlan backward_ub(uint32_t es) { return es == 4 ? AttnUbPlan{8.0, 20.0, 4, 0.0} : AttnUbPlan{8.0 + es, 20.0 + es, 4, 0.0}; }

void backward_tiling(const OpContext& ctx, TilingResult& r) {
  AttnShapes s = backward_shapes(ctx);
  const uint32_t es = ctx.input(kQ).dtype == DType::kFloat32 ? 4 : 2;
  AttnTiling t = attn_tiling(ctx, s, kQ, kMask, backward_ub(es));
  t.dqBlocks = t.batchHeads * t.qTiles;
  const uint64_t items = uint64_t{t.dqBlocks} + uint64_t{t.batchHeads} * t.kvTiles;
  // Sq = 0 with keys still runs: the dK/dV items write zeros.
  if (t.batchHeads == 0 || s.skv == 0 || s.d == 0) {
    if (t.batchHeads != 0 && s.sq != 0 && s.skv == 0) ctx.fail("k", "Skv = 0 (no keys) is not supported");
    if (t.batchHeads != 0 && s.d == 0 && (s.sq != 0 || s.skv != 0)) ctx.fail("q", "D = 0 is not supported");
    r.num_blocks = 0;
    return;
  }
  attn_launch(ctx, t, items, es, r);
}

std::string backward_describe(const OpContext&, const TilingResult& r) {
  return attn_describe(r, "flash backward: dQ items (bh, q tile) + dK/dV items (bh, kv tile), P from lse;");
}

}  // namespace

NPURT_REGISTER_OP("attention_backward")
    .doc("Gradients of attention: (dq, dk, dv) from dout, the forward's inputs q, k, v, its out (o) and lse.\n"
         "Flash-attention-2 style: probabilities are recomputed tile by tile from lse, never stored.\n"
         "scale, causal and attn_mask must be those of the forward call. Deterministic (no atomics).")
    .input("dout", kAttnTypes)
    .rank(3, 4)
    .input("q", kAttnTypes)
    .rank(3, 4)
    .input("k", kAttnTypes)
    .rank(3, 4)
    .input("v", kAttnTypes)
    .rank(3, 4)
    .input("o", kAttnTypes)  // the forward's out ("out" is nr.ops' out= keyword)
    .rank(3, 4)
    .input("lse", {DType::kFloat32})
    .rank(2, 3)
    .optional_input("attn_mask", kAttnMaskTypes)
    .output("dq")
    .output("dk")
    .output("dv")
    .attr("scale", AttrType::kFloat, AttrValue(0.0))
    .attr("causal", AttrType::kBool, AttrValue(false))
    .infer(backward_infer)
    .tiling(backward_tiling)
    .describe_tiling(backward_describe)
    .cost([](const OpContext& ctx, OpCost& c) {
      const TensorSpec& q = ctx.input(kQ);
      const TensorSpec& k = ctx.input(kQ + 1);
      c.flops = 14.0 * double(q.numel()) * double(k.shape[k.shape.size() - 2]);  // 7 tile matmuls
      c.bytes = double(q.numel() * 4 + k.numel() * 4) * (q.dtype == DType::kFloat32 ? 4 : 2);
    })
    .sim_kernel("npurt_attention_backward_kernel", npurt_kernels::npurt_attention_backward_entry());
