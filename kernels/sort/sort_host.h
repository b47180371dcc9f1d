// kernels/sort/sort_host.h: host-side helpers shared by the sort family's
// registrations (sort_ops.cc, search_ops.cc, unique_ops.cc): the dtypes the
// family takes and UB sizing in 64-element steps.
//
// Invariants: every dtype but complex is sortable; float64 is sim-only (the
// NPU's scalar unit has no double arithmetic); sizes returned by fit64 are
// multiples of 64 elements, so every UB buffer stays 32-byte aligned.
#pragma once

#include <cstdint>
#include <string>

#include "common/tiling_util.h"
#include "npurt/op_registry.h"

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

}  // namespace npurt::kernels::sort
