// kernels/sort/sort_tiling.h: tiling data of the sort family, shared by host
// (sort_ops.cc, search_ops.cc, unique_ops.cc) and device code.
//
// Sort = sort_block, then sort_merge passes (npurt::array::sort_last in
// runtime/ops/sort_ops.cc plans and drives them):
//   - sort_block views x as [rows, n] and cuts every row into chunks of
//     `chunk` elements (the last one shorter); a unit is one (row, chunk),
//     units are split over the cores; each chunk is sorted in UB (insertion
//     runs of kRun, then ping-pong merges) with its row-relative int64 indices.
//   - sort_merge merges neighbouring sorted runs of `width` elements of every
//     row into runs of 2*width. A unit is one segment of <= `seg` outputs of
//     one pair of runs; its inputs are found by a merge-path binary search
//     (co-rank), so one long pair is split over many cores.
// Invariants: chunk and seg are multiples of 64 elements (32-byte aligned UB
// for every dtype); per_core > 0 whenever num_blocks > 0.
#pragma once

#include <cstdint>

namespace npurt::kernels::sort {

constexpr uint32_t kRun = 16;  // insertion-sorted run length inside a chunk

struct SortBlockTiling {
  uint32_t dtype = 0;       // npurt::DType
  uint32_t descending = 0;
  uint64_t rows = 0, n = 0;
  uint64_t chunk = 0;       // elements sorted in UB at once
  uint64_t chunks = 0;      // per row: ceil(n / chunk)
  uint64_t rows_per_unit = 1;  // > 1: rows that fit one chunk go rows_per_unit to a unit
  uint64_t ub_elems = 0;    // elements per UB buffer: max(chunk, rows_per_unit * n)
  uint64_t units = 0;       // rows * chunks, or ceil(rows / rows_per_unit)
  uint64_t per_core = 0;
};

struct SortMergeTiling {
  uint32_t dtype = 0;
  uint32_t descending = 0;
  uint64_t rows = 0, n = 0;
  uint64_t width = 0;       // input runs of this many sorted elements
  uint64_t pairs = 0;       // per row: ceil(n / (2 * width))
  uint64_t segs = 0;        // per pair: ceil(2 * width / seg)
  uint64_t seg = 0;         // outputs per unit
  uint64_t units = 0;       // rows * pairs * segs
  uint64_t per_core = 0;
};

// searchsorted / isin: binary search of every x2 element in the sorted x1.
enum class SearchMode : uint32_t { kLeft = 0, kRight = 1, kIsin = 2, kNotIn = 3 };

struct SearchTiling {
  uint32_t dtype = 0;
  uint32_t mode = 0;        // SearchMode
  uint32_t has_sorter = 0;  // x1 is read as x1[sorter[k]]
  uint32_t tile = 0;        // x2 elements per UB tile
  uint64_t n1 = 0, n2 = 0;
  uint64_t per_core = 0;
};

// unique_count / unique_compact over one sorted vector of n elements, cut
// into num_blocks ranges of `per_core` elements (the same cut in both).
// UB bytes per tile element of unique_compact (unique_kernel.cc): the s and
// perm tiles, values / index / run counts staged for tile / 2 runs, and the
// inverse scatter's tile * 16 bytes (common/gm_stage.h). unique_count uses less.
constexpr uint64_t UniqueCompactUbPerElem(uint64_t item) { return item + 8 + (item + 17) / 2 + 16; }

struct UniqueTiling {
  uint32_t dtype = 0;
  uint32_t tile = 0;        // elements per UB tile
  uint64_t n = 0;
  uint64_t per_core = 0;
  uint64_t blocks = 0;      // number of ranges (= num_blocks of both launches)
};

// Vector-unit sort of float32/float16 rows (vsort_kernel.cc, vsort_ops.cc):
// keys are 8-byte (score, uint32 row position) structures as Sort32/MrgSort
// lay them out, score = x (descending) or -x (ascending), NaN -> +inf before
// the sign, so every sort is the hardware's descending score order with ties
// by position (stable). kVsortMaxChunk keeps every MrgSort input list <= 2048.
constexpr uint32_t kVsortMaxChunk = 8192;
constexpr uint32_t kVsortChunkStep = 128;   // Compare/Select need 256-byte multiples (128 halves)
constexpr uint32_t kVsortMergeSeg = 4064;   // MrgSort lists hold <= 4095 structures
constexpr uint32_t kVsortExtractSeg = 4096;

struct VsortBlockTiling {
  uint32_t dtype = 0;       // npurt::DType (a score dtype, one cast exactly to it, or int32/uint32 by digit)
  uint32_t descending = 0;
  uint64_t rows = 0, n = 0;
  uint64_t chunk = 0;       // multiple of kVsortChunkStep, <= kVsortMaxChunk
  uint64_t chunks = 0;      // per row
  uint64_t units = 0, per_core = 0;
  int32_t digit = -1;       // int32/uint32 only: 0 = low 16 bits, 1 = high 16 bits (the radix passes)
  uint32_t pad = 0;
};

// The radix passes of 32-bit integers (vradix_kernel.cc): after a sort of a
// row by one 16-bit digit, vsort_take gathers x[row, pos] and pos (or
// perm[row, pos]) for every sorted key; a unit is one segment of a row.
constexpr uint32_t kVsortTakeSeg = 4096;

struct VsortTakeTiling {
  uint32_t dtype = 0;       // x's dtype (int32, uint32 or uint16)
  uint32_t through = 0;     // 1: indices come from perm (the previous pass's indices)
  uint64_t rows = 0, n = 0;
  uint64_t segs = 0;        // per row: ceil(n / kVsortTakeSeg)
  uint64_t units = 0, per_core = 0;
};

struct VsortMergeTiling {
  uint32_t dtype = 0;
  uint32_t pad = 0;
  uint64_t rows = 0, n = 0;
  uint64_t width = 0, pairs = 0, segs = 0;  // as SortMergeTiling, seg = kVsortMergeSeg
  uint64_t units = 0, per_core = 0;
};

struct VsortExtractTiling {
  uint32_t dtype = 0;
  uint32_t descending = 0;
  uint64_t rows = 0, n = 0;
  uint64_t segs = 0;        // per row: ceil(n / kVsortExtractSeg)
  uint64_t units = 0, per_core = 0;
};

}  // namespace npurt::kernels::sort
