// npurt/fill_value.h: the one rule for turning a host scalar (a bool, an
// integer, a double or a complex, as Python's scalars and C++ literals come)
// into the values of an array of a given dtype through the `fill` kernel.
// nr.full / full_like / ones, nr.arange's bounds check and the operators'
// cached scalar constants (x + 2) all take it (sdk_python/bindings/fill_values.cpp).
//
// The rule (numpy's: np.full and x[k] = v agree, and so does npurt):
//   - an integer into an integral dtype is exact (fill's use_int / value_int,
//     uint64 values above INT64_MAX as their two's-complement bits) and must
//     lie in the dtype's range: fits() is false otherwise (Python raises
//     nr.OutOfRangeError, an OverflowError: "<where>: Python int <v> is out of
//     range for <dtype>");
//   - a float into an integral dtype is truncated toward zero (2.5 -> 2,
//     -2.7 -> -2, as numpy's full / astype / setitem and array-api-strict's
//     full) and the result must lie in the dtype's range: NaN, +-inf and
//     300.0 into int8 do not fit() (numpy warns and writes an unspecified
//     value, or raises OverflowError in setitem);
//   - every other pair goes through `value` (a double; integers beyond 2^53
//     round to it) and, for complex dtypes, `value_imag`; the kernel rounds
//     the double once to the dtype (float16 by round_to_float16, not through
//     float32: no double rounding; bfloat16 through float32, as ml_dtypes
//     does), and refuses a double that is not an integer in an integral
//     dtype's range (fill_attrs never passes one);
//   - a bool is 1 or 0 everywhere (never through value_int).
// Invariant: fill_attrs(v, dtype) is exactly what the kernel needs for v; a
// value that fits() never makes the kernel's integer check fail.
#pragma once

#include <cstdint>
#include <vector>

#include "npurt/export.h"
#include "npurt/ops.h"

NPURT_PUBLIC_BEGIN
namespace npurt {

struct FillValue {
  enum class Kind : uint8_t { kBool, kInt, kFloat, kComplex };
  Kind kind = Kind::kFloat;
  double real = 0, imag = 0;  // the value as a double (kInt: rounded to nearest)
  int64_t int_bits = 0;       // kInt: the integer (two's complement when above_int64)
  bool above_int64 = false;   // kInt: a uint64 in (INT64_MAX, UINT64_MAX]

  static FillValue boolean(bool b) { return {Kind::kBool, b ? 1.0 : 0.0, 0, 0, false}; }
  static FillValue integer(int64_t v) { return {Kind::kInt, static_cast<double>(v), 0, v, false}; }
  static FillValue unsigned_integer(uint64_t v) {
    return {Kind::kInt, static_cast<double>(v), 0, static_cast<int64_t>(v), v > uint64_t{INT64_MAX}};
  }
  static FillValue floating(double v) { return {Kind::kFloat, v, 0, 0, false}; }
  static FillValue complex(double re, double im) { return {Kind::kComplex, re, im, 0, false}; }
};

// False only for an integer, or a truncated float (NaN and +-inf included),
// outside an integral dtype's range.
bool fits(const FillValue& v, DType dtype);

// Whether v.real is v exactly: false only for integers beyond +-2^53.
bool exact_as_double(const FillValue& v);

// v rounded once to the nearest float16 value (ties to even), as a double;
// beyond the range it stays a double above 65504 that float16 makes +-inf.
// What numpy's float64 -> float16 cast gives (float -> half after it is exact).
double round_to_float16(double v);

// fill's value attributes for v in dtype: value (a float truncated for an
// integral dtype), and value_imag (complex values) or use_int + value_int
// (integers into integral dtypes).
std::vector<NamedAttr> fill_attrs(const FillValue& v, DType dtype);

namespace ops {
// A tensor of `shape` (or `out`) filled with v converted to dtype by the rule
// above; an integer that does not fit throws InvalidArgument
// "npurt::ops::fill: argument 'value': int <v> is out of range for <dtype>".
Tensor fill(const Dims& shape, DType dtype, const FillValue& value, const Stream& stream = Stream(),
            const Tensor& out = Tensor());
// ops::fill_into (npurt/ops.h) for a FillValue under the rule above: one
// launch, except an integer beyond 2^53 into a non-contiguous view (filled
// exactly into a 0-d tensor, then copied in: two). Throws as ops::fill does.
void fill_into(const Tensor& dst, const FillValue& value, const Stream& stream = Stream());
}  // namespace ops

}  // namespace npurt
NPURT_PUBLIC_END
