// npurt/fill_value.h: the host-scalar -> fill rule (range check, attributes)
// and ops::fill with a FillValue, against the values numpy gives.
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
  // Only integers into integral dtypes are range-checked: floats are the kernel's, bools are 0 / 1.
  EXPECT_TRUE(fits(FillValue::integer(1 << 20), DType::kFloat16));
  EXPECT_TRUE(fits(FillValue::integer(300), DType::kBool));
  EXPECT_TRUE(fits(FillValue::floating(1e300), DType::kInt8));
  EXPECT_TRUE(fits(FillValue::boolean(true), DType::kUInt8));
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
  // A double that is no integer of the dtype is the kernel's refusal, naming the attribute.
  EXPECT_THROW(ops::fill({2}, DType::kInt8, FillValue::floating(std::nan("")), stream0()), InvalidArgument);
}

}  // namespace
