// tests/runtime/backends/sim/aicore/test_data_copy.cc: data movement on the
// simulated core (DataCopy by count and with params, DataCopyPad both ways,
// scalar accesses, atomics), against host-computed expectations.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "aicore_test_util.h"
#include "backends/sim/aicore/stream_copy.h"
#include "kernels/copy_kernels.h"
#include "kernels/layout_kernels.h"

using namespace aicore_test;

namespace {

std::vector<npurt::SimCheckLevel> all_levels() { return {kOff, kBasic, kFull}; }

TEST(AicoreDataCopy, DoubleBufferedCopyManyBlockCounts) {
  for (auto level : all_levels())
    for (uint32_t blocks : {1u, 3u, 8u, 40u, 100u}) {
      SimLaunch L(NPURT_SIM_ENTRY(copy_kernels::copy_custom), "copy_custom");
      const uint32_t tile = 256, tiles = 3, total = blocks * tile * tiles;
      float* x = L.gm<float>(total);
      float* z = L.gm<float>(total);
      for (uint32_t i = 0; i < total; ++i) x[i] = static_cast<float>(i) * 0.5f - 7.0f;
      L.tiling(copy_kernels::CopyTiling{total, tile});
      npurt::Status s = L.run(blocks, level);
      ASSERT_TRUE(s.is_ok()) << level_name(level) << " blocks=" << blocks << ": " << s.message();
      ASSERT_EQ(0, std::memcmp(x, z, total * sizeof(float))) << level_name(level) << " " << blocks;
    }
}

TEST(AicoreDataCopy, PadCopyHandlesTailsOfAnyLength) {
  for (auto level : all_levels())
    for (uint32_t blocks : {1u, 3u, 8u, 40u})
      for (uint32_t n : {1u, 15u, 16u, 33u, 255u, 1023u, 4099u}) {
        SimLaunch L(NPURT_SIM_ENTRY(copy_kernels::pad_copy_f32), "pad_copy_f32");
        float* x = L.gm<float>(n);
        float* z = L.gm<float>(n);
        for (uint32_t i = 0; i < n; ++i) x[i] = 1.0f + i;
        L.tiling(copy_kernels::PadTiling{n, 64});
        npurt::Status s = L.run(blocks, level);
        ASSERT_TRUE(s.is_ok()) << level_name(level) << " n=" << n << ": " << s.message();
        ASSERT_EQ(0, std::memcmp(x, z, n * sizeof(float))) << "n=" << n << " blocks=" << blocks;
      }
}

TEST(AicoreDataCopy, PadCopyInt8OddSizes) {
  for (uint32_t n : {1u, 31u, 33u, 1000u}) {
    SimLaunch L(NPURT_SIM_ENTRY(copy_kernels::pad_copy_i8), "pad_copy_i8");
    int8_t* x = L.gm<int8_t>(n);
    int8_t* z = L.gm<int8_t>(n);
    for (uint32_t i = 0; i < n; ++i) x[i] = static_cast<int8_t>(i * 7 + 3);
    L.tiling(copy_kernels::PadTiling{n, 96});
    npurt::Status s = L.run(5, kFull);
    ASSERT_TRUE(s.is_ok()) << s.message();
    ASSERT_EQ(0, std::memcmp(x, z, n)) << "n=" << n;
  }
}

TEST(AicoreDataCopy, StridedParamsGatherWithGaps) {
  const layout_kernels::StrideTiling t{4, 2, 3, 1};  // 4 blocks of 64 B, GM gap 96 B, UB gap 32 B
  for (auto level : all_levels()) {
    SimLaunch L(NPURT_SIM_ENTRY(layout_kernels::strided_copy), "strided_copy");
    const uint32_t src_floats = (t.blockCount * (t.blockLen + t.srcGap)) * 8;
    float* x = L.gm<float>(src_floats);
    float* z = L.gm<float>(t.blockCount * t.blockLen * 8);
    for (uint32_t i = 0; i < src_floats; ++i) x[i] = static_cast<float>(i);
    L.tiling(t);
    npurt::Status s = L.run(1, level);
    ASSERT_TRUE(s.is_ok()) << s.message();
    for (uint32_t b = 0; b < t.blockCount; ++b)
      for (uint32_t e = 0; e < t.blockLen * 8u; ++e)
        ASSERT_EQ(z[b * t.blockLen * 8 + e], x[b * (t.blockLen + t.srcGap) * 8 + e]) << b << "," << e;
  }
}

TEST(AicoreDataCopy, DataCopyPadPaddingLayout) {
  // 3 blocks of 5 floats (20 B), GM gap 4 B, 2 left and 3 right pad elements
  // of value 7: each UB block is align32(8 + 20 + 12) = 64 B.
  layout_kernels::PadTiling t{3, 20, 4, 2, 3, true, 7.0f, 48};
  SimLaunch L(NPURT_SIM_ENTRY(layout_kernels::pad_layout), "pad_layout");
  float* x = L.gm<float>(18);
  float* z = L.gm<float>(48);
  for (int i = 0; i < 18; ++i) x[i] = 100.0f + i;
  L.tiling(t);
  npurt::Status s = L.run(1, kFull);
  ASSERT_TRUE(s.is_ok()) << s.message();
  for (int b = 0; b < 3; ++b) {
    const float* blk = z + b * 16;
    EXPECT_EQ(blk[0], 7.0f);
    EXPECT_EQ(blk[1], 7.0f);
    for (int e = 0; e < 5; ++e) EXPECT_EQ(blk[2 + e], x[b * 6 + e]) << b << "," << e;
    for (int e = 7; e < 16; ++e) EXPECT_EQ(blk[e], 7.0f) << b << "," << e;  // right pad + filler
  }
}

TEST(AicoreDataCopy, DataCopyPadWithoutPadFillsTailWithFirstElement) {
  layout_kernels::PadTiling t{2, 12, 0, 0, 0, false, 0.0f, 16};
  SimLaunch L(NPURT_SIM_ENTRY(layout_kernels::pad_layout), "pad_layout");
  float* x = L.gm<float>(6);
  float* z = L.gm<float>(16);
  for (int i = 0; i < 6; ++i) x[i] = 1.0f + i;
  L.tiling(t);
  ASSERT_TRUE(L.run(1, kBasic).is_ok());
  const float want[16] = {1, 2, 3, 1, 1, 1, 1, 1, 4, 5, 6, 4, 4, 4, 4, 4};
  for (int i = 0; i < 16; ++i) EXPECT_EQ(z[i], want[i]) << i;
}

TEST(AicoreDataCopy, DataCopyPadScatterToGmWithByteGaps) {
  layout_kernels::ScatterTiling t{3, 5, 8};
  SimLaunch L(NPURT_SIM_ENTRY(layout_kernels::pad_scatter), "pad_scatter");
  float* x = L.gm<float>(15);
  float* z = L.gm<float>(19);  // 3 x 5 floats with 2-float gaps
  for (int i = 0; i < 15; ++i) x[i] = 10.0f + i;
  for (int i = 0; i < 19; ++i) z[i] = -1.0f;
  L.tiling(t);
  ASSERT_TRUE(L.run(1, kFull).is_ok());
  for (int b = 0; b < 3; ++b) {
    for (int e = 0; e < 5; ++e) EXPECT_EQ(z[b * 7 + e], x[b * 5 + e]);
    if (b < 2) {
      EXPECT_EQ(z[b * 7 + 5], -1.0f) << "gap must stay untouched";
    }
  }
}

TEST(AicoreDataCopy, ScalarPathsAndSystemQueries) {
  for (auto level : all_levels()) {
    SimLaunch L(NPURT_SIM_ENTRY(layout_kernels::scalar_paths), "scalar_paths");
    const uint32_t blocks = 6;
    int32_t* x = L.gm<int32_t>(8 * blocks);
    int32_t* z = L.gm<int32_t>(16 * blocks);  // 64 B per block: scalar writes own their lines
    int32_t* info = L.gm<int32_t>(2);
    for (uint32_t i = 0; i < 8 * blocks; ++i) x[i] = static_cast<int32_t>(i) - 20;
    npurt::Status s = L.run(blocks, level);
    ASSERT_TRUE(s.is_ok()) << s.message();
    for (uint32_t i = 0; i < 8 * blocks; ++i) ASSERT_EQ(z[i / 8 * 16 + i % 8], x[i] * 2 + int32_t(i / 8)) << i;
    EXPECT_EQ(info[0], 6);
    EXPECT_EQ(info[1], 196352);  // 910B3 usable UB
  }
}

TEST(AicoreDataCopy, ScalarKernelArgumentsAreBitCastFromSlots) {
  SimLaunch L(NPURT_SIM_ENTRY(layout_kernels::scalar_args), "scalar_args");
  float* z = L.gm<float>(10);
  L.scalar_arg(10);
  L.scalar_arg(static_cast<uint32_t>(-3));
  float step = 0.25f;
  uint32_t bits;
  std::memcpy(&bits, &step, 4);
  L.scalar_arg(bits);
  npurt::Status s = L.run(2, kFull);
  ASSERT_TRUE(s.is_ok()) << s.message();
  for (int i = 0; i < 10; ++i) EXPECT_EQ(z[i], -3 + i * 0.25f);
}

TEST(AicoreDataCopy, AtomicAddAccumulatesAcrossBlocksWithoutOverlapFault) {
  const uint32_t blocks = 37;
  SimLaunch L(NPURT_SIM_ENTRY(layout_kernels::atomic_accumulate), "atomic_accumulate");
  float* z = L.gm<float>(64);
  for (int i = 0; i < 64; ++i) z[i] = 0.5f;
  npurt::Status s = L.run(blocks, kFull);
  ASSERT_TRUE(s.is_ok()) << s.message();
  for (int i = 0; i < 64; ++i) EXPECT_EQ(z[i], 0.5f + blocks * (1.0f + i)) << i;
}

TEST(AicoreDataCopy, TruncateModeRoundsCountDownLikeTheNpu) {
  // copy_custom with a 10-float tile: 40 B is not a 32-B multiple. With
  // truncate_datacopy the NPU behaviour (copy 32 B = 8 floats) is emulated.
  SimLaunch L(NPURT_SIM_ENTRY(copy_kernels::copy_custom), "copy_custom");
  float* x = L.gm<float>(20);
  float* z = L.gm<float>(20);
  for (int i = 0; i < 20; ++i) {
    x[i] = 1.0f + i;
    z[i] = 0.0f;
  }
  L.tiling(copy_kernels::CopyTiling{20, 10});
  npurt::Status s = L.run(1, kBasic, nullptr, /*truncate=*/true);
  ASSERT_TRUE(s.is_ok()) << s.message();
  for (int t = 0; t < 2; ++t)
    for (int e = 0; e < 10; ++e) EXPECT_EQ(z[t * 10 + e], e < 8 ? x[t * 10 + e] : 0.0f);
}

// Outputs of kStreamRegionBytes in 16 KiB tiles: every DataCopy to GM takes
// the streaming path.
constexpr uint32_t kStreamFloats = npurt::sim::kStreamRegionBytes / sizeof(float);

TEST(AicoreStreamCopy, LargeTiledCopyIsExactAtEveryLevel) {
  const uint32_t total = kStreamFloats, tile = 4096;
  for (auto level : {kOff, kBasic, kFull})
    for (uint32_t blocks : {1u, 8u}) {
      SimLaunch L(NPURT_SIM_ENTRY(copy_kernels::copy_custom), "copy_custom");
      float* x = L.gm<float>(total);
      float* z = L.gm<float>(total);
      for (uint32_t i = 0; i < total; ++i) x[i] = static_cast<float>(i) * 0.25f - 3.0f;
      L.tiling(copy_kernels::CopyTiling{total, tile});
      npurt::Status s = L.run(blocks, level);
      ASSERT_TRUE(s.is_ok()) << level_name(level) << ": " << s.message();
      ASSERT_EQ(0, std::memcmp(x, z, total * sizeof(float))) << level_name(level) << " " << blocks;
      const auto* slack = reinterpret_cast<const uint8_t*>(z + total);
      for (int i = 0; i < 64; ++i) ASSERT_EQ(0xCD, slack[i]) << "wrote past the output";
    }
}

// DataCopyPad with odd lengths: block shares start at GM addresses that are
// not 64-byte aligned, and the last tile is short.
TEST(AicoreStreamCopy, LargePadCopyWithUnalignedSharesIsExact) {
  for (auto level : {kOff, kBasic, kFull})
    for (uint32_t blocks : {1u, 7u}) {
      const uint32_t n = kStreamFloats + 33;
      SimLaunch L(NPURT_SIM_ENTRY(copy_kernels::pad_copy_f32), "pad_copy_f32");
      float* x = L.gm<float>(n);
      float* z = L.gm<float>(n);
      for (uint32_t i = 0; i < n; ++i) x[i] = 1.0f + static_cast<float>(i % 100003);
      L.tiling(copy_kernels::PadTiling{n, 4104});
      npurt::Status s = L.run(blocks, level);
      ASSERT_TRUE(s.is_ok()) << level_name(level) << ": " << s.message();
      ASSERT_EQ(0, std::memcmp(x, z, n * sizeof(float))) << level_name(level) << " " << blocks;
      const auto* slack = reinterpret_cast<const uint8_t*>(z + n);
      for (int i = 0; i < 64; ++i) ASSERT_EQ(0xCD, slack[i]) << "wrote past the output";
    }
}

// Strided plans with more blocks than the copy loops' prefetch distance
// (data_copy.cc, kPrefetchAhead = 12), both directions, at every check level:
// the prefetch is only a hint, so the copied bytes, the untouched GM gaps and
// the last blocks (where nothing is left to prefetch) must be exactly those of
// a plain block-by-block copy.
// GM with gaps -> UB with gaps -> compact GM (per-block loops on both sides).
TEST(AicoreDataCopyPrefetch, StridedBlocksPastThePrefetchDistance) {
  for (uint16_t count : {1, 12, 13, 40, 255}) {
    const layout_kernels::StrideTiling t{count, 3, 5, 1};  // 96-B blocks, GM gap 160 B, UB gap 32 B
    for (auto level : all_levels()) {
      SimLaunch L(NPURT_SIM_ENTRY(layout_kernels::strided_copy), "strided_copy");
      const uint32_t src_floats = t.blockCount * (t.blockLen + t.srcGap) * 8;
      float* x = L.gm<float>(src_floats);
      float* z = L.gm<float>(t.blockCount * t.blockLen * 8);
      for (uint32_t i = 0; i < src_floats; ++i) x[i] = static_cast<float>(i) * 0.5f - 7.0f;
      L.tiling(t);
      npurt::Status s = L.run(1, level);
      ASSERT_TRUE(s.is_ok()) << s.message();
      for (uint32_t b = 0; b < t.blockCount; ++b)
        for (uint32_t e = 0; e < t.blockLen * 8u; ++e)
          ASSERT_EQ(z[b * t.blockLen * 8 + e], x[b * (t.blockLen + t.srcGap) * 8 + e])
              << "count " << count << " block " << b << " element " << e << " level " << level_name(level);
    }
  }
}

// UB -> GM rows with byte gaps (the transpose copy's write pattern), odd row
// lengths: the gaps keep their old bytes, every row lands exactly.
TEST(AicoreDataCopyPrefetch, ScatterRowsWithGapsPastThePrefetchDistance) {
  for (uint16_t count : {13, 64, 129}) {
    for (uint32_t n : {1u, 15u, 33u, 128u}) {
      const layout_kernels::ScatterTiling t{count, n, 20};
      SimLaunch L(NPURT_SIM_ENTRY(layout_kernels::pad_scatter), "pad_scatter");
      const uint32_t pitch = n + 5;  // 20 B gap = 5 floats
      float* x = L.gm<float>(count * n);
      float* z = L.gm<float>(count * pitch - 5);
      for (uint32_t i = 0; i < count * n; ++i) x[i] = 3.0f + static_cast<float>(i);
      for (uint32_t i = 0; i < count * pitch - 5; ++i) z[i] = -1.0f;
      L.tiling(t);
      npurt::Status s = L.run(1, kBasic);
      ASSERT_TRUE(s.is_ok()) << s.message();
      for (uint32_t b = 0; b < count; ++b) {
        for (uint32_t e = 0; e < n; ++e) ASSERT_EQ(z[b * pitch + e], x[b * n + e]) << count << "," << n << "," << b;
        if (b + 1 < count) {
          for (uint32_t g = n; g < pitch; ++g) ASSERT_EQ(z[b * pitch + g], -1.0f) << "gap written: " << b;
        }
      }
    }
  }
}

// The same rows into a GM allocation of kStreamRegionBytes: runs of >= 256 B
// (kStreamRunMinBytes) take the streaming stores with one fence per copy,
// shorter ones memcpy; 20-B gaps put most row starts off 64-B lines (head and
// tail of each run through memcpy). Rows exact, gaps and the rest of the
// allocation untouched, at every check level.
TEST(AicoreStreamCopy, StridedRunsIntoLargeOutputAreExact) {
  for (auto level : all_levels())
    for (uint16_t count : {13, 129})
      for (uint32_t n : {15u, 64u, 65u, 128u}) {
        const layout_kernels::ScatterTiling t{count, n, 20};
        SimLaunch L(NPURT_SIM_ENTRY(layout_kernels::pad_scatter), "pad_scatter");
        const uint32_t pitch = n + 5;
        float* x = L.gm<float>(count * n);
        float* z = L.gm<float>(kStreamFloats);
        for (uint32_t i = 0; i < count * n; ++i) x[i] = 0.5f + static_cast<float>(i);
        for (uint32_t i = 0; i < kStreamFloats; ++i) z[i] = -1.0f;
        L.tiling(t);
        npurt::Status s = L.run(1, level);
        ASSERT_TRUE(s.is_ok()) << s.message();
        for (uint32_t b = 0; b < count; ++b)
          for (uint32_t e = 0; e < pitch; ++e)
            ASSERT_EQ(z[b * pitch + e], e < n ? x[b * n + e] : -1.0f)
                << level_name(level) << " count " << count << " n " << n << " row " << b << " element " << e;
        for (uint32_t i = count * pitch; i < kStreamFloats; ++i) ASSERT_EQ(z[i], -1.0f) << "written past the rows: " << i;
      }
}

}  // namespace
