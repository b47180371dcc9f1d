// kernels/matmul/matmul_generic_tiling.h: tiling data of `matmul_generic`, the
// simple vector-core (scalar unit) matmul for the dtypes the cube unit has no
// path for: integers, float64, complex64 and complex128. Shared by host
// (matmul_generic_op.cc) and device code (matmul_generic_kernel.cc).
//
// y[b, m, :] = sum_k a[b, m, k] * b[b, k, :] with a [Ba, M, K], b [Bb, K, N]
// contiguous and Ba, Bb equal to the batch B or 1 (a batch stride of 0 reads
// the one matrix for every b). A unit is one output row piece: (row = b*M + m,
// columns [c*nt, c*nt + nt)); units are split over the vector cores.
// Invariants: nt and kt are multiples of 32 / itemsize elements (32-byte
// aligned UB buffers); per_core > 0 whenever num_blocks > 0; K >= 1.
#pragma once

#include <cstdint>

namespace npurt::kernels::matmul_generic {

struct MatmulGenericTiling {
  uint32_t dtype = 0;           // npurt::DType of a, b and y
  uint32_t nt = 0;              // output columns per unit (UB tile of a b-row piece)
  uint32_t kt = 0;              // a-row elements loaded into UB at once
  uint32_t pad = 0;
  uint64_t batch = 0, m = 0, k = 0, n = 0;
  uint64_t a_batch_stride = 0;  // elements between a's matrices (0: a is broadcast)
  uint64_t b_batch_stride = 0;  // elements between b's matrices (0: b is broadcast)
  uint64_t chunks = 0;          // ceil(n / nt)
  uint64_t units = 0;           // batch * m * chunks
  uint64_t per_core = 0;
};

}  // namespace npurt::kernels::matmul_generic
