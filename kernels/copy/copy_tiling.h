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
//
// Strided output (out_mode > 0, the op's `out_strides`): y is the window of a
// strided view (x[::2] = y in one launch), every dim has an output stride too
// (out_stride, non-negative: the host flips dims whose output stride is
// negative, moving the source origin by src_base units, and sorts dims by
// decreasing output stride before merging dims contiguous on both sides).
// Rows are written with exact-byte DataCopyPad: out_mode 1 when the output's
// innermost stride is 1 (several rows per transfer at their output gap),
// out_mode 2 otherwise: the scalar unit spreads a row's units to one 32-byte
// UB block each and one DataCopyPad writes them at their output stride (no
// scalar GM write). Modes kRows and kGather only.
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
  uint32_t out_mode = 0;               // 0: dense y; 1: strided, unit inner stride; 2: strided, scattered units
  int64_t out_stride[kCopyMaxDims] = {};  // units in y's window (out_mode > 0)
  int64_t src_base = 0;                // units added to every source offset (out_mode > 0)
  uint64_t out_len = 0;                // units of y's window (out_mode > 0)
};

}  // namespace npurt::kernels
