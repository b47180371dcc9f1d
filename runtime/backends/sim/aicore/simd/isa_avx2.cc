// simd/isa_avx2.cc: the vector kernels built for AVX2 + FMA with
// F16C conversions; 8 lanes. Selected at run time only when the CPU has them.
#include "backends/sim/aicore/simd/isa_prologue.h"

#if NPURT_SIMD_X86
#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c,bmi,bmi2")
#pragma GCC optimize("fp-contract=off")  // identical results on every ISA: no implicit fused multiply-add

namespace npurt::aicore::vec::isa_avx2 {
namespace {
using AscendC::CMPMODE;
using AscendC::ReduceOrder;
using AscendC::RoundMode;
constexpr int K = 8;
constexpr const char* kIsaName = "avx2";
#include "backends/sim/aicore/simd/lane_types.inc"

inline VF isa_load_half(const uint16_t* p) {
  return (VF)_mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}
inline void isa_store_half(uint16_t* p, VF v, int rc) {
  __m256 x = (__m256)v;
  __m128i h;
  switch (rc) {
    case 1: h = _mm256_cvtps_ph(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); break;
    case 2: h = _mm256_cvtps_ph(x, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC); break;
    case 3: h = _mm256_cvtps_ph(x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); break;
    default: h = _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); break;
  }
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), h);
}
inline VF isa_round_half(VF v) {
  return (VF)_mm256_cvtph_ps(_mm256_cvtps_ph((__m256)v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}
inline VF isa_sqrt(VF v) { return (VF)_mm256_sqrt_ps((__m256)v); }
// a * b + c rounded once (IEEE fusedMultiplyAdd): explicit, as fp-contract is off (math.inc).
inline VF isa_fma(VF a, VF b, VF c) { return (VF)_mm256_fmadd_ps((__m256)a, (__m256)b, (__m256)c); }
inline uint32_t isa_movemask(VI m) { return static_cast<uint32_t>(_mm256_movemask_ps((__m256)m)); }
inline void isa_lookup16(uint16_t* d, const uint16_t* s, const uint16_t* table) {
  const __m256i idx = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s)));
  __m256i g = _mm256_i32gather_epi32(reinterpret_cast<const int*>(table), idx, 2);
  g = _mm256_and_si256(g, _mm256_set1_epi32(0xffff));  // the entry is the low 16 bits; packus then cannot saturate
  _mm_storeu_si128(reinterpret_cast<__m128i*>(d),
                   _mm_packus_epi32(_mm256_castsi256_si128(g), _mm256_extracti128_si256(g, 1)));
}

#include "backends/sim/aicore/simd/lanes.inc"
#include "backends/sim/aicore/simd/math.inc"
#include "backends/sim/aicore/simd/half_table.inc"
#include "backends/sim/aicore/simd/elementwise.inc"
#include "backends/sim/aicore/simd/cast.inc"
#include "backends/sim/aicore/simd/compare.inc"
#include "backends/sim/aicore/simd/reduce.inc"
#include "backends/sim/aicore/simd/entry.inc"
}  // namespace
}  // namespace npurt::aicore::vec::isa_avx2
#pragma GCC pop_options

namespace npurt::aicore::vec::simd {
const KernelTable* avx2_table() { return &isa_avx2::kTable; }
}  // namespace npurt::aicore::vec::simd
#else
namespace npurt::aicore::vec::simd {
const KernelTable* avx2_table() { return nullptr; }
}  // namespace npurt::aicore::vec::simd
#endif
