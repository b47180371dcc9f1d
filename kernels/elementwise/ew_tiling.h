// kernels/elementwise/ew_tiling.h: tiling data of the broadcasting, strided
// elementwise family (shared by host tiling and the kernel template).
//
// The output is contiguous with the collapsed shape `shape[0..ndim)`; input i
// element for output multi-index k is at GM offset sum_d k[d] * strides[i][d]
// (elements; 0 on broadcast dims, negative allowed) from `base[i]` elements
// after the tensor's data pointer (base[i] <= 0 moves the window to the lowest
// address the view touches, so every kernel offset is >= 0).
// Core b computes output elements [b * per_core, min(total, (b+1) * per_core));
// per_core and tile are multiples of `align` elements (32 bytes of the
// narrowest operand), so contiguous operands start every tile 32-B aligned.
// offset[i] (elements, >= 0) is added to input i's data pointer first: two
// inputs may be two windows of one tensor (swiglu's halves).
// Output: contiguous when out_row == 0; else output element k of this
// iteration space goes to out_offset + (k / out_row) * out_pitch + k % out_row
// (a run of columns in a wider row: swiglu_backward's halves). `variant`
// selects a functor form inside one kernel entry (gelu's erf / tanh).
// scalar bit i: input i is a single element (every stride 0: a 0-d array or a
// Python scalar broadcast); binary functors with a tensor-scalar vector form
// (Adds/Muls/Maxs/Mins) read it once and never stream it through UB.
// row_scalar bit i (binary ops, ndim >= 2): input i has stride 0 along the
// innermost axis (one value per output row, e.g. the (N, 1) of (N, 1) + (1, M))
// and rows are whole 32-B blocks; functors with a tensor-scalar form compute
// each row as VecS(other input's row, that value) instead of filling a UB tile.
#pragma once

#include <cstdint>

namespace npurt::kernels {

constexpr int kEwMaxDims = 6;
constexpr int kEwMaxInputs = 3;

struct EwTiling {
  uint64_t total = 0;
  uint64_t per_core = 0;
  uint32_t tile = 0;
  uint32_t ndim = 0;
  uint32_t dtype = 0;          // npurt::DType of the computing inputs (where: of x and y)
  uint32_t out_dtype = 0;      // npurt::DType of the output
  uint32_t num_inputs = 0;
  uint32_t contiguous = 0;     // bit i: input i is laid out exactly like the output
  uint32_t variant = 0;
  uint32_t scalar = 0;         // bit i: input i is one element broadcast everywhere
  uint32_t row_scalar = 0;     // bit i: input i is one element per output row (see above)
  int64_t out_row = 0;
  int64_t out_pitch = 0;
  int64_t out_offset = 0;
  int64_t offset[kEwMaxInputs] = {};
  int64_t shape[kEwMaxDims] = {};
  int64_t strides[kEwMaxInputs][kEwMaxDims] = {};
  int64_t base[kEwMaxInputs] = {};
};

}  // namespace npurt::kernels
