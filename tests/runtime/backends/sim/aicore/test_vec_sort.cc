// Sort32 / MrgSort / GetMrgSortResult / Extract / GatherMask on the simulated
// AI core: a probe kernel runs each API the way a sort kernel calls it and the
// results are compared with a scalar reference (std::stable_sort by descending
// score, ties by position; NaN above +inf as the simulator declares; -0.0 ==
// +0.0) at the basic and full check levels. Misuse raises ErrorParam naming
// the API.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <utility>

#include "aicore/vec_raw.h"
#include "aicore/vec_sort.h"
#include "runtime/backends/sim/aicore/aicore_test_util.h"

namespace {

using namespace AscendC;
using aicore_test::SimLaunch;

enum Mode : uint32_t {
  kSortF32, kSortF16, kExtract, kSuspend, kRepeat, kGatherUser, kGatherBuiltin,
  kFaultValid, kFaultLength, kFaultOverlap, kFaultRepeat, kFaultRepeatTime
};
struct Tiling {
  uint32_t mode;
  uint32_t n;         // elements (multiple of 32)
  uint32_t a, b;      // kSuspend: list lengths; kGather*: count / repeats
};
constexpr uint32_t kMax = 4096;

// Sorts n = 32 * 4^k... elements fully: Sort32, then 4-way MrgSort rounds
// (lists of w -> 4w, the last group possibly shorter); returns the buffer.
template <class T>
__aicore__ inline LocalTensor<T> FullSort(LocalTensor<T> score, LocalTensor<uint32_t> idx, LocalTensor<T> p0,
                                          LocalTensor<T> p1, uint32_t n) {
  constexpr uint32_t per = 8 / sizeof(T);
  Sort32(p0, score, idx, static_cast<int32_t>(n / 32));
  LocalTensor<T> cur = p0, nxt = p1;
  for (uint32_t w = 32; w < n; w *= 4) {
    for (uint32_t at = 0; at < n; at += 4 * w) {
      uint16_t len[4] = {0, 0, 0, 0};
      uint16_t valid = 0;
      LocalTensor<T> s[4];
      for (uint32_t k = 0; k < 4; ++k) {
        const uint32_t b = at + k * w;
        s[k] = cur[(b < n ? b : at) * per];
        if (b < n) len[k] = static_cast<uint16_t>(std::min(w, n - b)), valid |= 1u << k;
      }
      if (valid == 1) {  // a lone last list: copy through a 1-list-free path (merge with an empty list)
        len[1] = 0, valid = 3;
      }
      MrgSort(nxt[at * per], MrgSortSrcList<T>(s[0], s[1], s[2], s[3]), MrgSort4Info(len, false, valid, 1));
    }
    LocalTensor<T> t = cur;
    cur = nxt, nxt = t;
  }
  return cur;
}

extern "C" __global__ __aicore__ void sort_probe(GM_ADDR x, GM_ADDR y, GM_ADDR, GM_ADDR tiling) {
  Tiling t = *reinterpret_cast<const Tiling*>(tiling);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bi, b0, b1;
  pipe.InitBuffer(bx, kMax * 4);
  pipe.InitBuffer(bi, kMax * 4);
  pipe.InitBuffer(b0, kMax * 8);
  pipe.InitBuffer(b1, kMax * 8);
  GlobalTensor<uint8_t> gx, gy;
  gx.SetGlobalBuffer((__gm__ uint8_t*)x, kMax * 4);
  gy.SetGlobalBuffer((__gm__ uint8_t*)y, kMax * 8 + 64);
  LocalTensor<uint8_t> in = bx.Get<uint8_t>();
  LocalTensor<uint32_t> idx = bi.Get<uint32_t>();
  Duplicate(b0.Get<float>(), 0.0f, kMax * 2);  // every byte copied out is written
  Duplicate(b1.Get<float>(), 0.0f, kMax * 2);
  DataCopy(in, gx, kMax * 4);
  for (uint32_t i = 0; i < kMax; ++i) idx.SetValue(i, i);
  PipeBarrier<PIPE_ALL>();
  LocalTensor<float> f = in.ReinterpretCast<float>(), p0 = b0.Get<float>(), p1 = b1.Get<float>();
  LocalTensor<uint8_t> out = p0.ReinterpretCast<uint8_t>();
  switch (t.mode) {
    case kSortF32: out = FullSort(f, idx, p0, p1, t.n).ReinterpretCast<uint8_t>(); break;
    case kSortF16:
      out = FullSort(in.ReinterpretCast<half>(), idx, b0.Get<half>(), b1.Get<half>(), t.n).ReinterpretCast<uint8_t>();
      break;
    case kExtract: {
      LocalTensor<float> s = FullSort(f, idx, p0, p1, t.n), o = (s.GetPhyAddr() == p0.GetPhyAddr() ? p1 : p0);
      LocalTensor<uint32_t> oi = o[t.n].ReinterpretCast<uint32_t>();
      Extract(o, oi, s, static_cast<int32_t>(t.n / 32));
      out = o.ReinterpretCast<uint8_t>();
      break;
    }
    case kSuspend: {  // two pre-sorted lists (Sort32 groups 0 and 1 merged) of a and b elements
      Sort32(p1, f, idx, static_cast<int32_t>(t.n / 32));
      uint16_t len[4] = {static_cast<uint16_t>(t.a), static_cast<uint16_t>(t.b), 0, 0};
      MrgSort(p0, MrgSortSrcList<float>(p1, p1[64], p1, p1), MrgSort4Info(len, true, 3, 1));
      uint16_t c[4];
      GetMrgSortResult(c[0], c[1], c[2], c[3]);
      LocalTensor<uint32_t> tail = p0[2 * (t.a + t.b)].ReinterpretCast<uint32_t>();
      for (int k = 0; k < 4; ++k) tail.SetValue(k, c[k]);
      break;
    }
    case kRepeat: {  // 8 lists of 32 merged 4 at a time with repeatTimes 2
      Sort32(p1, f, idx, 8);
      uint16_t len[4] = {32, 32, 32, 32};
      MrgSort(p0, MrgSortSrcList<float>(p1, p1[64], p1[128], p1[192]), MrgSort4Info(len, false, 15, 2));
      break;
    }
    case kGatherUser: {  // counter mode: keep f[i] where f[i] > 0, pattern built by Compare
      LocalTensor<uint8_t> bits = p1.ReinterpretCast<uint8_t>();
      CompareScalar(bits, f, 0.0f, CMPMODE::GT, t.n);
      uint64_t kept = 0;
      GatherMask(p0, f, bits.ReinterpretCast<uint32_t>(), true, t.n, GatherMaskParams(), kept);
      p0.SetValue(kMax * 2 - 1, static_cast<float>(kept));
      break;
    }
    case kGatherBuiltin: {  // normal mode, pattern 2 (odd elements), t.a repeats of 64 floats
      uint64_t kept = 0;
      GatherMask(p0, f, static_cast<uint8_t>(2), false, 0, GatherMaskParams(1, t.a, 8, 0), kept);
      p0.SetValue(kMax * 2 - 1, static_cast<float>(kept));
      break;
    }
    case kFaultValid: {
      uint16_t len[4] = {32, 32, 0, 0};
      MrgSort(p0, MrgSortSrcList<float>(p1, p1[64], p1, p1), MrgSort4Info(len, false, 1, 1));
      break;
    }
    case kFaultLength: {
      uint16_t len[4] = {4096, 32, 0, 0};
      MrgSort(p0, MrgSortSrcList<float>(p1, p1[64], p1, p1), MrgSort4Info(len, false, 3, 1));
      break;
    }
    case kFaultOverlap: Sort32(f, f, idx, 1); break;
    case kFaultRepeat: {
      uint16_t len[4] = {32, 32, 32, 32};
      MrgSort(p0, MrgSortSrcList<float>(p1, p1[128], p1[64], p1[192]), MrgSort4Info(len, false, 15, 2));
      break;
    }
    case kFaultRepeatTime: Sort32(p0, f, idx, 256); break;
  }
  PipeBarrier<PIPE_ALL>();
  DataCopy(gy, out, kMax * 8);
}

struct Result {
  npurt::Status status;
  std::vector<uint8_t> y;
  npurt::sim::AicoreReport report;
};

Result run(const Tiling& t, const std::vector<uint8_t>& x, npurt::SimCheckLevel level) {
  SimLaunch L(NPURT_SIM_ENTRY(sort_probe), "sort_probe");
  uint8_t* gx = L.gm<uint8_t>(kMax * 4);
  uint8_t* gy = L.gm<uint8_t>(kMax * 8 + 64);
  std::memset(gx, 0, kMax * 4);
  std::memcpy(gx, x.data(), std::min<size_t>(x.size(), kMax * 4));
  L.tiling(t);
  Result r;
  r.status = L.run(1, level, &r.report);
  r.y.assign(gy, gy + kMax * 8);
  return r;
}

// The simulator's declared order: NaN above +inf (NaNs equal), -0.0 == +0.0.
std::pair<int, double> rank_of(float v) { return std::isnan(v) ? std::make_pair(1, 0.0) : std::make_pair(0, double(v)); }

template <class T>
std::vector<uint32_t> reference_order(const std::vector<T>& s, uint32_t n) {
  std::vector<uint32_t> p(n);
  for (uint32_t i = 0; i < n; ++i) p[i] = i;
  std::stable_sort(p.begin(), p.end(), [&](uint32_t a, uint32_t b) {
    return rank_of(static_cast<float>(s[a])) > rank_of(static_cast<float>(s[b]));
  });
  return p;
}

// Scores with heavy ties, +-0.0, +-inf and NaN.
std::vector<float> scores(uint32_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  const float sp[] = {0.0f, -0.0f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                      std::nanf(""), 1.5f, -1.5f};
  std::vector<float> v(n);
  for (uint32_t i = 0; i < n; ++i)
    v[i] = i % 5 == 0 ? sp[rng() % 7] : static_cast<float>(static_cast<int>(rng() % 41) - 20) * 0.25f;
  return v;
}

template <class T>
void expect_sorted(const std::vector<uint8_t>& y, const std::vector<T>& s, uint32_t n, const char* what) {
  const std::vector<uint32_t> want = reference_order(s, n);
  for (uint32_t k = 0; k < n; ++k) {
    T score;
    uint32_t index;
    std::memcpy(&score, &y[8 * k], sizeof(T));
    std::memcpy(&index, &y[8 * k + 4], 4);
    ASSERT_EQ(index, want[k]) << what << " n=" << n << " position " << k;
    ASSERT_EQ(std::memcmp(&score, &s[want[k]], sizeof(T)), 0) << what << " score bits at " << k;
  }
}

TEST(VecSort, Sort32AndMrgSortSortFloatStably) {
  for (auto level : {aicore_test::kBasic, aicore_test::kFull})
    for (uint32_t n : {32u, 64u, 96u, 128u, 160u, 512u, 1024u, 2048u, 4096u}) {
      std::vector<float> s = scores(n, n);
      std::vector<uint8_t> x(n * 4);
      std::memcpy(x.data(), s.data(), x.size());
      Result r = run({kSortF32, n, 0, 0}, x, level);
      ASSERT_TRUE(r.status.is_ok()) << r.status.message();
      expect_sorted(r.y, s, n, "f32");
    }
}

TEST(VecSort, Sort32AndMrgSortSortHalf) {
  for (uint32_t n : {32u, 128u, 1024u}) {
    std::vector<float> f = scores(n, 7 * n);
    std::vector<half> s(f.begin(), f.end());
    std::vector<uint8_t> x(n * 2);
    std::memcpy(x.data(), s.data(), x.size());
    Result r = run({kSortF16, n, 0, 0}, x, aicore_test::kFull);
    ASSERT_TRUE(r.status.is_ok()) << r.status.message();
    expect_sorted(r.y, s, n, "f16");
  }
}

// vec_sort.cc runs AVX-512 builds of Sort32 / MrgSort while the raw layer's
// ISA is avx512 and portable code otherwise: every ISA this host can run must
// give the documented order (so both paths are checked on an AVX-512 host).
TEST(VecSort, EveryHostIsaSortsInTheDocumentedOrder) {
  const std::string before = npurt::aicore::vec::active_isa();
  int ran = 0;
  for (const char* isa : {"avx512", "avx2", "generic"}) {
    if (!npurt::aicore::vec::force_isa(isa)) continue;  // not on this host
    ++ran;
    for (uint32_t n : {32u, 160u, 1024u, 4096u}) {
      std::vector<float> s = scores(n, 13 * n);
      std::vector<uint8_t> x(n * 4);
      std::memcpy(x.data(), s.data(), x.size());
      Result r = run({kSortF32, n, 0, 0}, x, aicore_test::kBasic);
      ASSERT_TRUE(r.status.is_ok()) << isa << ": " << r.status.message();
      expect_sorted(r.y, s, n, isa);
      std::vector<half> h(s.begin(), s.end());
      std::memcpy(x.data(), h.data(), n * 2);
      r = run({kSortF16, n, 0, 0}, x, aicore_test::kBasic);
      ASSERT_TRUE(r.status.is_ok()) << isa << ": " << r.status.message();
      expect_sorted(r.y, h, n, isa);
    }
  }
  EXPECT_GE(ran, 1);  // generic always runs
  ASSERT_TRUE(npurt::aicore::vec::force_isa(before.c_str()));
}

TEST(VecSort, ExtractSplitsScoresAndIndices) {
  const uint32_t n = 256;
  std::vector<float> s = scores(n, 3);
  std::vector<uint8_t> x(n * 4);
  std::memcpy(x.data(), s.data(), x.size());
  Result r = run({kExtract, n, 0, 0}, x, aicore_test::kFull);
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  const std::vector<uint32_t> want = reference_order(s, n);
  for (uint32_t k = 0; k < n; ++k) {
    uint32_t index;
    std::memcpy(&index, &r.y[4 * n + 4 * k], 4);
    EXPECT_EQ(index, want[k]);
    EXPECT_EQ(std::memcmp(&r.y[4 * k], &s[want[k]], 4), 0) << k;
  }
}

TEST(VecSort, ExhaustedSuspensionStopsAtTheFirstEmptyList) {
  std::vector<float> s(128);
  for (uint32_t i = 0; i < 128; ++i) s[i] = i < 32 ? 100.0f + i : static_cast<float>(i % 32);  // list 0 all larger
  std::vector<uint8_t> x(128 * 4);
  std::memcpy(x.data(), s.data(), x.size());
  Result r = run({kSuspend, 128, 32, 32}, x, aicore_test::kFull);
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  uint32_t c[4];
  std::memcpy(c, &r.y[8 * 64], 16);
  EXPECT_EQ(c[0], 32u);  // list 0 ran out first: everything of it, nothing of list 1
  EXPECT_EQ(c[1], 0u);
}

TEST(VecSort, MrgSortRepeatMergesConsecutiveQuads) {
  std::vector<float> s = scores(256, 11);
  std::vector<uint8_t> x(256 * 4);
  std::memcpy(x.data(), s.data(), x.size());
  Result r = run({kRepeat, 256, 0, 0}, x, aicore_test::kFull);
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  for (uint32_t q = 0; q < 2; ++q) {
    std::vector<float> part(s.begin() + 128 * q, s.begin() + 128 * (q + 1));
    std::vector<uint8_t> y(r.y.begin() + 8 * 128 * q, r.y.end());
    for (uint32_t k = 0; k < 128; ++k) {  // indices are absolute: shift back to the quad
      uint32_t i;
      std::memcpy(&i, &y[8 * k + 4], 4);
      i -= 128 * q;
      std::memcpy(&y[8 * k + 4], &i, 4);
    }
    expect_sorted(y, part, 128, "repeat");
  }
}

TEST(VecSort, GatherMaskCompactsByUserAndBuiltinPatterns) {
  for (uint32_t n : {64u, 192u, 1024u}) {
    std::vector<float> s = scores(n, 5 * n);
    std::vector<uint8_t> x(n * 4);
    std::memcpy(x.data(), s.data(), x.size());
    Result r = run({kGatherUser, n, 0, 0}, x, aicore_test::kFull);
    ASSERT_TRUE(r.status.is_ok()) << r.status.message();
    std::vector<float> want;
    for (float v : s)
      if (v > 0.0f) want.push_back(v);
    float kept;
    std::memcpy(&kept, &r.y[4 * (kMax * 2 - 1)], 4);
    ASSERT_EQ(kept, static_cast<float>(want.size()));
    EXPECT_EQ(std::memcmp(r.y.data(), want.data(), 4 * want.size()), 0) << n;
  }
  std::vector<float> s = scores(256, 9);
  std::vector<uint8_t> x(256 * 4);
  std::memcpy(x.data(), s.data(), x.size());
  Result r = run({kGatherBuiltin, 256, 4, 0}, x, aicore_test::kFull);
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  for (uint32_t k = 0; k < 128; ++k) EXPECT_EQ(std::memcmp(&r.y[4 * k], &s[2 * k + 1], 4), 0) << k;
}

struct FaultCase {
  Mode mode;
  const char* api;
  const char* detail_has;
};

class VecSortFaults : public ::testing::TestWithParam<FaultCase> {};

TEST_P(VecSortFaults, RaisedAsParamWithTheApiName) {
  const FaultCase& c = GetParam();
  Result r = run({c.mode, 64, 0, 0}, std::vector<uint8_t>(256, 0), aicore_test::kBasic);
  ASSERT_EQ(r.status.code(), npurt::StatusCode::kKernelFault) << "mode " << c.mode;
  ASSERT_FALSE(r.report.diagnostics.empty());
  const auto& d = r.report.diagnostics.front();
  EXPECT_EQ(d.code, "ErrorParam") << r.status.message();
  EXPECT_EQ(d.api, c.api);
  EXPECT_NE(d.detail.find(c.detail_has), std::string::npos) << d.detail;
}

const FaultCase kFaults[] = {
    {kFaultValid, "MrgSort", "validBit"},
    {kFaultLength, "MrgSort", "4095"},
    {kFaultOverlap, "Sort32", "overlaps"},
    {kFaultRepeat, "MrgSort", "contiguous"},
    {kFaultRepeatTime, "Sort32", "repeatTime 256"},
};

INSTANTIATE_TEST_SUITE_P(Vector, VecSortFaults, ::testing::ValuesIn(kFaults),
                         [](const auto& info) { return "mode" + std::to_string(int(info.param.mode)); });

}  // namespace
