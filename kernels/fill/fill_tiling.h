// kernels/fill/fill_tiling.h: tiling data of the fill kernel (host and device).
//
// The host encodes the value as the element's bit pattern (pattern[0..itemsize)),
// so the kernel is dtype-agnostic: it builds one UB tile of the pattern once per
// core and streams it to GM. Sizes are in bytes; per_core and tile are
// multiples of 32 bytes (and so of every itemsize <= 16).
#pragma once

#include <cstdint>

namespace npurt::kernels {

struct FillTiling {
  uint64_t total_bytes = 0;
  uint64_t per_core_bytes = 0;
  uint32_t tile_bytes = 0;
  uint32_t itemsize = 0;
  uint8_t pattern[16] = {};
};

}  // namespace npurt::kernels
