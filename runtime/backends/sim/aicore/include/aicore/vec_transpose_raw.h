// aicore/vec_transpose_raw.h: the raw layer under the AscendC data-layout
// vector APIs (TransDataTo5HD, Transpose; aicore/vec_transpose.h): functions
// over host addresses of 32-byte blocks, one implementation per ISA
// (simd/transpose_*.cc), chosen like the rest of the raw layer (active_isa(),
// force_isa(), NPURT_SIM_ISA).
//
// Invariants:
//   - Every ISA produces identical bytes (pure data movement, no arithmetic).
//   - Within one repeat, all 16 source blocks are read before any destination
//     block is written, so a repeat may transpose in place.
//   - Repeats run in order 0..repeat-1; arguments are validated one layer up.
#pragma once

#include <cstdint>

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt::aicore::vec {

// One TransDataTo5HD instruction. elem_bytes is 1, 2 or 4. In repeat r the
// source block i starts at src[i] + r * src_rep_stride * 32 bytes and the
// destination block j at dst[j] + r * dst_rep_stride * 32 bytes. Per repeat:
//   2 bytes: dst[j][i] = src[i][j]                     (i, j < 16)
//   4 bytes: dst[2j][i] = src[i][j], dst[2j+1][i] = src[8+i][j]   (i, j < 8)
//   1 byte:  dst[j][dh + i] = src[i][sh + j]           (i, j < 16), where
//            sh = 16 if src_high else 0, dh = 16 if dst_high else 0; the other
//            half of each destination block is left untouched.
void trans_5hd(uint32_t elem_bytes, uint8_t* const dst[16], const uint8_t* const src[16], uint32_t repeat,
               uint32_t dst_rep_stride, uint32_t src_rep_stride, bool dst_high, bool src_high);

}  // namespace npurt::aicore::vec
NPURT_PUBLIC_END
