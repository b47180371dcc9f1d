// kernels/attention/attention_workspace.h: the per-block GM scratch of the
// attention kernels and its size (the host reserves blocks * AttnWorkspaceBytes).
//
// Block i owns bytes [i * wsPerBlock, (i + 1) * wsPerBlock) of the user
// workspace: `s` float [tile, tile] (raw cube products Q K^T / dO V^T, row
// pitch tile), `p` [tile, tile] in the input type (the cube's A operand: P or
// dS), `x` float [tile, dp] (P V and the backward's product tiles; the forward
// also stages its pre-scaled Q tile there as `q` before any P V flush). Nothing
// in it grows with the sequence lengths.
#pragma once

#include <cstdint>

#include "attention/attention_tiling.h"
#include "kernel_operator.h"

namespace npurt_kernels {

// Per-block GM workspace: raw scores, probabilities (in the input type, the
// cube's A operand) and one [tile, dp] float product tile.
template <class T>
struct AttnWorkspace {
  AscendC::GlobalTensor<float> s, x;
  AscendC::GlobalTensor<T> p;
  AscendC::GlobalTensor<T> q;  // the forward's scaled Q tile [tile, d]: aliases x (read before x is used)

  __aicore__ void Init(GM_ADDR workspace, const AttnTiling& t) {
    GM_ADDR base = AscendC::GetUserWorkspace(workspace) + static_cast<uint64_t>(AscendC::GetBlockIdx()) * t.wsPerBlock;
    const uint64_t tt = uint64_t{t.tile} * t.tile;
    s.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(base), tt);
    p.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(base + tt * 4), tt);
    x.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(base + tt * (4 + sizeof(T))), uint64_t{t.tile} * t.dp);
    q.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(base + tt * (4 + sizeof(T))), uint64_t{t.tile} * t.d);
  }
};

// Bytes of AttnWorkspace (host and kernel agree through this).
inline uint64_t AttnWorkspaceBytes(uint32_t tile, uint32_t dp, uint32_t elem) {
  const uint64_t tt = uint64_t{tile} * tile;
  return (tt * (4 + elem) + uint64_t{tile} * dp * 4 + 511) / 512 * 512;
}

}  // namespace npurt_kernels
