// runtime/ops/fill_value.cc: the host-scalar -> fill-attributes rule of
// npurt/fill_value.h (range check and attributes) and ops::fill for a FillValue.
#include "npurt/fill_value.h"

#include <string>

#include "npurt/status.h"

namespace npurt {

bool fits(const FillValue& v, DType dtype) {
  const DTypeInfo& info = dtype_info(dtype);
  if (v.kind != FillValue::Kind::kInt) return true;
  if (info.kind != DTypeKind::kSignedInt && info.kind != DTypeKind::kUnsignedInt) return true;
  const int bits = info.itemsize * 8;
  if (info.kind == DTypeKind::kUnsignedInt) {
    if (v.above_int64) return bits == 64;
    return v.int_bits >= 0 && (bits == 64 || v.int_bits < (int64_t{1} << bits));
  }
  if (v.above_int64) return false;
  return bits == 64 || (v.int_bits >= -(int64_t{1} << (bits - 1)) && v.int_bits < (int64_t{1} << (bits - 1)));
}

std::vector<NamedAttr> fill_attrs(const FillValue& v, DType dtype) {
  std::vector<NamedAttr> attrs = {{"value", AttrValue(v.real)}};
  if (v.kind == FillValue::Kind::kComplex) attrs.push_back({"value_imag", AttrValue(v.imag)});
  if (v.kind == FillValue::Kind::kInt && is_integral(dtype)) {
    attrs.push_back({"use_int", AttrValue(true)});
    attrs.push_back({"value_int", AttrValue(v.int_bits)});
  }
  return attrs;
}

namespace ops {

Tensor fill(const Dims& shape, DType dtype, const FillValue& value, const Stream& stream, const Tensor& out) {
  if (!fits(value, dtype)) {
    const std::string v = value.above_int64 ? std::to_string(static_cast<uint64_t>(value.int_bits))
                                            : std::to_string(value.int_bits);
    throw_invalid_argument("npurt::ops::fill", "value", "int " + v + " is out of range for " + dtype_name(dtype));
  }
  std::vector<NamedAttr> attrs = fill_attrs(value, dtype);
  attrs.push_back({"shape", AttrValue(shape)});
  attrs.push_back({"dtype", AttrValue(dtype)});
  return call("fill", {}, attrs, stream, out.defined() ? std::vector<Tensor>{out} : std::vector<Tensor>{})[0];
}

}  // namespace ops
}  // namespace npurt
