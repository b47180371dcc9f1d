// cube_move_simd.h: vectorised bodies of the cube's data moves (internal to
// libnpurt). cube_move.cc and cube_mmad.cc do every check of an instruction
// first and then call these on ranges already known to be valid; each routine
// moves exactly the bytes its scalar form in cube_move.cc / cube_gemm_amx.cc
// moves (same layouts, same conversions, bit for bit), so results do not
// depend on which one runs. Null table: the CPU (or NPURT_SIM_ISA=generic)
// has no AVX-512F/BW and the scalar loops run.
#pragma once

#include <cstdint>

namespace npurt::sim::cube {

struct MoveKernels {
  // LoadData ifTranspose: a 16x16 2-byte fractal, dst[q * 16 + r] = src[r * 16 + q].
  void (*transpose_b16)(uint16_t* dst, const uint16_t* src);
  // LoadDataWithTranspose: a 16x16 4-byte square (row-major) -> its transpose T
  // split into two 16x8 fractals: lo[r * 8 + q] = T[r][q], hi[r * 8 + q] = T[r][8 + q].
  void (*transpose_sq_b32)(uint32_t* lo, uint32_t* hi, const uint32_t* sq);
  // Fixpipe of one L0C column block: `rows` rows of 16 floats (consecutive in
  // src) -> dst rows `pitch` bytes apart, the first `cols` (1..16) columns,
  // ReLU (v < 0 -> +0; NaN and -0 kept) when relu, cast to the output type
  // (float copy, fp16 RNE, bf16 RNE with quiet NaN as float_to_bf16_bits).
  void (*fix_f32)(uint8_t* dst, uint64_t pitch, const float* src, uint32_t rows, uint32_t cols, bool relu);
  void (*fix_f16)(uint8_t* dst, uint64_t pitch, const float* src, uint32_t rows, uint32_t cols, bool relu);
  void (*fix_bf16)(uint8_t* dst, uint64_t pitch, const float* src, uint32_t rows, uint32_t cols, bool relu);
  // fix_f32 with streaming (non-temporal) stores for whole 16-float rows:
  // dst and pitch must be multiples of 64 B; the caller fences (stream_fence)
  // after its last call. For large outputs only (stream_copy.h): no read for
  // ownership of the output lines, and the tile does not evict the operands.
  void (*fix_f32_stream)(uint8_t* dst, uint64_t pitch, const float* src, uint32_t rows, uint32_t cols, bool relu);
  // AMX B packing of one whole bf16 Zn fractal (16 n-rows of 8 k-pairs) into
  // 8 VNNI rows of 16 pairs: dst[t * 16 + q] = src[q * 8 + t] (uint32 pairs).
  void (*vnni_b_fractal)(uint32_t* dst, const uint32_t* src);
  // Nd2Nz body for whole 32-B blocks: for rows r < rows and blocks j < blocks,
  // 32 bytes from src + r * pitch + j * 32 to dst + j * dst_block + r * dst_row
  // (regions of different blocks/rows do not overlap: the checks ensure it).
  void (*nd2nz_blocks)(uint8_t* dst, uint64_t dst_block, uint64_t dst_row, const uint8_t* src, uint64_t pitch,
                       uint32_t rows, uint32_t blocks);
  // A 16x16 4-byte transpose, dst[t * 16 + q] = src[q * 16 + t] (dst may alias
  // src): the fp16 B packing's converted fractal (16 n-rows of 16 k) -> 16 panel rows.
  void (*transpose_16x16_b32)(uint32_t* dst, const uint32_t* src);
  // LoadData without transpose: `count` 512-B fractals, fractal i from
  // src + i * src_step to dst + i * dst_step, in order i = 0, 1, ...; each
  // fractal is read whole before it is written (memmove semantics when one
  // fractal's source and destination overlap, as the scalar loop's memmove).
  // Why not memcpy: the library is built for baseline x86-64, where GCC
  // inlines a 512-B memcpy as `rep movsq`, which cost LoadData 59 % of its
  // samples in the 2048^3 float32 matmul profile (wave 8).
  void (*copy_fractals)(uint8_t* dst, uint64_t dst_step, const uint8_t* src, uint64_t src_step, uint32_t count);
};

// The AVX-512 table, or null (no AVX-512F/BW, or NPURT_SIM_ISA=generic/avx2).
const MoveKernels* move_kernels();

}  // namespace npurt::sim::cube
