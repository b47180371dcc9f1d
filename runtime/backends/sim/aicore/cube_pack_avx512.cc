// cube_pack_avx512.cc: packing of Mmad operands with AVX-512 into the layouts
// of cube_gemm.h's float path: fp16 -> float (VCVTPH2PS) for A and B, and the
// float B panels (gathers). Conversion is exact and packing only moves data,
// so results equal the scalar packers' bit for bit. Masked intrinsic forms
// with a zero source throughout: the plain ones start from
// _mm512_undefined_*(), which GCC 12 reports as used uninitialised.
#include "backends/sim/aicore/cube_gemm.h"
#include "backends/sim/aicore/cube_move_simd.h"

#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>

#pragma GCC push_options
#pragma GCC target("avx512f")

namespace npurt::sim::cube {
namespace {

// Zz: fractal (mb, kb) of 16 rows x 16 halves -> row-major [m16][k], zero rows >= m.
void pack_a(float* ap, const uint16_t* a, uint32_t m, uint32_t m16, uint32_t k) {
  const uint32_t kb = (k + 15) / 16;
  for (uint32_t i = 0; i < m16; ++i) {
    float* row = ap + uint64_t{i} * k;
    if (i >= m) {
      std::memset(row, 0, uint64_t{k} * sizeof(float));
      continue;
    }
    const uint16_t* base = a + uint64_t{i / 16} * kb * 256 + (i % 16) * 16;
    for (uint32_t f = 0; f < kb; ++f) {
      const uint32_t cols = k - f * 16 < 16 ? k - f * 16 : 16;
      const __mmask16 mask = static_cast<__mmask16>((1u << cols) - 1);
      __m512 v = _mm512_maskz_cvtph_ps(0xffff, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(base + uint64_t{f} * 256)));
      _mm512_mask_storeu_ps(row + f * 16, mask, v);
    }
  }
}

// Zn: fractal (kb, nb) holds 16 n-rows of 16 k -> panels [nb][k][16], zero columns >= n.
void pack_b(float* bp, const uint16_t* b, uint32_t n, uint32_t, uint32_t k) {
  const uint32_t nb = (n + 15) / 16, kb = (k + 15) / 16;
  const MoveKernels* fast = move_kernels();
  alignas(64) float tmp[16][16];
  for (uint32_t j = 0; j < nb; ++j)
    for (uint32_t f = 0; f < kb; ++f) {
      const uint16_t* frac = b + (uint64_t{f} * nb + j) * 256;
      const uint32_t qmax = n - j * 16 < 16 ? n - j * 16 : 16;
      for (uint32_t q = 0; q < 16; ++q)
        _mm512_store_ps(tmp[q], q < qmax ? _mm512_maskz_cvtph_ps(0xffff, _mm256_loadu_si256(
                                               reinterpret_cast<const __m256i*>(frac + q * 16)))
                                         : _mm512_setzero_ps());
      const uint32_t kmax = k - f * 16 < 16 ? k - f * 16 : 16;
      float* dst = bp + (uint64_t{j} * k + f * 16) * 16;
      if (fast && kmax == 16) {  // a whole k block: one 16x16 transpose (a permutation network)
        fast->transpose_16x16_b32(reinterpret_cast<uint32_t*>(dst), reinterpret_cast<const uint32_t*>(&tmp[0][0]));
        continue;
      }
      for (uint32_t t = 0; t < kmax; ++t) {
        // Column t of tmp (one k, 16 n) is row t of the panel: gather with a stride of 16 floats.
        const __m512i idx = _mm512_set_epi32(240, 224, 208, 192, 176, 160, 144, 128, 112, 96, 80, 64, 48,
                                             32, 16, 0);
        _mm512_storeu_ps(dst + t * 16, _mm512_mask_i32gather_ps(_mm512_setzero_ps(), 0xffff, idx, &tmp[0][t], 4));
      }
    }
}

// float Zn: fractal (kb, nb) holds 16 n-rows of 8 k -> panels [nb][k][16]; row t of a
// panel is column t of the fractal. A whole fractal is the 16 x 8 transpose
// of 4-byte values the AMX VNNI packing does (a permutation network); partial
// ones take one masked gather with a stride of 8 floats per row.
void pack_b_f32(float* bp, const float* b, uint32_t n, uint32_t k) {
  const uint32_t nb = (n + 15) / 16, kb = (k + 7) / 8;
  const MoveKernels* fast = move_kernels();
  const __m512i idx = _mm512_set_epi32(120, 112, 104, 96, 88, 80, 72, 64, 56, 48, 40, 32, 24, 16, 8, 0);
  for (uint32_t j = 0; j < nb; ++j) {
    const uint32_t qmax = n - j * 16 < 16 ? n - j * 16 : 16;
    const __mmask16 mask = static_cast<__mmask16>((1u << qmax) - 1);
    for (uint32_t f = 0; f < kb; ++f) {
      const float* frac = b + (uint64_t{f} * nb + j) * 128;
      float* dst = bp + (uint64_t{j} * k + f * 8) * 16;
      const uint32_t kmax = k - f * 8 < 8 ? k - f * 8 : 8;
      if (fast && kmax == 8 && qmax == 16) {
        fast->vnni_b_fractal(reinterpret_cast<uint32_t*>(dst), reinterpret_cast<const uint32_t*>(frac));
        continue;
      }
      for (uint32_t t = 0; t < kmax; ++t)  // columns >= n are zero (masked gather)
        _mm512_storeu_ps(dst + t * 16, _mm512_mask_i32gather_ps(_mm512_setzero_ps(), mask, idx, frac + t, 4));
    }
  }
}

bool cpu_ok() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f");
}

}  // namespace

PackF16Fn pack_a_f16_avx512() { return cpu_ok() ? &pack_a : nullptr; }
PackBF32Fn pack_b_f32_avx512() { return cpu_ok() ? &pack_b_f32 : nullptr; }
PackF16Fn pack_b_f16_avx512() { return cpu_ok() ? &pack_b : nullptr; }

}  // namespace npurt::sim::cube

#pragma GCC pop_options

#else

namespace npurt::sim::cube {
PackF16Fn pack_a_f16_avx512() { return nullptr; }
PackBF32Fn pack_b_f32_avx512() { return nullptr; }
PackF16Fn pack_b_f16_avx512() { return nullptr; }
}  // namespace npurt::sim::cube

#endif
