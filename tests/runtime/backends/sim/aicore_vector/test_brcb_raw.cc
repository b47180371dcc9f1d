// tests/runtime/backends/sim/aicore_vector/test_brcb_raw.cc: Brcb's raw block
// fill (aicore/vec_brcb_raw.h) equals the per-element loop of its definition
// byte for byte for 2- and 4-byte elements, 1-9 repeats, repeat strides of
// 8 blocks (adjacent), more (gaps left untouched) and fewer (overlapping
// repeats: later blocks win, in repeat order). The AscendC-level semantics:
// test_ascendc_brcb.cc.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "aicore/vec_brcb_raw.h"

namespace {

void reference(uint8_t* d, const uint8_t* s, uint32_t repeats, uint64_t rep_bytes, unsigned elem) {
  for (uint32_t r = 0; r < repeats; ++r)
    for (unsigned j = 0; j < 8; ++j)
      for (unsigned e = 0; e < 32; e += elem) std::memcpy(d + r * rep_bytes + j * 32 + e, s + (8 * r + j) * elem, elem);
}

TEST(BrcbRaw, MatchesTheDefinitionForEveryStride) {
  std::vector<uint8_t> src(8 * 9 * 4);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 29 + 3);
  for (unsigned elem : {2u, 4u})
    for (uint32_t repeats : {1u, 2u, 3u, 9u})
      for (uint64_t rep_blocks : {1u, 3u, 7u, 8u, 9u, 16u}) {
        std::vector<uint8_t> got(32 * (16 * 9 + 8) + 64, 0x5A), want(got.size(), 0x5A);
        npurt::aicore::vec::brcb_adjacent_blocks(got.data() + 32, src.data(), repeats, rep_blocks * 32, elem);
        reference(want.data() + 32, src.data(), repeats, rep_blocks * 32, elem);
        ASSERT_EQ(0, std::memcmp(got.data(), want.data(), got.size()))
            << "elem " << elem << " repeats " << repeats << " rep stride " << rep_blocks << " blocks";
      }
}

}  // namespace
