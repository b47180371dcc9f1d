// kernels/matmul/matmul_kernel.cc: the `matmul` Ascend C kernel (cube unit).
// Block i computes output tiles i, i + numBlocks, ... of MatmulTiling, each
// with CubeTile (GM -> L1 Nz -> L0A/L0B -> Mmad -> Fixpipe with the cast back
// to the input type). One entry serves the three dtypes (tiling.dtype).
#include "kernel_operator.h"
#include "matmul/matmul_tile.h"
#include "matmul/matmul_tiling.h"
#include "npurt/backend.h"

namespace npurt_kernels {
namespace {

template <class T>
__aicore__ void RunMatmul(GM_ADDR a, GM_ADDR b, GM_ADDR y, const MatmulTiling& t) {
  AscendC::TPipe pipe;
  CubeTile<T, T> tile;
  tile.Init(pipe, {t.baseM, t.baseN, t.kStep});
  const uint64_t aMat = uint64_t{t.M} * t.K, bMat = uint64_t{t.K} * t.N, yMat = uint64_t{t.M} * t.N;
  AscendC::GlobalTensor<T> ga, gb, gy;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a), aMat * t.batch);
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b), bMat * (t.bBatched ? t.batch : 1));
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), yMat * t.batch);
  const uint32_t perBatch = t.tilesM * t.tilesN;
  const uint32_t ldb = t.transB ? t.K : t.N;
  for (uint64_t tileIdx = AscendC::GetBlockIdx(); tileIdx < uint64_t{perBatch} * t.batch;
       tileIdx += AscendC::GetBlockNum()) {
    const uint32_t bi = static_cast<uint32_t>(tileIdx / perBatch), r = static_cast<uint32_t>(tileIdx % perBatch);
    const uint32_t m0 = (r / t.tilesN) * t.baseM, n0 = (r % t.tilesN) * t.baseN;
    const uint32_t m = t.M - m0 < t.baseM ? t.M - m0 : t.baseM;
    const uint32_t n = t.N - n0 < t.baseN ? t.N - n0 : t.baseN;
    const uint64_t bOff = (t.bBatched ? bi * bMat : 0) + (t.transB ? uint64_t{n0} * t.K : n0);
    tile.Compute(ga[bi * aMat + uint64_t{m0} * t.K], t.K, gb[bOff], ldb, t.transB != 0,
                 gy[bi * yMat + uint64_t{m0} * t.N + n0], t.N, m, n, t.K);
  }
}

}  // namespace

extern "C" __global__ __aicore__ void npurt_matmul_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR y,
                                                          GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(MatmulTiling, t, tiling);
  switch (static_cast<MatmulDType>(t.dtype)) {
    case MatmulDType::kF32: RunMatmul<float>(a, b, y, t); break;
    case MatmulDType::kF16: RunMatmul<half>(a, b, y, t); break;
    case MatmulDType::kBF16: RunMatmul<bfloat16_t>(a, b, y, t); break;
  }
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
npurt::SimKernelEntry npurt_matmul_entry() { return NPURT_SIM_ENTRY(npurt_matmul_kernel); }
#endif  // NPURT_ASCEND_DEVICE_BUILD

}  // namespace npurt_kernels
