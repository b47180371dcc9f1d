// npurt/dtype.h: the element types npurt stores, copies and casts.
//
// Every DType has storage, host<->device copies and casts. Which kernels accept
// which dtypes is declared per op in its OpDef. float64 / complex are not
// supported by the Ascend vector unit: ops may declare them sim-only.
// bfloat16 maps to ml_dtypes.bfloat16 on the numpy side.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {

enum class DType : uint8_t {
  kBool = 0,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat16,
  kBFloat16,
  kFloat32,
  kFloat64,
  kComplex64,
  kComplex128,
};
constexpr int kNumDTypes = 15;

enum class DTypeKind : uint8_t { kBool, kSignedInt, kUnsignedInt, kFloat, kComplex };

struct DTypeInfo {
  DType dtype;
  const char* name;     // numpy-style name: "float32", "bfloat16", "bool"
  uint8_t itemsize;     // bytes per element
  DTypeKind kind;
  char dlpack_code;     // DLDataTypeCode: 0 int, 1 uint, 2 float, 4 bfloat, 5 complex, 6 bool
};

const DTypeInfo& dtype_info(DType t);
inline size_t itemsize(DType t) { return dtype_info(t).itemsize; }
inline const char* dtype_name(DType t) { return dtype_info(t).name; }
inline bool is_floating(DType t) { return dtype_info(t).kind == DTypeKind::kFloat; }
inline bool is_complex(DType t) { return dtype_info(t).kind == DTypeKind::kComplex; }
inline bool is_integral(DType t) {
  auto k = dtype_info(t).kind;
  return k == DTypeKind::kSignedInt || k == DTypeKind::kUnsignedInt;
}

// Parses "float32", "f4", "half", "bf16", "bool" ...; throws InvalidArgument naming `where`.
DType dtype_from_name(const std::string& name, const char* where = "npurt.dtype");

// Scalar conversions used by casts and fills (round to nearest even).
uint16_t float_to_half_bits(float f);
float half_bits_to_float(uint16_t h);
uint16_t float_to_bf16_bits(float f);
float bf16_bits_to_float(uint16_t b);

}  // namespace npurt
NPURT_PUBLIC_END
