// npurt/fill_value.h: the host-scalar -> fill rule (range check, truncation,
// float16 rounding, attributes) and ops::fill / ops::fill_into with a
// FillValue, against the values numpy gives.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>

#include "npurt/fill_value.h"
#include "npurt/status.h"
#include "op_test_util.h"

using namespace npurt;
using npurt_test::download;
using npurt_test::stream0;

namespace {

const AttrValue* find(const std::vector<NamedAttr>& attrs, const char* name) {
  for (const NamedAttr& a : attrs)
    if (a.name == name) return &a.value;
  return nullptr;
}

TEST(FillValue, FitsChecksIntegersAgainstIntegralRangesOnly) {
  EXPECT_TRUE(fits(FillValue::integer(127), DType::kInt8));
  EXPECT_FALSE(fits(FillValue::integer(128), DType::kInt8));
  EXPECT_FALSE(fits(FillValue::integer(-129), DType::kInt8));
  EXPECT_TRUE(fits(FillValue::integer(255), DType::kUInt8));
  EXPECT_FALSE(fits(FillValue::integer(-1), DType::kUInt64));
  EXPECT_TRUE(fits(FillValue::integer(INT64_MIN), DType::kInt64));
  EXPECT_TRUE(fits(FillValue::unsigned_integer(UINT64_MAX), DType::kUInt64));
  EXPECT_FALSE(fits(FillValue::unsigned_integer(uint64_t{1} << 63), DType::kInt64));
  EXPECT_FALSE(fits(FillValue::unsigned_integer(uint64_t{1} << 32), DType::kUInt32));
  // Only values into integral dtypes are range-checked; bools are 0 / 1.
  EXPECT_TRUE(fits(FillValue::integer(1 << 20), DType::kFloat16));
  EXPECT_TRUE(fits(FillValue::integer(300), DType::kBool));
  EXPECT_TRUE(fits(FillValue::floating(1e300), DType::kFloat32));
  EXPECT_TRUE(fits(FillValue::boolean(true), DType::kUInt8));
}

TEST(FillValue, FloatsIntoIntegralDtypesTruncateWithinTheRange) {
  // numpy: np.full(2, 127.9, np.int8) -> 127, -128.9 -> -128, -0.5 into uint8 -> 0
  EXPECT_TRUE(fits(FillValue::floating(127.9), DType::kInt8));
  EXPECT_TRUE(fits(FillValue::floating(-128.9), DType::kInt8));
  EXPECT_FALSE(fits(FillValue::floating(128.0), DType::kInt8));
  EXPECT_FALSE(fits(FillValue::floating(-129.0), DType::kInt8));
  EXPECT_TRUE(fits(FillValue::floating(-0.5), DType::kUInt8));
  EXPECT_FALSE(fits(FillValue::floating(-1.0), DType::kUInt8));
  EXPECT_TRUE(fits(FillValue::floating(255.99), DType::kUInt8));
  EXPECT_FALSE(fits(FillValue::floating(std::nan("")), DType::kInt64));
  EXPECT_FALSE(fits(FillValue::floating(INFINITY), DType::kInt64));
  EXPECT_FALSE(fits(FillValue::floating(9223372036854775808.0), DType::kInt64));  // 2^63
  EXPECT_TRUE(fits(FillValue::floating(-9223372036854775808.0), DType::kInt64));
  EXPECT_TRUE(fits(FillValue::floating(18446744073709549568.0), DType::kUInt64));  // 2^64 - 2048
  EXPECT_FALSE(fits(FillValue::floating(18446744073709551616.0), DType::kUInt64));
  auto a = fill_attrs(FillValue::floating(-2.7), DType::kInt32);
  EXPECT_EQ(find(a, "value")->as_float(), -2.0);
  EXPECT_EQ(find(a, "use_int"), nullptr);
  a = fill_attrs(FillValue::floating(-0.5), DType::kUInt8);
  EXPECT_FALSE(std::signbit(find(a, "value")->as_float()));  // -0.5 -> +0
  const Stream s = stream0();
  EXPECT_EQ(download<int8_t>(ops::fill({2}, DType::kInt8, FillValue::floating(2.5), s)), (std::vector<int8_t>{2, 2}));
  EXPECT_EQ(download<int64_t>(ops::fill({1}, DType::kInt64, FillValue::floating(-1e18 - 0.5), s))[0],
            static_cast<int64_t>(-1e18));
}

TEST(FillValue, Float16RoundsTheDoubleOnce) {
  // 1 + 2^-11 + 2^-40 is just above float16's half-way point 1 + 2^-11: numpy
  // gives 1 + 2^-10; through float32 (1 + 2^-11, a tie) it would be 1.
  const double v = 1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(round_to_float16(v), 1 + std::ldexp(1.0, -10));
  EXPECT_EQ(round_to_float16(1 + std::ldexp(1.0, -11)), 1.0);  // a tie: to even
  EXPECT_EQ(round_to_float16(65519.0), 65504.0);
  EXPECT_EQ(round_to_float16(65520.0), 65536.0);  // beyond the range: float16 makes it inf
  EXPECT_EQ(round_to_float16(std::ldexp(3.0, -26)), std::ldexp(1.0, -24));  // subnormal: 0.75 ulp -> 1 ulp
  EXPECT_EQ(round_to_float16(-0.0), -0.0);
  EXPECT_TRUE(std::isnan(round_to_float16(std::nan(""))));
  const Stream s = stream0();
  const auto h = download<uint16_t>(ops::fill({2}, DType::kFloat16, FillValue::floating(v), s));
  EXPECT_EQ(h[0], 0x3c01);  // 1 + 2^-10
  EXPECT_EQ(download<uint16_t>(ops::fill({1}, DType::kFloat16, FillValue::floating(65520.0), s))[0], 0x7c00);
}

TEST(FillValue, FillIntoWritesExactIntegersIntoStridedViews) {
  const Stream s = stream0();
  const int64_t big = (int64_t{1} << 62) + 1;
  EXPECT_FALSE(exact_as_double(FillValue::integer(big)));
  EXPECT_TRUE(exact_as_double(FillValue::integer(int64_t{1} << 53)));
  EXPECT_FALSE(exact_as_double(FillValue::unsigned_integer(UINT64_MAX)));
  Tensor x = ops::fill({6}, DType::kInt64, FillValue::integer(0), s);
  ops::fill_into(x.view({3}, {2}, 8), FillValue::integer(big), s);            // x[1::2]: a copy from a 0-d fill
  ops::fill_into(x.view({1}, {1}, 0), FillValue::integer(-big), s);           // contiguous: one fill
  EXPECT_EQ(download<int64_t>(x), (std::vector<int64_t>{-big, big, 0, big, 0, big}));
  Tensor u = ops::fill({4}, DType::kUInt64, FillValue::integer(0), s);
  ops::fill_into(u.view({2}, {-2}, 24), FillValue::unsigned_integer(UINT64_MAX), s);  // u[::-2]
  EXPECT_EQ(download<uint64_t>(u), (std::vector<uint64_t>{0, UINT64_MAX, 0, UINT64_MAX}));
  ops::fill_into(u.view({2}, {2}, 0), FillValue::floating(7.9), s);  // truncated, one fill
  EXPECT_EQ(download<uint64_t>(u), (std::vector<uint64_t>{7, UINT64_MAX, 7, UINT64_MAX}));
  EXPECT_THROW(ops::fill_into(u.view({2}, {2}, 0), FillValue::floating(-1.0), s), InvalidArgument);
  EXPECT_THROW(ops::fill_into(x, FillValue::unsigned_integer(UINT64_MAX), s), InvalidArgument);
}

TEST(FillValue, AttrsTakeIntegersExactlyAndComplexParts) {
  auto a = fill_attrs(FillValue::unsigned_integer(UINT64_MAX), DType::kUInt64);
  ASSERT_NE(find(a, "use_int"), nullptr);
  EXPECT_TRUE(find(a, "use_int")->as_bool());
  EXPECT_EQ(find(a, "value_int")->as_int(), -1);  // two's-complement bits of 2^64 - 1
  a = fill_attrs(FillValue::integer(3), DType::kFloat32);  // an int into a float dtype: through value
  EXPECT_EQ(find(a, "use_int"), nullptr);
  EXPECT_EQ(find(a, "value")->as_float(), 3.0);
  a = fill_attrs(FillValue::boolean(true), DType::kInt32);  // a bool never takes value_int
  EXPECT_EQ(find(a, "use_int"), nullptr);
  EXPECT_EQ(find(a, "value")->as_float(), 1.0);
  a = fill_attrs(FillValue::complex(1.5, -2), DType::kComplex64);
  EXPECT_EQ(find(a, "value_imag")->as_float(), -2.0);
  EXPECT_EQ(find(fill_attrs(FillValue::floating(0.5), DType::kFloat64), "value_imag"), nullptr);
}

TEST(FillValue, OpsFillWritesTheConvertedValue) {
  const Stream s = stream0();
  const int64_t big = (int64_t{1} << 53) + 1;  // not a double: exact only through value_int
  EXPECT_EQ(download<int64_t>(ops::fill({3}, DType::kInt64, FillValue::integer(big), s)),
            (std::vector<int64_t>{big, big, big}));
  EXPECT_EQ(download<uint64_t>(ops::fill({2}, DType::kUInt64, FillValue::unsigned_integer(UINT64_MAX), s)),
            (std::vector<uint64_t>{UINT64_MAX, UINT64_MAX}));
  EXPECT_EQ(download<double>(ops::fill({1}, DType::kFloat64, FillValue::integer(big), s))[0], 9007199254740992.0);
  const auto c = download<std::complex<float>>(ops::fill({2}, DType::kComplex64, FillValue::complex(1, -2), s));
  EXPECT_EQ(c[1], std::complex<float>(1, -2));
  EXPECT_EQ(download<uint8_t>(ops::fill({1}, DType::kBool, FillValue::integer(-7), s))[0], 1);
  const Tensor out = Tensor::empty({4}, DType::kInt16, s);
  ops::fill({4}, DType::kInt16, FillValue::integer(-300), s, out);
  EXPECT_EQ(download<int16_t>(out), (std::vector<int16_t>{-300, -300, -300, -300}));
}

TEST(FillValue, OpsFillRefusesIntegersOutOfRange) {
  try {
    ops::fill({2}, DType::kUInt8, FillValue::integer(256), stream0());
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "npurt::ops::fill: argument 'value': int 256 is out of range for uint8");
  }
  EXPECT_THROW(ops::fill({2}, DType::kInt64, FillValue::unsigned_integer(UINT64_MAX), stream0()), InvalidArgument);
  try {
    ops::fill({2}, DType::kInt8, FillValue::floating(std::nan("")), stream0());
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "npurt::ops::fill: argument 'value': float nan is out of range for int8");
  }
  // A raw `fill` call with a double that is no integer of the dtype is the kernel's refusal.
  EXPECT_THROW(ops::call("fill", {}, {{"shape", AttrValue(Dims{2})}, {"dtype", AttrValue(DType::kInt8)},
                                      {"value", AttrValue(2.5)}}, stream0()),
               InvalidArgument);
}

}  // namespace
