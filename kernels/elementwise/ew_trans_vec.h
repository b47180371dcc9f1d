// kernels/elementwise/ew_trans_vec.h: vector forms of tanh, expm1, sinh, cosh
// and log1p as compositions of level-2 Ascend C vector instructions on float32
// UB tiles (Exp, Ln, Abs, Add/Adds, Mul/Muls, Div, Mins, Duplicate,
// CompareScalar, Select): the A2/A3 vector unit has Exp and Ln but none of
// these, so this is what an NPU kernel computes and the sim does the same.
//
// Contract of every function: z, x are float tiles of `tile` lanes, s holds the
// functor's kScratch float tiles of `tile` lanes each (ew_kernel.h's calc
// buffer), n <= tile lanes are computed. The host (ew_ops.cc) makes tile a
// multiple of 64 for functors with scratch, because CompareScalar works on
// whole 256-byte granules: masks are computed over n64 = n rounded up to 64
// lanes (lanes >= n are never selected into z). z may be written before the
// last step as scratch (it never aliases x or s).
//
// Exact special values (the conformance grids): +-0 give +-0 (the small-|x|
// branches are x * (1 + ...) so the sign of zero survives), +-inf give the
// limits, NaN gives NaN. Where an exp-based formula cancels (|x| small) a
// polynomial is chosen per lane by CompareScalar + Select. Accuracy (float32,
// tests/python/array_api/test_transcendental_vec.py vs float64 numpy): tanh,
// expm1, sinh, cosh, log1p, atan, asinh within 4 ulp.
#pragma once

#include <cstdint>

#include "elementwise/ew_functors.h"

namespace npurt::kernels::ew::transvec {

inline int32_t Round64(int32_t n) { return (n + 63) / 64 * 64; }

// dst = x (1 + q P(q)), q = x^2, P(q) = c[0] q^(K-1) + ... + c[K-1] (Horner);
// q is scratch. x * (...) keeps the sign of x = -0.
template <int K>
inline void OddSeries(const LT<float>& dst, const LT<float>& x, const LT<float>& q, const float (&c)[K], int32_t n) {
  AscendC::Mul(q, x, x, n);
  AscendC::Muls(dst, q, c[0], n);
  for (int i = 1; i < K; ++i) {
    AscendC::Adds(dst, dst, c[i], n);
    AscendC::Mul(dst, dst, q, n);
  }
  AscendC::Adds(dst, dst, 1.0f, n);
  AscendC::Mul(dst, dst, x, n);
}

// v = -v on the lanes where x < 0 (odd functions computed on |x|); t is scratch.
inline void CopySignOf(const LT<float>& v, const LT<float>& x, const LT<float>& t, const LT<uint8_t>& m, int32_t n) {
  AscendC::CompareScalar(m, x, 0.0f, AscendC::CMPMODE::LT, static_cast<uint32_t>(Round64(n)));
  AscendC::Muls(t, v, -1.0f, n);
  AscendC::Select(v, m, t, v, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, static_cast<uint32_t>(n));
}

// tanh: |x| < 0.625: Cephes tanhf's odd polynomial; else sign(x) (1 - 2 / (exp(2|x|) + 1)).
inline void Tanh(const LT<float>& z, const LT<float>& x, const LT<float>& s, uint32_t tile, int32_t n) {
  const LT<float> a = s, e = s[tile], p = s[2 * tile];
  const LT<uint8_t> m = s[3 * tile].ReinterpretCast<uint8_t>();
  const int32_t n64 = Round64(n);
  AscendC::Abs(a, x, n64);
  AscendC::Muls(e, a, 2.0f, n);
  AscendC::Exp(e, e, n);
  AscendC::Adds(e, e, 1.0f, n);
  AscendC::Duplicate(p, -2.0f, n);
  AscendC::Div(e, p, e, n);
  AscendC::Adds(e, e, 1.0f, n);  // inf: 1 - 0; NaN stays NaN
  CopySignOf(e, x, p, m, n);
  AscendC::CompareScalar(m, a, 0.625f, AscendC::CMPMODE::LT, static_cast<uint32_t>(n64));
  constexpr float kP[] = {-5.70498872745e-3f, 2.06390887954e-2f, -5.37397155531e-2f, 1.33314422036e-1f,
                          -3.33332819422e-1f};
  OddSeries(p, x, a, kP, n);
  AscendC::Select(z, m, p, e, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, static_cast<uint32_t>(n));
}

// expm1: |x| < 0.5: x (1 + x/2! + ... + x^8/9!) (first term left out: 5e-10 relative);
// else exp(x) - 1 (no cancellation there: exp(x) is >= 0.6 away from 1).
inline void Expm1(const LT<float>& z, const LT<float>& x, const LT<float>& s, uint32_t tile, int32_t n) {
  const LT<float> a = s, e = s[tile];
  const LT<uint8_t> m = s[2 * tile].ReinterpretCast<uint8_t>();
  const int32_t n64 = Round64(n);
  AscendC::Exp(e, x, n);
  AscendC::Adds(e, e, -1.0f, n);
  AscendC::Abs(a, x, n64);
  AscendC::CompareScalar(m, a, 0.5f, AscendC::CMPMODE::LT, static_cast<uint32_t>(n64));
  // 1/9!, 1/8!, ..., 1/2!: Horner in x.
  constexpr float kC[] = {2.7557319223985890653e-6f, 2.4801587301587301587e-5f, 1.9841269841269841270e-4f,
                          1.3888888888888888889e-3f, 8.3333333333333333333e-3f, 4.1666666666666666667e-2f,
                          1.6666666666666666667e-1f, 0.5f};
  AscendC::Muls(a, x, kC[0], n);
  for (int i = 1; i < 8; ++i) {
    AscendC::Adds(a, a, kC[i], n);
    AscendC::Mul(a, a, x, n);
  }
  AscendC::Adds(a, a, 1.0f, n);
  AscendC::Mul(a, a, x, n);
  AscendC::Select(z, m, a, e, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, static_cast<uint32_t>(n));
}

// p = exp(|x|) / 2 as (h / 2) h with h = exp(|x| / 2) (finite up to cosh's and sinh's
// own overflow at |x| ~ 89.4, where exp(|x|) alone overflows at 88.7); q = sign / (2 h^2)
// (0 once h^2 overflows). `two` is scratch (filled with sign / 2).
inline void HalfExpPair(const LT<float>& p, const LT<float>& q, const LT<float>& two, const LT<float>& ax,
                        float sign, int32_t n) {
  AscendC::Muls(q, ax, 0.5f, n);
  AscendC::Exp(q, q, n);
  AscendC::Muls(p, q, 0.5f, n);
  AscendC::Mul(p, p, q, n);
  AscendC::Mul(q, q, q, n);
  AscendC::Duplicate(two, 0.5f * sign, n);
  AscendC::Div(q, two, q, n);
}

// sinh: |x| < 1: x (1 + x^2/3! + ... + x^10/11!); else sign(x) (e^|x| / 2 - e^-|x| / 2).
inline void Sinh(const LT<float>& z, const LT<float>& x, const LT<float>& s, uint32_t tile, int32_t n) {
  const LT<float> a = s, h = s[tile], p = s[2 * tile];
  const LT<uint8_t> m = s[3 * tile].ReinterpretCast<uint8_t>();
  const int32_t n64 = Round64(n);
  AscendC::Abs(a, x, n64);
  HalfExpPair(p, h, z, a, -1.0f, n);
  AscendC::Add(p, p, h, n);
  CopySignOf(p, x, h, m, n);
  AscendC::CompareScalar(m, a, 1.0f, AscendC::CMPMODE::LT, static_cast<uint32_t>(n64));
  constexpr float kC[] = {2.5052108385441718775e-8f, 2.7557319223985890653e-6f, 1.9841269841269841270e-4f,
                          8.3333333333333333333e-3f, 1.6666666666666666667e-1f};
  OddSeries(h, x, a, kC, n);
  AscendC::Select(z, m, h, p, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, static_cast<uint32_t>(n));
}

// cosh = e^|x| / 2 + e^-|x| / 2: no cancellation; exp's errors cancel to first order near 0.
inline void Cosh(const LT<float>& z, const LT<float>& x, const LT<float>& s, uint32_t tile, int32_t n) {
  const LT<float> a = s, h = s[tile];
  AscendC::Abs(a, x, n);
  HalfExpPair(z, h, a, a, 1.0f, n);  // a (|x|) is read before it is overwritten with 1/2
  AscendC::Add(z, z, h, n);
}

// log1p: u = 1 + x; x where u == 1 (|x| < 2^-24, keeps -0), else ln(u) * x / (u - 1)
// (Goldberg: the quotient corrects u's rounding). x is clamped to FLT_MAX in the
// quotient so +inf gives inf * 1, not inf * (inf / inf).
inline void Log1p(const LT<float>& z, const LT<float>& x, const LT<float>& s, uint32_t tile, int32_t n) {
  const LT<float> u = s, l = s[tile], t = s[2 * tile];
  const LT<uint8_t> m = s[3 * tile].ReinterpretCast<uint8_t>();
  const int32_t n64 = Round64(n);
  AscendC::Adds(u, x, 1.0f, n64);
  AscendC::Ln(l, u, n);
  AscendC::Mins(z, x, 3.4028234e38f, n);
  AscendC::Adds(t, z, 1.0f, n);
  AscendC::Adds(t, t, -1.0f, n);
  AscendC::Div(t, z, t, n);
  AscendC::Mul(l, l, t, n);
  AscendC::CompareScalar(m, u, 1.0f, AscendC::CMPMODE::EQ, static_cast<uint32_t>(n64));
  AscendC::Select(z, m, x, l, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, static_cast<uint32_t>(n));
}

// atan (Cephes atanf): |x| <= tan(pi/8): the odd polynomial on x itself (keeps -0);
// tan(pi/8) < |x| <= tan(3pi/8): pi/4 + atan((|x| - 1) / (|x| + 1)); above: pi/2 + atan(-1/|x|)
// (inf: pi/2 - 0); the two reduced branches get the sign of x back by Select.
inline void Atan(const LT<float>& z, const LT<float>& x, const LT<float>& s, uint32_t tile, int32_t n) {
  const LT<float> a = s, y = s[tile], t = s[2 * tile], p = s[3 * tile];
  const LT<uint8_t> m = s[4 * tile].ReinterpretCast<uint8_t>();
  const int32_t n64 = Round64(n);
  constexpr float kP[] = {8.05374449538e-2f, -1.38776856032e-1f, 1.99777106478e-1f, -3.33329491539e-1f};
  AscendC::Abs(a, x, n64);
  AscendC::Duplicate(p, -1.0f, n);
  AscendC::Div(t, p, a, n);            // -1 / |x|
  AscendC::Adds(p, a, -1.0f, n);
  AscendC::Adds(y, a, 1.0f, n);
  AscendC::Div(y, p, y, n);            // (|x| - 1) / (|x| + 1)
  AscendC::CompareScalar(m, a, 2.414213562373095f, AscendC::CMPMODE::GT, static_cast<uint32_t>(n64));
  AscendC::Select(t, m, t, y, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, static_cast<uint32_t>(n));
  AscendC::Duplicate(p, 1.57079632679489661923f, n);
  AscendC::Select(y, m, p, 0.78539816339744830962f, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE,
                  static_cast<uint32_t>(n));  // the offset: pi/2 or pi/4
  OddSeries(p, t, z, kP, n);
  AscendC::Add(p, p, y, n);
  CopySignOf(p, x, y, m, n);
  AscendC::CompareScalar(m, a, 0.4142135623730950f, AscendC::CMPMODE::LE, static_cast<uint32_t>(n64));
  OddSeries(y, x, t, kP, n);
  AscendC::Select(z, m, y, p, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, static_cast<uint32_t>(n));
}

// asinh: |x| < 0.125: x (1 + x^2 P(x^2)), the series to x^9 (next term 2.4e-11
// relative; keeps -0); |x| < 2: log1p(c + c^2 / (1 + sqrt(1 + c^2))) (no cancellation);
// |x| <= 4096: ln(c + sqrt(c^2 + 1)); above: ln|x| + ln 2 (c = min(|x|, 4096): c^2 stays
// finite); sign by Select; NaN lanes take x (Mins' NaN result is not relied on).
inline void Asinh(const LT<float>& z, const LT<float>& x, const LT<float>& s, uint32_t tile, int32_t n) {
  const LT<float> a = s, w = s[tile], t = s[2 * tile], b = s[8 * tile];
  const LT<uint8_t> m = s[3 * tile].ReinterpretCast<uint8_t>();
  const uint32_t n64 = static_cast<uint32_t>(Round64(n));
  constexpr auto kTT = AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE;
  AscendC::Abs(a, x, static_cast<int32_t>(n64));
  AscendC::Mins(t, a, 4096.0f, n);
  AscendC::Mul(w, t, t, n);
  AscendC::Adds(z, w, 1.0f, n);
  AscendC::Sqrt(z, z, n);
  AscendC::Add(b, z, t, n);
  AscendC::Ln(b, b, n);                                          // |x| in [2, 4096]
  AscendC::Adds(z, z, 1.0f, n);
  AscendC::Div(w, w, z, n);
  AscendC::Add(w, w, t, n);
  Log1p(z, w, s[4 * tile], tile, n);                             // |x| < 2 (tiles 4..7)
  AscendC::CompareScalar(m, a, 2.0f, AscendC::CMPMODE::GE, n64);
  AscendC::Select(z, m, b, z, kTT, static_cast<uint32_t>(n));
  AscendC::Ln(t, a, n);
  AscendC::Adds(t, t, 0.69314718055994530942f, n);
  AscendC::CompareScalar(m, a, 4096.0f, AscendC::CMPMODE::GT, n64);
  AscendC::Select(z, m, t, z, kTT, static_cast<uint32_t>(n));
  CopySignOf(z, x, t, m, n);
  constexpr float kC[] = {35.0f / 1152.0f, -5.0f / 112.0f, 3.0f / 40.0f, -1.0f / 6.0f};
  OddSeries(t, x, b, kC, n);
  AscendC::CompareScalar(m, a, 0.125f, AscendC::CMPMODE::LT, n64);
  AscendC::Select(z, m, t, z, kTT, static_cast<uint32_t>(n));
  AscendC::Compare(m, x, x, AscendC::CMPMODE::NE, n64);
  AscendC::Select(z, m, x, z, kTT, static_cast<uint32_t>(n));
}

}  // namespace npurt::kernels::ew::transvec
