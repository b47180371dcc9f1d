// cube_gemm.h: the host micro-kernels behind Mmad (internal to libnpurt).
//
// float path (every operand type): operands are packed to float first
// (cube_mmad.cc; fp16 with the AVX-512 converters of cube_pack_avx512.cc when
// the CPU has them): A row-major [m16][k], B in panels of 16 columns
// [n16 / 16][k][16]; C is L0C's Nz layout (column block j at c + j * m16 * 16).
// Every float kernel computes, for every cell, c = fma(a[i][kk], b[kk][j], c)
// for kk = 0 .. k-1 in order, so all ISAs give bit-identical results (the
// scalar reference in the tests does the same).
// bfloat16 path (AMX-BF16, cube_gemm_amx.cc): A packed [m16][k32] bf16, B in
// VNNI panels [n16 / 16][k32 / 2][16][2] (or A in place, gemm_amx_bf16_zz); the same in-order sum except for
// denormals (flushed) and the sign of an all-zero sum (see that file).
// Invariants: m16 is a multiple of 16, k >= 1, k32 a multiple of 32, nblocks >= 1.
#pragma once

#include <cstdint>

#include "aicore/host_isa.h"  // npurt::sim::cube_isa(), defined in cube_mmad.cc
#include "npurt/export.h"

namespace npurt::sim::cube {

// zero: C starts at +0 (Mmad's cmatrixInitVal without bias) and its old
// content is never read, else the kernel accumulates onto C.
using GemmFn = void (*)(float* c, uint32_t m16, uint32_t nblocks, uint32_t k, const float* ap,
                        const float* bp, bool zero);
using AmxBf16Fn = void (*)(float* c, uint32_t m16, uint32_t nblocks, uint32_t k32, const uint16_t* ap,
                           const uint16_t* bp, bool zero);
using PackF16Fn = void (*)(float* dst, const uint16_t* src, uint32_t rows, uint32_t rows16, uint32_t k);

void gemm_generic(float* c, uint32_t m16, uint32_t nblocks, uint32_t k, const float* ap,
                  const float* bp, bool zero);
// Null when the binary or the CPU lacks AVX-512F.
GemmFn gemm_avx512();
// The same kernel and sums, A given as L0A's float Zz fractals (16 rows x 8
// floats, ceil(k / 8) fractals per 16-row group) instead of packed rows; every
// row of the m16 rows is used, so Mmad takes it only when m is a multiple of 16.
GemmFn gemm_avx512_zz();
// Null without AMX-BF16 (CPU, OS support or the XTILEDATA permission).
AmxBf16Fn gemm_amx_bf16();
// The same sums with A read in place from L0A's bf16 Zz fractals (16 rows x 16
// k each) and B in VNNI panels padded to a multiple of 16 k (pack_b_bf16 with
// k32 = that k16): no A packing. Every A row and k column is used, so Mmad takes
// it only when m and k are multiples of 16. 16 k per TDPBF16PS instead of 32
// and no +0 padding: the last bits can differ from the packed kernel's (both
// within the AMX bound).
AmxBf16Fn gemm_amx_bf16_zz();
void pack_a_bf16(uint16_t* ap, const uint16_t* a, uint32_t m, uint32_t m16, uint32_t k, uint32_t k32);
void pack_b_bf16(uint16_t* bp, const uint16_t* b, uint32_t n, uint32_t k, uint32_t k32);
// AVX-512 fp16 -> float packers with the layouts of the float path (null without AVX-512F):
// A: Zz fractals of m rows -> [rows16][k]; B: Zn fractals of n columns -> panels [n16/16][k][16].
PackF16Fn pack_a_f16_avx512();
PackF16Fn pack_b_f16_avx512();
using PackBF32Fn = void (*)(float* bp, const float* b, uint32_t n, uint32_t k);
PackBF32Fn pack_b_f32_avx512();  // float Zn -> panels (null without AVX-512F)

// The kernels in use. NPURT_SIM_ISA=generic (or avx2) forces the portable
// float kernel and scalar packing; NPURT_SIM_ISA=avx512 keeps AVX-512 but not
// AMX; otherwise the best the CPU has.
GemmFn gemm_best();
GemmFn gemm_zz_best();  // null unless gemm_best() is the AVX-512 kernel
AmxBf16Fn amx_best();
AmxBf16Fn amx_zz_best();  // null unless amx_best() is set
bool simd_pack_enabled();
const char* gemm_isa_name();

}  // namespace npurt::sim::cube
