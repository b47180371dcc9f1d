// aicore/vec_brcb_raw.h: the raw body of AscendC::Brcb (aicore/vec_brcb.h)
// for its common form, dstBlkStride 1 (a repeat's 8 blocks adjacent), in
// libnpurt so the block fills use the host's vector stores (one 32-byte
// broadcast store per block with AVX2) instead of the kernel library's
// baseline-x86-64 loop (SSE2 unpacks and two 16-byte stores per block:
// 24 % of the samples of a 16 Mi float16 x[::2] = y, whose copy spreads every
// unit with Brcb). Checks stay in vec_brcb.h; this only moves bytes.
// Invariant: the same bytes as the scalar loop, written in the same order
// (repeat by repeat, block by block), so overlapping repeats (dstRepStride < 8)
// end as on the vector unit; NPURT_SIM_ISA=generic runs the scalar loop.
#pragma once

#include <cstdint>

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt::aicore::vec {

// For r < repeats and j < 8: the 32-byte block at dst + r * rep_bytes + j * 32
// becomes 32 / elem_bytes copies of source element 8 r + j (elem_bytes 2 or 4).
void brcb_adjacent_blocks(void* dst, const void* src, uint32_t repeats, uint64_t rep_bytes, unsigned elem_bytes);

}  // namespace npurt::aicore::vec
NPURT_PUBLIC_END
