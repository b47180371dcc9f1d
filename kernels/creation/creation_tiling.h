// kernels/creation/creation_tiling.h: tiling data of the creation family
// (arange, linspace, eye, tril, triu), shared by host and device code.
//
//   kIota: y[i] = start + i * step over `total` elements, computed in the
//          kernel (integers exactly in int64 from istart/istep, floats in
//          double then rounded once to the dtype, like numpy); with
//          `last_is_stop` the last element is exactly `stop` (linspace
//          endpoint); `floor_ints` floors before an integer store (linspace).
//   kEye / kTril / kTriu: y is a stack of [rows, cols] matrices; a unit is one
//          matrix row (global row r, in-matrix row r % rows). Element (i, j):
//          eye: one where j - i == k; tril: x where j - i <= k; triu: x where
//          j - i >= k; zero elsewhere. tril/triu read x (same shape) and move
//          `unit`-byte elements; eye writes the `one` pattern.
//
// Invariants: tile is a multiple of 32 elements; per_core > 0 when blocks run.
#pragma once

#include <cstdint>

namespace npurt::kernels {

enum class CreationMode : uint32_t { kIota = 0, kEye = 1, kTril = 2, kTriu = 3 };

struct CreationTiling {
  uint32_t mode = 0;          // CreationMode
  uint32_t dtype = 0;         // npurt::DType of y
  uint32_t unit = 1;          // bytes per element (16-byte dtypes: kIota unsupported)
  uint32_t tile = 0;          // elements per UB tile
  uint64_t total = 0;         // kIota: elements; else matrix rows of the whole stack
  uint64_t per_core = 0;      // kIota: elements per core; else rows per core
  uint64_t rows = 0, cols = 0;
  int64_t k = 0;
  double start = 0, step = 0, stop = 0;
  int64_t istart = 0, istep = 0;
  uint32_t int_exact = 0;     // kIota on an integer dtype from integer start/step
  uint32_t last_is_stop = 0;
  uint32_t floor_ints = 0;
  uint8_t one[16] = {};       // kEye: the bit pattern of 1 in dtype
};

}  // namespace npurt::kernels
