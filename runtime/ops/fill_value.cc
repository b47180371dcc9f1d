// runtime/ops/fill_value.cc: the host-scalar -> fill-attributes rule of
// npurt/fill_value.h (range check, truncation, float16 rounding, attributes)
// and ops::fill / ops::fill_into for a FillValue.
#include "npurt/fill_value.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "npurt/status.h"

namespace npurt {
namespace {

// Whether a finite integer-valued double lies in an integral dtype's range.
bool double_in_range(double t, const DTypeInfo& info) {
  const double bits = info.itemsize * 8;
  if (info.kind == DTypeKind::kUnsignedInt) return t >= 0 && t < std::ldexp(1.0, static_cast<int>(bits));
  const double half = std::ldexp(1.0, static_cast<int>(bits) - 1);
  return t >= -half && t < half;
}

bool int_in_range(const FillValue& v, const DTypeInfo& info) {
  const int bits = info.itemsize * 8;
  if (info.kind == DTypeKind::kUnsignedInt) {
    if (v.above_int64) return bits == 64;
    return v.int_bits >= 0 && (bits == 64 || v.int_bits < (int64_t{1} << bits));
  }
  if (v.above_int64) return false;
  return bits == 64 || (v.int_bits >= -(int64_t{1} << (bits - 1)) && v.int_bits < (int64_t{1} << (bits - 1)));
}

// Whether fill needs value_int for v: an integer into an integral dtype.
bool exact_int(const FillValue& v, DType dtype) { return v.kind == FillValue::Kind::kInt && is_integral(dtype); }

// fill's `value` for v in dtype: a float truncated toward zero (-0.5 -> +0) for an integral dtype.
double value_attr(const FillValue& v, DType dtype) {
  return is_integral(dtype) && v.kind != FillValue::Kind::kInt ? std::trunc(v.real) + 0.0 : v.real;
}

std::string value_text(const FillValue& v) {
  if (v.kind != FillValue::Kind::kInt) return "float " + std::to_string(v.real);
  return "int " + (v.above_int64 ? std::to_string(static_cast<uint64_t>(v.int_bits)) : std::to_string(v.int_bits));
}

}  // namespace

bool fits(const FillValue& v, DType dtype) {
  const DTypeInfo& info = dtype_info(dtype);
  if (!is_integral(dtype) || v.kind == FillValue::Kind::kBool) return true;
  if (v.kind == FillValue::Kind::kInt) return int_in_range(v, info);
  // floats (and a complex value's real part) are truncated; NaN and inf never fit
  return std::isfinite(v.real) && double_in_range(std::trunc(v.real), info);
}

bool exact_as_double(const FillValue& v) {
  constexpr int64_t kExact = int64_t{1} << 53;  // integers beyond it are not all doubles
  return v.kind != FillValue::Kind::kInt || (!v.above_int64 && v.int_bits <= kExact && v.int_bits >= -kExact);
}

double round_to_float16(double v) {
  if (!std::isfinite(v) || v == 0) return v;
  int e = 0;
  std::frexp(v, &e);                    // |v| in [2^(e-1), 2^e)
  const int s = std::max(e - 11, -24);  // float16's ulp there (subnormals: 2^-24)
  return std::ldexp(std::nearbyint(std::ldexp(v, -s)), s);
}

std::vector<NamedAttr> fill_attrs(const FillValue& v, DType dtype) {
  std::vector<NamedAttr> attrs = {{"value", AttrValue(value_attr(v, dtype))}};
  if (v.kind == FillValue::Kind::kComplex) attrs.push_back({"value_imag", AttrValue(v.imag)});
  if (exact_int(v, dtype)) {
    attrs.push_back({"use_int", AttrValue(true)});
    attrs.push_back({"value_int", AttrValue(v.int_bits)});
  }
  return attrs;
}

namespace ops {
namespace {

void check_fits(const FillValue& value, DType dtype, const char* where) {
  if (!fits(value, dtype))
    throw_invalid_argument(where, "value", value_text(value) + " is out of range for " + dtype_name(dtype));
}

}  // namespace

Tensor fill(const Dims& shape, DType dtype, const FillValue& value, const Stream& stream, const Tensor& out) {
  check_fits(value, dtype, "npurt::ops::fill");
  std::vector<NamedAttr> attrs = fill_attrs(value, dtype);
  attrs.push_back({"shape", AttrValue(shape)});
  attrs.push_back({"dtype", AttrValue(dtype)});
  return call("fill", {}, attrs, stream, out.defined() ? std::vector<Tensor>{out} : std::vector<Tensor>{})[0];
}

void fill_into(const Tensor& dst, const FillValue& value, const Stream& stream) {
  check_fits(value, dst.dtype(), "npurt::ops::fill_into");
  if (!exact_int(value, dst.dtype()) || exact_as_double(value)) {  // the double (truncated for an integral dtype) is exact: fill_into's one launch
    fill_into(dst, value_attr(value, dst.dtype()), stream, value.imag);
    return;
  }
  if (dst.numel() == 0) return;
  if (dst.is_contiguous()) {
    fill(dst.shape(), dst.dtype(), value, stream, dst);
    return;
  }
  const Tensor one = fill(Dims{}, dst.dtype(), value, stream);  // exact through value_int
  copy_into(dst, one.view(dst.shape(), Dims(dst.ndim(), 0), one.byte_offset()), stream);
}

}  // namespace ops
}  // namespace npurt
