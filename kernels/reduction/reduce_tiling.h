// kernels/reduction/reduce_tiling.h: tiling data of the reduction family
// (sum, prod, max, min, mean, any, all), shared by host and device code.
//
// The host views the (contiguous) input as [outer, len, inner]: the reduced
// axes, adjacent after merging, form `len`; the output is [outer, inner].
//   - kInner (inner == 1): each core reduces whole rows of `len` elements,
//     streaming them through UB in chunks of at most `tile` elements that are
//     folded into a vector accumulator of `span` lanes, then reduced within UB
//     (ReduceSum/ReduceMax/ReduceMin for float accumulators, halving folds with
//     Add/Mul/Max/Min otherwise). Results are batched in UB and written out.
//   - kOuter (inner > 1): a unit is (outer index, a run of <= tile inner
//     elements); the core accumulates the `len` rows of that run elementwise
//     (strided over the reduced axis) and writes the run.
// Accumulation type: float for float16/float32 inputs, int32 for int32, half
// (exact 0/1) for bool inputs of any/all.
//
// Invariants: tile and span are powers of two >= 32 elements; span <= tile;
// per_core > 0 when num_blocks > 0.
#pragma once

#include <cstdint>

namespace npurt::kernels {

enum class ReduceKind : uint32_t { kSum = 0, kProd, kMax, kMin, kMean, kAny, kAll };
enum class ReduceMode : uint32_t { kInner = 0, kOuter = 1 };

constexpr uint32_t kReduceOutBatch = 256;  // results per CopyOut in kInner mode

struct ReduceTiling {
  uint32_t kind = 0;       // ReduceKind
  uint32_t mode = 0;       // ReduceMode
  uint32_t in_dtype = 0;   // npurt::DType
  uint32_t out_dtype = 0;  // npurt::DType
  uint64_t outer = 0, len = 0, inner = 0;
  uint64_t units = 0;      // kInner: outer rows; kOuter: outer * ceil(inner / tile)
  uint64_t per_core = 0;   // units per core
  uint32_t tile = 0;       // elements per UB chunk
  uint32_t span = 0;       // accumulator lanes used in kInner mode
  float scale = 1.0f;      // mean: 1 / len
};

}  // namespace npurt::kernels
