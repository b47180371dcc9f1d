// AscendC::Brcb on the simulated core against its documented semantics
// (aicore/vec_brcb.h): repeat r fills 32-byte blocks (r * dstRepStride +
// j * dstBlkStride) of dst with src[8 r + j]; every other dst byte keeps its
// contents. Checked for float, half and int16 over repeat counts 1..255 and
// several stride pairs (dense, spread, overlapping repeats), at the basic and
// full check levels; misuse (overlap, dstBlkStride 0, reading past the source)
// is a kernel fault naming Brcb. The reference is a scalar loop over a host
// copy (no call into the sim's vector layer).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "kernel_operator.h"
#include "runtime/backends/sim/aicore/aicore_test_util.h"

namespace brcb_kernels {

struct BrcbTiling {
  uint32_t srcElems;  // elements of src copied into UB
  uint32_t dstElems;  // elements of dst copied in and out
  uint32_t repeat;
  uint32_t blk, rep;
  uint32_t misuse;    // 0 none, 1 dst overlaps src, 2 dstBlkStride 0, 3 src shorter than 8 * repeat
};

template <class T>
__aicore__ inline void brcb_body(GM_ADDR src, GM_ADDR dst, const BrcbTiling& t) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bs, bd;
  pipe.InitBuffer(bs, t.srcElems * sizeof(T));
  pipe.InitBuffer(bd, t.dstElems * sizeof(T));
  AscendC::LocalTensor<T> ls = bs.Get<T>(), ld = bd.Get<T>();
  AscendC::GlobalTensor<T> gs, gd;
  gs.SetGlobalBuffer((__gm__ T*)src, t.srcElems);
  gd.SetGlobalBuffer((__gm__ T*)dst, t.dstElems);
  AscendC::DataCopy(ls, gs, t.srcElems);
  AscendC::DataCopy(ld, gd, t.dstElems);
  AscendC::PipeBarrier<PIPE_ALL>();
  const AscendC::BrcbRepeatParams p(static_cast<uint16_t>(t.blk), static_cast<uint16_t>(t.rep));
  if (t.misuse == 1) AscendC::Brcb(ls[8], ls, static_cast<uint8_t>(t.repeat), p);
  else if (t.misuse == 3) AscendC::Brcb(ld, ls[t.srcElems - 8], static_cast<uint8_t>(t.repeat), p);
  else AscendC::Brcb(ld, ls, static_cast<uint8_t>(t.repeat), p);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::DataCopy(gd, ld, t.dstElems);
}

extern "C" __global__ __aicore__ void brcb_float(GM_ADDR s, GM_ADDR d, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(BrcbTiling, t, tiling);
  brcb_body<float>(s, d, t);
}
extern "C" __global__ __aicore__ void brcb_half(GM_ADDR s, GM_ADDR d, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(BrcbTiling, t, tiling);
  brcb_body<half>(s, d, t);
}
// Row scaling as the attention forward does it: x[r, :cols] op= v_r, with v in
// Brcb's output (row r's block at block 16 r) read at src1BlkStride 0.
struct RowScaleTiling {
  uint32_t rows, pitch, cols, divide;
  uint64_t mask0, mask1;  // level-0 lane mask (mask1: lanes 64..127, unused for float)
};

extern "C" __global__ __aicore__ void row_scale(GM_ADDR x, GM_ADDR v, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(RowScaleTiling, t, tiling);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bx, bv;
  pipe.InitBuffer(bx, t.rows * t.pitch * 4);
  pipe.InitBuffer(bv, t.rows * 128 * 4);
  AscendC::LocalTensor<float> lx = bx.Get<float>(), lv = bv.Get<float>();
  AscendC::GlobalTensor<float> gx, gv;
  gx.SetGlobalBuffer((__gm__ float*)x, t.rows * t.pitch);
  gv.SetGlobalBuffer((__gm__ float*)v, t.rows * 128);
  AscendC::DataCopy(lx, gx, t.rows * t.pitch);
  AscendC::DataCopy(lv, gv, t.rows * 128);
  AscendC::PipeBarrier<PIPE_ALL>();
  const uint8_t pb = static_cast<uint8_t>(t.pitch / 8);
  const AscendC::BinaryRepeatParams rp(1, 1, 0, pb, pb, 16);
  uint64_t mask[2] = {t.mask0, t.mask1};
  for (uint32_t c0 = 0; c0 < t.cols; c0 += 64) {
    if (t.divide) AscendC::Div(lx[c0], lx[c0], lv, mask, static_cast<uint8_t>(t.rows), rp);
    else AscendC::Mul(lx[c0], lx[c0], lv, mask, static_cast<uint8_t>(t.rows), rp);
  }
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::DataCopy(gx, lx, t.rows * t.pitch);
}

extern "C" __global__ __aicore__ void brcb_int16(GM_ADDR s, GM_ADDR d, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(BrcbTiling, t, tiling);
  brcb_body<int16_t>(s, d, t);
}

}  // namespace brcb_kernels

namespace {

using aicore_test::SimLaunch;
using namespace brcb_kernels;

template <class T> T value_of(uint32_t i) {
  if constexpr (std::is_same_v<T, int16_t>) return static_cast<T>(int(i * 37 % 20011) - 10000);
  else return static_cast<T>(float(int(i * 37 % 2001) - 1000) * 0.125f);
}

template <class T> uint64_t raw_bits(T v) {
  uint64_t u = 0;
  std::memcpy(&u, &v, sizeof v);
  return u;
}

template <class T>
void check_brcb(npurt::SimKernelEntry entry, uint32_t repeat, uint32_t blk, uint32_t rep, npurt::SimCheckLevel level) {
  constexpr uint32_t B = 32 / sizeof(T);
  BrcbTiling t{};
  t.repeat = repeat;
  t.blk = blk;
  t.rep = rep;
  t.srcElems = (8 * repeat + B - 1) / B * B;
  const uint32_t blocks = (repeat - 1) * rep + 7 * blk + 1 + 2;  // 2 spare blocks must stay untouched
  t.dstElems = blocks * B;
  SimLaunch L(entry, "brcb");
  T* gs = L.gm<T>(t.srcElems);
  T* gd = L.gm<T>(t.dstElems);
  std::vector<T> want(t.dstElems);
  for (uint32_t i = 0; i < t.srcElems; ++i) gs[i] = value_of<T>(i + 1);
  for (uint32_t i = 0; i < t.dstElems; ++i) gd[i] = want[i] = value_of<T>(100000 + i);
  for (uint32_t r = 0; r < repeat; ++r)  // the documented rule, in repeat order
    for (uint32_t j = 0; j < 8; ++j)
      for (uint32_t e = 0; e < B; ++e) want[(r * rep + j * blk) * B + e] = gs[8 * r + j];
  L.tiling(t);
  const npurt::Status st = L.run(1, level);
  ASSERT_TRUE(st.is_ok()) << st.message();
  for (uint32_t i = 0; i < t.dstElems; ++i)
    ASSERT_EQ(raw_bits(gd[i]), raw_bits(want[i])) << "repeat " << repeat << " blk " << blk << " rep " << rep
                                                  << " element " << i;
}

TEST(AscendcBrcb, EveryRepeatCountAndStrideMatchesTheDocumentedRule) {
  const uint32_t strides[][2] = {{1, 8}, {2, 16}, {1, 16}, {3, 20}, {1, 1}, {1, 0}};
  for (uint32_t repeat : {1u, 2u, 3u, 15u, 16u, 33u, 128u, 255u}) {
    for (const auto& s : strides) {
      if (((repeat - 1) * s[1] + 7 * s[0] + 3) * 32 > 160 * 1024) continue;  // dst must fit UB beside src
      for (auto level : {aicore_test::kBasic, aicore_test::kFull}) {
        check_brcb<float>(NPURT_SIM_ENTRY(brcb_float), repeat, s[0], s[1], level);
        check_brcb<half>(NPURT_SIM_ENTRY(brcb_half), repeat, s[0], s[1], level);
        check_brcb<int16_t>(NPURT_SIM_ENTRY(brcb_int16), repeat, s[0], s[1], level);
      }
    }
  }
}

// Level-0 Mul / Div whose src1 has block stride 0 (each repeat reads one
// block, 8 copies of a row value): prefix masks take the sim's staged dense
// path, a non-prefix mask the lane gather; both must equal the per-lane rule.
TEST(AscendcBrcb, Level0BroadcastBlockOperandMatchesThePerLaneRule) {
  const uint64_t masks[] = {~0ull, (1ull << 40) - 1, 0xff, 0x1, 0xf0f0f0f0f0f0f0f0ull};
  for (uint32_t rows : {1u, 7u, 64u, 128u}) {
    for (uint32_t pitch : {64u, 128u}) {
      for (uint64_t m : masks) {
        for (uint32_t divide : {0u, 1u}) {
          RowScaleTiling t{rows, pitch, pitch, divide, m, 0};
          SimLaunch L(NPURT_SIM_ENTRY(row_scale), "row_scale");
          float* gx = L.gm<float>(rows * pitch);
          float* gv = L.gm<float>(rows * 128);
          std::vector<float> want(rows * pitch);
          for (uint32_t i = 0; i < rows * pitch; ++i) gx[i] = want[i] = value_of<float>(i + 3);
          for (uint32_t i = 0; i < rows * 128; ++i) gv[i] = value_of<float>(7 * i + 1) + (divide ? 0.0625f : 0.0f);
          for (uint32_t r = 0; r < rows; ++r)
            for (uint32_t c = 0; c < pitch; ++c) {
              if (!((m >> (c % 64)) & 1)) continue;
              const float b = gv[128 * r + c % 8];  // lane c of every block reads block 0's lane c % 8
              float& x = want[r * pitch + c];
              x = divide ? x / b : x * b;
            }
          L.tiling(t);
          const npurt::Status st = L.run(1, aicore_test::kFull);
          ASSERT_TRUE(st.is_ok()) << st.message();
          for (uint32_t i = 0; i < rows * pitch; ++i)
            ASSERT_EQ(raw_bits(gx[i]), raw_bits(want[i])) << "rows " << rows << " pitch " << pitch << " mask " << m
                                                          << " divide " << divide << " element " << i;
        }
      }
    }
  }
}

TEST(AscendcBrcb, RepeatZeroWritesNothing) {
  SimLaunch L(NPURT_SIM_ENTRY(brcb_float), "brcb");
  BrcbTiling t{8, 64, 0, 1, 8, 0};
  float* gs = L.gm<float>(t.srcElems);
  float* gd = L.gm<float>(t.dstElems);
  for (uint32_t i = 0; i < t.srcElems; ++i) gs[i] = float(i);
  for (uint32_t i = 0; i < t.dstElems; ++i) gd[i] = -float(i);
  L.tiling(t);
  ASSERT_TRUE(L.run(1, aicore_test::kFull).is_ok());
  for (uint32_t i = 0; i < t.dstElems; ++i) ASSERT_EQ(gd[i], -float(i));
}

TEST(AscendcBrcb, MisuseIsAKernelFaultNamingBrcb) {
  const struct {
    uint32_t misuse;
    const char* code;
    const char* detail;
  } cases[] = {{1, "ErrorParam", "overlap"}, {2, "ErrorParam", "dstBlkStride 0"}, {3, "", ""}};
  for (const auto& c : cases) {
    SimLaunch L(NPURT_SIM_ENTRY(brcb_float), "brcb");
    BrcbTiling t{256, 1024, 2, c.misuse == 2 ? 0u : 1u, 8, c.misuse};
    L.gm<float>(t.srcElems);
    L.gm<float>(t.dstElems);
    L.tiling(t);
    npurt::sim::AicoreReport report;
    const npurt::Status s = L.run(1, aicore_test::kBasic, &report);
    ASSERT_EQ(s.code(), npurt::StatusCode::kKernelFault) << "misuse " << c.misuse;
    ASSERT_FALSE(report.diagnostics.empty());
    const auto& d = report.diagnostics.front();
    EXPECT_EQ(d.api, "Brcb") << s.message();
    if (*c.code) {
      EXPECT_EQ(d.code, c.code) << s.message();
    }
    EXPECT_NE(d.detail.find(c.detail), std::string::npos) << s.message();
  }
}

}  // namespace
