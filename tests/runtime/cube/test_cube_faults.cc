// tests/runtime/cube/test_cube_faults.cc: the cube unit's diagnostics. Each
// mode of misuse_kernel breaks one rule of aicore/cube.h; the launch must
// report exactly that code and API, and a correct launch afterwards is clean.
#include <gtest/gtest.h>

#include <string>

#include "../backends/sim/aicore/aicore_test_util.h"

using namespace aicore_test;
using namespace AscendC;

namespace {

struct Mode {
  uint32_t mode;
};

void misuse_kernel(GM_ADDR out, GM_ADDR, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(Mode, t, tiling);
  TPipe pipe;
  TBuf<TPosition::A1> l1;
  TBuf<TPosition::A2> l0a;
  TBuf<TPosition::B2> l0b;
  TBuf<TPosition::CO1> l0c;
  TBuf<TPosition::VECCALC> ub;
  TBuf<TPosition::C2> bt;
  pipe.InitBuffer(l1, 4096);
  pipe.InitBuffer(l0a, 1024);
  pipe.InitBuffer(l0b, 1024);
  pipe.InitBuffer(l0c, 2048);
  pipe.InitBuffer(ub, 1024);
  pipe.InitBuffer(bt, 64);
  LocalTensor<float> a = l0a.Get<float>(), b = l0b.Get<float>(), c = l0c.Get<float>();
  GlobalTensor<half> gout;
  gout.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(out), 256);
  MmadParams mp(16, 16, 8);
  switch (t.mode) {
    case 0: Mmad(c, a, b, mp); break;  // clean
    case 1: Mmad(c, ub.Get<float>(), b, mp); break;
    case 2: {
      LoadData2dParams lp;
      lp.ifTranspose = true;
      LoadData(a, l1.Get<float>(), lp);
      break;
    }
    case 3: Mmad(c, a, b, MmadParams(0, 16, 8)); break;
    case 4: {
      FixpipeParamsV220 fp;
      fp.mSize = fp.nSize = 16;
      fp.srcStride = 16;
      fp.dstStride = 16;
      Fixpipe(gout, c, fp);  // half output needs F322F16
      break;
    }
    case 5: Mmad(c, a, b, MmadParams(48, 16, 8)); break;  // A needs 3 fractals, has 2
    case 6: Mmad(c, a[8], b, mp); break;                   // L0A operand not 512-B aligned
    case 7: {
      TBuf<TPosition::A2> big;
      pipe.InitBuffer(big, 64 * 1024);  // L0A is 64 KiB and 1 KiB is taken
      break;
    }
    case 8: {
      FixpipeParamsV220 fp;
      fp.mSize = 16;
      fp.nSize = 32;  // 16 x 32 half: 2 column blocks of L0C, GM has 256 elements
      fp.srcStride = 16;
      fp.dstStride = 32;
      fp.quantPre = QuantMode_t::F322F16;
      Fixpipe(gout, c, fp);
      break;
    }
    case 9: {
      MmadParams bp = mp;
      bp.cmatrixSource = true;  // bias-table start without the bias operand
      Mmad(c, a, b, bp);
      break;
    }
    case 10: {
      MmadParams bp = mp;
      bp.cmatrixSource = true;
      Mmad(c, a, b, ub.Get<float>(), bp);  // bias operand not in the bias table
      break;
    }
    case 11: {
      MmadParams bp(16, 32, 8);
      bp.cmatrixSource = true;
      Mmad(c, a, b, bt.Get<float>(), bp);  // n = 32 floats: 128 B of a 64-B bias buffer
      break;
    }
  }
}

struct Case {
  uint32_t mode;
  const char* code;
  const char* api;
};

TEST(CubeFaults, EachRuleReportsItsCode) {
  const Case cases[] = {{1, "ErrorBuffer2", "Mmad"},  {2, "ErrorParam", "LoadData"},
                        {3, "ErrorParam", "Mmad"},    {4, "ErrorParam", "Fixpipe"},
                        {5, "ErrorRead3", "Mmad"},    {6, "ErrorRead4", "Mmad"},
                        {7, "ErrorInitBuffer", "TPipe::InitBuffer"}, {8, "ErrorGmWrite", "Fixpipe"},
                        {9, "ErrorParam", "Mmad"},    {10, "ErrorBuffer2", "Mmad"},
                        {11, "ErrorRead3", "Mmad"}};
  for (const Case& k : cases) {
    SimLaunch L(NPURT_SIM_ENTRY(misuse_kernel), "cube_misuse");
    L.gm<half>(256, "out");
    L.tiling(Mode{k.mode});
    npurt::sim::AicoreReport report;
    npurt::Status s = L.run(1, kBasic, &report);
    ASSERT_FALSE(s.is_ok()) << "mode " << k.mode;
    ASSERT_EQ(report.diagnostics.size(), 1u) << s.message();
    EXPECT_EQ(report.diagnostics[0].code, k.code) << "mode " << k.mode << ": " << s.message();
    EXPECT_EQ(report.diagnostics[0].api, k.api) << "mode " << k.mode << ": " << s.message();

    SimLaunch ok(NPURT_SIM_ENTRY(misuse_kernel), "cube_clean");
    ok.gm<half>(256, "out");
    ok.tiling(Mode{0});
    EXPECT_TRUE(ok.run(1, kFull).is_ok());
  }
}

}  // namespace
