// kernels/linalg/lu_host.h: host-side rules shared by the OpDefs of
// kernels/linalg/ (lu_ops.cc, cholesky_ops.cc): the square-matrix shape check
// and the one tiling rule (where a matrix is worked, how the batch is split
// over the cores), so the kernels of the family cannot disagree on them.
//
// Invariants: the tiling's in_ub is 1 exactly when `ub_elems` elements of the
// dtype (and the kernel's staged small outputs) fit ub_budget(); a core gets
// whole matrices, more of them when they are small (at least ~4096
// multiply-adds of work per core), in units of one matrix when the kernel
// writes GM only by DataCopyPad (the UB paths: small outputs staged,
// common/gm_stage.h), else of the fewest matrices whose scalar-written outputs
// fill whole 64 B lines (scalar_split_unit; gm_scalar.h).
#pragma once

#include <algorithm>
#include <initializer_list>
#include <numeric>
#include <string>

#include "common/gm_scalar.h"
#include "common/tiling_util.h"
#include "linalg/lu_tiling.h"
#include "npurt/op_registry.h"

namespace npurt::kernels::linalg {

// n of a stack of square matrices `arg` (input i of ctx, shape (..., n, n)).
inline uint64_t square_n(const OpContext& ctx, size_t i, const char* arg) {
  const Dims& s = ctx.input(i).shape;
  if (s.size() < 2) ctx.fail(arg, "needs at least 2 dimensions (a stack of square matrices), got " +
                                      std::to_string(s.size()));
  if (s[s.size() - 1] != s[s.size() - 2])
    ctx.fail(arg, "the last two dimensions must be square, got " + std::to_string(s[s.size() - 2]) + " x " +
                      std::to_string(s[s.size() - 1]));
  return static_cast<uint64_t>(s.back());
}

// The UB leading dimension of rows of `cols` elements: rows start 32-B
// aligned (the device side's UbLd, matrix_view.h).
inline uint64_t ub_ld(uint64_t cols, DType dtype) { return round_up(cols, block_elems(itemsize(dtype))); }

// The product of the batch dimensions (all but the last `core_dims`).
inline uint64_t batch_of(const Dims& s, size_t core_dims) {
  uint64_t b = 1;
  for (size_t d = 0; d + core_dims < s.size(); ++d) b *= static_cast<uint64_t>(s[d]);
  return b;
}

// Matrices per block-split unit when a kernel scalar-writes, per matrix, the
// given byte counts of GM outputs: the least count whose every output run is
// a multiple of 64 B, so block ranges start on a 64 B line (gm_scalar.h; the
// outputs are fresh, 64 B aligned buffers). 1 for none (DataCopyPad only).
inline uint64_t scalar_split_unit(std::initializer_list<uint64_t> bytes_per_matrix) {
  uint64_t unit = 1;
  for (uint64_t b : bytes_per_matrix) unit = std::lcm(unit, 64 / std::gcd<uint64_t>(64, b));
  return unit;
}

// per_core and the launch's blocks for t's batch, in units of `unit` matrices.
inline void split_batch(const OpContext& ctx, LuTiling& t, uint64_t unit, TilingResult& r) {
  const uint64_t work = std::max<uint64_t>(1, t.n * t.n * std::max<uint64_t>(t.n, t.m));
  const CoreSplit cs = split_over_cores(t.batch, unit, ceil_div(4096, work), ctx.profile());
  t.per_core = cs.per_core;
  r.num_blocks = cs.num_blocks;
  r.set_tiling(t);
}

// The family's tiling for `batch` matrices of n x n (m: right-hand side
// columns) whose UB path needs `ub_elems` elements of `dtype` plus
// `stage_bytes` for its staged small outputs, and whose GM path
// scalar-writes `gm_scalar_bytes` per matrix of each output: split per
// matrix in UB, in scalar_split_unit() matrices on GM.
inline LuTiling batch_tiling(const OpContext& ctx, DType dtype, uint64_t batch, uint64_t n, uint64_t m,
                             uint64_t ub_elems, uint64_t stage_bytes,
                             std::initializer_list<uint64_t> gm_scalar_bytes, TilingResult& r) {
  LuTiling t;
  t.dtype = static_cast<uint32_t>(dtype);
  t.batch = batch;
  t.n = n;
  t.m = m;
  t.in_ub = ub_elems * itemsize(dtype) + stage_bytes + 64 <= ub_budget(ctx.profile()) ? 1 : 0;
  split_batch(ctx, t, t.in_ub ? 1 : scalar_split_unit(gm_scalar_bytes), r);
  return t;
}

// The batch dimensions of a shape followed by `tail`.
inline Dims batch_dims(const Dims& s, size_t core_dims, std::initializer_list<int64_t> tail) {
  Dims out;
  for (size_t d = 0; d + core_dims < s.size(); ++d) out.push_back(s[d]);
  for (int64_t v : tail) out.push_back(v);
  return out;
}

}  // namespace npurt::kernels::linalg
