// TransDataTo5HD (LocalTensor-list and address-list forms) and Transpose
// through the AscendC layer: kernels on the simulated core move a matrix into
// UB, transpose it the way Ascend's own kernels call these APIs, and move it
// back; results are compared with a plain index-swapping reference at the
// basic and full check levels. Misuse faults with the right code and API.
#include <numeric>

#include "runtime/backends/sim/aicore/aicore_test_util.h"
#include "vec_test_util.h"

namespace {

using namespace AscendC;
using aicore_test::SimLaunch;

enum Mode : uint32_t {
  kB16List, kB32Addr, kB8Addr, kTranspose16,                        // results
  kFaultMisaligned, kFaultNotInBuffer, kFaultHighHalf, kFaultPastEnd  // misuse
};
struct TransTiling {
  uint32_t mode;
  uint32_t cols;  // kB32Addr: columns of the 16-row matrix (multiple of 8)
};
constexpr uint32_t kBytes = 4096;

// kB32Addr: 16 x C float -> C x 16, the TransposeBase16M8 pattern of Ascend's
// kernels: dst entry i at row i/2, column 8*(i%2); repeats walk 8 columns.
__aicore__ inline void b32_addr(LocalTensor<uint32_t> in, LocalTensor<uint32_t> out, uint32_t cols, bool past_end) {
  uint64_t src[16], dst[16];
  for (uint32_t i = 0; i < 16; ++i) {
    src[i] = in[i * cols].GetPhyAddr();
    dst[i] = out[(i / 2) * 16 + (i % 2) * 8].GetPhyAddr();
  }
  TransDataTo5HDParams p(false, false, static_cast<uint8_t>(cols / 8 + (past_end ? 200 : 0)), 16, 1);
  if (p.repeatTimes == 1) p.dstRepStride = p.srcRepStride = 0;
  TransDataTo5HD<uint32_t>(dst, src, p);
}

// kB8Addr: 32 x 32 bytes, four instructions (source half x destination half).
__aicore__ inline void b8_addr(LocalTensor<uint8_t> in, LocalTensor<uint8_t> out) {
  for (uint32_t sh = 0; sh < 2; ++sh)
    for (uint32_t dh = 0; dh < 2; ++dh) {
      uint64_t src[16], dst[16];
      for (uint32_t k = 0; k < 16; ++k) {
        src[k] = in[(16 * dh + k) * 32].GetPhyAddr();
        dst[k] = out[(16 * sh + k) * 32].GetPhyAddr();
      }
      TransDataTo5HD<uint8_t>(dst, src, TransDataTo5HDParams(dh != 0, sh != 0, 1, 0, 0));
    }
}

__aicore__ inline void b16_list(LocalTensor<half> in, LocalTensor<half> out, bool high, uint32_t skew) {
  LocalTensor<half> src[16], dst[16];
  for (uint32_t i = 0; i < 16; ++i) {
    src[i] = in[16 * i + (i == 3 ? skew : 0)];
    dst[i] = out[16 * i];
  }
  TransDataTo5HD<half>(dst, src, TransDataTo5HDParams(high, false, 1, 0, 0));
}

extern "C" __global__ __aicore__ void trans_probe(GM_ADDR x, GM_ADDR y, GM_ADDR, GM_ADDR tiling) {
  TransTiling t = *reinterpret_cast<const TransTiling*>(tiling);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bi, bo;
  pipe.InitBuffer(bi, kBytes);
  pipe.InitBuffer(bo, kBytes);
  LocalTensor<uint8_t> in = bi.Get<uint8_t>(), out = bo.Get<uint8_t>();
  GlobalTensor<uint8_t> gx, gy;
  gx.SetGlobalBuffer((__gm__ uint8_t*)x, kBytes);
  gy.SetGlobalBuffer((__gm__ uint8_t*)y, kBytes);
  DataCopy(in, gx, kBytes);
  DataCopy(out, gy, kBytes);
  PipeBarrier<PIPE_ALL>();
  switch (t.mode) {
    case kB16List: b16_list(in.ReinterpretCast<half>(), out.ReinterpretCast<half>(), false, 0); break;
    case kB32Addr: b32_addr(in.ReinterpretCast<uint32_t>(), out.ReinterpretCast<uint32_t>(), t.cols, false); break;
    case kB8Addr: b8_addr(in, out); break;
    case kTranspose16: Transpose(out.ReinterpretCast<int16_t>(), in.ReinterpretCast<int16_t>()); break;
    case kFaultMisaligned: b16_list(in.ReinterpretCast<half>(), out.ReinterpretCast<half>(), false, 2); break;
    case kFaultHighHalf: b16_list(in.ReinterpretCast<half>(), out.ReinterpretCast<half>(), true, 0); break;
    case kFaultPastEnd: b32_addr(in.ReinterpretCast<uint32_t>(), out.ReinterpretCast<uint32_t>(), 8, true); break;
    case kFaultNotInBuffer: {
      uint64_t src[16], dst[16];
      alignas(32) static uint8_t outside[32];
      for (uint32_t k = 0; k < 16; ++k) {
        src[k] = in[32 * k].GetPhyAddr();
        dst[k] = k == 5 ? reinterpret_cast<uintptr_t>(outside) : out[32 * k].GetPhyAddr();
      }
      TransDataTo5HD<half>(dst, src, TransDataTo5HDParams());
      break;
    }
  }
  PipeBarrier<PIPE_ALL>();
  DataCopy(gy, out, kBytes);
}

// Runs the probe; x holds distinct 4-byte values (so every width's elements
// are distinguishable), y starts as 0xEE filler that untouched bytes keep.
npurt::Status run(const TransTiling& t, npurt::SimCheckLevel level, std::vector<uint8_t>& x, std::vector<uint8_t>& y,
                  npurt::sim::AicoreReport* report = nullptr) {
  SimLaunch L(NPURT_SIM_ENTRY(trans_probe), "trans_probe");
  uint8_t* gx = L.gm<uint8_t>(kBytes);
  uint8_t* gy = L.gm<uint8_t>(kBytes);
  x.resize(kBytes);
  for (uint32_t i = 0; i < kBytes / 4; ++i) {
    uint32_t v = 0x9E3779B9u * (i + 1);
    std::memcpy(&x[4 * i], &v, 4);
  }
  std::memcpy(gx, x.data(), kBytes);
  std::memset(gy, 0xEE, kBytes);
  L.tiling(t);
  npurt::Status s = L.run(1, level, report);
  y.assign(gy, gy + kBytes);
  return s;
}

// want[(c * R + r) * E] = x[(r * C + c) * E] for an R x C matrix of E-byte elements.
std::vector<uint8_t> transposed(const std::vector<uint8_t>& x, uint32_t R, uint32_t C, uint32_t E) {
  std::vector<uint8_t> want(kBytes, 0xEE);
  for (uint32_t r = 0; r < R; ++r)
    for (uint32_t c = 0; c < C; ++c) std::memcpy(&want[(c * R + r) * E], &x[(r * C + c) * E], E);
  return want;
}

TEST(AscendcTranspose, EveryFormTransposesAtBasicAndFull) {
  for (auto level : {aicore_test::kBasic, aicore_test::kFull}) {
    std::vector<uint8_t> x, y;
    ASSERT_TRUE(run({kB16List, 0}, level, x, y).is_ok());
    EXPECT_EQ(y, transposed(x, 16, 16, 2)) << "b16 list";
    ASSERT_TRUE(run({kTranspose16, 0}, level, x, y).is_ok());
    EXPECT_EQ(y, transposed(x, 16, 16, 2)) << "Transpose";
    ASSERT_TRUE(run({kB8Addr, 0}, level, x, y).is_ok());
    EXPECT_EQ(y, transposed(x, 32, 32, 1)) << "b8";
    for (uint32_t cols : {8u, 16u, 40u}) {
      ASSERT_TRUE(run({kB32Addr, cols}, level, x, y).is_ok());
      EXPECT_EQ(y, transposed(x, 16, cols, 4)) << "b32 cols " << cols;
    }
  }
}

struct FaultCase {
  Mode mode;
  const char* code;
  const char* detail_has;
};

class TransposeFaults : public ::testing::TestWithParam<FaultCase> {};

TEST_P(TransposeFaults, CaughtWithCodeAndApi) {
  const FaultCase& c = GetParam();
  std::vector<uint8_t> x, y;
  npurt::sim::AicoreReport report;
  npurt::Status s = run({c.mode, 8}, aicore_test::kBasic, x, y, &report);
  ASSERT_EQ(s.code(), npurt::StatusCode::kKernelFault) << "mode " << c.mode;
  ASSERT_FALSE(report.diagnostics.empty());
  const auto& d = report.diagnostics.front();
  EXPECT_EQ(d.code, c.code) << s.message();
  EXPECT_EQ(d.api, "TransDataTo5HD") << s.message();
  EXPECT_NE(d.detail.find(c.detail_has), std::string::npos) << s.message();
}

const FaultCase kFaults[] = {
    {kFaultMisaligned, "ErrorRead4", ""},
    {kFaultNotInBuffer, "ErrorBuffer3", "dstList entry"},
    {kFaultHighHalf, "ErrorParam", "int8_t/uint8_t only"},
    {kFaultPastEnd, "ErrorRead3", ""},
};

INSTANTIATE_TEST_SUITE_P(Vector, TransposeFaults, ::testing::ValuesIn(kFaults),
                         [](const auto& info) { return "mode" + std::to_string(int(info.param.mode)); });

}  // namespace
