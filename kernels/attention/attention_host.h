// kernels/attention/attention_host.h: the host side shared by `attention` and
// `attention_backward`: argument checks, dtype lists, tile choice, launch
// sizing and the describe text (the two op files only add what differs).
//
// q [B, Sq, D] or [B, H, Sq, D]; k, v [.., Skv, D] with the same leading dims;
// attn_mask (optional) bool or float, broadcastable to [B, (H,) Sq, Skv].
// The tile is the largest of 128/64/32/16 rows whose UB, L0 and L1 footprint
// fits the profile (`ub_tiles` = how many [tile, tile] float-sized and
// [tile, dp] float buffers the kernel keeps); D above kMaxHeadDim is refused.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

#include "attention/attention_tiling.h"
#include "npurt/op_def.h"

namespace npurt_kernels {

constexpr int64_t kAttnMaxHeadDim = 256;
// Most K / V tiles the forward caches in L1 (the kernel cubes' tag arrays).
constexpr uint32_t kAttnMaxCacheTiles = 64;

// dtypes of q/k/v (and dout, o) and of attn_mask, for both ops' signatures.
inline const std::initializer_list<npurt::DType> kAttnTypes = {npurt::DType::kFloat32, npurt::DType::kFloat16,
                                                               npurt::DType::kBFloat16};
inline const std::initializer_list<npurt::DType> kAttnMaskTypes = {
    npurt::DType::kBool, npurt::DType::kFloat32, npurt::DType::kFloat16, npurt::DType::kBFloat16};

struct AttnShapes {
  int64_t b, h, sq, skv, d;
  bool four_d;
};

// UB use of one block, in units the kernels allocate: `square` [tile, tile]
// buffers of `squareBytes` bytes per element, `rect` [tile, dp] ones.
struct AttnUbPlan {
  double squareBytes;  // bytes per [tile, tile] element summed over the square buffers
  double rectBytes;    // bytes per [tile, dp] element summed over the rect buffers
  uint32_t rowVectors; // float vectors of `tile` elements
  double aliasBytes;   // rect buffers that live in a square one when dp <= tile
};

// Checks q/k/v (inputs q_index .. q_index + 2) and the mask (input `mask_index`, may be absent).
AttnShapes attn_shapes(const npurt::OpContext& ctx, size_t q_index, size_t mask_index);
// Fills everything but wsPerBlock/dqBlocks; fails when no tile fits. `cubes`:
// CubeTiles the kernel keeps at once (each [tile, max(tile, dp)] in L0C, and
// kStep chosen so all of them fit L0A/L0B/L1 together).
AttnTiling attn_tiling(const npurt::OpContext& ctx, const AttnShapes& s, size_t q_index, size_t mask_index,
                       const AttnUbPlan& ub, uint32_t cubes = 1);
// Launch sizing shared by both ops: `items` work items over min(items, cube
// cores) blocks, each with its AttnWorkspace; stores t (with wsPerBlock) in r.
void attn_launch(const npurt::OpContext& ctx, AttnTiling t, uint64_t items, uint32_t elem_bytes,
                 npurt::TilingResult& r);
// The describe text of a plan made by attn_launch (`passes` names the kernel's work items).
std::string attn_describe(const npurt::TilingResult& r, const char* passes);

}  // namespace npurt_kernels
