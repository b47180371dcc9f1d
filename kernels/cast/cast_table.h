// kernels/cast/cast_table.h: the dtype conversions the cast op offers, each one
// vector-unit Cast with the rounding numpy's astype uses (floats round to
// nearest even, float -> int truncates toward zero). One table serves the
// kernel (which instantiates it) and the host (which checks requests against it).
#pragma once

#include <cstdint>

#include "npurt/dtype.h"

namespace npurt::kernels {

// RoundMode values as in kernel_operator.h (CAST_NONE=0, RINT, FLOOR, CEIL, ROUND, TRUNC, ODD).
enum class CastRound : uint8_t { kNone = 0, kRint = 1, kTrunc = 5 };

struct CastRow {
  DType dst;
  DType src;
  CastRound mode;
};

inline constexpr CastRow kCastRows[] = {
    {DType::kFloat32, DType::kFloat16, CastRound::kNone},
    {DType::kFloat16, DType::kFloat32, CastRound::kRint},
    {DType::kFloat32, DType::kBFloat16, CastRound::kNone},
    {DType::kBFloat16, DType::kFloat32, CastRound::kRint},
    {DType::kInt32, DType::kFloat32, CastRound::kTrunc},
    {DType::kInt16, DType::kFloat32, CastRound::kTrunc},
    {DType::kInt64, DType::kFloat32, CastRound::kTrunc},
    {DType::kFloat32, DType::kInt32, CastRound::kNone},
    {DType::kFloat32, DType::kInt16, CastRound::kNone},
    {DType::kInt32, DType::kFloat16, CastRound::kTrunc},
    {DType::kInt16, DType::kFloat16, CastRound::kTrunc},
    {DType::kInt8, DType::kFloat16, CastRound::kTrunc},
    {DType::kUInt8, DType::kFloat16, CastRound::kTrunc},
    {DType::kFloat16, DType::kInt16, CastRound::kNone},
    {DType::kFloat16, DType::kInt8, CastRound::kNone},
    {DType::kFloat16, DType::kUInt8, CastRound::kNone},
    {DType::kInt32, DType::kBFloat16, CastRound::kTrunc},
    {DType::kInt64, DType::kInt32, CastRound::kNone},
};

inline const CastRow* find_cast(DType dst, DType src) {
  for (const CastRow& r : kCastRows)
    if (r.dst == dst && r.src == src) return &r;
  return nullptr;
}

struct CastTiling {
  uint64_t total = 0;      // elements
  uint64_t per_core = 0;   // elements, multiple of 32 bytes of both dtypes
  uint32_t tile = 0;       // elements per tile
  uint32_t dst = 0;        // npurt::DType
  uint32_t src = 0;        // npurt::DType
  uint32_t mode = 0;       // CastRound; unused when dst == src
};

}  // namespace npurt::kernels
