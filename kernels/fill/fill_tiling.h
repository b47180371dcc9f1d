// kernels/fill/fill_tiling.h: tiling data of the fill kernel (host and device).
//
// The host encodes the value as the element's bit pattern (pattern[0..itemsize)),
// so the kernel is dtype-agnostic: it builds one UB tile of the pattern once per
// core and streams it to GM. Sizes are in bytes; per_core and tile are
// multiples of 32 bytes (and so of every itemsize <= 16).
//
// Strided output (ndim > 0, the op's `strides` attribute): y is the window of
// a strided view's storage, from its lowest element to its highest, and only
// the view's elements are written. The host canonicalises the view (size-1 and
// stride-0 dims dropped, negative strides flipped, dims sorted by decreasing
// stride, contiguous neighbours merged), so it is a grid of runs: each run is
// run_bytes of contiguous bytes (the innermost dim when its stride is 1, else
// one element), placed at element offsets sum(idx[d] * stride[d]) over
// shape[0..ndim). Runs never overlap (run_bytes <= the last stride in bytes).
// Cores get ranges of runs (runs_per_core); one DataCopyPad writes up to
// max_runs runs along the last dim (its GM gap gap_bytes fits 32 bits when
// max_runs > 1), reading the pattern tile from 32-byte-aligned UB blocks.
#pragma once

#include <cstdint>

namespace npurt::kernels {

constexpr uint32_t kFillMaxDims = 8;

struct FillTiling {
  uint64_t total_bytes = 0;
  uint64_t per_core_bytes = 0;
  uint32_t tile_bytes = 0;
  uint32_t itemsize = 0;
  uint8_t pattern[16] = {};
  // Strided output (ndim 0: y is dense, total_bytes long).
  uint32_t ndim = 0;
  uint32_t max_runs = 1;        // runs per DataCopyPad (<= 4095, whole runs fit tile_bytes)
  uint64_t run_bytes = 0;       // bytes of one run (longer than tile_bytes: max_runs is 1, written in pieces)
  uint64_t runs = 0;            // product of shape[0..ndim)
  uint64_t runs_per_core = 0;
  uint32_t gap_bytes = 0;       // GM bytes between consecutive runs of the last dim
  int64_t shape[kFillMaxDims] = {};
  int64_t stride[kFillMaxDims] = {};  // elements
};

}  // namespace npurt::kernels
