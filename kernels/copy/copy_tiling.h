// kernels/copy/copy_tiling.h: tiling data of the strided -> contiguous copy.
//
// The host collapses the source view (drops size-1 dims, merges dims that are
// contiguous with each other) to at most kMaxDims dims and moves `unit`-byte
// units (1/2/4/8; 16-byte dtypes become two 8-byte units along an extra dim).
// A "row" is the innermost dim; cores get whole rows. Mode kRows: rows are
// contiguous in the source (stride 1), moved with DataCopyPad, several short
// rows per transfer when the next-outer stride allows. Mode kGather: scalar
// gather through UB. Mode kTranspose: the innermost stride is > 1 and the
// next-outer one is 1 (a transposed view); blocks of up to block_rows rows
// are moved with strided DataCopyPad and transposed inside UB with the vector
// TransDataTo5HD (1/2/4-byte units) or scalar moves (8-byte units).
#pragma once

#include <cstdint>

namespace npurt::kernels {

constexpr uint32_t kCopyMaxDims = 8;
constexpr uint64_t kTransposeRowsMax = 256;  // upper bound of block_rows

struct CopyTiling {
  uint32_t unit = 1;
  uint32_t ndim = 1;
  int64_t shape[kCopyMaxDims] = {};
  int64_t stride[kCopyMaxDims] = {};   // in units
  uint64_t rows = 0;                   // product of shape[0 .. ndim-1)
  uint64_t row_len = 0;                // shape[ndim-1]
  uint64_t rows_per_core = 0;
  uint32_t tile_bytes = 0;             // UB tile, multiple of 32
  uint32_t mode = 0;                   // 0: kRows, 1: kGather, 2: kTranspose
  uint32_t block_rows = 0;             // kTranspose: output rows per block (<= kTransposeRowsMax)
};

}  // namespace npurt::kernels
