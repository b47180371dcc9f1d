// simd/isa_generic.cc: the portable build of the vector kernels (baseline
// x86-64 SSE2 or any host GCC supports); 4 lanes, half conversions in scalar
// code. Used when the CPU lacks AVX2/F16C, or when NPURT_SIM_ISA=generic.
#include "backends/sim/aicore/simd/isa_prologue.h"

#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")  // identical results on every ISA: no implicit fused multiply-add

namespace npurt::aicore::vec::isa_generic {
namespace {
using AscendC::CMPMODE;
using AscendC::ReduceOrder;
using AscendC::RoundMode;
constexpr int K = 4;
constexpr const char* kIsaName = "generic";
#include "backends/sim/aicore/simd/lane_types.inc"

inline VF isa_load_half(const uint16_t* p) {
  VF v;
  for (int j = 0; j < K; ++j) v[j] = static_cast<float>(bits_half(p[j]));
  return v;
}
void isa_store_half(uint16_t* p, VF v, int rc);  // defined after cast.inc (needs round_narrow)
inline VF isa_round_half(VF v) {
  for (int j = 0; j < K; ++j) v[j] = static_cast<float>(static_cast<half>(v[j]));
  return v;
}
inline VF isa_sqrt(VF v) {
  for (int j = 0; j < K; ++j) v[j] = __builtin_sqrtf(v[j]);
  return v;
}
// a * b + c rounded once (C fmaf, correctly rounded on every host): the same bits as the
// AVX2/AVX-512 vfmadd. Without hardware FMA this is a libm call per lane (math.inc).
inline VF isa_fma(VF a, VF b, VF c) {
  for (int j = 0; j < K; ++j) a[j] = __builtin_fmaf(a[j], b[j], c[j]);
  return a;
}
inline void isa_lookup16(uint16_t* d, const uint16_t* s, const uint16_t* table) {
  for (int j = 0; j < K; ++j) d[j] = table[s[j]];
}
inline uint32_t isa_movemask(VI m) {
  uint32_t bits = 0;
  for (int j = 0; j < K; ++j) bits |= static_cast<uint32_t>(m[j] < 0) << j;
  return bits;
}

#include "backends/sim/aicore/simd/lanes.inc"
#include "backends/sim/aicore/simd/math.inc"
#include "backends/sim/aicore/simd/half_table.inc"
#include "backends/sim/aicore/simd/elementwise.inc"
#include "backends/sim/aicore/simd/cast.inc"
#include "backends/sim/aicore/simd/compare.inc"
#include "backends/sim/aicore/simd/reduce.inc"

void isa_store_half(uint16_t* p, VF v, int rc) {
  static constexpr RoundMode kModes[4] = {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                                          RoundMode::CAST_TRUNC};
  for (int j = 0; j < K; ++j) p[j] = half_bits(round_narrow<half>(static_cast<double>(v[j]), kModes[rc & 3]));
}

#include "backends/sim/aicore/simd/entry.inc"
}  // namespace
}  // namespace npurt::aicore::vec::isa_generic
#pragma GCC pop_options

namespace npurt::aicore::vec::simd {
const KernelTable* generic_table() { return &isa_generic::kTable; }
}  // namespace npurt::aicore::vec::simd
