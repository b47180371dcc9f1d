// simd/transpose.cc: the raw TransDataTo5HD layer (aicore/vec_transpose_raw.h):
// the portable implementation and the choice of ISA. The AVX2 kernels for
// 2- and 4-byte elements live in transpose_avx2.cc; 1-byte elements use the
// portable code on every ISA (a byte shuffle is not worth a second copy).
// Invariant: every path copies the 16 source blocks of a repeat into a
// scratch (or registers) before writing any destination block.
#include <cstring>

#include "aicore/vec_raw.h"
#include "aicore/vec_transpose_raw.h"
#include "backends/sim/aicore/simd/transpose_kernels.h"

namespace npurt::aicore::vec {
namespace {

template <class E, int Rows, int Cols>
void load_blocks(E (&m)[Rows][Cols], const uint8_t* const src[16], uint64_t off, uint32_t skip) {
  for (int i = 0; i < Rows; ++i) std::memcpy(m[i], src[i] + off + skip, sizeof m[i]);
}

// One repeat, 2-byte elements: dst[j][i] = src[i][j].
void repeat_b16(uint8_t* const dst[16], const uint8_t* const src[16], uint64_t doff, uint64_t soff) {
  uint16_t m[16][16], t[16];
  load_blocks(m, src, soff, 0);
  for (int j = 0; j < 16; ++j) {
    for (int i = 0; i < 16; ++i) t[i] = m[i][j];
    std::memcpy(dst[j] + doff, t, sizeof t);
  }
}

// One repeat, 4-byte elements: dst[2j][i] = src[i][j], dst[2j+1][i] = src[8+i][j].
void repeat_b32(uint8_t* const dst[16], const uint8_t* const src[16], uint64_t doff, uint64_t soff) {
  uint32_t m[16][8], t[8];
  load_blocks(m, src, soff, 0);
  for (int j = 0; j < 8; ++j) {
    for (int h = 0; h < 2; ++h) {
      for (int i = 0; i < 8; ++i) t[i] = m[8 * h + i][j];
      std::memcpy(dst[2 * j + h] + doff, t, sizeof t);
    }
  }
}

// One repeat, 1-byte elements: 16 x 16 bytes from one half of each source
// block into one half of each destination block.
void repeat_b8(uint8_t* const dst[16], const uint8_t* const src[16], uint64_t doff, uint64_t soff, bool dst_high,
               bool src_high) {
  uint8_t m[16][16], t[16];
  load_blocks(m, src, soff, src_high ? 16 : 0);
  for (int j = 0; j < 16; ++j) {
    for (int i = 0; i < 16; ++i) t[i] = m[i][j];
    std::memcpy(dst[j] + doff + (dst_high ? 16 : 0), t, sizeof t);
  }
}

}  // namespace

void trans_5hd(uint32_t elem_bytes, uint8_t* const dst[16], const uint8_t* const src[16], uint32_t repeat,
               uint32_t dst_rep_stride, uint32_t src_rep_stride, bool dst_high, bool src_high) {
  const bool simd = active_isa()[0] == 'a' && simd::transpose_avx2_available();  // "avx512" / "avx2"
  for (uint32_t r = 0; r < repeat; ++r) {
    const uint64_t doff = uint64_t{r} * dst_rep_stride * 32, soff = uint64_t{r} * src_rep_stride * 32;
    if (elem_bytes == 1) repeat_b8(dst, src, doff, soff, dst_high, src_high);
    else if (simd && elem_bytes == 2) simd::transpose_b16_avx2(dst, src, doff, soff);
    else if (simd) simd::transpose_b32_avx2(dst, src, doff, soff);
    else if (elem_bytes == 2) repeat_b16(dst, src, doff, soff);
    else repeat_b32(dst, src, doff, soff);
  }
}

}  // namespace npurt::aicore::vec
