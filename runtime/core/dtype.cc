// runtime/core/dtype.cc: the dtype table, name parsing and half/bf16 conversions.
//
// The table is indexed by the enum value; a static_assert-backed check keeps it
// in enum order. Conversions round to nearest even and preserve NaN (quiet),
// +-inf, signed zero and subnormals, matching numpy's float16 and ml_dtypes'
// bfloat16.
#include "npurt/dtype.h"

#include <cctype>
#include <cstring>

#include "npurt/status.h"

namespace npurt {

namespace {

constexpr DTypeInfo kTable[kNumDTypes] = {
    {DType::kBool, "bool", 1, DTypeKind::kBool, 6},
    {DType::kInt8, "int8", 1, DTypeKind::kSignedInt, 0},
    {DType::kInt16, "int16", 2, DTypeKind::kSignedInt, 0},
    {DType::kInt32, "int32", 4, DTypeKind::kSignedInt, 0},
    {DType::kInt64, "int64", 8, DTypeKind::kSignedInt, 0},
    {DType::kUInt8, "uint8", 1, DTypeKind::kUnsignedInt, 1},
    {DType::kUInt16, "uint16", 2, DTypeKind::kUnsignedInt, 1},
    {DType::kUInt32, "uint32", 4, DTypeKind::kUnsignedInt, 1},
    {DType::kUInt64, "uint64", 8, DTypeKind::kUnsignedInt, 1},
    {DType::kFloat16, "float16", 2, DTypeKind::kFloat, 2},
    {DType::kBFloat16, "bfloat16", 2, DTypeKind::kFloat, 4},
    {DType::kFloat32, "float32", 4, DTypeKind::kFloat, 2},
    {DType::kFloat64, "float64", 8, DTypeKind::kFloat, 2},
    {DType::kComplex64, "complex64", 8, DTypeKind::kComplex, 5},
    {DType::kComplex128, "complex128", 16, DTypeKind::kComplex, 5},
};

constexpr bool table_in_enum_order() {
  for (int i = 0; i < kNumDTypes; ++i)
    if (static_cast<int>(kTable[i].dtype) != i) return false;
  return true;
}
static_assert(table_in_enum_order(), "kTable must follow the DType enum order");

struct Alias {
  const char* name;
  DType dtype;
};
// numpy names, numpy kind+size codes and common shorthands.
constexpr Alias kAliases[] = {
    {"bool", DType::kBool},         {"bool_", DType::kBool},       {"?", DType::kBool},
    {"b1", DType::kBool},           {"int8", DType::kInt8},        {"i1", DType::kInt8},
    {"int16", DType::kInt16},       {"i2", DType::kInt16},         {"short", DType::kInt16},
    {"int32", DType::kInt32},       {"i4", DType::kInt32},         {"int", DType::kInt64},
    {"int64", DType::kInt64},       {"i8", DType::kInt64},         {"long", DType::kInt64},
    {"uint8", DType::kUInt8},       {"u1", DType::kUInt8},         {"uint16", DType::kUInt16},
    {"u2", DType::kUInt16},         {"uint32", DType::kUInt32},    {"u4", DType::kUInt32},
    {"uint64", DType::kUInt64},     {"u8", DType::kUInt64},        {"float16", DType::kFloat16},
    {"f2", DType::kFloat16},        {"half", DType::kFloat16},     {"fp16", DType::kFloat16},
    {"bfloat16", DType::kBFloat16}, {"bf16", DType::kBFloat16},    {"float32", DType::kFloat32},
    {"f4", DType::kFloat32},        {"float", DType::kFloat32},    {"single", DType::kFloat32},
    {"fp32", DType::kFloat32},      {"float64", DType::kFloat64},  {"f8", DType::kFloat64},
    {"double", DType::kFloat64},    {"fp64", DType::kFloat64},     {"complex64", DType::kComplex64},
    {"c8", DType::kComplex64},      {"complex128", DType::kComplex128},
    {"c16", DType::kComplex128},    {"complex", DType::kComplex128},
};

uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace

const DTypeInfo& dtype_info(DType t) {
  auto i = static_cast<unsigned>(t);
  if (i >= static_cast<unsigned>(kNumDTypes))
    throw_invalid_argument("npurt.dtype_info", "dtype", "unknown dtype code " + std::to_string(i));
  return kTable[i];
}

DType dtype_from_name(const std::string& name, const char* where) {
  std::string key;
  key.reserve(name.size());
  for (char c : name) key.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  // numpy byte-order prefixes ("<f4", "=i8", "|b1") are accepted for native/none order.
  if (!key.empty() && (key[0] == '<' || key[0] == '=' || key[0] == '|')) key.erase(0, 1);
  for (const Alias& a : kAliases)
    if (key == a.name) return a.dtype;
  std::string known;
  for (const DTypeInfo& d : kTable) known += (known.empty() ? "" : ", ") + std::string(d.name);
  // An unknown name is a dtype refusal: UnsupportedDtype (an InvalidArgument), Python's TypeError
  // like numpy's "data type not understood".
  throw_unsupported_dtype(where, "dtype", "unknown dtype '" + name + "' (known: " + known + ")");
}

uint16_t float_to_half_bits(float f) {
  const uint32_t u = float_bits(f);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  const uint32_t abs = u & 0x7fffffffu;
  if (abs >= 0x7f800000u) {  // inf or NaN; NaN keeps top payload bits and stays quiet
    if (abs == 0x7f800000u) return sign | 0x7c00u;
    return static_cast<uint16_t>(sign | 0x7e00u | ((abs >> 13) & 0x3ffu));
  }
  if (abs >= 0x477ff000u) return sign | 0x7c00u;  // rounds to >= 65520 -> inf
  if (abs < 0x38800000u) {
    // Result is a half subnormal (or zero): value = m * 2^-24. Use the FPU to
    // shift with round-to-nearest-even: adding 0.5 (2^-1) aligns 2^-24 to the
    // float ulp of 0.5 (2^-24 exactly at exponent -1).
    float shifted = bits_float(abs) + 0.5f;
    return static_cast<uint16_t>(sign | (float_bits(shifted) - 0x3f000000u));
  }
  // Normal: rebias exponent (127 -> 15) and round the 13 dropped bits to even.
  uint32_t mant_odd = (abs >> 13) & 1u;
  uint32_t r = abs + 0xc8000fffu + mant_odd;  // -(112 << 23) + 0xfff + odd
  return static_cast<uint16_t>(sign | (r >> 13));
}

float half_bits_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f) return bits_float(sign | 0x7f800000u | (mant << 13));  // inf / NaN
  if (exp == 0) {
    // zero or subnormal: mant * 2^-24, exact in float
    float v = static_cast<float>(mant) * bits_float(0x33800000u);  // 2^-24
    return bits_float(sign | float_bits(v));
  }
  return bits_float(sign | ((exp + 112) << 23) | (mant << 13));
}

uint16_t float_to_bf16_bits(float f) {
  uint32_t u = float_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u)  // NaN: keep sign and payload top, force quiet
    return static_cast<uint16_t>((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even; overflow carries into inf
  return static_cast<uint16_t>(u >> 16);
}

float bf16_bits_to_float(uint16_t b) { return bits_float(static_cast<uint32_t>(b) << 16); }

}  // namespace npurt
