// brcb_blocks.cc: aicore/vec_brcb_raw.h, Brcb's block fills with 32-byte
// broadcast stores (AVX2 vpbroadcastw / vpbroadcastd) or the portable loop.
// The choice is made once from the CPU and NPURT_SIM_ISA (generic: portable).
#include "aicore/vec_brcb_raw.h"

#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace npurt::aicore::vec {
namespace {

using BrcbFn = void (*)(uint8_t*, const uint8_t*, uint32_t, uint64_t, unsigned);

void brcb_plain(uint8_t* d, const uint8_t* s, uint32_t repeats, uint64_t rep_bytes, unsigned elem) {
  for (uint32_t r = 0; r < repeats; ++r, d += rep_bytes)
    for (unsigned j = 0; j < 8; ++j, s += elem)
      for (unsigned e = 0; e < 32; e += elem) std::memcpy(d + j * 32 + e, s, elem);
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) void brcb_avx2(uint8_t* d, const uint8_t* s, uint32_t repeats, uint64_t rep_bytes,
                                               unsigned elem) {
  for (uint32_t r = 0; r < repeats; ++r, d += rep_bytes) {
    if (elem == 2) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16 * r));
      const __m128i hi = _mm_srli_si128(v, 8);
      __m256i b[8] = {_mm256_broadcastw_epi16(v),                     _mm256_broadcastw_epi16(_mm_srli_si128(v, 2)),
                      _mm256_broadcastw_epi16(_mm_srli_si128(v, 4)),  _mm256_broadcastw_epi16(_mm_srli_si128(v, 6)),
                      _mm256_broadcastw_epi16(hi),                    _mm256_broadcastw_epi16(_mm_srli_si128(hi, 2)),
                      _mm256_broadcastw_epi16(_mm_srli_si128(hi, 4)), _mm256_broadcastw_epi16(_mm_srli_si128(hi, 6))};
      for (int j = 0; j < 8; ++j) _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + 32 * j), b[j]);
    } else {
      const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + 32 * r));
      for (int j = 0; j < 8; ++j)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + 32 * j),
                            _mm256_permutevar8x32_epi32(v, _mm256_set1_epi32(j)));
    }
  }
}
#endif

BrcbFn choose() {
#if defined(__x86_64__)
  const char* forced = std::getenv("NPURT_SIM_ISA");
  __builtin_cpu_init();
  if ((forced == nullptr || std::strcmp(forced, "generic") != 0) && __builtin_cpu_supports("avx2")) return brcb_avx2;
#endif
  return brcb_plain;
}

}  // namespace

void brcb_adjacent_blocks(void* dst, const void* src, uint32_t repeats, uint64_t rep_bytes, unsigned elem_bytes) {
  static const BrcbFn fn = choose();
  fn(static_cast<uint8_t*>(dst), static_cast<const uint8_t*>(src), repeats, rep_bytes, elem_bytes);
}

}  // namespace npurt::aicore::vec
