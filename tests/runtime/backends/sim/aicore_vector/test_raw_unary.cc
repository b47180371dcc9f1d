// Raw layer: unary kernels against double-precision libm references.
// Tolerances: float Exp <= 2 ulp, Ln <= 1 ulp, Rsqrt <= 2 ulp; Sqrt,
// Reciprocal, Abs, Relu, Not exact. half: computed in float and rounded once,
// so <= 1 half-ulp from the correctly rounded result for Exp/Ln/Rsqrt, exact for the rest.
// Special values (inf, NaN, -0, subnormals, overflow) must match exactly.
#include "vec_test_util.h"

namespace {

using namespace vectest;
using npurt::aicore::vec::UnaryOp;
using npurt::aicore::vec::vtype_of;

double ref_unary(UnaryOp op, double x) {
  switch (op) {
    case UnaryOp::kExp: return std::exp(x);
    case UnaryOp::kLn: return std::log(x);
    case UnaryOp::kAbs: return std::fabs(x);
    case UnaryOp::kSqrt: return std::sqrt(x);
    case UnaryOp::kRsqrt: return 1.0 / std::sqrt(x);
    case UnaryOp::kReciprocal: return 1.0 / x;
    case UnaryOp::kRelu: return x != x ? x : (x > 0 ? x : 0.0);
    default: return 0;
  }
}

int64_t tolerance(UnaryOp op, bool is_half) {
  switch (op) {
    case UnaryOp::kExp: return is_half ? 1 : 2;
    case UnaryOp::kLn: return 1;
    case UnaryOp::kRsqrt: return is_half ? 1 : 2;
    default: return 0;
  }
}

template <class T> int64_t ulp(T a, T b) {
  if constexpr (std::is_same_v<T, float>) return ulp_f32(a, b);
  else return ulp_f16(a, b);
}

// Returns the worst ulp error seen; fails on NaN/inf mismatches and on errors over the tolerance.
template <class T> int64_t check_unary(UnaryOp op, const std::vector<T>& in) {
  std::vector<T> out(in.size());
  EXPECT_TRUE(npurt::aicore::vec::unary(op, vtype_of<T>, out.data(), in.data(), in.size()));
  const int64_t tol = tolerance(op, std::is_same_v<T, half>);
  int64_t worst = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    T want = static_cast<T>(ref_unary(op, static_cast<double>(in[i])));
    float g = static_cast<float>(out[i]), w = static_cast<float>(want);
    bool special = is_nan(w) || std::isinf(w) || w == 0.0f;
    int64_t e = special ? (same_value(out[i], want) || (is_nan(g) && is_nan(w)) ? 0 : 1 << 30) : ulp(out[i], want);
    if (e > tol) {
      ADD_FAILURE() << unary_op_name(op) << " " << vtype_name(vtype_of<T>) << " x=" << float(in[i])
                    << " (bits " << std::hex << float_bits(float(in[i])) << std::dec << ") got " << g
                    << " want " << w << " err " << e << " ulp";
      return e;
    }
    worst = std::max(worst, e);
  }
  return worst;
}

class RawUnary : public IsaTest {};

TEST_P(RawUnary, AllOpsOverSizesAndSpecials) {
  for (UnaryOp op : {UnaryOp::kExp, UnaryOp::kLn, UnaryOp::kAbs, UnaryOp::kSqrt, UnaryOp::kRsqrt,
                     UnaryOp::kReciprocal, UnaryOp::kRelu}) {
    for (uint64_t n : sizes()) {
      check_unary<float>(op, make_input<float>(n, 100 + n, -100.0f, 100.0f));
      check_unary<half>(op, make_input<half>(n, 200 + n, -12.0f, 12.0f));
    }
  }
}

// Sweeps float bit patterns (every 1552nd of all 2^32: 2.8 M values) for Exp, Ln, Rsqrt.
// (A one-off sweep of every 5th pattern measured 1 ulp worst for all three.)
TEST_P(RawUnary, ExpLnAccuracySweep) {
  std::vector<float> in;
  in.reserve(1 << 22);
  for (uint64_t u = 0; u <= 0xffffffffull; u += 97 * 16) in.push_back(f32_bits(static_cast<uint32_t>(u)));
  EXPECT_LE(check_unary<float>(UnaryOp::kExp, in), 2);
  EXPECT_LE(check_unary<float>(UnaryOp::kLn, in), 1);
  EXPECT_LE(check_unary<float>(UnaryOp::kRsqrt, in), 2);
}

// vexp's range reduction (math.inc): n = rint(x / ln2) by one fused multiply-add,
// so |r| is largest, and the q(r) polynomial's error too, next to x = (k + 1/2) ln2.
// Every float within 256 patterns of each such point for all k reaching a finite
// nonzero result, every pattern around the overflow and underflow thresholds and
// the top of the subnormal results: 1 ulp worst (an every-pattern sweep, wave 9,
// measured 1 ulp over all 2^32 floats).
TEST_P(RawUnary, ExpRangeReductionEdges) {
  std::vector<float> in;
  auto add_around = [&](float c, uint32_t half_width) {
    const uint32_t b = float_bits(std::fabs(c));
    for (uint32_t u = b - half_width; u <= b + half_width; ++u) in.push_back(std::copysign(f32_bits(u), c));
  };
  for (int k = -151; k <= 128; ++k) add_around(static_cast<float>((k + 0.5) * 0.6931471805599453), 256);
  add_around(88.72283935546875f, 4096);   // exp overflows above 0x1.62e42ep6
  add_around(-87.33654022216797f, 4096);  // exp(x) < FLT_MIN below
  add_around(-103.97208404541016f, 4096);  // exp(x) < smallest subnormal / 2 below
  add_around(-104.0f, 4096);               // vexp's "dead" clamp
  EXPECT_LE(check_unary<float>(UnaryOp::kExp, in), 1);
}

// Every half value, all half ops.
TEST_P(RawUnary, HalfExhaustive) {
  std::vector<half> in(65536);
  for (uint32_t u = 0; u < 65536; ++u) in[u] = bits_half(static_cast<uint16_t>(u));
  for (UnaryOp op : {UnaryOp::kExp, UnaryOp::kLn, UnaryOp::kAbs, UnaryOp::kSqrt, UnaryOp::kRsqrt,
                     UnaryOp::kReciprocal, UnaryOp::kRelu}) {
    check_unary<half>(op, in);
  }
}

// half Exp/Ln are table lookups (simd/half_table.inc): they must return exactly
// what widening to float, the float op and one RINT Cast back return, for every
// bit pattern (NaN payloads too), in place, and at odd offsets and lengths.
TEST_P(RawUnary, HalfTableMatchesFloatPath) {
  namespace v = npurt::aicore::vec;
  std::vector<half> in(65536 + 7);
  for (uint32_t u = 0; u < in.size(); ++u) in[u] = bits_half(static_cast<uint16_t>(u * 40503u));
  std::vector<float> wide(in.size()), wide_out(in.size());
  ASSERT_TRUE(
      v::cast(v::VType::kF32, v::VType::kF16, AscendC::RoundMode::CAST_NONE, wide.data(), in.data(), in.size()));
  for (UnaryOp op : {UnaryOp::kExp, UnaryOp::kLn}) {
    ASSERT_TRUE(v::unary(op, v::VType::kF32, wide_out.data(), wide.data(), wide.size()));
    std::vector<half> want(in.size()), got(in.size()), inplace(in);
    ASSERT_TRUE(v::cast(v::VType::kF16, v::VType::kF32, AscendC::RoundMode::CAST_RINT, want.data(), wide_out.data(),
                        in.size()));
    ASSERT_TRUE(v::unary(op, v::VType::kF16, got.data() + 3, in.data() + 3, in.size() - 4));  // odd offset and length
    ASSERT_TRUE(v::unary(op, v::VType::kF16, inplace.data(), inplace.data(), inplace.size()));
    for (size_t i = 0; i < in.size(); ++i) {
      if (i >= 3 && i < in.size() - 1) {
        ASSERT_EQ(half_bits(got[i]), half_bits(want[i])) << unary_op_name(op) << " i=" << i;
      }
      ASSERT_EQ(half_bits(inplace[i]), half_bits(want[i])) << unary_op_name(op) << " in place, i=" << i;
    }
  }
}

TEST_P(RawUnary, SpecialValuesExact) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> in = {-inf, inf, std::nanf(""), 0.0f, -0.0f, 89.0f, -104.0f, 88.72283f, -87.33655f, -103.2789f};
  std::vector<float> e(in.size()), l(in.size());
  ASSERT_TRUE(npurt::aicore::vec::unary(UnaryOp::kExp, vtype_of<float>, e.data(), in.data(), in.size()));
  ASSERT_TRUE(npurt::aicore::vec::unary(UnaryOp::kLn, vtype_of<float>, l.data(), in.data(), in.size()));
  EXPECT_EQ(e[0], 0.0f);
  EXPECT_EQ(e[1], inf);
  EXPECT_TRUE(is_nan(e[2]));
  EXPECT_EQ(e[3], 1.0f);
  EXPECT_EQ(e[4], 1.0f);
  EXPECT_EQ(e[5], inf);          // overflow
  EXPECT_EQ(e[6], 0.0f);         // underflow
  EXPECT_TRUE(std::isfinite(e[7]));  // just below FLT_MAX
  EXPECT_GT(e[9], 0.0f);         // subnormal result
  EXPECT_TRUE(is_nan(l[0]));
  EXPECT_EQ(l[1], inf);
  EXPECT_TRUE(is_nan(l[2]));
  EXPECT_EQ(l[3], -inf);
  EXPECT_EQ(l[4], -inf);
}

TEST_P(RawUnary, NotAndIntRelu) {
  std::vector<int16_t> a = make_input<int16_t>(1023, 4), na(1023);
  ASSERT_TRUE(npurt::aicore::vec::unary(UnaryOp::kNot, vtype_of<int16_t>, na.data(), a.data(), a.size()));
  for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(na[i], int16_t(~a[i]));
  std::vector<int32_t> b = make_input<int32_t>(1023, 5), rb(1023);
  ASSERT_TRUE(npurt::aicore::vec::unary(UnaryOp::kRelu, vtype_of<int32_t>, rb.data(), b.data(), b.size()));
  for (size_t i = 0; i < b.size(); ++i) ASSERT_EQ(rb[i], b[i] > 0 ? b[i] : 0);
  float x = 0;
  EXPECT_FALSE(npurt::aicore::vec::unary(UnaryOp::kExp, vtype_of<int32_t>, &x, &x, 1));
  EXPECT_FALSE(npurt::aicore::vec::unary(UnaryOp::kNot, vtype_of<float>, &x, &x, 1));
}

VECTEST_INSTANTIATE(RawUnary);

}  // namespace

namespace {

// The invariant of vec_raw.h: every ISA computes bit-identical results, also
// for the approximated functions (same operation sequence, no FMA fusion).
TEST(RawIsaConsistency, TranscendentalsBitIdenticalAcrossIsas) {
  using namespace vectest;
  std::vector<float> in;
  for (uint64_t u = 0; u <= 0xffffffffull; u += 7919 * 3) in.push_back(f32_bits(static_cast<uint32_t>(u)));
  std::vector<half> hin(65536);
  for (uint32_t u = 0; u < 65536; ++u) hin[u] = bits_half(static_cast<uint16_t>(u));
  const std::vector<std::string> isas = runnable_isas();
  ASSERT_FALSE(isas.empty());
  for (UnaryOp op : {UnaryOp::kExp, UnaryOp::kLn, UnaryOp::kRsqrt}) {
    std::vector<float> first(in.size()), out(in.size());
    std::vector<half> hfirst(hin.size()), hout(hin.size());
    for (size_t k = 0; k < isas.size(); ++k) {
      ASSERT_TRUE(npurt::aicore::vec::force_isa(isas[k].c_str()));
      std::vector<float>& dst = k == 0 ? first : out;
      std::vector<half>& hdst = k == 0 ? hfirst : hout;
      ASSERT_TRUE(npurt::aicore::vec::unary(op, vtype_of<float>, dst.data(), in.data(), in.size()));
      ASSERT_TRUE(npurt::aicore::vec::unary(op, vtype_of<half>, hdst.data(), hin.data(), hin.size()));
      if (k == 0) continue;
      EXPECT_EQ(0, std::memcmp(first.data(), out.data(), in.size() * sizeof(float)))
          << unary_op_name(op) << ": " << isas[k] << " differs from " << isas[0];
      EXPECT_EQ(0, std::memcmp(hfirst.data(), hout.data(), hin.size() * sizeof(half)))
          << unary_op_name(op) << " half: " << isas[k] << " differs from " << isas[0];
    }
  }
}

// vexp's final scaling (AVX-512: one scalef; elsewhere two exact-then-rounded
// multiplies) must agree on every float whose exp is subnormal, near the
// overflow edge or around 1: all bit patterns of [-105, -80] and [80, 90], and
// every 16th of +-[0.5, 2] (6.6 M values).
TEST(RawIsaConsistency, ExpScalingEdgesBitIdenticalAcrossIsas) {
  using namespace vectest;
  std::vector<float> in;
  auto add_range = [&](float lo, float hi, uint32_t step) {
    for (uint32_t u = float_bits(lo); u <= float_bits(hi); u += step) in.push_back(f32_bits(u));
  };
  add_range(80.0f, 90.0f, 1);
  add_range(0.5f, 2.0f, 16);
  for (size_t i = 0, n = in.size(); i < n; ++i) in.push_back(-in[i]);  // [-90, -80] and [-2, -0.5]
  add_range(90.0f, 105.0f, 1);
  for (size_t i = in.size() - 1; in[i] > 90.0f; --i) in[i] = -in[i];   // [-105, -90]
  const std::vector<std::string> isas = runnable_isas();
  ASSERT_FALSE(isas.empty());
  std::vector<float> first(in.size()), out(in.size());
  for (size_t k = 0; k < isas.size(); ++k) {
    ASSERT_TRUE(npurt::aicore::vec::force_isa(isas[k].c_str()));
    std::vector<float>& dst = k == 0 ? first : out;
    ASSERT_TRUE(npurt::aicore::vec::unary(UnaryOp::kExp, vtype_of<float>, dst.data(), in.data(), in.size()));
    if (k == 0) continue;
    for (size_t i = 0; i < in.size(); ++i)
      ASSERT_TRUE(same_value(first[i], out[i])) << isas[k] << " vs " << isas[0] << " at x=" << in[i];
  }
}

}  // namespace
