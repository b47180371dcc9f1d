// tests/runtime/backends/sim/aicore/test_unit_scatter.cc: the vector body of
// single-unit strided UB -> GM copies (unit_scatter.h). For every unit size
// (1, 2, 4, 8 B), destination stride (1, 2, 4, 8, 16 B), unit count (odd,
// below / at / above one group) and destination alignment, the units it
// reports done plus the scalar rest equal the per-unit copy byte for byte, and
// no gap byte or byte outside the span changes (the gaps hold a sentinel).
// Unsupported plans (src_stride other than 32, unit > dst_stride, dst_stride
// 3) must report 0 units. (The same path through DataCopyPad at every check
// level and through x[::k] = y: tests/python/sdk/test_strided_setitem_units.py.)
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "backends/sim/aicore/unit_scatter.h"

namespace {

using npurt::sim::unit_scatter_kernel;
using npurt::sim::UnitScatterFn;

// Units from `src` (unit i at byte 32 * i) into `dst` at stride ds, the vector
// body first and the scalar loop for the rest, as data_copy.cc does.
uint32_t scatter_all(UnitScatterFn fn, uint8_t* dst, uint64_t ds, const uint8_t* src, uint32_t count,
                     unsigned unit) {
  const uint32_t done = fn ? fn(dst, ds, src, 32, count, unit) : 0;
  for (uint32_t i = done; i < count; ++i) std::memcpy(dst + i * ds, src + i * 32, unit);
  return done;
}

TEST(AicoreUnitScatter, ByteExactWithGapsUntouched) {
  const UnitScatterFn fn = unit_scatter_kernel();
  if (fn == nullptr) GTEST_SKIP() << "no AVX-512 on this CPU: the scalar loop is the only path";
  std::vector<uint8_t> src(32 * 200 + 64);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 37 + 11);
  std::vector<uint8_t> dst(16 * 200 + 256), want(dst.size());
  bool vector_ran = false;
  for (unsigned unit : {1u, 2u, 4u, 8u})
    for (uint64_t ds : {1u, 2u, 4u, 8u, 16u}) {
      if (unit > ds) continue;
      for (uint32_t count : {1u, 7u, 8u, 9u, 16u, 17u, 31u, 33u, 64u, 65u, 199u})
        for (uint32_t off : {0u, 1u, 2u, 6u, 31u, 63u}) {
          std::memset(dst.data(), 0xA5, dst.size());
          std::memset(want.data(), 0xA5, want.size());
          for (uint32_t i = 0; i < count; ++i) std::memcpy(want.data() + 64 + off + i * ds, src.data() + i * 32, unit);
          const uint32_t done = scatter_all(fn, dst.data() + 64 + off, ds, src.data(), count, unit);
          ASSERT_LE(done, count);
          vector_ran = vector_ran || done > 0;
          ASSERT_EQ(0, std::memcmp(dst.data(), want.data(), dst.size()))
              << "unit " << unit << " dst stride " << ds << " count " << count << " dst offset " << off;
        }
    }
  EXPECT_TRUE(vector_ran) << "the vector body never ran: this test checks only the scalar loop";
}

TEST(AicoreUnitScatter, UnsupportedPlansAreLeftToTheScalarLoop) {
  const UnitScatterFn fn = unit_scatter_kernel();
  if (fn == nullptr) GTEST_SKIP() << "no AVX-512 on this CPU";
  std::vector<uint8_t> src(64 * 100), dst(64 * 100, 0);
  EXPECT_EQ(0u, fn(dst.data(), 4, src.data(), 64, 90, 2));  // two blocks per unit
  EXPECT_EQ(0u, fn(dst.data(), 2, src.data(), 32, 90, 4));  // unit wider than its stride
  EXPECT_EQ(0u, fn(dst.data(), 6, src.data(), 32, 90, 2));  // stride not a power of two
  EXPECT_EQ(0u, fn(dst.data(), 32, src.data(), 32, 90, 4));  // one unit per line: nothing to merge
  EXPECT_EQ(0u, fn(dst.data(), 16, src.data(), 32, 90, 3));  // not a DataCopyPad unit size
  for (uint8_t b : dst) ASSERT_EQ(0, b);
}

}  // namespace
