// aicore/position.h: logical buffer positions (TPosition) and the physical
// memories (pools) behind them.
//
// Invariants: every local position maps to exactly one pool; GM and CO2 (which
// is GM on A2) map to kNone and cannot hold InitBuffer'd buffers. Alignment per
// pool follows ascend-facts §1.2 (UB/L1 32 B, L0A/L0B 512 B, L0C/BT 64 B).
#pragma once

#include <cstdint>

#include "npurt/export.h"

namespace AscendC {

enum class TPosition : uint8_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM = SPM,
  TSCM,
  C2PIPE2GM,
  MAX,
};
using QuePosition = TPosition;

}  // namespace AscendC

namespace npurt::sim {

enum class Pool : uint8_t { kUB, kL1, kL0A, kL0B, kL0C, kBT, kNone };
constexpr int kNumPools = 6;

constexpr Pool pool_of(AscendC::TPosition p) {
  using AscendC::TPosition;
  switch (p) {
    case TPosition::VECIN:
    case TPosition::VECOUT:
    case TPosition::VECCALC:
      return Pool::kUB;
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1:
    case TPosition::TSCM:
      return Pool::kL1;
    case TPosition::A2:
      return Pool::kL0A;
    case TPosition::B2:
      return Pool::kL0B;
    case TPosition::CO1:
      return Pool::kL0C;
    case TPosition::C2:
      return Pool::kBT;
    default:
      return Pool::kNone;
  }
}

constexpr uint32_t pool_alignment(Pool p) {
  switch (p) {
    case Pool::kL0A:
    case Pool::kL0B:
      return 512;
    case Pool::kL0C:
    case Pool::kBT:
      return 64;
    default:
      return 32;
  }
}

NPURT_PUBLIC_BEGIN
const char* pool_name(Pool p);
const char* position_name(AscendC::TPosition p);
NPURT_PUBLIC_END

}  // namespace npurt::sim
