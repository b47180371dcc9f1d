// The raw TransDataTo5HD layer (aicore/vec_transpose_raw.h) on every ISA the
// host runs, against a scalar reference written from the Ascend C
// documentation's per-width rules: blocks at scattered addresses, several
// repeats with strides, 1-byte high/low halves, in-place repeats, and bytes
// outside the destination blocks left untouched.
#include <algorithm>
#include <numeric>

#include "aicore/vec_transpose_raw.h"
#include "vec_test_util.h"

namespace {

namespace vec = npurt::aicore::vec;
using vectest::IsaTest;

struct Case {
  uint32_t elem, repeat, dst_stride, src_stride;
  bool dst_high, src_high;
};

// Reference: element (block b, index e) of repeat r read/written bytewise.
void reference(const Case& c, std::vector<uint8_t>& mem, const uint32_t (&dst)[16], const uint32_t (&src)[16]) {
  for (uint32_t r = 0; r < c.repeat; ++r) {
    const std::vector<uint8_t> before = mem;  // a repeat reads its sources before writing
    auto in = [&](uint32_t blk, uint32_t e) { return &before[src[blk] + r * c.src_stride * 32 + e * c.elem]; };
    auto out = [&](uint32_t blk, uint32_t e) { return &mem[dst[blk] + r * c.dst_stride * 32 + e * c.elem]; };
    if (c.elem == 2) {
      for (uint32_t j = 0; j < 16; ++j)
        for (uint32_t i = 0; i < 16; ++i) std::memcpy(out(j, i), in(i, j), 2);
    } else if (c.elem == 4) {
      for (uint32_t j = 0; j < 8; ++j)
        for (uint32_t i = 0; i < 8; ++i) {
          std::memcpy(out(2 * j, i), in(i, j), 4);
          std::memcpy(out(2 * j + 1, i), in(8 + i, j), 4);
        }
    } else {
      const uint32_t sh = c.src_high ? 16 : 0, dh = c.dst_high ? 16 : 0;
      for (uint32_t j = 0; j < 16; ++j)
        for (uint32_t i = 0; i < 16; ++i) *out(j, dh + i) = *in(i, sh + j);
    }
  }
}

// Block offsets: sources in one region, destinations in another, both in a
// shuffled order so that list position and address are unrelated.
void layout(const Case& c, uint32_t seed, bool in_place, uint32_t (&dst)[16], uint32_t (&src)[16], size_t& bytes) {
  const uint32_t span_s = ((c.repeat - 1) * c.src_stride + 1) * 32, span_d = ((c.repeat - 1) * c.dst_stride + 1) * 32;
  std::vector<uint32_t> order(16);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937 rng(seed);
  std::shuffle(order.begin(), order.end(), rng);
  const uint32_t slot = std::max(span_s, span_d) + 32;
  for (uint32_t k = 0; k < 16; ++k) src[k] = order[k] * slot;
  std::shuffle(order.begin(), order.end(), rng);
  for (uint32_t k = 0; k < 16; ++k) dst[k] = in_place ? src[k] : 16 * slot + order[k] * slot;
  bytes = 32 * slot + 64;
}

void run_case(const Case& c, uint32_t seed, bool in_place) {
  uint32_t dst[16], src[16];
  size_t bytes;
  layout(c, seed, in_place, dst, src, bytes);
  std::vector<uint8_t> mem(bytes);
  std::mt19937 rng(seed * 7 + 1);
  for (auto& b : mem) b = static_cast<uint8_t>(rng());
  std::vector<uint8_t> want = mem;
  reference(c, want, dst, src);
  uint8_t* d[16];
  const uint8_t* s[16];
  for (int k = 0; k < 16; ++k) {
    d[k] = mem.data() + dst[k];
    s[k] = mem.data() + src[k];
  }
  vec::trans_5hd(c.elem, d, s, c.repeat, c.dst_stride, c.src_stride, c.dst_high, c.src_high);
  for (size_t i = 0; i < bytes; ++i)
    ASSERT_EQ(mem[i], want[i]) << "elem " << c.elem << " repeat " << c.repeat << " strides " << c.dst_stride << "/"
                               << c.src_stride << " high " << c.dst_high << c.src_high << " in_place " << in_place
                               << " byte " << i;
}

class RawTranspose : public IsaTest {};

TEST_P(RawTranspose, MatchesTheScalarReference) {
  uint32_t seed = 1;
  for (uint32_t elem : {1u, 2u, 4u}) {
    for (uint32_t repeat : {1u, 2u, 5u}) {
      for (uint32_t stride : {0u, 1u, 3u}) {
        for (int hi = 0; hi < (elem == 1 ? 4 : 1); ++hi) {
          Case c{elem, repeat, stride, stride == 0 ? 1u : stride + 1, (hi & 1) != 0, (hi & 2) != 0};
          run_case(c, seed++, false);
        }
      }
    }
  }
}

TEST_P(RawTranspose, ARepeatMayWorkInPlace) {
  for (uint32_t elem : {1u, 2u, 4u}) run_case(Case{elem, 3, 1, 1, false, false}, 100 + elem, true);
}

TEST_P(RawTranspose, ZeroRepeatsTouchNothing) {
  std::vector<uint8_t> mem(1024, 0xAB);
  uint8_t* d[16];
  const uint8_t* s[16];
  for (int k = 0; k < 16; ++k) {
    d[k] = mem.data() + 512 + 32 * k;
    s[k] = mem.data() + 32 * k;
  }
  vec::trans_5hd(2, d, s, 0, 1, 1, false, false);
  EXPECT_TRUE(std::all_of(mem.begin(), mem.end(), [](uint8_t b) { return b == 0xAB; }));
}

VECTEST_INSTANTIATE(RawTranspose);

}  // namespace
