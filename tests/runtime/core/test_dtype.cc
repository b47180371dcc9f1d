// DType table, name parsing, and half / bfloat16 conversions checked against an
// independent double-precision reference (round to nearest even).
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "npurt/dtype.h"
#include "npurt/status.h"

namespace npurt {
namespace {

float f32(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Reference: round x to a binary format with `mant` stored mantissa bits,
// minimum normal exponent `emin` and maximum finite `maxv`, in double arithmetic.
double round_ref(double x, int mant, int emin, double maxv) {
  if (x == 0 || std::isnan(x) || std::isinf(x)) return x;
  int e;
  std::frexp(std::fabs(x), &e);  // |x| = m * 2^e, m in [0.5, 1)
  int exp = std::max(e - 1, emin);
  double quantum = std::ldexp(1.0, exp - mant);
  double r = std::nearbyint(x / quantum) * quantum;  // FE_TONEAREST: ties to even
  double limit = maxv + std::ldexp(1.0, static_cast<int>(std::log2(maxv)) - mant) / 2;  // halfway to the next
  if (std::fabs(r) > maxv || std::fabs(x) >= limit) return std::copysign(INFINITY, x);
  return r;
}

TEST(DType, TableCoversEveryType) {
  struct Row {
    DType t;
    const char* name;
    size_t size;
  } rows[] = {{DType::kBool, "bool", 1},       {DType::kInt8, "int8", 1},        {DType::kInt16, "int16", 2},
              {DType::kInt32, "int32", 4},     {DType::kInt64, "int64", 8},      {DType::kUInt8, "uint8", 1},
              {DType::kUInt16, "uint16", 2},   {DType::kUInt32, "uint32", 4},    {DType::kUInt64, "uint64", 8},
              {DType::kFloat16, "float16", 2}, {DType::kBFloat16, "bfloat16", 2}, {DType::kFloat32, "float32", 4},
              {DType::kFloat64, "float64", 8}, {DType::kComplex64, "complex64", 8},
              {DType::kComplex128, "complex128", 16}};
  ASSERT_EQ(sizeof(rows) / sizeof(rows[0]), size_t(kNumDTypes));
  for (const Row& r : rows) {
    EXPECT_STREQ(dtype_name(r.t), r.name);
    EXPECT_EQ(itemsize(r.t), r.size);
    EXPECT_EQ(dtype_from_name(r.name), r.t);
  }
  EXPECT_TRUE(is_floating(DType::kBFloat16));
  EXPECT_TRUE(is_complex(DType::kComplex128));
  EXPECT_TRUE(is_integral(DType::kUInt64));
  EXPECT_FALSE(is_integral(DType::kBool));
  EXPECT_EQ(dtype_info(DType::kBFloat16).dlpack_code, 4);
  EXPECT_EQ(dtype_info(DType::kBool).dlpack_code, 6);
}

TEST(DType, ParsesAliasesAndRejectsUnknownNames) {
  EXPECT_EQ(dtype_from_name("f4"), DType::kFloat32);
  EXPECT_EQ(dtype_from_name("<f2"), DType::kFloat16);
  EXPECT_EQ(dtype_from_name("half"), DType::kFloat16);
  EXPECT_EQ(dtype_from_name("BF16"), DType::kBFloat16);
  EXPECT_EQ(dtype_from_name("?"), DType::kBool);
  try {
    dtype_from_name("float8", "npurt.asarray");
    FAIL();
  } catch (const InvalidArgument& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("npurt.asarray: argument 'dtype': unknown dtype 'float8'"), std::string::npos) << m;
    EXPECT_NE(m.find("bfloat16"), std::string::npos) << "lists the known names";
  }
  EXPECT_THROW(dtype_info(static_cast<DType>(200)), InvalidArgument);
}

TEST(Half, EveryHalfRoundTripsThroughFloat) {
  for (uint32_t h = 0; h < 65536; ++h) {
    float f = half_bits_to_float(static_cast<uint16_t>(h));
    bool nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
    if (nan) {
      ASSERT_TRUE(std::isnan(f)) << h;
      ASSERT_EQ(float_to_half_bits(f) & 0x7e00, 0x7e00) << "quiet NaN " << h;
      continue;
    }
    // Reference value: sign * mantissa * 2^exp built in double.
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double ref = e == 0 ? std::ldexp(m, -24) : e == 31 ? INFINITY : std::ldexp(1024 + m, e - 25);
    if (h & 0x8000) ref = -ref;
    ASSERT_EQ(static_cast<double>(f), ref) << h;
    ASSERT_EQ(std::signbit(f), bool(h & 0x8000)) << h;
    ASSERT_EQ(float_to_half_bits(f), h) << h;
  }
}

TEST(Half, FloatToHalfRoundsToNearestEven) {
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  std::vector<float> inputs = {0.0f, -0.0f, 1.0f, 65504.0f, 65519.99f, 65520.0f, 1e9f, -1e9f, 5.96e-8f, 2.98e-8f,
                               2.9802322e-8f, 2.99e-8f, 6.1e-5f, 1e-10f, INFINITY, -INFINITY,
                               std::numeric_limits<float>::denorm_min()};
  // Every midpoint between adjacent halfs (exact ties) and its neighbours.
  for (uint32_t h = 0; h < 0x7bff; h += 7) {
    double a = half_bits_to_float(static_cast<uint16_t>(h)), b = half_bits_to_float(static_cast<uint16_t>(h + 1));
    float mid = static_cast<float>((a + b) / 2);
    inputs.push_back(mid);
    inputs.push_back(std::nextafter(mid, 0.0f));
    inputs.push_back(std::nextafter(mid, INFINITY));
    inputs.push_back(-mid);
  }
  std::mt19937 rng(7);
  for (int i = 0; i < 200000; ++i) inputs.push_back(f32(static_cast<uint32_t>(rng())));
  for (float x : inputs) {
    if (std::isnan(x)) continue;
    double ref = round_ref(x, 10, -14, 65504.0);
    float got = half_bits_to_float(float_to_half_bits(x));
    ASSERT_EQ(static_cast<double>(got), ref) << "x=" << x << " bits=" << std::hex << bits(x);
    ASSERT_EQ(std::signbit(got), std::signbit(x)) << x;
  }
  EXPECT_EQ(float_to_half_bits(-0.0f), 0x8000);
  EXPECT_EQ(float_to_half_bits(65520.0f), 0x7c00);
  EXPECT_EQ(float_to_half_bits(std::numeric_limits<float>::quiet_NaN()) & 0x7e00, 0x7e00);
}

TEST(BFloat16, RoundsToNearestEvenAndKeepsSpecials) {
  std::mt19937 rng(11);
  const double bf16_max = std::ldexp(255.0, 120);  // 0x7f7f
  for (int i = 0; i < 300000; ++i) {
    uint32_t u = static_cast<uint32_t>(rng());
    if (i % 3 == 0) u = (u & 0xffff0000u) | 0x8000u;  // exact ties
    float x = f32(u);
    uint16_t b = float_to_bf16_bits(x);
    if (std::isnan(x)) {
      ASSERT_TRUE(std::isnan(bf16_bits_to_float(b))) << std::hex << u;
      continue;
    }
    // float subnormals are bf16 subnormals with the same exponent: emin -126.
    double ref = round_ref(x, 7, -126, bf16_max);
    ASSERT_EQ(static_cast<double>(bf16_bits_to_float(b)), ref) << std::hex << u;
  }
  EXPECT_EQ(float_to_bf16_bits(-0.0f), 0x8000);
  EXPECT_EQ(float_to_bf16_bits(INFINITY), 0x7f80);
  EXPECT_EQ(float_to_bf16_bits(f32(0x7f7fffffu)), 0x7f80) << "max float rounds up to inf";
  EXPECT_EQ(float_to_bf16_bits(f32(0x00000001u)), 0x0000) << "tiny subnormal rounds to +0";
  EXPECT_EQ(float_to_bf16_bits(f32(0x7f800001u)) & 0x7fc0, 0x7fc0) << "signalling NaN becomes quiet";
}

}  // namespace
}  // namespace npurt
