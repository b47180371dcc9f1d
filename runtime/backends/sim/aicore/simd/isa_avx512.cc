// simd/isa_avx512.cc: the vector kernels built for AVX-512 (F, BW, VL, DQ) with
// F16C conversions; 16 lanes. Selected at run time only when the CPU has them.
#include "backends/sim/aicore/simd/isa_prologue.h"

#if NPURT_SIMD_X86
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,f16c,bmi,bmi2")
#pragma GCC optimize("fp-contract=off")  // identical results on every ISA: no implicit fused multiply-add

namespace npurt::aicore::vec::isa_avx512 {
namespace {
using AscendC::CMPMODE;
using AscendC::ReduceOrder;
using AscendC::RoundMode;
constexpr int K = 16;
constexpr const char* kIsaName = "avx512";
#include "backends/sim/aicore/simd/lane_types.inc"

inline VF isa_load_half(const uint16_t* p) {
  // maskz forms: GCC 12 warns about the undefined pass-through of the plain ones.
  return (VF)_mm512_maskz_cvtph_ps(0xffff, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}
inline void isa_store_half(uint16_t* p, VF v, int rc) {
  __m512 x = (__m512)v;
  __m256i h;
  switch (rc) {
    case 1: h = _mm512_maskz_cvtps_ph(0xffff, x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); break;
    case 2: h = _mm512_maskz_cvtps_ph(0xffff, x, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC); break;
    case 3: h = _mm512_maskz_cvtps_ph(0xffff, x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); break;
    default: h = _mm512_maskz_cvtps_ph(0xffff, x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); break;
  }
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), h);
}
inline VF isa_round_half(VF v) {
  return (VF)_mm512_maskz_cvtph_ps(0xffff, _mm512_maskz_cvtps_ph(0xffff, (__m512)v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}
inline VF isa_sqrt(VF v) { return (VF)_mm512_maskz_sqrt_ps(0xffff, (__m512)v); }
// a * b + c rounded once (IEEE fusedMultiplyAdd): explicit, as fp-contract is off (math.inc).
inline VF isa_fma(VF a, VF b, VF c) { return (VF)_mm512_fmadd_ps((__m512)a, (__m512)b, (__m512)c); }
// x * 2^n (n integer-valued), one rounding to nearest even: vexp's final scaling (math.inc).
#define NPURT_ISA_SCALEF 1
inline VF isa_scalef(VF x, VF n) {
  return (VF)_mm512_maskz_scalef_round_ps(0xffff, (__m512)x, (__m512)n, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
inline uint32_t isa_movemask(VI m) { return _mm512_movepi32_mask((__m512i)m); }
// float -> bfloat16 bits by VCVTNEPS2BF16 (AVX512_BF16; cast.inc uses it only
// when isa_has_bf16_cvt()). The instruction rounds to nearest even and quietens
// NaN exactly as bf16_narrow does, but flushes float subnormals to +-0: a
// vector holding one is not stored (false; the caller uses bf16_narrow).
// Inline asm, not the intrinsic: this file's target has no avx512bf16, and
// the CPU may lack it.
#define NPURT_ISA_BF16_CVT 1
inline bool isa_has_bf16_cvt() {
  static const bool ok = __builtin_cpu_supports("avx512bf16");
  return ok;
}
inline bool isa_try_store_bf16(uint16_t* p, VF v) {
  if (_mm512_fpclass_ps_mask((__m512)v, 0x20) != 0) return false;  // 0x20: denormal
  __m256i h;
  asm("vcvtneps2bf16 %1, %0" : "=v"(h) : "v"((__m512)v));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), h);
  return true;
}
inline void isa_lookup16(uint16_t* d, const uint16_t* s, const uint16_t* table) {
  const __m512i idx = _mm512_maskz_cvtepu16_epi32(0xffff, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s)));
  // The entry is the low 16 bits. Mask forms: GCC 12 warns about the plain ones' undefined pass-through.
  const __m512i g = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), 0xffff, idx, table, 2);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(d), _mm512_maskz_cvtepi32_epi16(0xffff, g));
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
}  // namespace npurt::aicore::vec::isa_avx512
#pragma GCC pop_options

namespace npurt::aicore::vec::simd {
const KernelTable* avx512_table() { return &isa_avx512::kTable; }
}  // namespace npurt::aicore::vec::simd
#else
namespace npurt::aicore::vec::simd {
const KernelTable* avx512_table() { return nullptr; }
}  // namespace npurt::aicore::vec::simd
#endif
