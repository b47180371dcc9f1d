// unit_scatter_avx512.cc: the AVX-512 body of unit_scatter.h. One group is
// G = 64 / L units packed into the L-byte lanes of a zmm (L = 4 for 1-4 byte
// units, 8 for 8-byte units); the group covers G * W destination bytes
// (W = dst_stride, a power of two up to 16) and is written with W / L
// byte-masked 64-B stores (a lane permute places unit u at byte u * W of its
// store) or, for W < L, with one narrowing store (vpmovdw / vpmovdb). A mask
// byte is set where (byte % W) < unit: exactly the unit's bytes, never a gap.
#include "backends/sim/aicore/unit_scatter.h"

#include <cstdlib>
#include <cstring>
#include <type_traits>

#if defined(__x86_64__)
#include <immintrin.h>

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512dq")

namespace npurt::sim {
namespace {

// Bytes k of a 64-B store with (k % w) < unit.
uint64_t unit_mask(unsigned unit, unsigned w) {
  uint64_t m = 0;
  for (unsigned k = 0; k < 64; ++k)
    if (k % w < unit) m |= uint64_t{1} << k;
  return m;
}

// The units of 32-B UB blocks (src_stride 32), read with 64-B loads (two
// blocks each) and packed by two-source lane permutes into consecutive lanes:
// 16 units of <= 4 bytes in the low bytes of the 32-bit lanes, or 8 units of
// 8 bytes. A vpgatherdd of the same units cost 92 % of this routine's samples
// (16 Mi float16 x[::2] = y; gathers are slow under the GDS microcode fix).
// Masked permutes with a zero source: the plain intrinsics start from
// _mm512_undefined_*(), which GCC 12 reports as used uninitialised.
inline __m512i load64(const uint8_t* p) { return _mm512_loadu_si512(p); }

inline __m512i units16(const uint8_t* s) {
  // Lane l of pair k (blocks 4k .. 4k+3) comes from dword 0 or 8 of load 2k or 2k+1.
  const __m512i lo = _mm512_setr_epi32(0, 8, 16, 24, 0, 8, 16, 24, 0, 8, 16, 24, 0, 8, 16, 24);
  __m512i v = _mm512_setzero_si512();
  for (int k = 0; k < 4; ++k) {
    const __m512i p = _mm512_permutex2var_epi32(load64(s + 128 * k), lo, load64(s + 128 * k + 64));
    v = _mm512_mask_blend_epi32(static_cast<__mmask16>(0xf << (4 * k)), v, p);
  }
  return v;
}

inline __m512i units8(const uint8_t* s) {
  const __m512i lo = _mm512_setr_epi64(0, 4, 8, 12, 0, 4, 8, 12);
  const __m512i a = _mm512_permutex2var_epi64(load64(s), lo, load64(s + 64));
  const __m512i b = _mm512_permutex2var_epi64(load64(s + 128), lo, load64(s + 192));
  return _mm512_mask_blend_epi64(0xf0, a, b);
}

// W >= L: W / L permuted, masked 64-B stores per group of 64 / L units.
template <unsigned L, unsigned W>
uint32_t scatter_wide(uint8_t* d, const uint8_t* s, uint32_t count, unsigned unit) {
  constexpr unsigned G = 64 / L, S = W / L, per_store = 64 / W, lanes_per_unit = W / L;
  const __mmask64 m = unit_mask(unit, W);
  __m512i perm[S];
  for (unsigned q = 0; q < S; ++q) {
    alignas(64) std::conditional_t<L == 4, uint32_t, uint64_t> lane[G];
    for (unsigned l = 0; l < G; ++l) lane[l] = q * per_store + l / lanes_per_unit;
    perm[q] = _mm512_load_si512(lane);
  }
  uint32_t i = 0;
  for (; i + G < count; i += G, d += G * W, s += G * 32) {  // strict: the loads never reach the last unit's block
    const __m512i v = L == 4 ? units16(s) : units8(s);
    for (unsigned q = 0; q < S; ++q) {
      const __m512i p = S == 1 ? v : L == 4 ? _mm512_maskz_permutexvar_epi32(0xffff, perm[q], v) : _mm512_maskz_permutexvar_epi64(0xff, perm[q], v);
      _mm512_mask_storeu_epi8(d + q * 64, m, p);
    }
  }
  return i;
}

// W < L = 4 (W = 1 or 2): 16 units narrowed to 16-bit or 8-bit lanes.
template <unsigned W>
uint32_t scatter_narrow(uint8_t* d, const uint8_t* s, uint32_t count, unsigned unit) {
  const __mmask32 m = static_cast<__mmask32>(unit_mask(unit, W));
  uint32_t i = 0;
  for (; i + 16 < count; i += 16, d += 16 * W, s += 16 * 32) {
    const __m512i v = units16(s);
    if constexpr (W == 2) _mm256_mask_storeu_epi8(d, m, _mm512_maskz_cvtepi32_epi16(0xffff, v));
    else _mm_mask_storeu_epi8(d, static_cast<__mmask16>(m), _mm512_maskz_cvtepi32_epi8(0xffff, v));
  }
  return i;
}

uint32_t scatter(uint8_t* d, uint64_t ds, const uint8_t* s, uint64_t ss, uint32_t count, unsigned unit) {
  if (ss != 32 || unit > ds || (unit & (unit - 1)) != 0) return 0;  // one 1/2/4/8-B unit per 32-B UB block
  if (unit <= 4) {
    switch (ds) {
      case 1: return scatter_narrow<1>(d, s, count, unit);
      case 2: return scatter_narrow<2>(d, s, count, unit);
      case 4: return scatter_wide<4, 4>(d, s, count, unit);
      case 8: return scatter_wide<4, 8>(d, s, count, unit);
      case 16: return scatter_wide<4, 16>(d, s, count, unit);
      default: return 0;
    }
  }
  if (unit != 8) return 0;
  switch (ds) {
    case 8: return scatter_wide<8, 8>(d, s, count, unit);
    case 16: return scatter_wide<8, 16>(d, s, count, unit);
    default: return 0;
  }
}

UnitScatterFn choose() {
  const char* forced = std::getenv("NPURT_SIM_ISA");
  if (forced && (std::strcmp(forced, "generic") == 0 || std::strcmp(forced, "avx2") == 0)) return nullptr;
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") ||
      !__builtin_cpu_supports("avx512vl") || !__builtin_cpu_supports("avx512dq"))
    return nullptr;
  return &scatter;
}

}  // namespace

UnitScatterFn unit_scatter_kernel() {
  static const UnitScatterFn k = choose();
  return k;
}

}  // namespace npurt::sim

#pragma GCC pop_options

#else

namespace npurt::sim {
UnitScatterFn unit_scatter_kernel() { return nullptr; }
}  // namespace npurt::sim

#endif
