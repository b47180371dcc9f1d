// Level-0 Mul / Add / FusedMulAdd (aicore/vec_repeat.h) whose sources are
// not readable in place: block stride 0 (a Brcb'd row value) and block stride 1
// with repeat stride 0 (one vector reused by every repeat) or an odd repeat
// stride, under prefix masks (1 lane, one block, partial, full) and bit masks,
// with dst repeats back to back (the sim stages such sources and makes one
// dense call per 16 repeats; a FusedMulAdd whose two sources are both one
// block, 0/0, runs unstaged through vec::ternary_blocks) or spread out (one
// call per repeat). The result
// must be the per-lane rule bit for bit: every enabled lane is the raw layer's
// op on that lane's inputs (one lane per raw call), every other dst byte keeps
// its contents. Repeat counts cross the 16-repeat staging chunk (1, 15, 16, 17,
// 40). float and half, random data.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "kernel_operator.h"
#include "runtime/backends/sim/aicore/aicore_test_util.h"
#include "vec_test_util.h"

namespace stage_kernels {

struct StageTiling {
  uint32_t op;  // 0 Mul, 1 Add, 2 FusedMulAdd
  uint32_t repeat;
  uint32_t dstElems, srcElems;
  uint32_t dblk, drep, s0blk, s0rep, s1blk, s1rep;
  uint64_t mask0, mask1;
  uint32_t is_half;
};

// One GM buffer holds dst, then the sources (dst is whole 32-B blocks); it is
// copied in, the op runs, and all of it goes back (the sources must not change).
template <class T> __aicore__ inline void stage_body(GM_ADDR io, const StageTiling& t) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  const uint32_t total = t.dstElems + t.srcElems;
  pipe.InitBuffer(buf, total * sizeof(T));
  AscendC::LocalTensor<T> ld = buf.Get<T>(), ls = ld[t.dstElems];
  AscendC::GlobalTensor<T> g;
  g.SetGlobalBuffer((__gm__ T*)io, total);
  AscendC::DataCopy(ld, g, total);
  AscendC::PipeBarrier<PIPE_ALL>();
  const AscendC::BinaryRepeatParams p(t.dblk, t.s0blk, t.s1blk, t.drep, t.s0rep, t.s1rep);
  uint64_t mask[2] = {t.mask0, t.mask1};
  const uint8_t rep = static_cast<uint8_t>(t.repeat);
  AscendC::LocalTensor<T> s1 = ls[t.srcElems / 2];  // src0 in the first half of ls, src1 in the second
  if (t.op == 0) AscendC::Mul(ld, ls, s1, mask, rep, p);
  else if (t.op == 1) AscendC::Add(ld, ls, s1, mask, rep, p);
  else AscendC::FusedMulAdd(ld, ls, s1, mask, rep, p);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::DataCopy(g, ld, total);
}

// One entry for both dtypes (the tiling says which).
extern "C" __global__ __aicore__ void stage_kernel(GM_ADDR io, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(StageTiling, t, tiling);
  if (t.is_half) stage_body<half>(io, t);
  else stage_body<float>(io, t);
}

}  // namespace stage_kernels

namespace {

using aicore_test::SimLaunch;
using namespace stage_kernels;
namespace vec = npurt::aicore::vec;

// Elements up to the last block an operand touches, rounded to whole 32-B blocks.
template <class T> uint32_t extent(uint32_t repeat, uint32_t blk, uint32_t rep) {
  return ((repeat - 1) * rep + 7 * blk + 1) * (32 / sizeof(T));
}

template <class T> uint64_t lane_at(uint32_t r, uint32_t j, uint32_t blk, uint32_t rep) {
  constexpr uint32_t B = 32 / sizeof(T);
  return uint64_t(r) * rep * B + (j / B) * blk * B + j % B;
}

// The per-lane rule: enabled lane j of repeat r is the raw op on its own inputs.
template <class T> void expected(const StageTiling& t, const std::vector<T>& src, std::vector<T>& dst) {
  constexpr uint32_t R = 256 / sizeof(T);
  const vec::VType vt = vec::vtype_of<T>;
  for (uint32_t r = 0; r < t.repeat; ++r)
    for (uint32_t j = 0; j < R; ++j) {
      if (!((j < 64 ? t.mask0 >> j : t.mask1 >> (j - 64)) & 1)) continue;
      const T a = src[lane_at<T>(r, j, t.s0blk, t.s0rep)];
      const T b = src[t.srcElems / 2 + lane_at<T>(r, j, t.s1blk, t.s1rep)];
      T& x = dst[lane_at<T>(r, j, t.dblk, t.drep)];
      T out = x;
      if (t.op == 0) ASSERT_TRUE(vec::binary(vec::BinaryOp::kMul, vt, &out, &a, &b, 1));
      else if (t.op == 1) ASSERT_TRUE(vec::binary(vec::BinaryOp::kAdd, vt, &out, &a, &b, 1));
      else ASSERT_TRUE(vec::ternary(vec::TernaryOp::kFusedMulAdd, vt, &out, &a, &b, 1));
      x = out;
    }
}

template <class T> void check_stage(StageTiling t) {
  constexpr uint32_t B = 32 / sizeof(T);
  t.dstElems = extent<T>(t.repeat, t.dblk, t.drep) + 2 * B;  // two spare blocks must stay untouched
  const uint32_t half_src = std::max(extent<T>(t.repeat, t.s0blk, t.s0rep), extent<T>(t.repeat, t.s1blk, t.s1rep));
  t.srcElems = 2 * half_src;
  t.is_half = sizeof(T) == 2;
  SimLaunch L(NPURT_SIM_ENTRY(stage_kernel), "stage");
  T* gd = L.gm<T>(t.dstElems + t.srcElems);
  T* gs = gd + t.dstElems;
  std::vector<T> dst = vectest::make_input<T>(t.dstElems, t.repeat * 7 + t.op, -4, 4);
  std::vector<T> src = vectest::make_input<T>(t.srcElems, t.repeat * 11 + t.s0rep, -4, 4);
  std::copy(dst.begin(), dst.end(), gd);
  std::copy(src.begin(), src.end(), gs);
  L.tiling(t);
  const npurt::Status st = L.run(1, aicore_test::kFull);
  ASSERT_TRUE(st.is_ok()) << st.message();
  expected<T>(t, src, dst);
  for (uint32_t i = 0; i < t.dstElems; ++i)
    ASSERT_TRUE(vectest::same_bits(gd[i], dst[i]))
        << vec::vtype_name(vec::vtype_of<T>) << " op " << t.op << " repeat " << t.repeat << " dst " << t.dblk << "/"
        << t.drep << " src0 " << t.s0blk << "/" << t.s0rep << " src1 " << t.s1blk << "/" << t.s1rep << " mask "
        << t.mask0 << " element " << i << " got " << float(gd[i]) << " want " << float(dst[i]);
  for (uint32_t i = 0; i < t.srcElems; ++i) ASSERT_TRUE(vectest::same_bits(gs[i], src[i])) << "source element " << i;
}

template <class T> void sweep() {
  constexpr uint32_t R = 256 / sizeof(T), B = 32 / sizeof(T);
  const uint64_t full0 = ~0ull, full1 = R > 64 ? ~0ull : 0;
  const uint64_t masks[][2] = {{full0, full1}, {1, 0}, {(1ull << B) - 1, 0}, {(1ull << 40) - 1, 0},
                               {0xf0f0f0f0f0f0f0f0ull, R > 64 ? 0x3ull : 0}};
  // {src0 blk, rep, src1 blk, rep}: Brcb'd blocks (0/0, 0/1, 0/2), one vector
  // reused (1/0), an odd repeat stride (1/9), dense (1/8).
  const uint32_t srcs[][4] = {{0, 0, 0, 0}, {0, 1, 1, 8}, {1, 0, 1, 8}, {1, 8, 1, 0}, {1, 9, 0, 2}, {1, 8, 1, 8}};
  for (uint32_t op : {0u, 1u, 2u})
    for (uint32_t repeat : {1u, 15u, 16u, 17u, 40u})
      for (const auto& s : srcs)
        for (const auto& m : masks)
          for (uint32_t drep : {8u, 12u}) {
            StageTiling t{op, repeat, 0, 0, 1, drep, s[0], s[1], s[2], s[3], m[0], m[1], 0};
            check_stage<T>(t);
            if (::testing::Test::HasFatalFailure()) return;
          }
}

TEST(AscendcRepeatStage, BroadcastAndStridedSourcesMatchThePerLaneRule) {
  sweep<float>();
  sweep<half>();
}

}  // namespace
