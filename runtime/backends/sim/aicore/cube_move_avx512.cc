// cube_move_avx512.cc: the AVX-512 bodies of the cube's data moves (see
// cube_move_simd.h). Transposes are done with 32-bit gathers from a private
// copy of the source (so a destination overlapping the source behaves like
// the scalar copy-then-write form), casts and ReLU with masked vector stores.
// Only data movement and the documented casts: bit-identical to the scalar
// loops of cube_move.cc / cube_gemm_amx.cc.
#include "backends/sim/aicore/cube_move_simd.h"

#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl")

namespace npurt::sim::cube {
namespace {

// Masked forms with an all-ones mask and a zero source throughout: the plain
// intrinsics start from _mm512_undefined_*(), which GCC 12 reports as used
// uninitialised under -Wall.
constexpr __mmask16 kAll = 0xffff;

// Lane r of the result: element r * stride (32-bit) of src.
inline __m512i lanes_times(int stride) {
  return _mm512_mullo_epi32(_mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                            _mm512_set1_epi32(stride));
}

void transpose_b16(uint16_t* dst, const uint16_t* src) {
  alignas(64) uint32_t pairs[128];  // row r of 16 halves = 8 pairs
  std::memcpy(pairs, src, sizeof pairs);
  const __m512i idx = lanes_times(8);
  // 16-bit lanes: the low halves of the 16 pairs, then the high halves.
  const __m512i split = _mm512_set_epi16(31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1, 30, 28,
                                         26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
  for (int p = 0; p < 8; ++p) {
    // Lane r = (src[r][2p], src[r][2p + 1]): columns 2p and 2p + 1 = output rows 2p, 2p + 1.
    __m512i g = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), kAll, idx, pairs + p, 4);
    _mm512_storeu_si512(dst + p * 32, _mm512_permutexvar_epi16(split, g));
  }
}

void transpose_sq_b32(uint32_t* lo, uint32_t* hi, const uint32_t* sq) {
  alignas(64) uint32_t s[256];
  std::memcpy(s, sq, sizeof s);
  // Lanes 0..7: rows 0..7 of column c; lanes 8..15: rows 0..7 of column c + 1.
  const __m512i base = _mm512_set_epi32(113, 97, 81, 65, 49, 33, 17, 1, 112, 96, 80, 64, 48, 32, 16, 0);
  for (int p = 0; p < 8; ++p) {  // T rows 2p, 2p + 1 = square columns 2p, 2p + 1
    _mm512_storeu_si512(lo + p * 16, _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), kAll, base, s + 2 * p, 4));
    _mm512_storeu_si512(hi + p * 16, _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), kAll, base, s + 128 + 2 * p, 4));
  }
}

void vnni_b_fractal(uint32_t* dst, const uint32_t* src) {
  const __m512i idx = lanes_times(8);
  for (int t = 0; t < 8; ++t) _mm512_storeu_si512(dst + t * 16, _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), kAll, idx, src + t, 4));
}

inline __m512 load_relu(const float* s, bool relu) {
  __m512 v = _mm512_loadu_ps(s);
  if (relu) v = _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_LT_OQ), _mm512_setzero_ps());
  return v;
}

inline __mmask16 col_mask(uint32_t cols) { return static_cast<__mmask16>((1u << cols) - 1u); }

void fix_f32(uint8_t* dst, uint64_t pitch, const float* src, uint32_t rows, uint32_t cols, bool relu) {
  const __mmask16 m = col_mask(cols);
  for (uint32_t r = 0; r < rows; ++r)
    _mm512_mask_storeu_ps(dst + r * pitch, m, load_relu(src + uint64_t{r} * 16, relu));
}

void fix_f16(uint8_t* dst, uint64_t pitch, const float* src, uint32_t rows, uint32_t cols, bool relu) {
  const __mmask16 m = col_mask(cols);
  for (uint32_t r = 0; r < rows; ++r) {
    __m256i h = _mm512_maskz_cvtps_ph(kAll, load_relu(src + uint64_t{r} * 16, relu), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm256_mask_storeu_epi16(dst + r * pitch, m, h);
  }
}

// float_to_bf16_bits on 16 lanes: NaN -> top half with the quiet bit, else round to nearest even.
inline __m256i to_bf16(__m512 v) {
  const __m512i u = _mm512_castps_si512(v);
  const __mmask16 nan = _mm512_cmpgt_epu32_mask(_mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff)),
                                                _mm512_set1_epi32(0x7f800000));
  const __m512i lsb = _mm512_and_si512(_mm512_maskz_srli_epi32(kAll, u, 16), _mm512_set1_epi32(1));
  __m512i r = _mm512_maskz_srli_epi32(kAll, _mm512_add_epi32(u, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7fff))), 16);
  r = _mm512_mask_mov_epi32(r, nan, _mm512_or_si512(_mm512_maskz_srli_epi32(kAll, u, 16), _mm512_set1_epi32(0x40)));
  return _mm512_maskz_cvtepi32_epi16(kAll, r);
}

void fix_bf16(uint8_t* dst, uint64_t pitch, const float* src, uint32_t rows, uint32_t cols, bool relu) {
  const __mmask16 m = col_mask(cols);
  for (uint32_t r = 0; r < rows; ++r)
    _mm256_mask_storeu_epi16(dst + r * pitch, m, to_bf16(load_relu(src + uint64_t{r} * 16, relu)));
}

void nd2nz_blocks(uint8_t* dst, uint64_t dst_block, uint64_t dst_row, const uint8_t* src, uint64_t pitch,
                  uint32_t rows, uint32_t blocks) {
  if (dst_block == 32) {  // a row's blocks are contiguous in L1: one run per row
    for (uint32_t r = 0; r < rows; ++r) {
      const uint8_t* s = src + r * pitch;
      uint8_t* d = dst + r * dst_row;
      uint32_t j = 0;
      for (; j + 2 <= blocks; j += 2) _mm512_storeu_si512(d + j * 32, _mm512_loadu_si512(s + j * 32));
      if (j < blocks) _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + j * 32),
                                          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + j * 32)));
    }
    return;
  }
  for (uint32_t j = 0; j < blocks; ++j) {  // block by block: each block's rows are one run in L1
    const uint8_t* s = src + j * 32;
    uint8_t* d = dst + j * dst_block;
    for (uint32_t r = 0; r < rows; ++r)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + r * dst_row),
                          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + r * pitch)));
  }
}

const MoveKernels* choose() {
  const char* forced = std::getenv("NPURT_SIM_ISA");
  if (forced && (std::strcmp(forced, "generic") == 0 || std::strcmp(forced, "avx2") == 0)) return nullptr;
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") ||
      !__builtin_cpu_supports("avx512vl"))
    return nullptr;
  static const MoveKernels k{&transpose_b16, &transpose_sq_b32, &fix_f32, &fix_f16, &fix_bf16, &vnni_b_fractal,
                                &nd2nz_blocks};
  return &k;
}

}  // namespace

const MoveKernels* move_kernels() {
  static const MoveKernels* k = choose();
  return k;
}

}  // namespace npurt::sim::cube

#pragma GCC pop_options

#else

namespace npurt::sim::cube {
const MoveKernels* move_kernels() { return nullptr; }
}  // namespace npurt::sim::cube

#endif
