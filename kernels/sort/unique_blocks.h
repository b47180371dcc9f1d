// kernels/sort/unique_blocks.h: device helpers shared by the scalar
// (unique_kernel.cc) and the vector (vunique_kernel.cc) unique kernels, which
// cut the sorted s the same way (UniqueTiling, planned by sort_host.h's
// unique_split): block b owns [b * per_core, min((b + 1) * per_core, n)),
// its *_count kernel writes the number of run starts in that range to
// counts[b], and its second kernel places its runs after those of blocks < b.
// Invariant: counts holds t.blocks int64 values, all written by the count
// kernel before the second kernel reads them. No GM is written by SetValue.
#pragma once

#include <cstdint>

#include "common/kernel_util.h"
#include "kernel_operator.h"
#include "sort/sort_order.h"
#include "sort/sort_tiling.h"

namespace npurt::kernels::sort {

// This block's range [begin, end) of s (empty when begin >= n).
__aicore__ inline void UniqueRange(const UniqueTiling& t, uint64_t& begin, uint64_t& end) {
  begin = static_cast<uint64_t>(AscendC::GetBlockIdx()) * t.per_core;
  end = begin >= t.n ? begin : Min(begin + t.per_core, t.n);
}

// counts[this block] = runs, written by the scalar unit into the UB word r and
// copied out (hand-off S -> MTE3 between the two).
__aicore__ inline void WriteRunCount(GM_ADDR counts, const UniqueTiling& t, const AscendC::LocalTensor<int64_t>& r,
                                     int64_t runs) {
  AscendC::GlobalTensor<int64_t> c;
  c.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(counts), t.blocks);
  r.SetValue(0, runs);
  Handoff<AscendC::HardEvent::S_MTE3>();
  CopyOut(c[AscendC::GetBlockIdx()], r, 1);
}

// The number of runs of the blocks before this one (and of all blocks in
// `all`); block 0 also writes `all` to total[0], through the UB word r and a
// copy (a scalar GM write would need a DCache clean, common/gm_stage.h).
__aicore__ inline uint64_t RunsBefore(GM_ADDR counts, GM_ADDR total, const UniqueTiling& t,
                                      const AscendC::LocalTensor<int64_t>& r, uint64_t& all) {
  AscendC::GlobalTensor<int64_t> c;
  c.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(counts), t.blocks);
  const uint64_t me = AscendC::GetBlockIdx();
  uint64_t before = 0;
  all = 0;
  for (uint64_t b = 0; b < t.blocks; ++b) {
    const uint64_t cb = static_cast<uint64_t>(c.GetValue(b));
    before += b < me ? cb : 0;
    all += cb;
  }
  if (me == 0) {
    AscendC::GlobalTensor<int64_t> tot;
    tot.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(total), 1);
    r.SetValue(0, static_cast<int64_t>(all));
    Handoff<AscendC::HardEvent::S_MTE3>();
    CopyOut(tot, r, 1);
    Handoff<AscendC::HardEvent::MTE3_S>();  // r is the caller's buffer again
  }
  return before;
}

}  // namespace npurt::kernels::sort
