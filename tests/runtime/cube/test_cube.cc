// tests/runtime/cube/test_cube.cc: the simulated cube unit (Nd2Nz, LoadData,
// Mmad, Fixpipe) driven by the matmul tile kernel, against a scalar reference
// that sums k in order with fmaf: the float path is specified to be
// bit-identical to it on every ISA (cube_gemm.h); the AMX-BF16 path is held to
// the fp32 accumulation bound instead. Also checked against a float64 reference
// within fp32 bounds, on both host micro-kernels, and the cube's diagnostics.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../backends/sim/aicore/aicore_test_util.h"
#include "../../../kernels/matmul/matmul_tile.h"
#include "backends/sim/aicore/cube_gemm.h"

using namespace aicore_test;

namespace {

struct TileTiling {
  uint32_t m, n, K, kStep, transB;
  uint32_t transA = 0, kL1A = 0, kL1B = 0;  // a stored [K, m]; K per L1 chunk (0: kStep)
};

template <class T, class Tout>
void tile_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(TileTiling, t, tiling);
  AscendC::TPipe pipe;
  npurt_kernels::CubeTile<T, Tout> tile;
  tile.Init(pipe, {t.m, t.n, t.kStep, false, t.kL1A, t.kL1B});
  AscendC::GlobalTensor<T> ga, gb;
  AscendC::GlobalTensor<Tout> gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a), uint64_t{t.m} * t.K);
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b), uint64_t{t.n} * t.K);
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ Tout*>(c), uint64_t{t.m} * t.n);
  if (t.transA == 0) {  // the classic single-contribution form
    tile.Compute(ga, t.K, gb, t.transB ? t.K : t.n, t.transB != 0, gc, t.n, t.m, t.n, t.K);
    return;
  }
  tile.Begin();
  tile.Accumulate({ga, t.m, true}, {gb, t.transB ? t.K : t.n, t.transB != 0}, t.m, t.n, t.K);
  tile.Finish(gc, t.n, t.m, t.n);
}

#define TILE_ENTRY(name, T, Tout)                                           \
  void name(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR w, GM_ADDR t) {     \
    tile_kernel<T, Tout>(a, b, c, w, t);                                 \
  }
TILE_ENTRY(tile_f32, float, float)
TILE_ENTRY(tile_f16, half, float)
TILE_ENTRY(tile_f16_out16, half, half)
TILE_ENTRY(tile_bf16, bfloat16_t, float)
TILE_ENTRY(tile_bf16_out16, bfloat16_t, bfloat16_t)

template <class T>
float as_f(T v) {
  return static_cast<float>(v);
}

// bfloat16 operands take the AMX path when the host has it.
template <class T>
bool amx_bf16() {
  return std::is_same_v<T, bfloat16_t> && npurt::sim::cube::amx_best() != nullptr;
}

template <class T, class Tout>
void run_tile(npurt::SimKernelEntry entry, uint32_t m, uint32_t n, uint32_t K, uint32_t kStep,
              bool transB, npurt::SimCheckLevel level, uint32_t seed, bool transA = false, uint32_t kL1A = 0,
              uint32_t kL1B = 0) {
  SimLaunch L(entry, "cube_tile");
  T* a = L.gm<T>(uint64_t{m} * K, "a");
  T* b = L.gm<T>(uint64_t{n} * K, "b");
  Tout* c = L.gm<Tout>(uint64_t{m} * n, "c");
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-2.0f, 2.0f);
  std::vector<float> af(uint64_t{m} * K), bf(uint64_t{K} * n);  // bf: [K][n]
  for (uint64_t i = 0; i < af.size(); ++i) {  // af: [m][K]; a stored [K][m] when transA
    const uint64_t row = i / K, kk = i % K;
    T& v = transA ? a[kk * m + row] : a[i];
    v = T(d(rng));
    af[i] = as_f(v);
  }
  for (uint32_t kk = 0; kk < K; ++kk)
    for (uint32_t j = 0; j < n; ++j) {
      T v = T(d(rng));
      (transB ? b[uint64_t{j} * K + kk] : b[uint64_t{kk} * n + j]) = v;
      bf[uint64_t{kk} * n + j] = as_f(v);
    }
  L.tiling(TileTiling{m, n, K, kStep, transB ? 1u : 0u, transA ? 1u : 0u, kL1A, kL1B});
  npurt::Status s = L.run(1, level);
  ASSERT_TRUE(s.is_ok()) << s.message();
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      double exact = 0.0;
      for (uint32_t kk = 0; kk < K; ++kk) {
        acc = std::fmaf(af[uint64_t{i} * K + kk], bf[uint64_t{kk} * n + j], acc);
        exact += double(af[uint64_t{i} * K + kk]) * bf[uint64_t{kk} * n + j];
      }
      Tout want = Tout(acc);
      Tout got = c[uint64_t{i} * n + j];
      // fp32 accumulation of exact products: |err| <= K * 2^-24 * sum|a||b| (sum |.| <= 4K).
      const double bound = 4.0 * K * K * 6e-8 + 1e-6;
      if (amx_bf16<T>()) {  // AMX sums each pair its own way: the bound, not the bits (cube_gemm_amx.cc)
        const double out_ulp = sizeof(Tout) == 2 ? std::fabs(exact) * 0x1p-8 : 0.0;
        ASSERT_NEAR(double(as_f(got)), exact, bound + out_ulp) << "m=" << m << " n=" << n << " K=" << K;
        continue;
      }
      ASSERT_EQ(0, std::memcmp(&want, &got, sizeof(Tout)))
          << "m=" << m << " n=" << n << " K=" << K << " at (" << i << "," << j
          << "): got " << as_f(got) << " want " << as_f(want);
      ASSERT_NEAR(double(acc), exact, bound);
    }
}

const npurt::SimCheckLevel kLevels[] = {kOff, kBasic, kFull};

TEST(Cube, Fp32BothLayoutsAgainstReference) {
  for (auto level : kLevels)
    for (bool transB : {false, true})
    for (auto [m, n, K] : {std::tuple{1u, 1u, 1u}, {16u, 16u, 8u}, {17u, 33u, 9u}, {63u, 65u, 130u},
                           {128u, 128u, 128u}, {5u, 100u, 300u}})
      run_tile<float, float>(NPURT_SIM_ENTRY(tile_f32), m, n, K, 128, transB, level, m * 7 + K);
}

TEST(Cube, HalfAndBf16BothLayoutsAgainstReference) {
  for (auto level : kLevels)
    for (bool transB : {false, true})
      for (auto [m, n, K] : {std::tuple{1u, 1u, 1u}, {16u, 16u, 16u}, {33u, 17u, 40u},
                             {64u, 63u, 65u}, {128u, 128u, 512u}}) {
        run_tile<half, float>(NPURT_SIM_ENTRY(tile_f16), m, n, K, 256, transB, level, m + n);
        run_tile<half, half>(NPURT_SIM_ENTRY(tile_f16_out16), m, n, K, 256, transB, level, m + K);
        run_tile<bfloat16_t, float>(NPURT_SIM_ENTRY(tile_bf16), m, n, K, 256, transB, level, n + K);
        run_tile<bfloat16_t, bfloat16_t>(NPURT_SIM_ENTRY(tile_bf16_out16), m, n, K, 256, transB,
                                         level, m);
      }
}

// GM -> L1 in chunks of several K steps (the matmul plan's kL1A / kL1B):
// every layout (A and A^T, B and B^T; float slabs and 2-byte Nz), chunks
// that do not divide K (a short last chunk, a last step shorter than kStep),
// A and B chunked differently. Each Mmad still runs its k in order, so the
// float results are the same bits as the in-order reference.
TEST(Cube, L1ChunksAllLayoutsAgainstReference) {
  for (auto level : {kOff, kFull})
    for (bool transA : {false, true})
      for (bool transB : {false, true})
        for (auto [m, n, K] : {std::tuple{1u, 1u, 1u}, {17u, 33u, 100u}, {48u, 40u, 200u}, {33u, 17u, 257u}}) {
          const uint32_t seed = m * 31 + K + (transA ? 7 : 0) + (transB ? 3 : 0);
          run_tile<float, float>(NPURT_SIM_ENTRY(tile_f32), m, n, K, 32, transB, level, seed, transA, 96, 64);
          run_tile<float, float>(NPURT_SIM_ENTRY(tile_f32), m, n, K, 16, transB, level, seed, transA, 32, 48);
          run_tile<half, float>(NPURT_SIM_ENTRY(tile_f16), m, n, K, 32, transB, level, seed, transA, 64, 96);
          run_tile<bfloat16_t, bfloat16_t>(NPURT_SIM_ENTRY(tile_bf16_out16), m, n, K, 64, transB, level, seed,
                                           transA, 192, 128);
        }
}

// Both host micro-kernels give the same bits (in-order fma per cell).
TEST(Cube, GemmKernelsAgree) {
  auto avx = npurt::sim::cube::gemm_avx512();
  if (avx == nullptr) GTEST_SKIP() << "no AVX-512 on this host";
  // Panel counts 1 .. 16 cover the triple, pair and single kernels and a remainder of 4 (two pairs).
  for (auto [m16, nb, k] : {std::tuple{16u, 1u, 1u}, {32u, 3u, 300u}, {128u, 8u, 257u}, {16u, 2u, 17u},
                            {48u, 4u, 64u}, {32u, 5u, 9u}, {16u, 7u, 33u}, {128u, 16u, 64u},
                            {256u, 8u, 64u}, {16u, 3u, 263u}, {32u, 5u, 512u}}) {
    std::mt19937 rng(k);
    std::normal_distribution<float> d;
    std::vector<float> ap(uint64_t{m16} * k), bp(uint64_t{nb} * k * 16), c1(uint64_t{nb} * m16 * 16);
    for (float& v : ap) v = d(rng);
    for (float& v : bp) v = d(rng);
    for (float& v : c1) v = d(rng);
    for (bool zero : {false, true}) {  // zero: C starts at +0 and the old C (NaN for the AVX kernel) is not read
      std::vector<float> g = c1, v = c1;
      if (zero) std::fill(v.begin(), v.end(), NAN);
      npurt::sim::cube::gemm_generic(g.data(), m16, nb, k, ap.data(), bp.data(), zero);
      avx(v.data(), m16, nb, k, ap.data(), bp.data(), zero);
      ASSERT_EQ(0, std::memcmp(g.data(), v.data(), g.size() * sizeof(float))) << m16 << " " << k << " " << zero;
      // The Zz form (A read in place from L0A's 16 x 8 fractals; its k loop
      // runs whole fractals plus a tail): the same bits.
      const uint32_t kbs = (k + 7) / 8;
      std::vector<float> zz(uint64_t{m16 / 16} * kbs * 128, NAN), z = c1;
      for (uint32_t i = 0; i < m16; ++i)
        for (uint32_t kk = 0; kk < k; ++kk)
          zz[(uint64_t{i / 16} * kbs + kk / 8) * 128 + (i % 16) * 8 + kk % 8] = ap[uint64_t{i} * k + kk];
      if (zero) std::fill(z.begin(), z.end(), NAN);
      npurt::sim::cube::gemm_avx512_zz()(z.data(), m16, nb, k, zz.data(), bp.data(), zero);
      ASSERT_EQ(0, std::memcmp(g.data(), z.data(), g.size() * sizeof(float))) << "zz " << m16 << " " << k;
    }
  }
}

// The AMX kernel reading A in place from L0A's bf16 Zz fractals (16 k per
// product) against the one on packed rows (32 k per product). TDPBF16PS does
// not add a tile's products strictly in k order (the two kernels differ in
// the last bits, measured), so both are held to Mmad's AMX contract: within
// the fp32 accumulation bound of the exact sum (cube_gemm_amx.cc). Row counts
// cover 32-row groups plus a last 16-row one, panel counts pairs plus a single;
// C accumulates (zero false) or starts at +0 (the old C, NaN, must not be read).
double bf16_value(uint16_t v) {
  const uint32_t bits = uint32_t{v} << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

TEST(Cube, AmxZzAgreesWithPackedRows) {
  namespace cube = npurt::sim::cube;
  if (cube::amx_best() == nullptr || cube::amx_zz_best() == nullptr) GTEST_SKIP() << "no AMX-BF16 on this host";
  // k 48 and 80: the packed kernel pads to 64 / 96 k, the in-place one to 16 only.
  for (auto [m16, nb, k] : {std::tuple{16u, 1u, 32u}, {48u, 3u, 64u}, {128u, 8u, 64u}, {128u, 4u, 128u},
                            {32u, 5u, 256u}, {16u, 2u, 16u}, {48u, 3u, 48u}, {32u, 1u, 80u}}) {
    std::mt19937 rng(m16 * 1000 + k);
    std::normal_distribution<float> d;
    auto bf16 = [&] {  // a normal value rounded toward zero to bfloat16
      const float f = d(rng);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      return uint16_t(bits >> 16);
    };
    const uint32_t kb = k / 16, k32 = (k + 31) / 32 * 32;
    std::vector<uint16_t> rows(uint64_t{m16} * k), zz(rows.size()), bz(uint64_t{nb} * k * 16), bz16(bz.size()),
        ap(uint64_t{m16} * k32), bp(uint64_t{nb} * k32 * 16);
    for (uint32_t i = 0; i < m16; ++i)
      for (uint32_t kk = 0; kk < k; ++kk)
        zz[(uint64_t{i / 16} * kb + kk / 16) * 256 + (i % 16) * 16 + kk % 16] = rows[uint64_t{i} * k + kk] = bf16();
    for (uint16_t& v : bz) v = bf16();
    cube::pack_a_bf16(ap.data(), zz.data(), m16, m16, k, k32);
    cube::pack_b_bf16(bp.data(), bz.data(), nb * 16, k, k32);
    cube::pack_b_bf16(bz16.data(), bz.data(), nb * 16, k, k);
    std::vector<float> c0(uint64_t{nb} * m16 * 16);
    for (float& v : c0) v = d(rng);
    for (bool zero : {false, true}) {
      std::vector<float> want = c0, got = c0;
      if (zero) std::fill(got.begin(), got.end(), NAN);
      cube::amx_best()(want.data(), m16, nb, k32, ap.data(), bp.data(), zero);
      cube::amx_zz_best()(got.data(), m16, nb, k, zz.data(), bz16.data(), zero);
      for (uint32_t j = 0; j < nb * 16; ++j)
        for (uint32_t i = 0; i < m16; ++i) {
          double exact = zero ? 0.0 : c0[(uint64_t{j / 16} * m16 + i) * 16 + j % 16], mag = std::fabs(exact);
          for (uint32_t kk = 0; kk < k; ++kk) {
            const double x = bf16_value(rows[uint64_t{i} * k + kk]);
            const double y = bf16_value(bz[(uint64_t{kk / 16} * nb + j / 16) * 256 + (j % 16) * 16 + kk % 16]);
            exact += x * y;
            mag += std::fabs(x * y);
          }
          const uint64_t at = (uint64_t{j / 16} * m16 + i) * 16 + j % 16;
          const double bound = (k + 1) * 0x1p-24 * mag + 1e-30;
          ASSERT_NEAR(want[at], exact, bound) << "packed m16=" << m16 << " k=" << k << " zero=" << zero;
          ASSERT_NEAR(got[at], exact, bound) << "zz m16=" << m16 << " k=" << k << " zero=" << zero;
        }
    }
  }
}

TEST(Cube, NanAndInfPropagate) {
  SimLaunch L(NPURT_SIM_ENTRY(tile_f32), "cube_tile");
  const uint32_t m = 3, n = 2, K = 4;
  float* a = L.gm<float>(m * K);
  float* b = L.gm<float>(n * K);
  float* c = L.gm<float>(m * n);
  for (uint32_t i = 0; i < m * K; ++i) a[i] = 1.0f;
  for (uint32_t i = 0; i < n * K; ++i) b[i] = 1.0f;
  a[0 * K + 1] = NAN;       // row 0 -> NaN everywhere
  a[1 * K + 2] = INFINITY;  // row 1 -> +inf
  L.tiling(TileTiling{m, n, K, 128, 1});
  ASSERT_TRUE(L.run(1, kFull).is_ok());
  EXPECT_TRUE(std::isnan(c[0]) && std::isnan(c[1]));
  EXPECT_TRUE(std::isinf(c[2]) && c[2] > 0 && std::isinf(c[3]));
  EXPECT_EQ(c[4], 4.0f);
  EXPECT_EQ(c[5], 4.0f);
}

}  // namespace
