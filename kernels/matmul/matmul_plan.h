// kernels/matmul/matmul_plan.h: host-side shape logic shared by `matmul` and
// `matmul_backward`: operand canonicalisation (1-D operands per the array API,
// transposes), numpy batch broadcasting, the MatmulProblem of each output and
// the tile sizes for a profile.
//
// Invariants: every MatmulProblem built here satisfies matmul_tiling.h (dims
// and leading dimensions < 65536, at most kMaxBatchDims batch dims); errors
// name the op's argument and the dims involved.
#pragma once

#include <cstdint>
#include <string>

#include "matmul/matmul_tiling.h"
#include "npurt/op_def.h"
#include "npurt/tensor.h"

namespace npurt_kernels::matmul_plan {

// A matmul operand viewed as a batch of stored matrices [batch..., rows, cols].
struct Operand {
  npurt::Dims batch;       // batch dims (may be empty)
  int64_t rows = 0, cols = 0;  // the stored matrix
  bool vector = false;     // came from a 1-D array
  bool trans = false;      // stored transposed relative to its role
};

// The forward view: a as [.., M, K] (or [.., K, M] with trans_a), b as
// [.., K, N] (or [.., N, K]); 1-D a is [1, K], 1-D b is [K, 1] (trans ignored).
struct Forward {
  Operand a, b;
  int64_t m = 0, k = 0, n = 0;
  npurt::Dims batch;     // broadcast batch dims of the output
  npurt::Dims out_shape; // y's shape with the 1-D dims removed
};

// Validates a and b of `ctx` (inputs ia, ib) and the trans attributes.
Forward forward_shapes(const npurt::OpContext& ctx, size_t ia, size_t ib);

MatmulDType matmul_dtype(npurt::DType t);

// One problem: C (contiguous, batch dims `target` broadcast against `full`)
// = X op W, X/W with their own batch dims; dims where target is 1 and full is
// not become reduction dims. ld/trans describe the stored matrices.
struct Side {
  uint32_t arg;
  const npurt::Dims* batch;
  int64_t rows, cols;  // stored matrix
  bool trans;
};
MatmulProblem make_problem(const npurt::OpContext& ctx, const Side& x, const Side& w, uint32_t argC,
                           const npurt::Dims& target, const npurt::Dims& full, int64_t m, int64_t n,
                           int64_t k);

// baseM/baseN/kStep for the largest problem and the block count; fails when a
// tile cannot fit the profile's L0/L1 (never for the shipped profiles).
void choose_tiles(const npurt::OpContext& ctx, MatmulTiling& t, uint32_t elem_bytes, npurt::TilingResult& r);

std::string describe(const npurt::OpContext& ctx, const npurt::TilingResult& r);

}  // namespace npurt_kernels::matmul_plan
