// kernels/reduction/argreduce_tiling.h: tiling data of argmax / argmin (the
// index variant of the reduction family), shared by host and device code.
//
// Like reduce_tiling.h, the (contiguous) input is viewed as [outer, len,
// inner] around the one reduced axis (axis=None: [1, numel, 1]); the output
// holds int64 indices, [outer, inner].
//   - kInner (inner == 1): a unit is one row of `len` elements, streamed
//     through UB in tiles of `tile`; results are batched in UB.
//   - kOuter (inner > 1): a unit is (outer index, a run of <= tile inner
//     elements); the `len` rows of the run stream through UB and the best value
//     and index of every lane are kept in UB.
// Semantics (numpy): the first occurrence of the extreme wins; a NaN beats
// every number and the first NaN wins.
// Invariants: tile is a multiple of 64 elements; len > 0; per_core > 0 when
// num_blocks > 0.
#pragma once

#include <cstdint>

namespace npurt::kernels {

constexpr uint32_t kArgOutBatch = 256;  // kInner results per CopyOut

struct ArgReduceTiling {
  uint32_t dtype = 0;   // npurt::DType
  uint32_t is_max = 0;  // 1: argmax, 0: argmin
  uint32_t mode = 0;    // ReduceMode of reduce_tiling.h: 0 inner, 1 outer
  uint32_t tile = 0;
  uint64_t outer = 0, len = 0, inner = 0;
  uint64_t units = 0, per_core = 0;
};

}  // namespace npurt::kernels
