// kernels/attention/attention_op.cc: host side of `attention`: signature,
// output inference, tiling and registration of the fused flash-attention
// forward kernel (attention_fwd_kernel.cc).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "attention/attention_host.h"
#include "npurt/op_registry.h"
#include "npurt/tensor.h"

namespace npurt_kernels {
npurt::SimKernelEntry npurt_attention_entry();
}

namespace {

using namespace npurt;
using namespace npurt_kernels;

constexpr size_t kMask = 3;

void attention_infer(const OpContext& ctx) {
  AttnShapes s = attn_shapes(ctx, 0, kMask);
  const TensorSpec& q = ctx.input(0);
  ctx.set_output(0, q.shape, q.dtype);
  Dims lse(q.shape.begin(), q.shape.end() - 1);
  ctx.set_output(1, lse, DType::kFloat32);
  (void)s;
}

// UB of the forward: S float + P (input type, not for float) squares; acc
// float + out (input type, not for float) rects, the P V tile (float) in the S
// buffer unless dp > tile; 5 row statistics at one per 64-B slot; causal adds
// the diagonal tile's keep-bits (1 bit per [tile, tile] element).
AttnUbPlan forward_ub(uint32_t es) {
  // float adds half a float square: the max screen's scratch (16-bit types reuse P's buffer)
  constexpr uint32_t kRows = 5 * kAttnStatLane;  // AttnForward's kRowStats slots of kAttnStatLane floats
  return es == 4 ? AttnUbPlan{6.0, 4.0, kRows, 4.0} : AttnUbPlan{4.0 + es, 4.0 + es, kRows, 4.0};
}
// S = Q K^T and the P V accumulator (kept across kv tiles) are separate CubeTiles.
constexpr uint32_t kForwardCubes = 2;

// The L1 left over by the two cubes' staging buffers (AttnScoreCube,
// AttnValueCube) holds the L1 images of K tiles (only with Q resident), then
// of V tiles, of the head a block is working on; non-causal blocks run
// consecutive q tiles of a head, which then reuse them (causal items go heads
// fastest for balance, so they would not).
void set_kv_cache(const npurt::ChipProfile& p, uint32_t es, AttnTiling& t) {
  const uint64_t t16 = t.tile, dp = t.dp, ks = t.kStep;  // tile, dp: multiples of 16
  const bool resident = dp <= ks;
  const uint64_t staging = 2 * t16 * (resident ? dp : ks) * es + (t16 + dp) * ks * es;
  const uint64_t budget = p.l1_bytes - 256 - 4096;  // the chip's reserved 256 B, alignment slack
  if (dp == 0 || ks == 0 || staging >= budget) return;
  uint64_t left = budget - staging;
  const uint64_t kSlot = t16 * dp * es, vSlot = (t16 + ks - 1) / ks * dp * ks * es;
  const uint64_t cap = std::min<uint64_t>(t.kvTiles, kAttnMaxCacheTiles);
  t.kCacheTiles = resident ? static_cast<uint32_t>(std::min(cap, left / kSlot)) : 0;
  left -= t.kCacheTiles * kSlot;
  t.vCacheTiles = static_cast<uint32_t>(std::min(cap, left / vSlot));
}

void attention_tiling(const OpContext& ctx, TilingResult& r) {
  AttnShapes s = attn_shapes(ctx, 0, kMask);
  const uint32_t es = ctx.input(0).dtype == DType::kFloat32 ? 4 : 2;
  AttnUbPlan ub = forward_ub(es);
  if (ctx.attr_bool("causal")) ub.squareBytes += 1.0 / 8;  // the diagonal tile's keep-bits
  AttnTiling t = attn_tiling(ctx, s, 0, kMask, ub, kForwardCubes);
  // Scale Q once per item instead of every score tile, where that is exact (a
  // power of two in any type) or float (one extra rounding, as scaling the
  // product), and Q stays resident in L0A (its GM stage aliases the P V flush tile).
  int e2 = 0;
  const bool pow2 = std::fabs(std::frexp(double(t.scale), &e2)) == 0.5;
  t.scaleInQ = t.dp <= t.kStep && (es == 4 || pow2) ? 1 : 0;
  const uint64_t items = uint64_t{t.batchHeads} * t.qTiles;
  if (items == 0 || s.skv == 0 || s.d == 0) {
    // Without keys (or with D = 0 and a non-empty lse) the softmax has no defined result here.
    if (items != 0) ctx.fail(s.skv == 0 ? "k" : "q", s.skv == 0 ? "Skv = 0 (no keys) is not supported" : "D = 0 is not supported");
    r.num_blocks = 0;
    return;
  }
  if (!t.causal) set_kv_cache(ctx.profile(), es, t);  // after the checks: D > 0, Skv > 0
  attn_launch(ctx, t, items, es, r);
}

std::string attention_describe(const OpContext&, const TilingResult& r) {
  AttnTiling t{};
  if (r.num_blocks > 0) std::memcpy(&t, r.tiling.data(), sizeof t);
  std::string head = t.dp <= t.kStep ? (t.scaleInQ ? "flash forward: (bh, q tile) items, Q resident in L0A and pre-scaled,"
                                                   : "flash forward: (bh, q tile) items, Q resident in L0A,")
                                     : "flash forward: (bh, q tile) items,";
  head += t.causal ? " heads fastest (causal balance)," : " a contiguous run of items per block,";
  head += " K tiles cached in L1 per head: " + std::to_string(t.kCacheTiles) + ", V tiles: " +
          std::to_string(t.vCacheTiles) + " (the rest streamed), P V accumulated in L0C across kv tiles "
          "(flushed when a row max grows by > 8: lazy rescale);";
  return attn_describe(r, head.c_str());
}

}  // namespace

NPURT_REGISTER_OP("attention")
    .doc("Fused flash attention: out = softmax(scale * q @ k^T + mask) @ v, lse = logsumexp of the\n"
         "scaled, masked scores (float32, saved for attention_backward).\n"
         "q [B, Sq, D] or [B, H, Sq, D]; k, v [.., Skv, D] (same leading dims and D <= 256);\n"
         "float32/float16/bfloat16, fp32 accumulation, out in q's dtype, lse [B, (H,) Sq] float32.\n"
         "scale = 0.0 means 1/sqrt(D). causal: query i sees keys j <= i (top-left aligned, as\n"
         "PyTorch's is_causal; for Sq != Skv query i still sees keys 0..i).\n"
         "attn_mask: bool (True = keep, as PyTorch SDPA) or additive float, broadcastable to\n"
         "[B, (H,) Sq, Skv]. A row with every key masked gives out = 0 and lse = -inf.\n"
         "The S x S score matrix is never stored: Q tiles stream K/V tiles with online softmax.")
    .input("q", kAttnTypes)
    .rank(3, 4)
    .input("k", kAttnTypes)
    .rank(3, 4)
    .input("v", kAttnTypes)
    .rank(3, 4)
    .optional_input("attn_mask", kAttnMaskTypes)
    .output("out")
    .output("lse")
    .attr("scale", AttrType::kFloat, AttrValue(0.0))
    .attr("causal", AttrType::kBool, AttrValue(false))
    .infer(attention_infer)
    .tiling(attention_tiling)
    .describe_tiling(attention_describe)
    .cost([](const OpContext& ctx, OpCost& c) {
      const TensorSpec& q = ctx.input(0);
      const TensorSpec& k = ctx.input(1);
      const double skv = double(k.shape[k.shape.size() - 2]);
      c.flops = 4.0 * double(q.numel()) * skv;
      c.bytes = double(q.numel() * 2 + k.numel() * 2) * (q.dtype == DType::kFloat32 ? 4 : 2);
    })
    .sim_kernel("npurt_attention_kernel", npurt_kernels::npurt_attention_entry());
