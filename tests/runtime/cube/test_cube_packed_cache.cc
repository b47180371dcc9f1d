// tests/runtime/cube/test_cube_packed_cache.cc: Mmad's packed-operand cache
// (runtime/backends/sim/aicore/cube_packed_cache.h). A kernel runs ten Mmads
// on the same L0B buffer and two L0A buffers and changes them between the
// calls the way kernels do (new B only; nothing; a new A; one overwritten A
// fractal; then two A buffers used alternately, as attention's resident Q and
// its P tiles, one of them partly overwritten), and every result must equal a
// scalar reference of the L0 contents at that point: a stale packed copy would
// reproduce an earlier product. The cache must also really hit (the counters
// move; with one slot per operand the alternating A buffers would miss), for
// float (packed and in-place A), half and bfloat16 (AMX when the host has it).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "../backends/sim/aicore/aicore_test_util.h"
#include "backends/sim/aicore/cube_gemm.h"
#include "backends/sim/aicore/cube_packed_cache.h"

using namespace aicore_test;

namespace {

struct CacheTiling {
  uint32_t m, n, k;
};

constexpr int kResults = 10;

template <class T>
class Kernel {
 public:
  static constexpr uint32_t C0 = 32 / sizeof(T);

  __aicore__ void Run(GM_ADDR a1, GM_ADDR a2, GM_ADDR b1, GM_ADDR b2, GM_ADDR out, const CacheTiling& t) {
    t_ = t;
    m16_ = (t.m + 15) / 16 * 16;
    n16_ = (t.n + 15) / 16 * 16;
    kb_ = (t.k + C0 - 1) / C0;
    AscendC::TPipe pipe;
    pipe.InitBuffer(l1a_[0], m16_ * kb_ * C0 * sizeof(T));
    pipe.InitBuffer(l1a_[1], m16_ * kb_ * C0 * sizeof(T));
    pipe.InitBuffer(l1b_, n16_ * kb_ * C0 * sizeof(T));
    pipe.InitBuffer(l0a_[0], m16_ * kb_ * C0 * sizeof(T));
    pipe.InitBuffer(l0a_[1], m16_ * kb_ * C0 * sizeof(T));
    pipe.InitBuffer(l0b_, n16_ * kb_ * C0 * sizeof(T));
    pipe.InitBuffer(l0c_, m16_ * n16_ * sizeof(float));
    AscendC::GlobalTensor<float> o;
    o.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), uint64_t{kResults} * t.m * t.n);
    ToL1(l1a_[0].Get<T>(), a1, t.m);
    ToL1(l1a_[1].Get<T>(), a2, t.m);
    LoadA(l1a_[0].Get<T>(), 0, m16_ / 16 * kb_);  // A1
    LoadB(b1);
    MmadTo(o, 0);  // A1 B1: both packed
    LoadB(b2);
    MmadTo(o, 1);  // A1 B2: A from the cache
    MmadTo(o, 2);  // A1 B2 again: both from the cache
    LoadA(l1a_[1].Get<T>(), 0, m16_ / 16 * kb_);  // A2 over A1
    MmadTo(o, 3);  // A2 B2: A repacked
    // One fractal (rows 0..15, k C0..2 C0-1) of A1 over A2: a partial write invalidates too.
    LoadA(l1a_[0].Get<T>(), 1, 1);
    MmadTo(o, 4);  // A3 B2
    // A second L0A buffer used alternately with the first (attention's Q and P).
    LoadA(l1a_[0].Get<T>(), 0, m16_ / 16 * kb_, 1);  // A1 into buffer 1
    MmadTo(o, 5, 1);  // A1 B2: packed
    MmadTo(o, 6);     // A3 B2: buffer 0 still cached
    MmadTo(o, 7, 1);  // A1 B2: cached
    LoadA(l1a_[1].Get<T>(), 0, 1, 1);  // A2's fractal 0 over buffer 1: A4
    MmadTo(o, 8, 1);  // A4 B2: repacked
    MmadTo(o, 9);     // A3 B2: the write into buffer 1 left buffer 0's copy valid
  }

 private:
  // [rows, k] row-major GM -> L1 Nz (column blocks of C0, rows rounded to 16).
  __aicore__ void ToL1(const AscendC::LocalTensor<T>& dst, GM_ADDR src, uint32_t rows) {
    AscendC::GlobalTensor<T> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(src), uint64_t{rows} * t_.k);
    AscendC::Nd2NzParams p(1, static_cast<uint16_t>(rows), static_cast<uint16_t>(t_.k), 0,
                           static_cast<uint16_t>(t_.k), static_cast<uint16_t>((rows + 15) / 16 * 16), 1, 0);
    AscendC::DataCopy(dst, g, p);
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  // L0A Zz fractal (mb, kb) at mb * kb_ + kb from L1 fractal (kb, mb) at kb * m16/16 + mb.
  // Loads the Zz fractals [first, first + count) (in L0A order) into L0A buffer `buf`.
  __aicore__ void LoadA(const AscendC::LocalTensor<T>& l1, uint32_t first, uint32_t count, int buf = 0) {
    AscendC::LocalTensor<T> a2 = l0a_[buf].Get<T>();
    for (uint32_t f = first; f < first + count; ++f) {
      const uint32_t mb = f / kb_, kb = f % kb_;
      AscendC::LoadData2dParams lp;
      lp.repeatTimes = 1;
      lp.startIndex = static_cast<uint16_t>(kb * (m16_ / 16) + mb);
      AscendC::LoadData(a2[f * 16 * C0], l1, lp);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  // B given as B^T [n, k]: L1 Nz fractal (kb, nb) at kb * nb16 + nb, the Zn order of L0B.
  __aicore__ void LoadB(GM_ADDR b) {
    ToL1(l1b_.Get<T>(), b, t_.n);
    AscendC::LoadData2dParams lp;
    lp.repeatTimes = static_cast<uint8_t>(kb_ * n16_ / 16);
    lp.srcStride = 1;
    AscendC::LoadData(l0b_.Get<T>(), l1b_.Get<T>(), lp);
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  __aicore__ void MmadTo(const AscendC::GlobalTensor<float>& o, uint32_t idx, int buf = 0) {
    AscendC::MmadParams mp(static_cast<uint16_t>(t_.m), static_cast<uint16_t>(t_.n), static_cast<uint16_t>(t_.k));
    mp.cmatrixInitVal = true;
    AscendC::Mmad(l0c_.Get<float>(), l0a_[buf].Get<T>(), l0b_.Get<T>(), mp);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::FixpipeParamsV220 fp;
    fp.mSize = static_cast<uint16_t>(t_.m);
    fp.nSize = static_cast<uint16_t>(t_.n);
    fp.srcStride = static_cast<uint16_t>(m16_);
    fp.dstStride = t_.n;
    fp.quantPre = AscendC::QuantMode_t::NoQuant;
    AscendC::Fixpipe(o[uint64_t{idx} * t_.m * t_.n], l0c_.Get<float>(), fp);
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  CacheTiling t_{};
  uint32_t m16_ = 0, n16_ = 0, kb_ = 0;
  AscendC::TBuf<AscendC::TPosition::A1> l1a_[2];
  AscendC::TBuf<AscendC::TPosition::B1> l1b_;
  AscendC::TBuf<AscendC::TPosition::A2> l0a_[2];
  AscendC::TBuf<AscendC::TPosition::B2> l0b_;
  AscendC::TBuf<AscendC::TPosition::CO1> l0c_;
};

template <class T>
void cache_kernel(GM_ADDR a1, GM_ADDR a2, GM_ADDR b1, GM_ADDR b2, GM_ADDR out, GM_ADDR, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(CacheTiling, t, tiling);
  Kernel<T> k;
  k.Run(a1, a2, b1, b2, out, t);
}

void cache_f32(GM_ADDR a1, GM_ADDR a2, GM_ADDR b1, GM_ADDR b2, GM_ADDR o, GM_ADDR w, GM_ADDR t) {
  cache_kernel<float>(a1, a2, b1, b2, o, w, t);
}
void cache_f16(GM_ADDR a1, GM_ADDR a2, GM_ADDR b1, GM_ADDR b2, GM_ADDR o, GM_ADDR w, GM_ADDR t) {
  cache_kernel<half>(a1, a2, b1, b2, o, w, t);
}
void cache_bf16(GM_ADDR a1, GM_ADDR a2, GM_ADDR b1, GM_ADDR b2, GM_ADDR o, GM_ADDR w, GM_ADDR t) {
  cache_kernel<bfloat16_t>(a1, a2, b1, b2, o, w, t);
}

template <class T>
void run_case(npurt::SimKernelEntry entry, uint32_t m, uint32_t n, uint32_t k, npurt::SimCheckLevel level) {
  constexpr uint32_t C0 = 32 / sizeof(T);
  SimLaunch L(entry, "cube_packed_cache");
  std::mt19937 rng(m * 131 + n * 7 + k);
  std::uniform_real_distribution<float> d(-2.0f, 2.0f);
  // Operands in GM, and their float values: A1, A2 [m][k]; B1, B2 given as B^T [n][k].
  std::vector<float> f[4];
  const uint64_t sizes[4] = {uint64_t{m} * k, uint64_t{m} * k, uint64_t{n} * k, uint64_t{n} * k};
  for (int i = 0; i < 4; ++i) {
    T* g = L.gm<T>(sizes[i]);
    f[i].resize(sizes[i]);
    for (uint64_t e = 0; e < sizes[i]; ++e) {
      g[e] = T(d(rng));
      f[i][e] = static_cast<float>(g[e]);
    }
  }
  float* out = L.gm<float>(uint64_t{kResults} * m * n, "out");
  L.tiling(CacheTiling{m, n, k});
  const npurt::sim::cube::PackedCacheStats before = npurt::sim::cube::packed_cache_stats();
  npurt::Status s = L.run(1, level);
  ASSERT_TRUE(s.is_ok()) << s.message();
  const npurt::sim::cube::PackedCacheStats after = npurt::sim::cube::packed_cache_stats();
  // A3 = A2 with A1's fractal (rows 0..15, k C0..2 C0-1).
  std::vector<float> a3 = f[1];
  for (uint32_t i = 0; i < 16 && i < m; ++i)
    for (uint32_t kk = C0; kk < 2 * C0 && kk < k; ++kk) a3[uint64_t{i} * k + kk] = f[0][uint64_t{i} * k + kk];
  // A4 = A1 with A2's fractal (rows 0..15, k 0..C0-1).
  std::vector<float> a4 = f[0];
  for (uint32_t i = 0; i < 16 && i < m; ++i)
    for (uint32_t kk = 0; kk < C0 && kk < k; ++kk) a4[uint64_t{i} * k + kk] = f[1][uint64_t{i} * k + kk];
  const std::vector<float>* as[kResults] = {&f[0], &f[0], &f[0], &f[1], &a3, &f[0], &a3, &f[0], &a4, &a3};
  const std::vector<float>* bs[kResults] = {&f[2], &f[3], &f[3], &f[3], &f[3], &f[3], &f[3], &f[3], &f[3], &f[3]};
  const bool amx = std::is_same_v<T, bfloat16_t> && npurt::sim::cube::amx_best() != nullptr;
  for (uint32_t r = 0; r < kResults; ++r)
    for (uint32_t i = 0; i < m; ++i)
      for (uint32_t j = 0; j < n; ++j) {
        float acc = 0.0f;
        double exact = 0.0;
        for (uint32_t kk = 0; kk < k; ++kk) {
          const float x = (*as[r])[uint64_t{i} * k + kk], y = (*bs[r])[uint64_t{j} * k + kk];
          acc = std::fmaf(x, y, acc);
          exact += double(x) * y;
        }
        const float got = out[(uint64_t{r} * m + i) * n + j];
        if (amx)  // AMX: the fp32 accumulation bound (operands in [-2, 2])
          ASSERT_NEAR(double(got), exact, 4.0 * k * k * 6e-8 + 1e-6) << "result " << r << " (" << i << "," << j << ")";
        else  // float path: bit-identical to the in-order fma (cube_gemm.h)
          ASSERT_EQ(0, std::memcmp(&acc, &got, 4)) << "result " << r << " (" << i << "," << j << "): got " << got
                                                   << " want " << acc;
      }
  // Hits: B in calls 2..9 (8) always; A in calls 1, 2, 6, 7 and 9 (5: 6, 7, 9
  // need two A slots) unless float reads whole 16-row groups of A in place, or
  // AMX does with k a multiple of 16 too (no A packing to cache).
  const bool a_in_place =
      m % 16 == 0 && (std::is_same_v<T, float> ? npurt::sim::cube::gemm_zz_best() != nullptr
                                               : std::is_same_v<T, bfloat16_t> && k % 16 == 0 &&
                                                     npurt::sim::cube::amx_zz_best() != nullptr);
  EXPECT_GE(after.hits - before.hits, a_in_place ? 8u : 13u) << "m=" << m;
}

const npurt::SimCheckLevel kLevels[] = {kOff, kBasic, kFull};

TEST(CubePackedCache, Float) {
  for (auto level : kLevels)
    for (auto [m, n, k] : {std::tuple{20u, 33u, 40u}, {32u, 16u, 17u}, {1u, 1u, 16u}, {48u, 64u, 72u}})
      run_case<float>(NPURT_SIM_ENTRY(cache_f32), m, n, k, level);
}

TEST(CubePackedCache, HalfAndBf16) {
  for (auto level : kLevels)
    for (auto [m, n, k] : {std::tuple{20u, 33u, 40u}, {32u, 16u, 32u}, {1u, 1u, 17u}, {48u, 64u, 72u}}) {
      run_case<half>(NPURT_SIM_ENTRY(cache_f16), m, n, k, level);
      run_case<bfloat16_t>(NPURT_SIM_ENTRY(cache_bf16), m, n, k, level);
    }
}

}  // namespace
