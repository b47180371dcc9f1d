// Brcb feeding a scattered DataCopyPad to GM, as the copy kernel's strided
// output does it (kernels/copy/copy_kernel.cc, Scatter): a row is loaded
// through a VECIN/VECOUT bind queue, Brcb spreads unit k to UB block k of a
// VECOUT queue buffer (a scalar tail past the last whole repeat), and one
// DataCopyPad writes one unit per block at a GM gap. Wave 10 reported this
// shape hanging in copy_local_to_gm; it must give the documented bytes at the
// basic and full check levels, and without the MTE2 -> V sync the full level
// must report a hazard naming Brcb (an error, never a hang: ctest's TIMEOUT
// bounds the binary). Blocks of 2 and 4 bytes also cover the sim's
// fixed-size small-block copy path (data_copy.cc).
#include <gtest/gtest.h>

#include <cstring>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "runtime/backends/sim/aicore/aicore_test_util.h"

namespace brcb_scatter_kernels {

struct ScatterTiling {
  uint32_t n;       // units to spread (<= 4080)
  uint32_t stride;  // output stride in units (>= 1)
  uint32_t sync;    // 1: SetFlag/WaitFlag<MTE2_V> before Brcb reads the loaded row
  uint32_t half;    // 1: half units, 0: float
};

template <class T>
__aicore__ inline void scatter_body(GM_ADDR src, GM_ADDR dst, const ScatterTiling& t) {
  constexpr uint32_t per_block = 32 / sizeof(T);
  AscendC::TPipe pipe;
  AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1> q;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> sq;
  pipe.InitBuffer(q, 1, (t.n * sizeof(T) + 31) / 32 * 32);
  pipe.InitBuffer(sq, 1, t.n * 32);
  AscendC::GlobalTensor<T> gs, gd;
  gs.SetGlobalBuffer((__gm__ T*)src, t.n);
  gd.SetGlobalBuffer((__gm__ T*)dst, (t.n - 1) * t.stride + 1);
  AscendC::LocalTensor<T> b = q.AllocTensor<T>();
  AscendC::DataCopyPad(b, gs, AscendC::DataCopyExtParams(1, t.n * sizeof(T), 0, 0, 0),
                       AscendC::DataCopyPadExtParams<T>(false, 0, 0, T{}));
  q.EnQue(b);
  b = q.DeQue<T>();
  AscendC::LocalTensor<T> sp = sq.AllocTensor<T>();
  if (t.sync) {
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
  }
  uint32_t i = 0;
  for (const uint32_t whole = t.n / 8 * 8; i < whole;) {
    const uint32_t r = (whole - i) / 8 < 254 ? (whole - i) / 8 : 254;
    AscendC::Brcb(sp[i * per_block], b[i], static_cast<uint8_t>(r), AscendC::BrcbRepeatParams(1, 8));
    i += r * 8;
  }
  for (; i < t.n; ++i) sp.SetValue(i * per_block, b.GetValue(i));
  sq.EnQue(sp);
  sp = sq.DeQue<T>();
  AscendC::DataCopyPad(gd, sp, AscendC::DataCopyExtParams(static_cast<uint16_t>(t.n), sizeof(T), 0,
                                                          t.n > 1 ? (t.stride - 1) * sizeof(T) : 0, 0));
  sq.FreeTensor(sp);
  q.FreeTensor(b);
}

// One entry for both unit sizes (tiling.half picks the element type).
extern "C" __global__ __aicore__ void brcb_scatter(GM_ADDR s, GM_ADDR d, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA_WITH_STRUCT(ScatterTiling, t, tiling);
  if (t.half) scatter_body<half>(s, d, t);
  else scatter_body<float>(s, d, t);
}

}  // namespace brcb_scatter_kernels

namespace {

using aicore_test::SimLaunch;
using namespace brcb_scatter_kernels;

template <class T>
void check_scatter(uint32_t n, uint32_t stride, npurt::SimCheckLevel level) {
  ScatterTiling t{n, stride, 1, std::is_same_v<T, half> ? 1u : 0u};
  SimLaunch L(NPURT_SIM_ENTRY(brcb_scatter), "brcb_scatter");
  T* gs = L.gm<T>(n);
  const uint32_t out = (n - 1) * stride + 1;
  T* gd = L.gm<T>(out);
  std::vector<T> want(out);
  for (uint32_t i = 0; i < n; ++i) gs[i] = static_cast<T>(float(int(i * 37 % 2001) - 1000) * 0.125f);
  for (uint32_t i = 0; i < out; ++i) gd[i] = want[i] = static_cast<T>(-float(i % 977) - 0.5f);
  for (uint32_t i = 0; i < n; ++i) want[i * stride] = gs[i];  // the gaps keep their bytes
  L.tiling(t);
  const npurt::Status st = L.run(1, level);
  ASSERT_TRUE(st.is_ok()) << st.message();
  ASSERT_EQ(std::memcmp(gd, want.data(), out * sizeof(T)), 0) << "n " << n << " stride " << stride;
}

TEST(BrcbScatter, SpreadThenScatteredDataCopyPadWritesEveryUnit) {
  for (uint32_t n : {1u, 7u, 8u, 13u, 2032u, 2040u, 4080u}) {
    for (uint32_t stride : {1u, 2u, 3u, 17u}) {
      for (auto level : {aicore_test::kBasic, aicore_test::kFull}) {
        check_scatter<float>(n, stride, level);
        check_scatter<half>(n, stride, level);
      }
    }
  }
}

TEST(BrcbScatter, MissingLoadSyncIsAHazardNamingBrcb) {
  SimLaunch L(NPURT_SIM_ENTRY(brcb_scatter), "brcb_scatter");
  ScatterTiling t{64, 2, 0, 0};
  L.gm<float>(t.n);
  L.gm<float>((t.n - 1) * t.stride + 1);
  L.tiling(t);
  npurt::sim::AicoreReport report;
  const npurt::Status s = L.run(1, aicore_test::kFull, &report);
  ASSERT_EQ(s.code(), npurt::StatusCode::kKernelFault) << s.message();
  ASSERT_FALSE(report.diagnostics.empty());
  EXPECT_EQ(report.diagnostics.front().api, "Brcb") << s.message();
  EXPECT_EQ(report.diagnostics.front().code, "ErrorSync2") << s.message();
}

}  // namespace
