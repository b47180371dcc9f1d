// npurt/sort_ops.h: sorting along the last axis as one C++ call, and the one
// plan saying how (what npurt.sort / argsort / unique_* in Python run).
//
//   npurt::array::Sorted s = npurt::array::sort_last(x, {/*descending=*/false});
//   // s.values: x sorted along its last axis; s.indices: int64 positions in the row
//
// The sort family's kernels (kernels/sort) sort a row in two steps: a block
// launch sorts every chunk of `chunk` elements of each row in UB, then merge
// launches join neighbouring sorted runs of width w into 2w (w = chunk, 2*chunk,
// ...) until one run covers the row. sort_plan() is the single place that
// decides the unit (vector: Sort32/MrgSort on (score, index) keys; scalar),
// the chunk and the merge widths; int32/uint32 rows sort on the vector unit
// as an LSD radix sort of two 16-bit digits (each an exact float32 score:
// a stable sort by the low digit, then by the high digit of the permuted row,
// with a gather after each pass), uint16 as one such digit; the kernels' tilings check the chunk with
// vsort_max_chunk() / sort_block_chunk() below, so the rule cannot drift.
//
// Invariants: the sort is stable (ties keep their order); NaNs go last (first
// when descending); -0.0 and 0.0 compare equal. The results are exactly the
// kernels' for the same plan; nothing is enqueued when the arguments are bad
// (InvalidArgument "npurt.sort: argument 'x': ...").
#pragma once

#include <cstdint>
#include <vector>

#include "npurt/chip_profile.h"
#include "npurt/stream.h"
#include "npurt/tensor.h"

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {
namespace array {

struct SortArgs {
  bool descending = false;
  uint64_t chunk = 0;   // > 0: force the scalar path with this chunk (a multiple of 64 that fits the UB)
  uint64_t vchunk = 0;  // > 0: force the vector path with this chunk (a multiple of 128 up to vsort_max_chunk)
  bool scalar = false;  // force the scalar path (with `chunk`, or its automatic chunk when 0)
};

enum class SortUnit : uint8_t { kVector, kScalar };

struct SortPlan {
  SortUnit unit = SortUnit::kScalar;
  DType score = DType::kFloat32;   // vector unit: the keys' score dtype (float32 or float16)
  uint64_t rows = 0, n = 0;        // the [rows, n] view of the last axis
  uint64_t chunk = 0;              // elements of a row sorted in UB by the block launch
  std::vector<uint64_t> widths;    // the merge launches' run widths, in order
  uint32_t digits = 0;             // vector unit: 16-bit radix passes (2: int32/uint32, 1: uint16; 0: the
                                   // value is the score)
};

// Rows shorter than this stay on the scalar unit (which packs many short rows
// into one UB unit; the vector path pads every row to 128 elements).
constexpr uint64_t kVectorMinRow = 32;

// How sort_last(x, args) runs x (>= 1-D). Throws InvalidArgument for a 0-d x,
// a complex x, or a forced chunk that does not fit.
SortPlan sort_plan(const Tensor& x, const SortArgs& args = SortArgs());

// True when the vector unit sorts `d`, with `score` the dtype of its keys:
// float32/float16 themselves, and the exact conversions int16/bfloat16 ->
// float32, int8/uint8/bool -> float16. False: `d` has no exact score (see
// vector_radix_digits for int32/uint32/uint16).
bool vector_score_dtype(DType d, DType& score);

// How many float32-scored 16-bit digit passes the vector unit sorts `d` by:
// 2 for int32/uint32, 1 for uint16 (no A2 Cast to float: its bits are read as
// int16 and lifted), 0 otherwise. int64/uint64/float64 (no score, 0 here and
// in vector_score_dtype) sort on the scalar unit.
uint32_t vector_radix_digits(DType d);

// Largest vector-unit block chunk on `profile` (multiple of 128, <= 8192;
// 20.125 UB bytes per element).
uint64_t vsort_max_chunk(const ChipProfile& profile);

// Scalar-unit block chunk for rows of `n` elements of `d`: the largest multiple
// of 64 whose two value and two int64 index buffers fit the UB, capped at
// round_up(n, 64) (0 when nothing fits).
uint64_t sort_block_chunk(const ChipProfile& profile, DType d, uint64_t n);

struct Sorted {
  Tensor values;   // x's dtype and shape
  Tensor indices;  // int64, x's shape: positions within the row
};

// x (>= 1-D, any layout) sorted stably along its last axis.
Sorted sort_last(const Tensor& x, const SortArgs& args = SortArgs(), const Stream& stream = Stream());

}  // namespace array
}  // namespace npurt
NPURT_PUBLIC_END
