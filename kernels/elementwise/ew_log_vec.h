// kernels/elementwise/ew_log_vec.h: vector forms of log2, log10, atanh and
// acosh on float32 UB tiles from level-2 Ascend C vector instructions (Ln,
// Muls, Adds, Mul, Div, Sqrt, Mins, CompareScalar, Select) and ew_trans_vec.h's
// Log1p. Same contract as ew_trans_vec.h (z, x float tiles of `tile` lanes, s
// the functor's kScratch float tiles, masks over n rounded up to 64 lanes).
//
// log2 / log10 = Ln(x) times 1/ln 2 / 1/ln 10: Ln keeps its exact specials
// (ln 1 = +0, ln 0 = -inf, ln of < 0 = NaN, ln inf = inf) through a positive
// factor; the product adds <= 1 ulp to Ln's error. log2 of a power of two is
// therefore not guaranteed exact (it is within 1 ulp).
// atanh(x) = sign(x) log1p(2|x| / (1 - |x|)) / 2: no cancellation, +-1 give +-inf,
// |x| > 1 NaN, x for |x| < 2^-12 (-0 stays -0).
// acosh: t = x - 1 (exact for x in [1, 2]); x < 2: log1p(t + sqrt(t (t + 2)));
// 2 <= x <= 4096: ln(c + sqrt((c - 1)(c + 1))), c = min(x, 4096) (no overflow);
// x > 4096: ln x + ln 2; x < 1 (and -inf) NaN by Select, acosh(1) = +0.
#pragma once

#include <cstdint>
#include <limits>

#include "elementwise/ew_functors.h"
#include "elementwise/ew_trans_vec.h"

namespace npurt::kernels::ew::logvec {

using transvec::Round64;

inline void Log2(const LT<float>& z, const LT<float>& x, int32_t n) {
  AscendC::Ln(z, x, n);
  AscendC::Muls(z, z, 1.44269504088896340736f, n);
}

inline void Log10(const LT<float>& z, const LT<float>& x, int32_t n) {
  AscendC::Ln(z, x, n);
  AscendC::Muls(z, z, 0.43429448190325182765f, n);
}

// Scratch: tiles 0..2 own (a, w, mask), 3..6 Log1p's. Computed on a = |x| (w >= 0: no
// cancellation in 1 + w near x = -1), the sign put back by Select; |x| < 2^-12 takes x
// itself (correctly rounded there, and -0 stays -0).
inline void Atanh(const LT<float>& z, const LT<float>& x, const LT<float>& s, uint32_t tile, int32_t n) {
  const LT<float> a = s, w = s[tile];
  const LT<uint8_t> m = s[2 * tile].ReinterpretCast<uint8_t>();
  const uint32_t n64 = static_cast<uint32_t>(Round64(n));
  AscendC::Abs(a, x, static_cast<int32_t>(n64));
  AscendC::Muls(w, a, -1.0f, n);
  AscendC::Adds(w, w, 1.0f, n);
  AscendC::Div(w, a, w, n);
  AscendC::Add(w, w, w, n);
  transvec::Log1p(z, w, s[3 * tile], tile, n);
  AscendC::Muls(z, z, 0.5f, n);
  transvec::CopySignOf(z, x, w, m, n);
  AscendC::CompareScalar(m, a, 2.44140625e-4f, AscendC::CMPMODE::LT, n64);
  AscendC::Select(z, m, x, z, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, static_cast<uint32_t>(n));
}

// Scratch: tiles 0..3 own (t, c, b, mask), 4..7 Log1p's.
inline void Acosh(const LT<float>& z, const LT<float>& x, const LT<float>& s, uint32_t tile, int32_t n) {
  const LT<float> t = s, c = s[tile], b = s[2 * tile];
  const LT<uint8_t> m = s[3 * tile].ReinterpretCast<uint8_t>();
  const uint32_t n64 = static_cast<uint32_t>(Round64(n));
  constexpr auto kTT = AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE;
  AscendC::Mins(c, x, 4096.0f, n);
  AscendC::Adds(t, c, -1.0f, n);
  AscendC::Adds(b, c, 1.0f, n);
  AscendC::Mul(b, b, t, n);
  AscendC::Sqrt(b, b, n);
  AscendC::Add(b, b, c, n);
  AscendC::Ln(b, b, n);                               // 2 <= x <= 4096
  AscendC::Adds(c, t, 2.0f, n);
  AscendC::Mul(c, c, t, n);
  AscendC::Sqrt(c, c, n);
  AscendC::Add(c, c, t, n);
  transvec::Log1p(z, c, s[4 * tile], tile, n);        // x < 2
  AscendC::CompareScalar(m, x, 2.0f, AscendC::CMPMODE::GE, n64);
  AscendC::Select(z, m, b, z, kTT, static_cast<uint32_t>(n));
  AscendC::Ln(t, x, n);
  AscendC::Adds(t, t, 0.69314718055994530942f, n);
  AscendC::CompareScalar(m, x, 4096.0f, AscendC::CMPMODE::GT, n64);
  AscendC::Select(z, m, t, z, kTT, static_cast<uint32_t>(n));
  AscendC::CompareScalar(m, x, 1.0f, AscendC::CMPMODE::GE, n64);  // false for x < 1 and NaN
  AscendC::Select(z, m, z, std::numeric_limits<float>::quiet_NaN(), AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE,
                  static_cast<uint32_t>(n));
}

}  // namespace npurt::kernels::ew::logvec
