// aicore/types.h: the Ascend C element types of the simulated AI core.
//
// `half`: IEEE 754 binary16, the compiler's `_Float16`. GCC (>= 12) implements
// each _Float16 operation as "convert to float, operate, round to binary16 (RNE)"
// and float has enough precision (24 >= 2*11+2 bits) for that to equal a
// correctly rounded binary16 +, -, *, /, sqrt: so scalar half arithmetic rounds
// per operation like the vector unit. Invariant to keep: do not compile kernels
// with -march flags that enable AVX512-FP16 together with -ffp-contract=fast
// (GCC's default in gnu++ mode), which would fuse a*b+c into one fp16 FMA;
// plain x86-64 / AVX2 builds (what CMake uses) never fuse.
//
// `bfloat16_t`: a 16-bit struct holding the top half of a float. Conversion from
// float rounds to nearest, ties to even; NaN stays NaN (quietened, sign kept);
// conversion to float is exact. Arithmetic goes through float (operator float),
// and assigning the float result back rounds once: per-operation rounding.
#pragma once

#include <cstdint>
#include <cstring>

namespace npurt::aicore {

inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// float -> bfloat16 bits, round to nearest even; NaN -> quiet NaN with the same sign.
inline uint16_t float_to_bf16_bits(float f) {
  uint32_t u = float_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x0040u);
  uint32_t rounding_bias = 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>((u + rounding_bias) >> 16);
}

inline float bf16_bits_to_float(uint16_t b) { return bits_float(static_cast<uint32_t>(b) << 16); }

inline uint16_t half_bits(_Float16 h) {
  uint16_t u;
  std::memcpy(&u, &h, sizeof u);
  return u;
}

inline _Float16 bits_half(uint16_t u) {
  _Float16 h;
  std::memcpy(&h, &u, sizeof h);
  return h;
}

}  // namespace npurt::aicore

using half = _Float16;

struct bfloat16_t {
  uint16_t bits;  // no initializer: the type stays trivial (memcpy-able, like the hardware type)

  bfloat16_t() = default;
  // Implicit like the Ascend C type: `bfloat16_t x = 1.5f;`, `x = a + b;`.
  bfloat16_t(float f) : bits(npurt::aicore::float_to_bf16_bits(f)) {}  // NOLINT
  static bfloat16_t from_bits(uint16_t b) {
    bfloat16_t r;
    r.bits = b;
    return r;
  }
  operator float() const { return npurt::aicore::bf16_bits_to_float(bits); }  // NOLINT

  bfloat16_t& operator+=(float o) { return *this = float(*this) + o; }
  bfloat16_t& operator-=(float o) { return *this = float(*this) - o; }
  bfloat16_t& operator*=(float o) { return *this = float(*this) * o; }
  bfloat16_t& operator/=(float o) { return *this = float(*this) / o; }
};

static_assert(sizeof(half) == 2, "half must be 16 bits");
static_assert(sizeof(bfloat16_t) == 2, "bfloat16_t must be 16 bits");
