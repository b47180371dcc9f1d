// kernels/matmul/matmul_kernel.cc: the `matmul` and `matmul_backward` Ascend C
// kernels (cube unit). Both walk the problem list of MatmulTiling: block i
// computes a contiguous range of the tiles of all problems, each with CubeTile
// (GM -> L1 Nz -> L0A/L0B -> Mmad -> Fixpipe with the cast to the output
// type), summing the reduction batch in L0C. One entry per op serves every
// dtype pair (tiling.dtype / tiling.outDtype).
#include "kernel_operator.h"
#include "matmul/matmul_tile.h"
#include "matmul/matmul_tiling.h"
#include "npurt/backend.h"

namespace npurt_kernels {
namespace {

// Element offsets of X and W for batch index `idx` over dims [first, first + count).
__aicore__ void BatchOffsets(const MatmulProblem& p, uint32_t first, uint32_t count, uint64_t idx,
                             uint64_t& offX, uint64_t& offW) {
  for (uint32_t d = first + count; d-- > first;) {
    const uint64_t i = idx % p.shape[d];
    idx /= p.shape[d];
    offX += i * p.strideX[d];
    offW += i * p.strideW[d];
  }
}

// Tile order within a problem. A tile reads baseM x K of op(X) and K x baseN
// of op(W); walking the tiles so that consecutive ones share the larger of the
// two (column-major when baseN > baseM: the same W panel for every tile row)
// makes the other operand the only one re-read, which for 1024^3 float32 with
// 128 x 256 tiles cuts one block's GM -> L1 traffic from 18 to 10 MiB
// (row-major: all of W per tile row). Hardware: more L2 hits; sim: host L2.
__aicore__ inline bool TileOrderMFast(const MatmulTiling& t) { return t.baseN > t.baseM; }

template <class T, class Tout>
__aicore__ void RunTile(CubeTile<T, Tout>& tile, const MatmulTiling& t, const MatmulProblem& p,
                        GM_ADDR const* args, uint64_t tileIdx) {
  const uint64_t perBatch = uint64_t{p.tilesM} * p.tilesN;
  const uint64_t o = tileIdx / perBatch, r = tileIdx % perBatch;
  // Consecutive tiles share the operand whose tile is larger (TileOrderMFast):
  // its GM lines then come from a warm cache instead of GM.
  const bool mFast = TileOrderMFast(t);
  const uint32_t tm = static_cast<uint32_t>(mFast ? r % p.tilesM : r / p.tilesN);
  const uint32_t tn = static_cast<uint32_t>(mFast ? r / p.tilesM : r % p.tilesN);
  const uint32_t m0 = tm * t.baseM, n0 = tn * t.baseN;
  const uint32_t m = p.M - m0 < t.baseM ? p.M - m0 : t.baseM;
  const uint32_t n = p.N - n0 < t.baseN ? p.N - n0 : t.baseN;
  AscendC::GlobalTensor<T> gx, gw;
  AscendC::GlobalTensor<Tout> gc;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(args[p.argX]), p.sizeX);
  gw.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(args[p.argW]), p.sizeW);
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ Tout*>(args[p.argC]), p.outCount * p.M * p.N);
  tile.Begin();
  if (t.bias == static_cast<uint32_t>(MatmulBias::kF32)) {
    AscendC::GlobalTensor<float> gb;
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(args[2]), p.N);
    tile.LoadBias(gb[n0], n);
  } else if (t.bias == static_cast<uint32_t>(MatmulBias::kInput)) {
    AscendC::GlobalTensor<T> gb;
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(args[2]), p.N);
    tile.LoadBias(gb[n0], n);
  }
  uint64_t baseX = 0, baseW = 0;
  BatchOffsets(p, 0, p.nOut, o, baseX, baseW);
  // Tile origin inside one stored matrix: rows of op(X) are m, columns of op(W) are n.
  baseX += p.transX ? m0 : uint64_t{m0} * p.ldx;
  baseW += p.transW ? uint64_t{n0} * p.ldw : n0;
  for (uint64_t red = 0; red < p.redCount; ++red) {
    uint64_t offX = baseX, offW = baseW;
    BatchOffsets(p, p.nOut, p.nRed, red, offX, offW);
    tile.Accumulate({gx[offX], p.ldx, p.transX != 0}, {gw[offW], p.ldw, p.transW != 0}, m, n, p.K);
  }
  tile.Finish(gc[(o * p.M + m0) * p.N + n0], p.N, m, n);
}

template <class T, class Tout>
__aicore__ void RunProblems(GM_ADDR const* args, const MatmulTiling& t) {
  AscendC::TPipe pipe;
  CubeTile<T, Tout> tile;
  tile.Init(pipe, {t.baseM, t.baseN, t.kStep, t.bias != static_cast<uint32_t>(MatmulBias::kNone), t.kL1A,
                  t.kL1B});
  // Block b takes the contiguous range [b * total / blocks, (b + 1) * total / blocks)
  // of the list of all problems' tiles (in TileOrderMFast's order within a
  // problem): its consecutive tiles share the same A rows or W panel, which
  // then come from a warm cache (L2 on hardware, the host's caches in the sim).
  uint64_t total = 0;
  for (uint32_t i = 0; i < t.nProblems; ++i) total += uint64_t{t.p[i].tilesM} * t.p[i].tilesN * t.p[i].outCount;
  const uint64_t blocks = AscendC::GetBlockNum(), b = AscendC::GetBlockIdx();
  const uint64_t begin = total * b / blocks, end = total * (b + 1) / blocks;
  uint64_t first = 0;
  for (uint32_t i = 0; i < t.nProblems && first < end; ++i) {
    const MatmulProblem& p = t.p[i];
    const uint64_t tiles = uint64_t{p.tilesM} * p.tilesN * p.outCount;
    const uint64_t lo = begin > first ? begin : first, hi = end < first + tiles ? end : first + tiles;
    for (uint64_t idx = lo; idx < hi; ++idx) RunTile(tile, t, p, args, idx - first);
    first += tiles;
  }
}

template <class T>
__aicore__ void DispatchOut(GM_ADDR const* args, const MatmulTiling& t) {
  switch (static_cast<MatmulDType>(t.outDtype)) {
    case MatmulDType::kF32: RunProblems<T, float>(args, t); break;
    case MatmulDType::kF16: RunProblems<T, half>(args, t); break;
    case MatmulDType::kBF16: RunProblems<T, bfloat16_t>(args, t); break;
  }
}

__aicore__ void Dispatch(GM_ADDR const* args, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(MatmulTiling, t, tiling);
  switch (static_cast<MatmulDType>(t.dtype)) {
    case MatmulDType::kF32: DispatchOut<float>(args, t); break;
    case MatmulDType::kF16: DispatchOut<half>(args, t); break;
    case MatmulDType::kBF16: DispatchOut<bfloat16_t>(args, t); break;
  }
}

}  // namespace

extern "C" __global__ __aicore__ void npurt_matmul_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR y,
                                                          GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  GM_ADDR args[4] = {a, b, bias, y};
  Dispatch(args, tiling);
}

extern "C" __global__ __aicore__ void npurt_matmul_backward_kernel(GM_ADDR dy, GM_ADDR a, GM_ADDR b,
                                                                   GM_ADDR da, GM_ADDR db,
                                                                   GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  GM_ADDR args[5] = {dy, a, b, da, db};
  Dispatch(args, tiling);
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
npurt::SimKernelEntry npurt_matmul_entry() { return NPURT_SIM_ENTRY(npurt_matmul_kernel); }
npurt::SimKernelEntry npurt_matmul_backward_entry() { return NPURT_SIM_ENTRY(npurt_matmul_backward_kernel); }
#endif  // NPURT_ASCEND_DEVICE_BUILD

}  // namespace npurt_kernels
