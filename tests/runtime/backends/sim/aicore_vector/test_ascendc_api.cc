// The vector APIs through the AscendC layer: kernels launched on the simulated
// core (TPipe/TBuf/TQue + DataCopy) must produce exactly what the raw layer
// produces (the raw layer is checked against scalar references in
// test_raw_*.cc), leave bytes past calCount untouched, and run clean at the
// `full` check level. Misuse is caught with the right code and API name.
#include "runtime/backends/sim/aicore/aicore_test_util.h"
#include "vec_test_util.h"
#include "vector_kernels.h"

namespace {

using namespace vectest;
using namespace vector_kernels;
using aicore_test::SimLaunch;
namespace vec = npurt::aicore::vec;

// What the probe kernel must leave in z, computed with the raw layer on host copies.
template <class T> void expected_probe(ProbeOp op, const ProbeTiling& t, const std::vector<T>& x,
                                       const std::vector<T>& y, std::vector<T>& z) {
  const vec::VType vt = vec::vtype_of<T>;
  const T s = static_cast<T>(t.scalar);
  const uint64_t n = t.n;
  static const vec::BinaryOp kBin[] = {vec::BinaryOp::kAdd, vec::BinaryOp::kSub, vec::BinaryOp::kMul,
                                       vec::BinaryOp::kDiv, vec::BinaryOp::kMax, vec::BinaryOp::kMin};
  static const vec::ScalarOp kSca[] = {vec::ScalarOp::kAdds, vec::ScalarOp::kMuls, vec::ScalarOp::kMaxs,
                                       vec::ScalarOp::kMins, vec::ScalarOp::kLeakyRelu};
  static const vec::UnaryOp kUn[] = {vec::UnaryOp::kExp, vec::UnaryOp::kLn, vec::UnaryOp::kAbs, vec::UnaryOp::kSqrt,
                                     vec::UnaryOp::kRsqrt, vec::UnaryOp::kReciprocal, vec::UnaryOp::kRelu};
  if (op <= kMin) ASSERT_TRUE(vec::binary(kBin[op], vt, z.data(), x.data(), y.data(), n));
  else if (op <= kLeakyRelu) ASSERT_TRUE(vec::binary_scalar(kSca[op - kAdds], vt, z.data(), x.data(), &s, n));
  else if (op <= kRelu) ASSERT_TRUE(vec::unary(kUn[op - kExp], vt, z.data(), x.data(), n));
  else if (op == kDuplicate) ASSERT_TRUE(vec::duplicate(vt, z.data(), &s, n));
  else if (op == kAxpy) ASSERT_TRUE(vec::axpy(vt, vt, z.data(), x.data(), &s, n));
  else if (op == kReduceMax) ASSERT_TRUE(vec::reduce(vec::ReduceOp::kMax, vt, z.data(), x.data(), n, true));
  else if (op == kReduceMin) ASSERT_TRUE(vec::reduce(vec::ReduceOp::kMin, vt, z.data(), x.data(), n, true));
  else if (op == kReduceSum) ASSERT_TRUE(vec::reduce(vec::ReduceOp::kSum, vt, z.data(), x.data(), n, false));
  else if (op == kFusedMulAdd) ASSERT_TRUE(vec::ternary(vec::TernaryOp::kFusedMulAdd, vt, z.data(), x.data(), y.data(), n));
  else if (op == kMulAddDst) ASSERT_TRUE(vec::ternary(vec::TernaryOp::kMulAddDst, vt, z.data(), x.data(), y.data(), n));
  else if (op == kCompareSelect) {
    std::vector<uint8_t> m(n / 8 + 1);
    ASSERT_TRUE(vec::compare(AscendC::CMPMODE::LT, vt, m.data(), x.data(), y.data(), false, n));
    ASSERT_TRUE(vec::select(vt, z.data(), m.data(), 0, x.data(), y.data(), false, n));
  }
}

template <class T> void run_probe(npurt::SimKernelEntry entry, ProbeOp op, uint32_t n, npurt::SimCheckLevel level) {
  const uint32_t per_block = 32 / sizeof(T);
  ProbeTiling t{n, (n + 2 + per_block - 1) / per_block * per_block, op, op == kLeakyRelu ? 0.1f : -1.5f};
  SimLaunch L(entry, "probe");
  T* gx = L.gm<T>(t.padded);
  T* gy = L.gm<T>(t.padded);
  T* gz = L.gm<T>(t.padded);
  std::vector<T> x = make_input<T>(t.padded, n * 3 + op, -6, 6), y = make_input<T>(t.padded, n * 5 + op, -6, 6);
  std::vector<T> z = make_input<T>(t.padded, n * 7 + op, -6, 6);
  std::copy(x.begin(), x.end(), gx);
  std::copy(y.begin(), y.end(), gy);
  std::copy(z.begin(), z.end(), gz);
  L.tiling(t);
  npurt::Status st = L.run(1, level);
  ASSERT_TRUE(st.is_ok()) << "op " << op << " n=" << n << ": " << st.message();
  expected_probe<T>(op, t, x, y, z);
  for (uint32_t i = 0; i < t.padded; ++i) {
    ASSERT_TRUE(same_value(gz[i], z[i])) << vec::vtype_name(vec::vtype_of<T>) << " op " << op << " n=" << n
                                         << " i=" << i << " got " << float(gz[i]) << " want " << float(z[i]);
  }
}

class AscendcApi : public IsaTest {};

TEST_P(AscendcApi, EveryProbeOpMatchesTheRawLayerAtBasicAndFull) {
  for (uint32_t op = 0; op < kNumProbeOps; ++op) {
    for (uint32_t n : {1u, 15u, 16u, 33u, 255u, 256u, 1023u, 4096u}) {
      if (op == kCompareSelect && n % 64 != 0) continue;  // Compare: count * sizeof(T) % 256 == 0
      for (auto level : {aicore_test::kBasic, aicore_test::kFull}) {
        run_probe<float>(NPURT_SIM_ENTRY(probe_float), ProbeOp(op), n, level);
        if (op == kCompareSelect && n % 128 != 0) continue;
        run_probe<half>(NPURT_SIM_ENTRY(probe_half), ProbeOp(op), n, level);
      }
    }
  }
}

TEST_P(AscendcApi, RowSoftmaxOverManyBlocks) {
  for (uint32_t blocks : {1u, 3u, 8u}) {
    SoftmaxTiling t{blocks * 5, 200};
    SimLaunch L(NPURT_SIM_ENTRY(softmax_rows), "softmax_rows");
    float* x = L.gm<float>(t.rows * t.cols);
    float* y = L.gm<float>(t.rows * t.cols);
    std::vector<float> in = make_input<float>(t.rows * t.cols, blocks, -20, 20, false);
    std::copy(in.begin(), in.end(), x);
    L.tiling(t);
    npurt::Status st = L.run(blocks, aicore_test::kFull);
    ASSERT_TRUE(st.is_ok()) << st.message();
    for (uint32_t r = 0; r < t.rows; ++r) {
      double mx = -INFINITY, sum = 0;
      for (uint32_t c = 0; c < t.cols; ++c) mx = std::max(mx, double(in[r * t.cols + c]));
      for (uint32_t c = 0; c < t.cols; ++c) sum += std::exp(double(in[r * t.cols + c]) - mx);
      for (uint32_t c = 0; c < t.cols; ++c) {
        double want = std::exp(double(in[r * t.cols + c]) - mx) / sum;
        // float pipeline of 5 roundings + 1-ulp exp: relative 1e-5 (plus 1e-30 absolute for tiny values)
        ASSERT_NEAR(y[r * t.cols + c], want, want * 1e-5 + 1e-30) << "row " << r << " col " << c;
      }
    }
  }
}

TEST_P(AscendcApi, CastRoundTripEveryFloatToHalfMode) {
  for (uint32_t mode = 0; mode <= uint32_t(AscendC::RoundMode::CAST_ODD); ++mode) {
    for (uint32_t n : {16u, 1024u, 4096u}) {
      SimLaunch L(NPURT_SIM_ENTRY(cast_roundtrip), "cast_roundtrip");
      float* x = L.gm<float>(n);
      half* h = L.gm<half>(n);
      float* y = L.gm<float>(n);
      std::vector<float> in = make_input<float>(n, n + mode, -70000, 70000);
      std::copy(in.begin(), in.end(), x);
      L.tiling(CastTiling{n, mode});
      npurt::Status st = L.run(1, aicore_test::kFull);
      ASSERT_TRUE(st.is_ok()) << st.message();
      std::vector<half> wh(n);
      std::vector<float> wy(n);
      ASSERT_TRUE(vec::cast(vec::VType::kF16, vec::VType::kF32, AscendC::RoundMode(mode), wh.data(), in.data(), n));
      ASSERT_TRUE(vec::cast(vec::VType::kF32, vec::VType::kF16, AscendC::RoundMode::CAST_NONE, wy.data(), wh.data(), n));
      for (uint32_t i = 0; i < n; ++i) {
        ASSERT_TRUE(same_value(h[i], wh[i])) << "mode " << mode << " i=" << i;
        ASSERT_TRUE(same_value(y[i], wy[i])) << "mode " << mode << " i=" << i;
        ASSERT_TRUE(is_nan(y[i]) || y[i] == float(h[i]));
      }
    }
  }
}

TEST_P(AscendcApi, IntegerAndOrNotAddRelu) {
  const uint32_t n = 1024;
  SimLaunch L(NPURT_SIM_ENTRY(int_ops), "int_ops");
  int16_t* a = L.gm<int16_t>(n);
  int16_t* b = L.gm<int16_t>(n);
  int32_t* c = L.gm<int32_t>(n);
  int32_t* d = L.gm<int32_t>(n);
  int16_t* z = L.gm<int16_t>(3 * n);
  int32_t* w = L.gm<int32_t>(n);
  std::vector<int16_t> va = make_input<int16_t>(n, 1), vb = make_input<int16_t>(n, 2);
  std::vector<int32_t> vc = make_input<int32_t>(n, 3), vd = make_input<int32_t>(n, 4);
  std::copy(va.begin(), va.end(), a);
  std::copy(vb.begin(), vb.end(), b);
  std::copy(vc.begin(), vc.end(), c);
  std::copy(vd.begin(), vd.end(), d);
  L.tiling(n);
  npurt::Status st = L.run(1, aicore_test::kFull);
  ASSERT_TRUE(st.is_ok()) << st.message();
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(z[i], int16_t(va[i] & vb[i])) << i;
    ASSERT_EQ(z[n + i], int16_t(va[i] | vb[i])) << i;
    ASSERT_EQ(z[2 * n + i], int16_t(~va[i])) << i;
    ASSERT_EQ(w[i], std::max(vc[i] + vd[i], 0)) << i;
  }
}

// The level-0 kernels' GM operands (vector_kernels.h Level0Io): half a, b, z
// and float c, w filled from seeds first..first + 4; z and w hold the results.
struct Level0Operands {
  std::vector<half> va, vb, vz;
  std::vector<float> vc, vw;
  half* z = nullptr;
  float* w = nullptr;

  Level0Operands(SimLaunch& L, uint32_t first)
      : va(make_input<half>(kL0Elems, first)), vb(make_input<half>(kL0Elems, first + 1)),
        vz(make_input<half>(kL0Elems, first + 2)), vc(make_input<float>(kL0Elems, first + 3)),
        vw(make_input<float>(kL0Elems, first + 4)) {
    std::copy(va.begin(), va.end(), L.gm<half>(kL0Elems));
    std::copy(vb.begin(), vb.end(), L.gm<half>(kL0Elems));
    z = L.gm<half>(kL0Elems);
    std::copy(vz.begin(), vz.end(), z);
    std::copy(vc.begin(), vc.end(), L.gm<float>(kL0Elems));
    w = L.gm<float>(kL0Elems);
    std::copy(vw.begin(), vw.end(), w);
  }
  void Run(SimLaunch& L) {
    L.tiling(uint32_t{0});
    npurt::Status st = L.run(1, aicore_test::kFull);
    ASSERT_TRUE(st.is_ok()) << st.message();
  }
};

TEST_P(AscendcApi, Level0MaskRepeatStridedForms) {
  SimLaunch L(NPURT_SIM_ENTRY(level0_ops), "level0_ops");
  Level0Operands io(L, 1);
  ASSERT_NO_FATAL_FAILURE(io.Run(L));
  const std::vector<half>&va = io.va, &vb = io.vb, &vz = io.vz;
  const std::vector<float>&vc = io.vc, &vw = io.vw;
  const half* z = io.z;
  const float* w = io.w;
  // Reference: lane j of repeat r at r*rep*epb + (j/epb)*blk*epb + j%epb.
  auto at = [](uint64_t r, uint64_t j, uint64_t blk, uint64_t rep, uint64_t epb) {
    return r * rep * epb + (j / epb) * blk * epb + j % epb;
  };
  std::vector<half> wz = vz;
  for (uint64_t r = 0; r < 3; ++r)
    for (uint64_t j = 0; j < 100; ++j) wz[at(r, j, 1, 8, 16)] = half(va[at(r, j, 2, 16, 16)] + vb[at(r, j, 1, 9, 16)]);
  std::vector<float> ww = vw;
  const uint64_t m = 0xF0F0'0000'FFFF'0001ull;
  for (uint64_t r = 0; r < 2; ++r)
    for (uint64_t j = 0; j < 64; ++j)
      if ((m >> j) & 1) vec::unary(vec::UnaryOp::kExp, vec::VType::kF32, &ww[at(r, j, 1, 16, 8)], &vc[at(r, j, 1, 8, 8)], 1);
  for (uint32_t i = 0; i < kL0Elems; ++i) {
    ASSERT_TRUE(same_value(z[i], wz[i])) << "half Add level 0, element " << i;
    ASSERT_TRUE(same_value(w[i], ww[i])) << "float Exp level 0, element " << i;
  }
}

// Level-0 forms on the in-place path must give what the per-lane raw layer gives.
TEST_P(AscendcApi, Level0DenseFormsMatchPerLaneReference) {
  SimLaunch L(NPURT_SIM_ENTRY(level0_dense_ops), "level0_dense_ops");
  Level0Operands io(L, 11);
  ASSERT_NO_FATAL_FAILURE(io.Run(L));
  const std::vector<half>&va = io.va, &vb = io.vb, &vz = io.vz;
  const std::vector<float>&vc = io.vc, &vw = io.vw;
  const half* z = io.z;
  const float* w = io.w;
  using vec::VType;
  std::vector<half> wz = vz;
  std::vector<float> ww = vw;
  for (uint64_t i = 0; i < 320; ++i) vec::binary(vec::BinaryOp::kMul, VType::kF32, &ww[i], &vc[i], &ww[i], 1);
  for (uint64_t r = 0; r < 3; ++r)
    for (uint64_t j = 0; j < 100; ++j)
      vec::binary(vec::BinaryOp::kAdd, VType::kF16, &wz[r * 144 + j], &va[r * 160 + j], &vb[r * 128 + j], 1);
  for (uint64_t r = 0; r < 4; ++r)
    for (uint64_t j = 0; j < 48; ++j)
      vec::ternary(vec::TernaryOp::kFusedMulAdd, VType::kF32, &ww[1024 + r * 128 + j], &vc[r * 64 + j], &vc[2048 + j], 1);
  for (uint64_t r = 0; r < 6; ++r)
    for (uint64_t j = 0; j < 16; ++j) vec::unary(vec::UnaryOp::kSqrt, VType::kF32, &ww[2048 + r * 64 + j], &ww[2048 + r * 64 + j], 1);
  const uint64_t holes[2] = {0x00FF'00FF'00FF'00FFull, 0xFF00'0000'0000'0000ull};
  for (uint64_t r = 0; r < 2; ++r)
    for (uint64_t j = 0; j < 128; ++j)
      if ((holes[j / 64] >> (j % 64)) & 1)
        vec::binary(vec::BinaryOp::kMul, VType::kF16, &wz[2048 + r * 128 + j], &wz[2048 + r * 128 + j], &vb[r * 128 + j], 1);
  for (uint32_t i = 0; i < kL0Elems; ++i) {
    ASSERT_TRUE(same_value(z[i], wz[i])) << "half level 0, element " << i;
    ASSERT_TRUE(same_value(w[i], ww[i])) << "float level 0, element " << i;
  }
}

struct FaultCase {
  VecFault which;
  npurt::SimCheckLevel level;
  const char* code;
  const char* api;
  const char* detail_has;
};

class AscendcFaults : public ::testing::TestWithParam<FaultCase> {};

TEST_P(AscendcFaults, CaughtWithCodeAndApi) {
  const FaultCase& c = GetParam();
  SimLaunch L(NPURT_SIM_ENTRY(vec_faulty), "vec_faulty");
  L.tiling(uint32_t(c.which));
  npurt::sim::AicoreReport report;
  npurt::Status s = L.run(1, c.level, &report);
  ASSERT_EQ(s.code(), npurt::StatusCode::kKernelFault) << "case " << c.which;
  ASSERT_FALSE(report.diagnostics.empty());
  const auto& d = report.diagnostics.front();
  EXPECT_EQ(d.code, c.code) << s.message();
  EXPECT_EQ(d.api, c.api) << s.message();
  EXPECT_NE(d.detail.find(c.detail_has), std::string::npos) << s.message();
}

const FaultCase kFaults[] = {
    {kCastBadMode, aicore_test::kBasic, "ErrorParam", "Cast", "RoundMode"},
    {kPartialOverlap, aicore_test::kBasic, "ErrorParam", "Add", "partially overlaps"},
    {kCountPastTensor, aicore_test::kBasic, "ErrorRead3", "Exp", ""},
    {kCompareTail, aicore_test::kBasic, "ErrorParam", "Compare", "multiple of 256 bytes"},
    {kNegativeCount, aicore_test::kBasic, "ErrorParam", "Muls", "negative"},
    {kBadMask, aicore_test::kBasic, "ErrorParam", "WholeReduceSum", "mask is empty"},
    {kUninitRead, aicore_test::kFull, "ErrorRead2", "Exp", ""},
    {kSmallWorkBuffer, aicore_test::kBasic, "ErrorWrite2", "ReduceMax", ""},
    {kSelectModeMismatch, aicore_test::kBasic, "ErrorParam", "Select", "VSEL_TENSOR_SCALAR_MODE"},
    {kDstBlkStrideZero, aicore_test::kBasic, "ErrorParam", "Add", "dstBlkStride 0"},
};

INSTANTIATE_TEST_SUITE_P(Vector, AscendcFaults, ::testing::ValuesIn(kFaults),
                         [](const auto& info) { return "case" + std::to_string(int(info.param.which)); });

VECTEST_INSTANTIATE(AscendcApi);

}  // namespace
