// lib/matmul/tiling.h: TCubeTiling, the host -> kernel tiling of the
// high-level Matmul API (a documented subset of CANN's field names), and
// GetCubeTiling, a host helper that fills it for one core's share.
//
// Fields the simulated Matmul reads: M, N, Ka, Kb (the original GM shapes:
// A is M x Ka, B is Kb x N, C is M x N, all row major), singleCoreM/N/K (the
// block of C one core computes, default of SetSingleShape), baseM/baseN/baseK
// (one L0 tile: multiples of 16, baseM x baseK and baseK x baseN within
// L0A/L0B, baseM x baseN floats within L0C, and both L1 double buffers within
// L1), isBias, usedCoreNum. The other CANN fields exist for source
// compatibility and are ignored (depthA1/B1 and stepKa/Kb are fixed at 2 and 1:
// L1 is always double-buffered per base tile).
// Invariants checked by Matmul::Init (ErrorParam): 1 <= base dims, multiples
// of 16, baseM/baseN <= 128 (bias table), capacities as above, Ka == Kb.
#pragma once

#include <cstdint>

struct TCubeTiling {
  int32_t usedCoreNum = 1;
  int32_t M = 0, N = 0, Ka = 0, Kb = 0;
  int32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
  int32_t baseM = 0, baseN = 0, baseK = 0;
  int32_t depthA1 = 2, depthB1 = 2, stepM = 1, stepN = 1, stepKa = 1, stepKb = 1;
  int32_t isBias = 0;
  int32_t transLength = 0, iterateOrder = 0, shareMode = 0;
  int32_t shareL1Size = 0, shareL0CSize = 0, shareUbSize = 0;
  int32_t batchM = 1, batchN = 1, singleBatchM = 1, singleBatchN = 1;
  int32_t dbL0A = 1, dbL0B = 1, dbL0C = 1;
};

namespace matmul_tiling {

struct CoreCaps {
  uint32_t cores;                  // cube cores to spread C over
  uint64_t l1, l0a, l0b, l0c;      // bytes (npurt::ChipProfile has them)
};

// Splits C (M x N, K deep, elemBytes per input element) into one block per
// core along M then N and picks base tiles of at most 128 x 128 x 256 that fit.
// Returns false when no tile fits.
inline bool GetCubeTiling(TCubeTiling& t, int32_t M, int32_t N, int32_t K, uint32_t elemBytes, bool bias,
                          const CoreCaps& caps) {
  auto r16 = [](int64_t x) { return static_cast<int32_t>((x + 15) / 16 * 16); };
  auto cdiv = [](int64_t a, int64_t b) { return static_cast<int32_t>((a + b - 1) / b); };
  t = TCubeTiling{};
  t.M = M;
  t.N = N;
  t.Ka = t.Kb = t.singleCoreK = K;
  t.isBias = bias ? 1 : 0;
  const int32_t coresM = M >= N ? static_cast<int32_t>(caps.cores) : 1;
  const int32_t coresN = M >= N ? 1 : static_cast<int32_t>(caps.cores);
  auto clamp = [](int32_t v, int32_t hi) { return v < hi ? v : hi; };
  t.singleCoreM = clamp(r16(cdiv(M, coresM)), M);  // core blocks start at multiples of 16 rows
  t.singleCoreN = clamp(r16(cdiv(N, coresN)), N);
  t.usedCoreNum = cdiv(M, t.singleCoreM) * cdiv(N, t.singleCoreN);
  t.baseM = clamp(r16(t.singleCoreM), 128);
  t.baseN = clamp(r16(t.singleCoreN), 128);
  const uint64_t l0 = (caps.l0a / t.baseM < caps.l0b / t.baseN ? caps.l0a / t.baseM : caps.l0b / t.baseN) / elemBytes;
  int64_t k = l0 / 16 * 16;
  if (k > 256) k = 256;
  if (k > r16(K)) k = r16(K);
  t.baseK = static_cast<int32_t>(k);
  const uint64_t l1 = 2ull * (t.baseM + t.baseN) * t.baseK * elemBytes + (bias ? t.baseN * 4ull : 0);
  return t.baseK >= 16 && uint64_t(t.baseM) * t.baseN * 4 <= caps.l0c && l1 <= caps.l1;
}

}  // namespace matmul_tiling
