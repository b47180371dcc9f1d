// simd/transpose_kernels.h: the AVX2 repeat kernels of TransDataTo5HD
// (transpose_avx2.cc), called by simd/transpose.cc only when the host CPU
// has AVX2 and the AVX2 or AVX-512 ISA is active. One call = one repeat:
// the 16 source blocks at src[i] + soff, the 16 destination blocks at
// dst[j] + doff (byte offsets), semantics as in aicore/vec_transpose_raw.h.
#pragma once

#include <cstdint>

namespace npurt::aicore::vec::simd {

bool transpose_avx2_available();
void transpose_b16_avx2(uint8_t* const dst[16], const uint8_t* const src[16], uint64_t doff, uint64_t soff);
void transpose_b32_avx2(uint8_t* const dst[16], const uint8_t* const src[16], uint64_t doff, uint64_t soff);

}  // namespace npurt::aicore::vec::simd
