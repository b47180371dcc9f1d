// tests/runtime/cube/test_matmul_api.cc: the high-level Matmul API
// (lib/matmul_intf.h) driven by a kernel written like CANN's matmul_custom
// sample (REGIST_MATMUL_OBJ, per-core offsets from TCubeTiling, SetTail,
// IterateAll or Iterate/GetTensorC), against a float64 reference within the
// fp32 accumulation bound; and its misuse diagnostics.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "../backends/sim/aicore/aicore_test_util.h"
#include "lib/matmul_intf.h"

using namespace aicore_test;
using namespace AscendC;

namespace {

struct ApiTiling {
  TCubeTiling cube;
  uint32_t transA, transB, useIterate;
};

template <class T, class Tout>
void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace, GM_ADDR tilingGm) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(ApiTiling, t, tilingGm);
  const TCubeTiling& tiling = t.cube;
  GlobalTensor<T> gA, gB;
  GlobalTensor<Tout> gC;
  GlobalTensor<float> gBias;
  gA.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a), uint64_t(tiling.M) * tiling.Ka);
  gB.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b), uint64_t(tiling.Kb) * tiling.N);
  gC.SetGlobalBuffer(reinterpret_cast<__gm__ Tout*>(c), uint64_t(tiling.M) * tiling.N);
  gBias.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), tiling.N);
  TPipe pipe;
  using namespace matmul;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, T>, MatmulType<TPosition::GM, CubeFormat::ND, T>,
         MatmulType<TPosition::GM, CubeFormat::ND, Tout>, MatmulType<TPosition::GM, CubeFormat::ND, float>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  // The sample's CalcGMOffset: cores laid out M-major over singleCoreM x singleCoreN blocks.
  const int mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
  const int mIdx = GetBlockIdx() % mBlocks, nIdx = GetBlockIdx() / mBlocks;
  const uint64_t offA = t.transA ? uint64_t(mIdx) * tiling.singleCoreM : uint64_t(mIdx) * tiling.Ka * tiling.singleCoreM;
  const uint64_t offB = t.transB ? uint64_t(nIdx) * tiling.Kb * tiling.singleCoreN : uint64_t(nIdx) * tiling.singleCoreN;
  const uint64_t offC = uint64_t(mIdx) * tiling.N * tiling.singleCoreM + uint64_t(nIdx) * tiling.singleCoreN;
  const int tailM = std::min(tiling.singleCoreM, tiling.M - mIdx * tiling.singleCoreM);
  const int tailN = std::min(tiling.singleCoreN, tiling.N - nIdx * tiling.singleCoreN);
  mm.SetTail(tailM, tailN);
  mm.SetTensorA(gA[offA], t.transA != 0);
  mm.SetTensorB(gB[offB], t.transB != 0);
  if (tiling.isBias) mm.SetBias(gBias[uint64_t(nIdx) * tiling.singleCoreN]);
  if (t.useIterate) {
    while (mm.Iterate()) mm.GetTensorC(gC[offC]);
  } else {
    mm.IterateAll(gC[offC]);
  }
  mm.End();
}

void mm_f32(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR w, GM_ADDR t) { matmul_custom<float, float>(a, b, bias, c, w, t); }
void mm_f16(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR w, GM_ADDR t) { matmul_custom<half, float>(a, b, bias, c, w, t); }
void mm_bf16(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR w, GM_ADDR t) { matmul_custom<bfloat16_t, float>(a, b, bias, c, w, t); }

struct Shape {
  int m, n, k;
};

template <class T>
void run_api(npurt::SimKernelEntry entry, Shape s, bool transA, bool transB, bool bias, bool iterate,
             npurt::SimCheckLevel level) {
  const npurt::ChipProfile& prof = npurt::chip_profile("Ascend910B3");
  ApiTiling at{};
  ASSERT_TRUE(matmul_tiling::GetCubeTiling(at.cube, s.m, s.n, s.k, sizeof(T), bias,
                                           {4, prof.l1_bytes, prof.l0a_bytes, prof.l0b_bytes, prof.l0c_bytes}));
  at.transA = transA;
  at.transB = transB;
  at.useIterate = iterate;
  SimLaunch L(entry, "matmul_custom");
  T* a = L.gm<T>(uint64_t(s.m) * s.k, "a");
  T* b = L.gm<T>(uint64_t(s.k) * s.n, "b");
  float* bv = L.gm<float>(s.n, "bias");
  float* c = L.gm<float>(uint64_t(s.m) * s.n, "c");
  L.workspace(1024);
  L.tiling(at);
  std::mt19937 rng(s.m * 31 + s.k);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<double> A(uint64_t(s.m) * s.k), B(uint64_t(s.k) * s.n);  // logical [m][k], [k][n]
  for (int i = 0; i < s.m; ++i)
    for (int kk = 0; kk < s.k; ++kk) {
      T v = T(d(rng));
      (transA ? a[uint64_t(kk) * s.m + i] : a[uint64_t(i) * s.k + kk]) = v;
      A[uint64_t(i) * s.k + kk] = double(static_cast<float>(v));
    }
  for (int kk = 0; kk < s.k; ++kk)
    for (int j = 0; j < s.n; ++j) {
      T v = T(d(rng));
      (transB ? b[uint64_t(j) * s.k + kk] : b[uint64_t(kk) * s.n + j]) = v;
      B[uint64_t(kk) * s.n + j] = double(static_cast<float>(v));
    }
  for (int j = 0; j < s.n; ++j) bv[j] = d(rng);
  npurt::Status st = L.run(uint32_t(at.cube.usedCoreNum), level);
  ASSERT_TRUE(st.is_ok()) << st.message();
  for (int i = 0; i < s.m; ++i)
    for (int j = 0; j < s.n; ++j) {
      double ref = bias ? bv[j] : 0.0, mag = std::fabs(ref);
      for (int kk = 0; kk < s.k; ++kk) {
        ref += A[uint64_t(i) * s.k + kk] * B[uint64_t(kk) * s.n + j];
        mag += std::fabs(A[uint64_t(i) * s.k + kk] * B[uint64_t(kk) * s.n + j]);
      }
      ASSERT_NEAR(c[uint64_t(i) * s.n + j], ref, (s.k + 1) * 0x1p-24 * mag + 1e-30)
          << "m=" << s.m << " n=" << s.n << " k=" << s.k << " tA=" << transA << " tB=" << transB << " at (" << i
          << "," << j << ")";
    }
}

TEST(MatmulApi, SampleKernelMatchesReference) {
  for (Shape s : {Shape{1, 1, 1}, {15, 33, 17}, {64, 48, 100}, {130, 40, 300}, {33, 200, 65}})
    for (bool tA : {false, true})
      for (bool tB : {false, true}) {
        run_api<float>(NPURT_SIM_ENTRY(mm_f32), s, tA, tB, (s.m + tA) % 2 == 0, tB, kFull);
        run_api<half>(NPURT_SIM_ENTRY(mm_f16), s, tA, tB, true, !tB, kBasic);
        run_api<bfloat16_t>(NPURT_SIM_ENTRY(mm_bf16), s, tA, tB, false, false, kBasic);
      }
}

// Misuse: each mode breaks one rule of lib/matmul_intf.h.
struct Mode {
  uint32_t mode;
};

void misuse(GM_ADDR a, GM_ADDR c, GM_ADDR workspace, GM_ADDR tilingGm) {
  GET_TILING_DATA_WITH_STRUCT(Mode, md, tilingGm);
  TCubeTiling t;
  t.M = t.N = t.Ka = t.Kb = t.singleCoreM = t.singleCoreN = t.singleCoreK = 16;
  t.baseM = t.baseN = t.baseK = 16;
  if (md.mode == 3) t.baseK = 24;                       // not a fractal multiple
  if (md.mode == 6) t.baseM = t.baseN = 128, t.baseK = 512;  // 128 x 512 floats > L0A
  GlobalTensor<float> ga, gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a), 256);
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), 256);
  TPipe pipe;
  using Ty = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
  matmul::Matmul<Ty, Ty, Ty> mm;
  REGIST_MATMUL_OBJ(&pipe, md.mode == 1 ? nullptr : workspace, mm, &t);
  if (md.mode == 2) mm.IterateAll(gc);  // no SetTensorA
  mm.SetTensorA(ga);
  mm.SetTensorB(ga);
  if (md.mode == 4) mm.SetBias(ga);     // isBias = 0
  if (md.mode == 5) mm.GetTensorC(gc);  // nothing computed
  if (md.mode == 7) mm.Iterate(), mm.End();  // tile never taken
  mm.IterateAll(gc);
  mm.End();
}

TEST(MatmulApi, MisuseReportsErrorParam) {
  const std::pair<uint32_t, const char*> cases[] = {
      {1, "REGIST_MATMUL_OBJ"}, {2, "Matmul::Iterate"}, {3, "Matmul::Init"}, {4, "Matmul::SetBias"},
      {5, "Matmul::GetTensorC"}, {6, "Matmul::Init"}, {7, "Matmul::End"}};
  for (auto [mode, api] : cases) {
    SimLaunch L(NPURT_SIM_ENTRY(misuse), "mm_misuse");
    L.gm<float>(256, "a");
    L.gm<float>(256, "c");
    L.workspace(1024);
    L.tiling(Mode{mode});
    npurt::sim::AicoreReport report;
    npurt::Status s = L.run(1, kBasic, &report);
    ASSERT_FALSE(s.is_ok()) << "mode " << mode;
    ASSERT_EQ(report.diagnostics.size(), 1u);
    EXPECT_EQ(report.diagnostics[0].code, "ErrorParam") << s.message();
    EXPECT_EQ(report.diagnostics[0].api, api) << s.message();
  }
  SimLaunch ok(NPURT_SIM_ENTRY(misuse), "mm_clean");  // the runtime stays usable; mode 0 is clean
  float* a = ok.gm<float>(256, "a");
  float* c = ok.gm<float>(256, "c");
  for (int i = 0; i < 256; ++i) a[i] = (i % 16 == i / 16) ? 1.0f : 0.0f;  // identity
  ok.workspace(1024);
  ok.tiling(Mode{0});
  ASSERT_TRUE(ok.run(1, kFull).is_ok());
  for (int i = 0; i < 256; ++i) EXPECT_EQ(c[i], a[i]);
}

}  // namespace
