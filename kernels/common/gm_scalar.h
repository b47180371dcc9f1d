// kernels/common/gm_scalar.h: making a block's scalar GM writes visible.
//
// GlobalTensor::SetValue / operator() write GM through the core's data cache
// (64 B lines, ascend-facts §2.4): the host and other cores see the bytes only
// after DataCacheCleanAndInvalid, and lines written back carry all 64 B, so the
// GM outputs two blocks write by scalar writes must be >= 64 B apart (the sim
// checks both, aicore/dcache.h). Kernels that write GM by SetValue call
// WriteBackScalarGm once at block end, and split their outputs over blocks in
// units of kScalarSplitAlign items when an item's output is 4 B (16 items:
// 64 B), so block ranges start on a line.
#pragma once

#include <cstdint>

#include "kernel_operator.h"

namespace npurt::kernels {

// Items per block-split unit that put every block's output of >= 4 B per item
// on its own 64 B lines (given 64 B aligned output buffers).
constexpr uint64_t kScalarSplitAlign = 16;

// Writes back (and invalidates) the whole data cache: every line this block
// scalar-wrote. `any_gm` is any GM buffer of the launch.
__aicore__ inline void WriteBackScalarGm(GM_ADDR any_gm) {
  AscendC::GlobalTensor<uint8_t> t;
  t.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(any_gm));
  AscendC::DataCacheCleanAndInvalid<uint8_t, AscendC::CacheLine::ENTIRE_DATA_CACHE>(t);
}

}  // namespace npurt::kernels
