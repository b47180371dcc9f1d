// tests/runtime/backends/sim/aicore/test_canonical.cc: the canonical sample
// kernels (kernels/vector_kernels.h) compiled unchanged against
// kernel_operator.h, checked against scalar references for many block counts
// (including more blocks than host threads) and lengths with tails, at every
// check level (no diagnostics at full).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "aicore_test_util.h"
#include "kernels/vector_kernels.h"

using namespace aicore_test;

namespace {

const uint32_t kBlockCounts[] = {1, 3, 8, 40, 100};
const npurt::SimCheckLevel kLevels[] = {kOff, kBasic, kFull};

std::vector<float> random_floats(size_t n, uint32_t seed, float lo = -10.0f, float hi = 10.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& f : v) f = d(rng);
  return v;
}

TEST(AicoreCanonical, DoubleBufferedAdd) {
  for (auto level : kLevels)
    for (uint32_t blocks : kBlockCounts) {
      const uint32_t tileNum = 2, tileLength = 128;
      const uint32_t total = blocks * tileNum * 2 * tileLength;
      SimLaunch L(NPURT_SIM_ENTRY(vector_kernels::add_custom), "add_custom");
      float* x = L.gm<float>(total);
      float* y = L.gm<float>(total);
      float* z = L.gm<float>(total);
      auto xs = random_floats(total, 1), ys = random_floats(total, 2);
      std::copy(xs.begin(), xs.end(), x);
      std::copy(ys.begin(), ys.end(), y);
      L.tiling(vector_kernels::AddTiling{total, tileNum});
      npurt::Status s = L.run(blocks, level);
      ASSERT_TRUE(s.is_ok()) << level_name(level) << " " << blocks << ": " << s.message();
      for (uint32_t i = 0; i < total; ++i) ASSERT_EQ(z[i], xs[i] + ys[i]) << i;
    }
}

TEST(AicoreCanonical, TiledLeakyReluWithTBuf) {
  for (uint32_t useApi : {0u, 1u})
    for (auto level : kLevels)
      for (uint32_t blocks : kBlockCounts) {
        const uint32_t tile = 64, total = blocks * tile * 3;
        const float alpha = 0.125f;
        SimLaunch L(NPURT_SIM_ENTRY(vector_kernels::leakyrelu_custom), "leakyrelu_custom");
        float* x = L.gm<float>(total);
        float* z = L.gm<float>(total);
        auto xs = random_floats(total, 3 + blocks);
        std::copy(xs.begin(), xs.end(), x);
        L.tiling(vector_kernels::LeakyTiling{total, tile, alpha, useApi});
        npurt::Status s = L.run(blocks, level);
        ASSERT_TRUE(s.is_ok()) << level_name(level) << " " << blocks << ": " << s.message();
        for (uint32_t i = 0; i < total; ++i)
          ASSERT_EQ(z[i], xs[i] >= 0 ? xs[i] : alpha * xs[i]) << i << " api=" << useApi;
      }
}

TEST(AicoreCanonical, RowSoftmax) {
  for (auto level : kLevels)
    for (uint32_t blocks : kBlockCounts)
      for (uint32_t cols : {8u, 64u, 264u}) {
        const uint32_t rows = 2 * blocks + 1;  // the last block gets fewer (or no) rows
        SimLaunch L(NPURT_SIM_ENTRY(vector_kernels::softmax_custom), "softmax_custom");
        float* x = L.gm<float>(rows * cols);
        float* z = L.gm<float>(rows * cols);
        auto xs = random_floats(rows * cols, 7 + cols, -20.0f, 20.0f);
        std::copy(xs.begin(), xs.end(), x);
        L.tiling(vector_kernels::SoftmaxTiling{rows, cols});
        npurt::Status s = L.run(blocks, level);
        ASSERT_TRUE(s.is_ok()) << level_name(level) << " " << blocks << ": " << s.message();
        for (uint32_t r = 0; r < rows; ++r) {
          double m = -INFINITY, sum = 0;
          for (uint32_t c = 0; c < cols; ++c) m = std::max<double>(m, xs[r * cols + c]);
          for (uint32_t c = 0; c < cols; ++c) sum += std::exp(double(xs[r * cols + c]) - m);
          for (uint32_t c = 0; c < cols; ++c) {
            double want = std::exp(double(xs[r * cols + c]) - m) / sum;
            ASSERT_NEAR(z[r * cols + c], want, 1e-6 + 2e-5 * want) << r << "," << c;
          }
        }
      }
}

TEST(AicoreCanonical, AddWithDataCopyPadTail) {
  for (auto level : kLevels)
    for (uint32_t blocks : {1u, 3u, 8u, 40u, 100u})
      for (uint32_t n : {1u, 15u, 16u, 33u, 255u, 1023u, 4096u + 7u}) {
        SimLaunch L(NPURT_SIM_ENTRY(vector_kernels::add_tail_f32), "add_tail_f32");
        float* x = L.gm<float>(n);
        float* y = L.gm<float>(n);
        float* z = L.gm<float>(n);
        auto xs = random_floats(n, n), ys = random_floats(n, n + 1);
        std::copy(xs.begin(), xs.end(), x);
        std::copy(ys.begin(), ys.end(), y);
        L.tiling(vector_kernels::AddTailTiling{n, 64});
        npurt::Status s = L.run(blocks, level);
        ASSERT_TRUE(s.is_ok()) << level_name(level) << " n=" << n << ": " << s.message();
        for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(z[i], xs[i] + ys[i]) << "n=" << n << " i=" << i;
      }
}

TEST(AicoreCanonical, HalfAddWithTailRoundsPerOperation) {
  for (uint32_t n : {1u, 17u, 1000u}) {
    SimLaunch L(NPURT_SIM_ENTRY(vector_kernels::add_tail_f16), "add_tail_f16");
    half* x = L.gm<half>(n);
    half* y = L.gm<half>(n);
    half* z = L.gm<half>(n);
    auto xs = random_floats(n, 11, -60000.0f, 60000.0f), ys = random_floats(n, 12, -60000.0f, 60000.0f);
    for (uint32_t i = 0; i < n; ++i) {
      x[i] = static_cast<half>(xs[i]);
      y[i] = static_cast<half>(ys[i]);
    }
    L.tiling(vector_kernels::AddTailTiling{n, 128});
    npurt::Status s = L.run(4, kFull);
    ASSERT_TRUE(s.is_ok()) << s.message();
    for (uint32_t i = 0; i < n; ++i) {
      half want = static_cast<half>(double(x[i]) + double(y[i]));  // one rounding, may overflow to inf
      ASSERT_EQ(npurt::aicore::half_bits(z[i]), npurt::aicore::half_bits(want)) << i;
    }
  }
}

}  // namespace
