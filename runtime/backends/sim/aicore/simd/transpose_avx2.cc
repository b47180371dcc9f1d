// simd/transpose_avx2.cc: AVX2 register transposes for TransDataTo5HD
// repeats (see simd/transpose_kernels.h). All 16 source blocks are loaded
// into registers before the first store, so a repeat may work in place.
#include "backends/sim/aicore/simd/isa_prologue.h"
#include "backends/sim/aicore/simd/transpose_kernels.h"

#if NPURT_SIMD_X86
#pragma GCC push_options
#pragma GCC target("avx2")

namespace npurt::aicore::vec::simd {
namespace {

inline __m256i load(const uint8_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
inline void store(uint8_t* p, __m256i v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }

}  // namespace

// 16 x 16 uint16: unpack 16-bit, 32-bit, 64-bit pairs inside each 128-bit
// lane (giving columns e and e+8 of rows 0-7 / 8-15), then swap lanes.
void transpose_b16_avx2(uint8_t* const dst[16], const uint8_t* const src[16], uint64_t doff, uint64_t soff) {
  __m256i r[16], t[16], u[16];
  for (int i = 0; i < 16; ++i) r[i] = load(src[i] + soff);
  for (int k = 0; k < 8; ++k) {
    t[2 * k] = _mm256_unpacklo_epi16(r[2 * k], r[2 * k + 1]);
    t[2 * k + 1] = _mm256_unpackhi_epi16(r[2 * k], r[2 * k + 1]);
  }
  for (int g = 0; g < 4; ++g) {  // rows 4g..4g+3: u[4g+m] holds columns 2m, 2m+1 (and +8)
    u[4 * g + 0] = _mm256_unpacklo_epi32(t[4 * g + 0], t[4 * g + 2]);
    u[4 * g + 1] = _mm256_unpackhi_epi32(t[4 * g + 0], t[4 * g + 2]);
    u[4 * g + 2] = _mm256_unpacklo_epi32(t[4 * g + 1], t[4 * g + 3]);
    u[4 * g + 3] = _mm256_unpackhi_epi32(t[4 * g + 1], t[4 * g + 3]);
  }
  for (int m = 0; m < 4; ++m) {
    for (int h = 0; h < 2; ++h) {  // column e = 2m + h
      const int e = 2 * m + h;
      __m256i a = h ? _mm256_unpackhi_epi64(u[m], u[4 + m]) : _mm256_unpacklo_epi64(u[m], u[4 + m]);
      __m256i b = h ? _mm256_unpackhi_epi64(u[8 + m], u[12 + m]) : _mm256_unpacklo_epi64(u[8 + m], u[12 + m]);
      store(dst[e] + doff, _mm256_permute2x128_si256(a, b, 0x20));
      store(dst[e + 8] + doff, _mm256_permute2x128_si256(a, b, 0x31));
    }
  }
}

// 16 x 8 uint32 as two 8 x 8 transposes; column e of rows 0-7 goes to
// dst[2e], of rows 8-15 to dst[2e+1].
void transpose_b32_avx2(uint8_t* const dst[16], const uint8_t* const src[16], uint64_t doff, uint64_t soff) {
  __m256i r[16];
  for (int i = 0; i < 16; ++i) r[i] = load(src[i] + soff);
  for (int h = 0; h < 2; ++h) {
    const __m256i* a = r + 8 * h;
    __m256i t[8], u[8];
    for (int k = 0; k < 4; ++k) {
      t[2 * k] = _mm256_unpacklo_epi32(a[2 * k], a[2 * k + 1]);
      t[2 * k + 1] = _mm256_unpackhi_epi32(a[2 * k], a[2 * k + 1]);
    }
    for (int g = 0; g < 2; ++g) {  // rows 4g..4g+3: u[4g+m] holds column m (and m+4)
      u[4 * g + 0] = _mm256_unpacklo_epi64(t[4 * g + 0], t[4 * g + 2]);
      u[4 * g + 1] = _mm256_unpackhi_epi64(t[4 * g + 0], t[4 * g + 2]);
      u[4 * g + 2] = _mm256_unpacklo_epi64(t[4 * g + 1], t[4 * g + 3]);
      u[4 * g + 3] = _mm256_unpackhi_epi64(t[4 * g + 1], t[4 * g + 3]);
    }
    for (int e = 0; e < 4; ++e) {
      store(dst[2 * e + h] + doff, _mm256_permute2x128_si256(u[e], u[4 + e], 0x20));
      store(dst[2 * (e + 4) + h] + doff, _mm256_permute2x128_si256(u[e], u[4 + e], 0x31));
    }
  }
}

}  // namespace npurt::aicore::vec::simd
#pragma GCC pop_options

namespace npurt::aicore::vec::simd {
bool transpose_avx2_available() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}
}  // namespace npurt::aicore::vec::simd
#else
// Non-x86 hosts: transpose.cc never calls the kernels below because
// transpose_avx2_available() is false there; they exist only to link.
namespace npurt::aicore::vec::simd {
bool transpose_avx2_available() { return false; }
void transpose_b16_avx2(uint8_t* const*, const uint8_t* const*, uint64_t, uint64_t) {}
void transpose_b32_avx2(uint8_t* const*, const uint8_t* const*, uint64_t, uint64_t) {}
}  // namespace npurt::aicore::vec::simd
#endif
