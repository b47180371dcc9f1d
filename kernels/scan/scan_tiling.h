// kernels/scan/scan_tiling.h: tiling data of the scan family (cumulative_sum,
// cumulative_prod), shared by host and device code.
//
// The host views the contiguous input as [outer, len, inner] around the scan
// axis; the output is [outer, len + include_initial, inner]:
//   - kRows (inner == 1): a unit is one row of `len` contiguous elements; the
//     core streams it through UB in chunks of `tile` and carries the running
//     value from chunk to chunk (scalar unit: a prefix scan is sequential).
//   - kColumns (inner > 1): a unit is (outer index, run of <= tile inner
//     elements); the core keeps a vector of `tile` running values and folds
//     the `len` rows into it one by one (elementwise), writing every row.
// With include_initial the output row starts with the identity (0 or 1).
// Complex inputs arrive as float lanes (inner doubled, complex_pairs set):
// sums are componentwise; products multiply (real, imag) lane pairs.
// Accumulation: float for float16/bfloat16/float32, double for float64, int64
// for signed integers and bool, uint64 for unsigned (wrapping, like numpy).
//
// Invariants: tile is a multiple of 32 elements; per_core > 0 when the launch
// has blocks; out_dtype is in_dtype or its 64-bit widening.
#pragma once

#include <cstdint>

namespace npurt::kernels {

enum class ScanKind : uint32_t { kSum = 0, kProd = 1 };
enum class ScanMode : uint32_t { kRows = 0, kColumns = 1 };

struct ScanTiling {
  uint32_t kind = 0;       // ScanKind
  uint32_t mode = 0;       // ScanMode
  uint32_t in_dtype = 0;   // npurt::DType
  uint32_t out_dtype = 0;  // npurt::DType
  uint64_t outer = 0, len = 0, inner = 0;
  uint32_t include_initial = 0;
  uint32_t complex_pairs = 0;  // complex input: lanes are (real, imag) pairs; prod multiplies pairs
  uint32_t tile = 0;       // elements per UB chunk
  uint64_t units = 0;      // kRows: outer; kColumns: outer * ceil(inner / tile)
  uint64_t per_core = 0;   // units per core
};

}  // namespace npurt::kernels
