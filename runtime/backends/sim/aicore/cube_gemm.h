// cube_gemm.h: the host micro-kernels behind Mmad (internal to libnpurt).
//
// Operands are packed to float first (cube_mmad.cc): A row-major [m16][k],
// B in panels of 16 columns [n16 / 16][k][16]; C is L0C's Nz layout (column
// block j at c + j * m16 * 16). Every kernel computes, for every cell,
// c = fma(a[i][kk], b[kk][j], c) for kk = 0 .. k-1 in order, so all ISAs give
// bit-identical results (the scalar reference in the tests does the same).
// Invariants: m16 is a multiple of 16, k >= 1, nblocks >= 1.
#pragma once

#include <cstdint>

namespace npurt::sim::cube {

using GemmFn = void (*)(float* c, uint32_t m16, uint32_t nblocks, uint32_t k, const float* ap,
                        const float* bp);

void gemm_generic(float* c, uint32_t m16, uint32_t nblocks, uint32_t k, const float* ap,
                  const float* bp);
// Null when the binary or the CPU lacks AVX-512F.
GemmFn gemm_avx512();
// The kernel in use: AVX-512 when available unless NPURT_SIM_ISA is
// "generic" or "avx2" (the vector layer's switch), else the generic one.
GemmFn gemm_best();
const char* gemm_isa_name();

}  // namespace npurt::sim::cube
