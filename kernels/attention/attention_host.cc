// kernels/attention/attention_host.cc: shape checks, mask broadcast strides and
// the tile choice of the attention ops (see attention_host.h).
#include "attention/attention_host.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "attention/attention_workspace.h"
#include "common/tiling_as.h"
#include "npurt/tensor.h"

namespace npurt_kernels {

using npurt::DType;
using npurt::OpContext;
using npurt::TensorSpec;

namespace {

std::string dims_str(const npurt::Dims& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "]";
}

void check_same_lead(const OpContext& ctx, const char* arg, const TensorSpec& x, const TensorSpec& q) {
  if (x.shape.size() != q.shape.size())
    ctx.fail(arg, "rank " + std::to_string(x.shape.size()) + " does not match q's rank " +
                      std::to_string(q.shape.size()));
  for (size_t i = 0; i + 2 < q.shape.size(); ++i)
    if (x.shape[i] != q.shape[i])
      ctx.fail(arg, "leading dims " + dims_str(x.shape) + " do not match q's " + dims_str(q.shape));
  if (x.shape.back() != q.shape.back())
    ctx.fail(arg, "head dim D = " + std::to_string(x.shape.back()) + " does not match q's D = " +
                      std::to_string(q.shape.back()));
  if (x.dtype != q.dtype) ctx.fail_dtype(arg, "dtype must match q's");
}

// Element strides of a contiguous mask broadcast to [B, H, Sq, Skv] (0 = broadcast).
void mask_strides(const OpContext& ctx, const TensorSpec& m, const AttnShapes& s, AttnTiling& t) {
  const npurt::Dims full = s.four_d ? npurt::Dims{s.b, s.h, s.sq, s.skv} : npurt::Dims{s.b, s.sq, s.skv};
  if (m.shape.size() > full.size())
    ctx.fail("attn_mask", "shape " + dims_str(m.shape) + " is not broadcastable to " + dims_str(full));
  int64_t st[4] = {0, 0, 0, 0};
  const size_t off = full.size() - m.shape.size();
  int64_t stride = 1;
  for (size_t i = m.shape.size(); i-- > 0;) {
    const int64_t n = m.shape[i], want = full[off + i];
    if (n != want && n != 1)
      ctx.fail("attn_mask", "shape " + dims_str(m.shape) + " is not broadcastable to " + dims_str(full));
    const size_t fi = off + i;
    const size_t axis = s.four_d || fi == 0 ? fi : fi + 1;  // 3-D inputs have no head axis
    st[axis] = n == 1 ? 0 : stride;
    stride *= n;
  }
  t.maskStrideB = st[0];
  t.maskStrideH = st[1];
  t.maskStrideQ = st[2];
  t.maskStrideK = st[3];
}

uint32_t round16(int64_t x) { return static_cast<uint32_t>((x + 15) / 16 * 16); }

}  // namespace

AttnShapes attn_shapes(const OpContext& ctx, size_t q_index, size_t mask_index) {
  const TensorSpec& q = ctx.input(q_index);
  const size_t r = q.shape.size();
  if (r != 3 && r != 4) ctx.fail("q", "must be [B, S, D] or [B, H, S, D], got " + dims_str(q.shape));
  check_same_lead(ctx, "k", ctx.input(q_index + 1), q);
  check_same_lead(ctx, "v", ctx.input(q_index + 2), q);
  AttnShapes s{q.shape[0], r == 4 ? q.shape[1] : 1, q.shape[r - 2], ctx.input(q_index + 1).shape[r - 2], q.shape[r - 1], r == 4};
  if (ctx.input(q_index + 1).shape[r - 2] != ctx.input(q_index + 2).shape[r - 2])
    ctx.fail("v", "sequence length " + std::to_string(ctx.input(q_index + 2).shape[r - 2]) + " does not match k's " +
                      std::to_string(s.skv));
  if (s.d > kAttnMaxHeadDim)
    ctx.fail("q", "head dim D = " + std::to_string(s.d) + " exceeds the supported maximum " +
                      std::to_string(kAttnMaxHeadDim));
  if (s.sq > 65535 || s.skv > 65535) ctx.fail("q", "sequence lengths must be < 65536");
  if (ctx.has_input(mask_index)) {
    const TensorSpec& m = ctx.input(mask_index);
    AttnTiling scratch{};
    mask_strides(ctx, m, s, scratch);
  }
  return s;
}

AttnTiling attn_tiling(const OpContext& ctx, const AttnShapes& s, size_t q_index, size_t mask_index,
                       const AttnUbPlan& ub, uint32_t cubes) {
  const npurt::ChipProfile& p = ctx.profile();
  const DType dt = ctx.input(q_index).dtype;
  const uint32_t es = dt == DType::kFloat32 ? 4 : 2;
  AttnTiling t{};
  t.dtype = static_cast<uint32_t>(dt == DType::kFloat32   ? AttnDType::kF32
                                  : dt == DType::kFloat16 ? AttnDType::kF16
                                                          : AttnDType::kBF16);
  t.causal = ctx.attr_bool("causal");
  t.batchHeads = static_cast<uint32_t>(s.b * s.h);
  t.heads = static_cast<uint32_t>(s.h);
  t.sq = static_cast<uint32_t>(s.sq);
  t.skv = static_cast<uint32_t>(s.skv);
  t.d = static_cast<uint32_t>(s.d);
  t.dp = round16(s.d);
  const double scale = ctx.attr_float("scale");
  if (!std::isfinite(scale)) ctx.fail("scale", "must be finite");
  t.scale = static_cast<float>(scale == 0.0 ? 1.0 / std::sqrt(double(s.d)) : scale);
  if (ctx.has_input(mask_index)) {
    const TensorSpec& m = ctx.input(mask_index);
    t.maskKind = static_cast<uint32_t>(m.dtype == DType::kBool      ? AttnMask::kBool
                                       : m.dtype == DType::kFloat32 ? AttnMask::kF32
                                       : m.dtype == DType::kFloat16 ? AttnMask::kF16
                                                                    : AttnMask::kBF16);
    mask_strides(ctx, m, s, t);
  }
  const uint32_t cap = std::max<uint32_t>(16, round16(std::max(s.sq, s.skv)));
  for (uint32_t tile = 128; tile >= 16; tile /= 2) {
    if (tile > cap && tile > 16) continue;
    const uint32_t maxN = std::max(tile, t.dp);
    const uint64_t kStep = std::min<uint64_t>(
        {256, p.l0a_bytes / cubes / tile / es / 16 * 16, p.l0b_bytes / cubes / maxN / es / 16 * 16});
    const double rect = ub.rectBytes + (t.dp > tile ? ub.aliasBytes : 0.0);
    const double ubBytes = ub.squareBytes * tile * tile + rect * tile * t.dp + 4.0 * tile * ub.rowVectors +
                           16.0 * tile + 4096;  // mask staging, work buffers, alignment
    if (kStep < 16 || uint64_t{cubes} * tile * maxN * 4 > p.l0c_bytes ||
        uint64_t{cubes} * 2 * (tile + maxN) * kStep * es > p.l1_bytes ||
        ubBytes > double(p.ub_usable_bytes))
      continue;
    t.tile = tile;
    t.kStep = static_cast<uint32_t>(kStep);
    break;
  }
  if (t.tile == 0) ctx.fail("q", "no attention tile fits the UB/L0 buffers of " + p.name);
  t.qTiles = (t.sq + t.tile - 1) / t.tile;
  t.kvTiles = (t.skv + t.tile - 1) / t.tile;
  return t;
}

void attn_launch(const OpContext& ctx, AttnTiling t, uint64_t items, uint32_t elem_bytes, npurt::TilingResult& r) {
  t.wsPerBlock = AttnWorkspaceBytes(t.tile, t.dp, elem_bytes);
  r.num_blocks = static_cast<uint32_t>(std::min<uint64_t>({items, std::max(1u, ctx.profile().cube_cores), 65535}));
  r.workspace_bytes = t.wsPerBlock * r.num_blocks;
  r.set_tiling(t);
}

std::string attn_describe(const npurt::TilingResult& r, const char* passes) {
  if (r.num_blocks == 0) return "empty output: no launch";
  const AttnTiling t = npurt::kernels::tiling_as<AttnTiling>(r, "attn_describe");
  return std::string(passes) + " BH=" + std::to_string(t.batchHeads) + " Sq=" + std::to_string(t.sq) +
         " Skv=" + std::to_string(t.skv) + " D=" + std::to_string(t.d) + " (cube pads to " + std::to_string(t.dp) +
         ") tile=" + std::to_string(t.tile) + " q_tiles=" + std::to_string(t.qTiles) +
         " kv_tiles=" + std::to_string(t.kvTiles) + " kStep=" + std::to_string(t.kStep) +
         " blocks=" + std::to_string(r.num_blocks) + " workspace/block=" + std::to_string(t.wsPerBlock) +
         " B; S x S never stored, fp32 accumulation";
}

}  // namespace npurt_kernels
