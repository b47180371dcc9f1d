// kernels/sort/sort_host.h: host-side helpers shared by the sort family's
// registrations (sort_ops.cc, vsort_ops.cc, search_ops.cc, unique_ops.cc,
// vunique_ops.cc): the dtypes the family takes, UB sizing in 64-element steps,
// the [rows, n] view of the last axis, the split of work units over cores and
// the plan parts the scalar and the vector unique ops have in common.
//
// Invariants: every dtype but complex is sortable; float64 is sim-only (the
// NPU's scalar unit has no double arithmetic); sizes returned by fit64 are
// multiples of 64 elements, so every UB buffer stays 32-byte aligned.
#pragma once

#include <cstdint>
#include <string>

#include "common/tiling_as.h"
#include "common/tiling_util.h"
#include "npurt/op_registry.h"
#include "sort/sort_tiling.h"

namespace npurt::kernels::sort {

inline DTypeMask sortable_mask() {
  return all_dtypes_mask() & ~dtype_mask({DType::kComplex64, DType::kComplex128});
}

inline void sortable_input(OpDefBuilder& b, const char* name) {
  b.input(name, sortable_mask()).sim_only({DType::kFloat64});
}

// Largest multiple of 64 elements needing `bytes_per_elem` UB bytes each that
// fits the profile's UB, capped at round_up(want, 64); 0 when nothing fits.
inline uint64_t fit64(const ChipProfile& p, uint64_t bytes_per_elem, uint64_t want) {
  return fit_tile(ub_budget(p, 2048), bytes_per_elem, 64, want);
}

inline std::string str(uint64_t v) { return std::to_string(v); }

// [rows, n] view of input `input`'s last axis (rows = 0 when n = 0).
inline void rows_and_len(const OpContext& ctx, int input, uint64_t& rows, uint64_t& n) {
  const Dims& s = ctx.input(input).shape;
  if (s.empty()) ctx.fail(ctx.op().inputs[input].name, "a 0-d array has no axis to sort along");
  n = static_cast<uint64_t>(s.back());
  rows = n ? static_cast<uint64_t>(ctx.input(input).numel()) / n : 0;
}

// `units` independent work units spread over the cores, one at least per block.
inline void split_units(const ChipProfile& p, uint64_t units, uint64_t& per_core, TilingResult& r) {
  const CoreSplit cs = split_over_cores(units, 1, 1, p);
  per_core = cs.per_core;
  r.num_blocks = cs.num_blocks;
}

// What unique_ops.cc and vunique_ops.cc plan alike: s (input 0) must be 1-D;
// blocks own multiples of `align` elements. The caller sets t.tile (its UB use
// differs per unit).
inline UniqueTiling unique_split(const OpContext& ctx, uint64_t align) {
  const TensorSpec& s = ctx.input(0);
  if (s.shape.size() != 1) ctx.fail(ctx.op().inputs[0].name, "must be 1-D, got " + str(s.shape.size()) + "-D");
  UniqueTiling t;
  t.dtype = static_cast<uint32_t>(s.dtype);
  t.n = static_cast<uint64_t>(s.numel());
  const CoreSplit cs = split_over_cores(t.n, align, 4096, ctx.profile());
  t.per_core = cs.per_core;
  t.blocks = cs.num_blocks;
  return t;
}

inline void set_unique_tiling(const UniqueTiling& t, TilingResult& r) {
  r.num_blocks = static_cast<uint32_t>(t.blocks);
  r.set_tiling(t);
}

// The per-block run counts, the first output of unique_count / vunique_count.
inline void set_block_counts_output(const OpContext& ctx, const UniqueTiling& t) {
  ctx.set_output(0, Dims{static_cast<int64_t>(t.blocks)}, DType::kInt64);
}

inline std::string describe_unique(const OpContext&, const TilingResult& r) {
  const UniqueTiling t = tiling_as<UniqueTiling>(r, "describe_unique");
  return "n=" + str(t.n) + " blocks=" + str(t.blocks) + " per_core=" + str(t.per_core) + " tile=" + str(t.tile);
}

}  // namespace npurt::kernels::sort
