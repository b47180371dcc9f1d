// kernels/indexing/indexing_tiling.h: tiling data of the gather/scatter family
// (index_check, gather, scatter, mask_positions), shared by host and device.
//
// Data is moved in `unit`-byte elements (1/2/4/8; 16-byte dtypes as two 8-byte
// units: along a doubled inner dim in kTake mode, `sub` = 2 units per element
// in kAlong mode), so one kernel serves every dtype.
//   gather  x [outer, n, inner] -> y [outer, m, inner]:
//           kTake:  y[o, j, i] = x[o, idx[j], i]            (idx: m values)
//           kAlong: y[o, j, i] = x[o, idx[o, j, i], i]      (idx: y's shape)
//   scatter y [outer, n, inner] (the caller's array, passed as out=) gets
//           y[o, idx[j], i] = v[o, j, i]; the rest of y is left untouched.
//           A one-element v (bcast = its units) is written everywhere: the
//           kernel replicates it in UB once, no broadcast copy in GM.
//   index_check  idx (any integer dtype) -> int64 idx + n where idx < 0, and a
//           status of kIndexSlots (bad count, first bad index) pairs, one per
//           block (block 0 also zeroes the slots of blocks that do not run).
//   mask_count  mask ([total], any dtype: true = != 0) -> the true elements of each block's
//           range, int64 [kIndexSlots] (idle slots zeroed by block 0);
//   mask_positions  mask and the exclusive scan of those counts (the block
//           offsets, [kIndexSlots + 1]) -> the flat index of every true
//           element, or its coordinates (unravel), as int64 [rows, count].
//           Both passes split the mask over blocks identically (mask_split).
// Indices reaching gather/scatter are normalized (index_check ran first); an
// index outside [0, n) (a direct call) stops the kernel with the op's argument
// error before it addresses GM (common/kernel_check.h); `axis` is only for
// that message.
//
// Invariants: tile is a multiple of 32 units; per_core > 0 when blocks run;
// num_blocks <= kIndexSlots for index_check.
#pragma once

#include <cstdint>

namespace npurt::kernels {

constexpr uint32_t kIndexSlots = 64;
constexpr uint32_t kMaskMaxDims = 8;

enum class GatherMode : uint32_t { kTake = 0, kAlong = 1 };

struct GatherTiling {
  uint32_t unit = 1;       // bytes per moved element
  uint32_t mode = 0;       // GatherMode (scatter: kTake)
  uint64_t outer = 0, n = 0, inner = 0, m = 0;
  uint64_t total = 0;      // gather: y elements; scatter: v elements (units)
  uint64_t per_core = 0;   // elements per core
  uint32_t tile = 0;       // elements per UB tile
  uint32_t sub = 1;        // kAlong: units per element (2 for 16-byte dtypes; inner stays in elements)
  uint32_t idx_unit = 8;   // index_check: bytes of the input index dtype
  uint32_t idx_signed = 1; // index_check: the index dtype is signed
  int64_t size = 0;        // index_check: the axis length
  uint32_t axis = 0;       // gather/scatter: the (normalized) axis of x / y, for messages
  uint32_t bcast = 0;      // scatter: 0, or the units of the one value element every write repeats
};

struct MaskTiling {
  uint32_t dtype = 0;      // npurt::DType of the mask: any; an element is true when != 0
  uint64_t total = 0;      // mask elements
  uint64_t count = 0;      // true elements (the last offset, read by the host)
  uint64_t per_core = 0;
  uint32_t tile = 0;
  uint32_t ndim = 1;       // rows of the output: 1 (flat) or the mask's rank (unravel)
  int64_t shape[kMaskMaxDims] = {};
};

}  // namespace npurt::kernels
