// kernels/reduction/reduce_tiling.h: tiling data of the reduction family
// (sum, prod, max, min, mean, any, all), shared by host and device code.
//
// The host views the (contiguous) input as [outer, len, inner]: the reduced
// axes, adjacent after merging, form `len`; the output is [outer, inner].
//   - kInner (inner == 1): each core reduces whole rows of `len` elements,
//     streaming them through UB in chunks of at most `tile` elements that are
//     folded into a vector accumulator of `span` lanes, then reduced within UB
//     (ReduceSum/ReduceMax/ReduceMin for float accumulators, halving folds with
//     Add/Mul/Max/Min otherwise). Ranges longer than kReduceBlockChunks chunks
//     fold block by block into a second set of lanes (the error bound of
//     docs/kernels.md). Results are batched in UB and written out.
//   - kOuter (inner > 1): a unit is (outer index, a run of <= tile inner
//     elements); the core accumulates the `len` rows of that run elementwise
//     (strided over the reduced axis) and writes the run.
//   - parts > 1 (both modes): the reduced extent is cut into `parts` ranges of
//     `part_len` elements (the last range may be shorter), each its own unit,
//     so a few long reductions still spread over every core. The output is
//     then [outer, parts, inner] partial results in the accumulation dtype,
//     which a second launch (parts == 1) reduces; the host (array_ops.cc)
//     decides the split and issues both launches.
// Accumulation type: float for float16/float32 inputs, int32 for int32, half
// (exact 0/1) for bool inputs of any/all.
//
// Invariants: tile and span are powers of two >= 32 elements; span <= tile
// (span < tile only for kInner rows, tile = 2 * span: reduce_op.cc row_tile);
// per_core > 0 when num_blocks > 0; blocks take units by ReduceBlockUnits
// (uniform, or the sim's grouped layout: lead_blocks + run_blocks + tail
// blocks covering units in order, each unit in exactly one block); parts >= 1,
// part_len >= 1 and (parts - 1) * part_len < len when parts > 1 (no empty
// range); mean divides by `count` (the original extent, not the partials'
// when a launch combines them).
#pragma once

#include <cstdint>

namespace npurt::kernels {

enum class ReduceKind : uint32_t { kSum = 0, kProd, kMax, kMin, kMean, kAny, kAll };
enum class ReduceMode : uint32_t { kInner = 0, kOuter = 1 };

constexpr uint32_t kReduceOutBatch = 256;  // results per CopyOut in kInner mode
constexpr uint32_t kReduceBlockChunks = 16;  // kInner: chunks per accumulation block
// kInner rows stream through UB in chunks of at most this many elements
// (reduce_op.cc; the UB budget may cap it lower). With the sim's copy elision
// a chunk's vector op reads it straight from GM, so only the 16 KiB float32
// accumulator lives in the host core's 48 KiB L1; 4096 halves the per-chunk
// queue/DataCopy/dispatch costs of 2048 and took ~12 % less CPU per 16 Mi
// float32 sum (docs/performance.md "Sum (wave 9)"; 2048 was chosen in wave 5
// when every chunk was still copied into UB: performance-history.md
// "Reductions (wave 5)").
constexpr uint32_t kReduceRowChunk = 4096;
// ...and rows longer than that load up to this many elements per UB chunk
// (reduce_op.cc row_tile: two span-lane folds per DataCopy and queue round
// trip; the 4096-lane accumulator stays in L1, and results are the same bits
// as with 4096-element chunks: docs/performance.md "Sum bandwidth (wave 9)").
constexpr uint32_t kReduceRowTile = 8192;

struct ReduceTiling {
  uint32_t kind = 0;       // ReduceKind
  uint32_t mode = 0;       // ReduceMode
  uint32_t in_dtype = 0;   // npurt::DType
  uint32_t out_dtype = 0;  // npurt::DType
  uint64_t outer = 0, len = 0, inner = 0;
  uint64_t units = 0;      // kInner: outer * parts rows; kOuter: outer * parts * ceil(inner / tile)
  uint64_t parts = 1;      // ranges the reduced extent is cut into (1: whole rows)
  uint64_t part_len = 0;   // elements of the reduced extent per range (len when parts == 1)
  uint64_t count = 0;      // mean denominator (the reduced extent of the whole reduction)
  uint64_t per_core = 0;   // units per core (per run block when run_blocks > 0)
  // Grouped layout (run_blocks > 0, the sim's; see ReduceBlockUnits): blocks
  // [0, lead_blocks) take one unit each, the next run_blocks take up to
  // per_core consecutive units each (run_units in all), every later block one.
  uint64_t lead_blocks = 0, run_blocks = 0, run_units = 0;
  uint32_t tile = 0;       // elements per UB chunk
  uint32_t span = 0;       // accumulator lanes used in kInner mode
  float scale = 1.0f;      // mean: 1 / count
};

// Units [begin, end) of block `block` (end <= units; begin >= units: none).
// Uniform layout: per_core units per block. Grouped layout: one-unit lead
// blocks, run blocks of per_core units, one-unit tail blocks; either way each
// unit is one block's, in order, so the results do not depend on the layout.
inline void ReduceBlockUnits(const ReduceTiling& t, uint64_t block, uint64_t& begin, uint64_t& end) {
  const uint64_t run_end = t.lead_blocks + t.run_blocks;
  if (t.run_blocks == 0) {
    begin = block * t.per_core, end = begin + t.per_core;
  } else if (block < t.lead_blocks) {
    begin = block, end = block + 1;
  } else if (block < run_end) {
    begin = t.lead_blocks + (block - t.lead_blocks) * t.per_core;
    end = begin + t.per_core < t.lead_blocks + t.run_units ? begin + t.per_core : t.lead_blocks + t.run_units;
  } else {
    begin = t.lead_blocks + t.run_units + (block - run_end), end = begin + 1;
  }
  if (end > t.units) end = t.units;
}

}  // namespace npurt::kernels
