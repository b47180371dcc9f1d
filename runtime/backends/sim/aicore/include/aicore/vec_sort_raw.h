// aicore/vec_sort_raw.h: the unchecked core of the simulated sort primitives
// (Sort32, MrgSort, Extract, GatherMask; the checked AscendC API is
// aicore/vec_sort.h). Pointers are host pointers into UB, already checked.
//
// Layout (A2/A3 "排布方式一"): one sorted element is an 8-byte structure,
// score in the low bytes (float: 4 bytes; half: 2 bytes, then 2 reserved
// bytes left as written), uint32 index in the high 4 bytes.
// Order: descending score. Equal scores keep their source order (Sort32: the
// lower position first; MrgSort: the lower list number first, then list
// order), as the Ascend C docs state. -0.0 == +0.0. A NaN score is not
// covered by the docs: the simulator orders NaN above +inf (all NaNs equal);
// npurt's kernels never pass NaN scores (kernels/sort maps them to +-inf).
#pragma once

#include <cstddef>
#include <cstdint>

#include "aicore/types.h"
#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt::aicore::vec {

// groups x 32 (score, index) pairs into groups x 32 structures, each group sorted.
void sort32_f32(void* dst, const float* score, const uint32_t* index, uint64_t groups);
void sort32_f16(void* dst, const half* score, const uint32_t* index, uint64_t groups);

// Merges the lists src[k] of len[k] structures (k with bit k of valid_mask);
// with `exhausted` it stops after the first list runs out. consumed[k] gets
// the structures taken from list k; returns the structures written.
uint64_t mrgsort_f32(void* dst, const void* const src[4], const uint16_t len[4], uint32_t valid_mask,
                     bool exhausted, uint16_t consumed[4]);
uint64_t mrgsort_f16(void* dst, const void* const src[4], const uint16_t len[4], uint32_t valid_mask,
                     bool exhausted, uint16_t consumed[4]);

// Splits n structures into scores and indices.
void extract_f32(float* value, uint32_t* index, const void* sorted, uint64_t n);
void extract_f16(half* value, uint32_t* index, const void* sorted, uint64_t n);

// Compaction: copies src[i] (elem_bytes each) for every i < n whose bit i of
// `bits` is set (byte i/8, LSB first) to consecutive dst slots; returns how many.
uint64_t gather_mask(void* dst, const void* src, size_t elem_bytes, const uint8_t* bits, uint64_t n);

// The per-core record GetMrgSortResult reads: what the last exhausted-mode
// MrgSort of core `core` took from each list (zeros before any).
void set_mrgsort_result(const void* core, const uint16_t consumed[4]);
void get_mrgsort_result(const void* core, uint16_t consumed[4]);

}  // namespace npurt::aicore::vec
NPURT_PUBLIC_END
