// tests/runtime/backends/sim/aicore/test_stream_copy.cc: the streaming-store
// path of local -> GM copies (stream_copy.h). It must be byte-identical to
// memcpy for every size and alignment, never write outside [dst, dst + n),
// and be what DataCopy / DataCopyPad use for large outputs at every check
// level without changing their results.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "aicore_test_util.h"
#include "backends/sim/aicore/stream_copy.h"
#include "kernels/copy_kernels.h"

using namespace aicore_test;

namespace {

TEST(AicoreStreamCopy, MatchesMemcpyForEverySizeAndAlignment) {
  const uint64_t sizes[] = {0, 1, 15, 33, 63, 64, 65, 127, 128, 1023, 4095, 4096, 4097, 65536 + 13};
  std::vector<uint8_t> src(70000 + 128), dst(70000 + 256), want(dst.size());
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 131 + 7);
  for (uint64_t n : sizes)
    for (uint32_t d_off : {0u, 1u, 31u, 32u, 63u})
      for (uint32_t s_off : {0u, 5u, 64u}) {
        std::memset(dst.data(), 0xCD, dst.size());
        std::memset(want.data(), 0xCD, want.size());
        std::memcpy(want.data() + 64 + d_off, src.data() + s_off, n);
        npurt::sim::stream_copy(dst.data() + 64 + d_off, src.data() + s_off, n);
        ASSERT_EQ(0, std::memcmp(dst.data(), want.data(), dst.size()))
            << "n=" << n << " dst offset " << d_off << " src offset " << s_off;
      }
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

}  // namespace
