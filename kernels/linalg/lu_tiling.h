// kernels/linalg/lu_tiling.h: tiling data of the dense linear-algebra kernels
// of kernels/linalg/ (lu_factor, lu_solve, cholesky), shared by host and
// device code.
//
// Every kernel of the family sees a batch of `batch` square n x n matrices
// (contiguous, row-major, the dispatcher copies views); lu_solve also a batch
// of n x m right-hand sides. A unit of work is one matrix; core b takes units
// [b * per_core, min((b + 1) * per_core, batch)).
//   - in_ub = 1: the matrix (lu_solve: its right-hand sides; the factors are
//     read from GM) fits the UB, rows 32-B aligned: one DataCopyPad in, the
//     algorithm in UB (float32: row updates on the vector unit, the rest on
//     the scalar unit), one DataCopyPad out.
//   - in_ub = 0: the matrix is worked where it lies, in the output's GM buffer
//     (scalar GM accesses, GlobalTensor::GetValue/SetValue): any n works, at
//     GM latency. In float32 (ub_cap > 0, the UB elements to use) lu_factor
//     moves the trailing block into UB once it fits and finishes there, and
//     lu_solve solves X in column blocks that fit.
//
// Invariants: dtype is float32 or float64; per_core > 0 when the launch has
// blocks; upper is 0 or 1 (cholesky only). The small per-matrix outputs
// (pivots, sign, logabsdet, info) leave through kStageBytes UB windows
// (common/gm_stage.h), so per_core is any count when in_ub = 1 (no GM SetValue
// then) and otherwise a multiple of the matrices whose scalar-written outputs
// fill whole 64 B lines (lu_host.h scalar_split_unit, gm_scalar.h).
#pragma once

#include <cstdint>

namespace npurt::kernels {

// UB bytes of one staged small output (common/gm_stage.h): 32 int32 / float items.
constexpr uint32_t kStageBytes = 128;

struct LuTiling {
  uint32_t dtype = 0;     // npurt::DType of the matrices (float32 / float64)
  uint32_t in_ub = 0;     // 1: worked in UB; 0: in GM
  uint64_t batch = 0;     // matrices
  uint64_t n = 0;         // rows = columns
  uint64_t m = 0;         // lu_solve: columns of the right-hand sides
  uint64_t per_core = 0;  // matrices per core
  uint32_t upper = 0;     // cholesky: write the upper factor U = L^T
  uint32_t ub_cap = 0;    // float32 with in_ub = 0: UB elements for the trailing block / X's column blocks
};

}  // namespace npurt::kernels
