// tests/runtime/backends/sim/aicore/test_copy_elision.cc: the simulator's copy
// elision (copy_elision.h, aicore/mirror.h) changes where bytes are read,
// never which: each kernel runs with readonly_arg_mask 0 (every copy done) and
// with x marked read-only (copies left pending), at levels off/basic/full, and
// the outputs must be bit-identical and match a host reference. The process-
// wide counters show that the elision really happened (and, where every
// access is mirror-aware, that no pending copy had to be performed).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#include "aicore_test_util.h"
#include "backends/sim/aicore/copy_elision.h"
#include "kernels/elision_kernels.h"

// The canonical double-buffered Add (kernels/vector_kernels.h, defined by test_canonical.cc).
extern "C" void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling);
namespace vector_kernels {
struct AddTiling {
  uint32_t totalLength;
  uint32_t tileNum;
};
}  // namespace vector_kernels

using namespace aicore_test;
namespace ek = elision_kernels;

namespace {

struct Counts {
  uint64_t elided, materialized;
};
Counts counts() {
  const npurt::sim::CopyElisionCounts s = npurt::sim::copy_elision_counts();
  return {s.elided, s.materialized};
}

// Runs `entry` on x (kN floats per block, read-only when `elide`) and outputs
// of the given byte sizes; returns the outputs' bytes and the counter deltas.
struct Result {
  std::vector<std::vector<uint8_t>> out;
  Counts delta;
};
Result run(npurt::SimKernelEntry entry, npurt::SimCheckLevel level, bool elide, uint32_t blocks,
           const std::vector<size_t>& out_bytes, const std::vector<float>& x_values) {
  SimLaunch L(entry, "elision");
  float* x = L.gm<float>(x_values.size(), "x");
  std::memcpy(x, x_values.data(), x_values.size() * sizeof(float));
  std::vector<uint8_t*> outs;
  for (size_t b : out_bytes) outs.push_back(L.gm<uint8_t>(b));
  if (elide) L.launch().readonly_arg_mask = 1;
  const Counts before = counts();
  npurt::Status s = L.run(blocks, level);
  EXPECT_TRUE(s.is_ok()) << level_name(level) << " elide=" << elide << ": " << s.message();
  const Counts after = counts();
  Result r;
  for (size_t i = 0; i < outs.size(); ++i) r.out.emplace_back(outs[i], outs[i] + out_bytes[i]);
  r.delta = {after.elided - before.elided, after.materialized - before.materialized};
  return r;
}

std::vector<float> sample(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(0.37f * float(i)) * 3.0f + float(i % 7) * 0.125f;
  return v;
}

std::vector<float> floats(const std::vector<uint8_t>& b) {
  std::vector<float> v(b.size() / sizeof(float));
  std::memcpy(v.data(), b.data(), v.size() * sizeof(float));
  return v;
}

// Runs with and without elision at every level in `levels`; checks identical
// outputs, that copies were elided, and hands the outputs to `check`.
void equivalent(npurt::SimKernelEntry entry, uint32_t blocks, const std::vector<size_t>& out_bytes,
                const std::vector<float>& x, bool expect_materialize,
                const std::function<void(const Result&)>& check,
                std::vector<npurt::SimCheckLevel> levels = {kOff, kBasic, kFull}) {
  for (auto level : levels) {
    Result eager = run(entry, level, false, blocks, out_bytes, x);
    Result lazy = run(entry, level, true, blocks, out_bytes, x);
    EXPECT_EQ(eager.delta.elided, 0u) << level_name(level);
    EXPECT_GE(lazy.delta.elided, blocks) << level_name(level);
    if (expect_materialize) EXPECT_GE(lazy.delta.materialized, 1u) << level_name(level);
    else EXPECT_EQ(lazy.delta.materialized, 0u) << level_name(level);
    ASSERT_EQ(eager.out, lazy.out) << level_name(level) << ": elision changed the result";
    check(lazy);
  }
}

TEST(CopyElision, PartialVectorWriteMaterializesFirst) {
  const auto x = sample(ek::kN);
  equivalent(NPURT_SIM_ENTRY(ek::partial_write), 1, {ek::kN * 4}, x, true, [&](const Result& r) {
    auto z = floats(r.out[0]);
    for (uint32_t i = 0; i < ek::kN; ++i) ASSERT_EQ(z[i], (i >= 16 && i < 48 ? 5.0f : x[i]) + 1.0f) << i;
  });
}

// A re-copy kernel (elision_kernels.h RecopyFrame): `elided` copies, z[i] == want(i).
void expect_recopy(npurt::SimKernelEntry entry, uint64_t elided, const std::function<float(uint32_t)>& want) {
  equivalent(entry, 1, {ek::kN * 4}, sample(ek::kN), true, [&](const Result& r) {
    EXPECT_EQ(r.delta.elided, elided);
    auto z = floats(r.out[0]);
    for (uint32_t i = 0; i < ek::kN; ++i) ASSERT_EQ(z[i], want(i)) << i;
  });
}

TEST(CopyElision, ShorterCopyIntoAMirroredBufferKeepsTheRest) {
  const auto x = sample(ek::kN);
  expect_recopy(NPURT_SIM_ENTRY(ek::shorter_recopy), 3,
                [&](uint32_t i) { return x[i < 64 ? 192 + i : (i < 128 ? 64 + i : i)]; });
}

TEST(CopyElision, RecopyOverTheBackExactlyAndOverTheFrontOfAMirror) {
  const auto x = sample(ek::kN);
  expect_recopy(NPURT_SIM_ENTRY(ek::overlap_recopy), 4, [&](uint32_t i) {
    return i < 48 ? x[i] : i < 144 ? x[80 + i] : i < 192 ? x[i - 64] : -7.0f;
  });
}

TEST(CopyElision, ScalarGetValueAfterElidedCopy) {
  const auto x = sample(ek::kN);
  equivalent(NPURT_SIM_ENTRY(ek::scalar_reverse), 1, {ek::kN * 4}, x, true, [&](const Result& r) {
    auto z = floats(r.out[0]);
    for (uint32_t i = 0; i < ek::kN; ++i) ASSERT_EQ(z[i], x[ek::kN - 1 - i]) << i;
  });
}

TEST(CopyElision, CopyBackToGmReadsTheMirrorOnManyCores) {
  for (uint32_t blocks : {1u, 4u, 9u}) {
    const auto x = sample(ek::kN * blocks);
    equivalent(NPURT_SIM_ENTRY(ek::round_trip), blocks, {ek::kN * blocks * 4}, x, false,
               [&](const Result& r) { ASSERT_EQ(floats(r.out[0]), x); });
  }
}

TEST(CopyElision, PipeResetKeepsTheCopiedBytes) {
  const auto x = sample(ek::kN);
  equivalent(NPURT_SIM_ENTRY(ek::reset_then_read), 1, {ek::kN * 4}, x, true,
             [&](const Result& r) { ASSERT_EQ(floats(r.out[0]), x); }, {kOff, kBasic});
}

TEST(CopyElision, VectorReadsFromTheMirror) {
  const auto x = sample(ek::kN);
  equivalent(NPURT_SIM_ENTRY(ek::vector_reads), 1, {ek::kVecOut * 4, ek::kN * 2}, x, true,
             [&](const Result& r) {
               auto z = floats(r.out[0]);
               double sum = 0;
               for (float v : x) sum += v;
               EXPECT_NEAR(z[0], sum, 1e-4 * (std::fabs(sum) + 1));
               for (uint32_t i = 0; i < ek::kN; ++i) {
                 ASSERT_NEAR(z[48 + i], std::exp(x[i]), 1e-5f * std::exp(x[i])) << i;
                 ASSERT_EQ(z[48 + ek::kN + i], x[i] * 0.5f) << i;
                 ASSERT_EQ(z[48 + 2 * ek::kN + i], 4.0f * x[i]) << i;  // Add(x, x) + in-place 2x
               }
               for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(z[48 + 3 * ek::kN + i], x[64 + i] * 2.0f);
             });
}

// Exp / Abs / Relu read an elided source in place: no copy is performed and
// the results are the eager ones bit for bit.
TEST(CopyElision, UnaryOpsReadTheMirror) {
  const auto x = sample(ek::kN);
  equivalent(NPURT_SIM_ENTRY(ek::unary_reads), 1, {ek::kUnaryOut * 4}, x, false, [&](const Result& r) {
    auto z = floats(r.out[0]);
    for (uint32_t i = 0; i < ek::kN; ++i) {
      ASSERT_NEAR(z[i], std::exp(x[i]), 1e-5f * std::exp(x[i])) << i;
      ASSERT_EQ(z[ek::kN + i], std::fabs(x[i])) << i;
    }
    for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(z[2 * ek::kN + i], std::max(x[64 + i], 0.0f)) << i;
  });
}

// Axpy(float, half) reads its source from the mirror (the float16 sum's fold)
// and equals Cast + Add bit for bit, specials included (x * 1 is exact).
TEST(CopyElision, WideningAxpyReadsTheMirrorLikeCastAdd) {
  const uint16_t specials[] = {0x0000, 0x8000, 0x0001, 0x83ff, 0x3c00, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x3555};
  std::vector<uint16_t> h(ek::kHalves);
  for (uint32_t i = 0; i < ek::kHalves; ++i) {
    const float v = std::sin(0.37f * float(i)) * 300.0f;
    h[i] = i < sizeof(specials) / 2 ? specials[i] : npurt::aicore::half_bits(static_cast<half>(v));
  }
  std::vector<float> x(ek::kN);
  std::memcpy(x.data(), h.data(), h.size() * 2);
  equivalent(NPURT_SIM_ENTRY(ek::axpy_widen), 1, {2 * ek::kHalves * 4}, x, false, [&](const Result& r) {
    const std::vector<uint8_t>& z = r.out[0];
    ASSERT_EQ(std::memcmp(z.data(), z.data() + ek::kHalves * 4, ek::kHalves * 4), 0) << "Axpy != Cast + Add";
    auto zf = floats(z);
    for (uint32_t i = 0; i < ek::kHalves; ++i) {
      float want = 0.25f + static_cast<float>(npurt::aicore::bits_half(h[i]));
      if (i >= 64 && i < 192) want += static_cast<float>(npurt::aicore::bits_half(h[i + 64]));
      if (std::isnan(want)) ASSERT_TRUE(std::isnan(zf[i])) << i;
      else ASSERT_EQ(zf[i], want) << i;
    }
  });
}

// The canonical double-buffered Add: buffers are freed and reused through the
// queues tile after tile; every Add reads both inputs from their mirrors, so
// no pending copy is ever performed.
TEST(CopyElision, DoubleBufferedAddNeverCopiesInputs) {
  for (auto level : {kOff, kBasic, kFull})
    for (uint32_t blocks : {1u, 3u, 8u}) {
      const uint32_t per_block = 4096, tiles = 4, total = per_block * blocks;
      std::vector<float> out[2];
      for (int elide = 0; elide < 2; ++elide) {
        SimLaunch L(NPURT_SIM_ENTRY(add_custom), "add_custom");
        float* x = L.gm<float>(total);
        float* y = L.gm<float>(total);
        float* z = L.gm<float>(total);
        for (uint32_t i = 0; i < total; ++i) {
          x[i] = float(i) * 0.25f - 3.0f;
          y[i] = 1.0f / float(i + 1);
        }
        L.tiling(vector_kernels::AddTiling{total, tiles});
        if (elide) L.launch().readonly_arg_mask = 0b011;
        const Counts before = counts();
        npurt::Status s = L.run(blocks, level);
        ASSERT_TRUE(s.is_ok()) << s.message();
        const Counts after = counts();
        EXPECT_EQ(after.elided - before.elided, elide ? 2u * tiles * 2 * blocks : 0u);
        EXPECT_EQ(after.materialized - before.materialized, 0u);
        for (uint32_t i = 0; i < total; ++i) ASSERT_EQ(z[i], x[i] + y[i]) << i;
        out[elide].assign(z, z + total);
      }
      ASSERT_EQ(out[0], out[1]) << level_name(level) << " blocks=" << blocks;
    }
}

// A DataCopyPad without padding or filler is a plain copy and is elided (the
// Muls reads the mirror, nothing is materialized); one that must fill the
// rows' 32-byte block ends is done eagerly: exactly one elided copy per run.
TEST(CopyElision, ContiguousDataCopyPadIsElidedPaddedIsNot) {
  const auto x = sample(ek::kN);
  const uint32_t pitch = ek::kN / ek::kPadRows;
  equivalent(NPURT_SIM_ENTRY(ek::pad_rows), 1, {2 * ek::kN * 4}, x, false, [&](const Result& r) {
    EXPECT_EQ(r.delta.elided, 1u);
    auto z = floats(r.out[0]);
    for (uint32_t i = 0; i < ek::kN; ++i) ASSERT_EQ(z[i], 2.0f * x[i]) << i;
    for (uint32_t row = 0; row < ek::kPadRows; ++row)
      for (uint32_t j = 0; j < ek::kPadLen; ++j)
        ASSERT_EQ(z[ek::kN + row * pitch + j], x[row * pitch + j]) << row << "," << j;
  });
}

// Without the read-only bit nothing is elided (raw launches default to 0).
TEST(CopyElision, ElisionNeedsTheReadOnlyBit) {
  const auto x = sample(ek::kN);
  Result r = run(NPURT_SIM_ENTRY(ek::round_trip), kBasic, false, 1, {ek::kN * 4}, x);
  EXPECT_EQ(r.delta.elided, 0u);
  EXPECT_EQ(floats(r.out[0]), x);
}

// The counts are kept per thread (copy_elision.h): launches run from threads
// that then exit, alone and two at once, still add up exactly.
TEST(CopyElision, CountsSumOverThreadsIncludingExitedOnes) {
  const auto x = sample(ek::kN);
  const uint32_t blocks = 1;  // round_trip covers kN floats with one block
  const uint64_t one = run(NPURT_SIM_ENTRY(ek::round_trip), kBasic, true, blocks, {ek::kN * 4}, x).delta.elided;
  ASSERT_GE(one, blocks);
  auto launch = [&] { run(NPURT_SIM_ENTRY(ek::round_trip), kBasic, true, blocks, {ek::kN * 4}, x); };
  Counts before = counts();
  std::thread(launch).join();
  EXPECT_EQ(counts().elided - before.elided, one);
  before = counts();
  std::thread a(launch), b(launch);
  a.join();
  b.join();
  const Counts after = counts();
  EXPECT_EQ(after.elided - before.elided, 2 * one);
  EXPECT_EQ(after.materialized - before.materialized, 0u);
}

}  // namespace
