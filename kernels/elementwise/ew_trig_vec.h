// kernels/elementwise/ew_trig_vec.h: vector forms of sin, cos, tan, asin and
// acos on float32 UB tiles, composed from level-2 Ascend C vector instructions
// the A2/A3 vector unit has (Muls/Mul/Adds/Sub/Div/Sqrt/Abs, Cast float ->
// float with CAST_RINT / CAST_FLOOR, CompareScalar, Select, Duplicate): it has
// no Sin/Cos instruction, so this is what an NPU kernel computes; the sim does
// the same. Same contract as ew_trans_vec.h (z, x float tiles of `tile`
// lanes, s the functor's kScratch float tiles, masks over n rounded up to 64).
//
// sin/cos/tan: Cody-Waite reduction r = x - k pi/2, k = rint(x 2/pi), with pi/2
// split in four floats P1..P3 of 12 significant bits (k P_i is exact while
// |k| < 2^12) and P4 = the rest rounded (pi/2 - sum P_i ~ 8e-20): accurate for
// |x| < kTrigBound = 6400 (|k| <= 4075). Then Cephes sinf/cosf minimax
// polynomials on |r| <= pi/4 and the quadrant k mod 4; tan = sin r / cos r or
// -cos r / sin r. Lanes with |x| >= kTrigBound (rare: large arguments) are
// recomputed on the scalar unit by the functor's scalar form (FixLanes), so
// every float32 input gets a <= 4 ulp result. Measured vs float64 numpy
// (tests/python/array_api/test_trig_log_vec.py, ~1e6 points over 2^-40 .. 2^13):
// sin 1.98, cos 1.89, tan 3.24 ulp; float16 (via float32) correctly rounded.
// Signed zeros: k = rint(...) + 0 is +0 for x = -0, so r = x - (+0) P_i keeps
// -0 and r (1 + ...) keeps it through the odd polynomial: sin(-0) = tan(-0) = -0.
// +-inf and NaN give NaN (r = inf - inf).
//
// asin/acos: Cephes asinf: |x| <= 0.5: x (1 + x^2 P(x^2)); else
// pi/2 - 2 asin(sqrt((1 - |x|) / 2)) with the sign of x; acos(x) = pi/2 - asin(x)
// for |x| <= 0.5, 2 asin(sqrt((1 - x) / 2)) for x > 0.5 (acos(1) = +0), and
// pi - 2 asin(sqrt((1 + x) / 2)) for x < -0.5. |x| > 1 gives NaN (sqrt of < 0).
#pragma once

#include <cstdint>

#include "elementwise/ew_functors.h"
#include "elementwise/ew_trans_vec.h"

namespace npurt::kernels::ew::trigvec {

using transvec::Round64;
constexpr float kTrigBound = 6400.0f;
constexpr auto kTT = AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE;

// Lanes j < n whose bit is set in m get z[j] = f(x[j]) on the scalar unit
// (after the vector unit's writes, before its next reads). The mask is read 64
// lanes per scalar access, so a tile without such lanes costs n / 64 reads.
template <class Fn>
inline void FixLanes(const LT<float>& z, const LT<float>& x, const LT<uint8_t>& m, int32_t n, Fn f) {
  AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
  const LT<uint64_t> words = m.ReinterpretCast<uint64_t>();
  for (int32_t w = 0; w * 64 < n; ++w) {
    uint64_t bits = words.GetValue(static_cast<uint32_t>(w));
    while (bits != 0) {
      const int32_t j = w * 64 + __builtin_ctzll(bits);
      bits &= bits - 1;
      if (j < n) z.SetValue(static_cast<uint32_t>(j), f(x.GetValue(static_cast<uint32_t>(j))));
    }
  }
  AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
}

// k = rint(x 2/pi) + 0 (+0 for -0), r = x - k P1 - k P2 - k P3 - k P4; t is scratch.
inline void Reduce(const LT<float>& k, const LT<float>& r, const LT<float>& t, const LT<float>& x, int32_t n) {
  constexpr float kP[] = {1.5703125f, 4.837512969970703125e-4f, 7.54953362047672271728515625e-8f,
                          2.56334415817015422552973201e-12f};
  AscendC::Muls(k, x, 0.63661977236758134308f, n);
  AscendC::Cast(k, k, AscendC::RoundMode::CAST_RINT, static_cast<uint32_t>(n));
  AscendC::Adds(k, k, 0.0f, n);
  AscendC::Muls(t, k, kP[0], n);
  AscendC::Sub(r, x, t, n);
  for (int i = 1; i < 4; ++i) {
    AscendC::Muls(t, k, kP[i], n);
    AscendC::Sub(r, r, t, n);
  }
}

// sn = sin r = r (1 + w P(w)), cs = cos r = 1 - w / 2 + w^2 Q(w), w = r^2 (Cephes sinf / cosf, |r| <= pi/4).
inline void SinCosPoly(const LT<float>& sn, const LT<float>& cs, const LT<float>& w, const LT<float>& r, int32_t n) {
  AscendC::Mul(w, r, r, n);
  AscendC::Muls(sn, w, -1.9515295891e-4f, n);
  AscendC::Adds(sn, sn, 8.3321608736e-3f, n);
  AscendC::Mul(sn, sn, w, n);
  AscendC::Adds(sn, sn, -1.6666654611e-1f, n);
  AscendC::Mul(sn, sn, w, n);
  AscendC::Adds(sn, sn, 1.0f, n);
  AscendC::Mul(sn, sn, r, n);
  AscendC::Muls(cs, w, 2.443315711809948e-5f, n);
  AscendC::Adds(cs, cs, -1.388731625493765e-3f, n);
  AscendC::Mul(cs, cs, w, n);
  AscendC::Adds(cs, cs, 4.166664568298827e-2f, n);
  AscendC::Mul(cs, cs, w, n);
  AscendC::Mul(cs, cs, w, n);
  AscendC::Muls(r, w, 0.5f, n);  // r is consumed
  AscendC::Sub(cs, cs, r, n);
  AscendC::Adds(cs, cs, 1.0f, n);
}

// h = floor(k / 2), k = k - 2 h (0 or 1: exact, |k| < 2^24); t is scratch.
inline void ModTwo(const LT<float>& h, const LT<float>& k, const LT<float>& t, int32_t n) {
  AscendC::Muls(h, k, 0.5f, n);
  AscendC::Cast(h, h, AscendC::RoundMode::CAST_FLOOR, static_cast<uint32_t>(n));
  AscendC::Muls(t, h, -2.0f, n);
  AscendC::Add(k, k, t, n);
}

// sin (kCos false) or cos: quadrant q = k (+1 for cos) mod 4; odd q takes cos r / sin r, q >= 2 negates.
template <bool kCos, class Fn>
inline void SinCos(const LT<float>& z, const LT<float>& x, const LT<float>& s, uint32_t tile, int32_t n, Fn scalar) {
  const LT<float> k = s, r = s[tile], w = s[2 * tile], sn = s[3 * tile], h = s[4 * tile];
  const LT<uint8_t> m = s[5 * tile].ReinterpretCast<uint8_t>();
  const uint32_t n64 = static_cast<uint32_t>(Round64(n));
  Reduce(k, r, w, x, n);
  SinCosPoly(sn, z, w, r, n);  // z = cos r
  if (kCos) AscendC::Adds(k, k, 1.0f, n);
  ModTwo(h, k, w, n);  // k: odd quadrant, h = floor(k / 2)
  AscendC::CompareScalar(m, k, 0.5f, AscendC::CMPMODE::GT, n64);
  AscendC::Select(z, m, z, sn, kTT, static_cast<uint32_t>(n));
  ModTwo(r, h, w, n);  // h: floor(k / 2) mod 2, the quadrant's sign bit (r is free)
  AscendC::CompareScalar(m, h, 0.5f, AscendC::CMPMODE::GT, n64);
  AscendC::Muls(w, z, -1.0f, n);
  AscendC::Select(z, m, w, z, kTT, static_cast<uint32_t>(n));
  AscendC::Abs(w, x, static_cast<int32_t>(n64));
  AscendC::CompareScalar(m, w, kTrigBound, AscendC::CMPMODE::GE, n64);
  FixLanes(z, x, m, n, scalar);
}

// tan r = sin r / cos r on even k, -cos r / sin r on odd k.
template <class Fn>
inline void Tan(const LT<float>& z, const LT<float>& x, const LT<float>& s, uint32_t tile, int32_t n, Fn scalar) {
  const LT<float> k = s, r = s[tile], w = s[2 * tile], sn = s[3 * tile], cs = s[4 * tile];
  const LT<uint8_t> m = s[5 * tile].ReinterpretCast<uint8_t>();
  const uint32_t n64 = static_cast<uint32_t>(Round64(n));
  Reduce(k, r, w, x, n);
  SinCosPoly(sn, cs, w, r, n);
  ModTwo(r, k, w, n);  // k mod 2 (r is free)
  AscendC::Div(z, sn, cs, n);
  AscendC::Muls(cs, cs, -1.0f, n);
  AscendC::Div(w, cs, sn, n);
  AscendC::CompareScalar(m, k, 0.5f, AscendC::CMPMODE::GT, n64);
  AscendC::Select(z, m, w, z, kTT, static_cast<uint32_t>(n));
  AscendC::Abs(w, x, static_cast<int32_t>(n64));
  AscendC::CompareScalar(m, w, kTrigBound, AscendC::CMPMODE::GE, n64);
  FixLanes(z, x, m, n, scalar);
}

// dst = asin(v) for 0 <= v <= 0.5 ... the Cephes polynomial v (1 + w P(w)), w = v^2 (q is scratch).
inline void AsinPoly(const LT<float>& dst, const LT<float>& v, const LT<float>& q, int32_t n) {
  constexpr float kP[] = {4.2163199048e-2f, 2.4181311049e-2f, 4.5470025998e-2f, 7.4953002686e-2f,
                          1.6666752422e-1f};
  transvec::OddSeries(dst, v, q, kP, n);
}

// Shared by asin and acos: a = |x|, big = 2 asin(sqrt((1 - a) / 2)) (a > 0.5), small = asin(x) (keeps -0).
inline void AsinParts(const LT<float>& big, const LT<float>& small, const LT<float>& a, const LT<float>& t,
                      const LT<float>& x, int32_t n) {
  AscendC::Abs(a, x, Round64(n));
  AscendC::Muls(t, a, -0.5f, n);
  AscendC::Adds(t, t, 0.5f, n);
  AscendC::Sqrt(t, t, n);
  AsinPoly(big, t, small, n);
  AscendC::Add(big, big, big, n);
  AsinPoly(small, x, t, n);
}

inline void Asin(const LT<float>& z, const LT<float>& x, const LT<float>& s, uint32_t tile, int32_t n) {
  const LT<float> a = s, big = s[tile], t = s[2 * tile];
  const LT<uint8_t> m = s[3 * tile].ReinterpretCast<uint8_t>();
  const uint32_t n64 = static_cast<uint32_t>(Round64(n));
  AsinParts(big, z, a, t, x, n);
  AscendC::Muls(big, big, -1.0f, n);
  AscendC::Adds(big, big, 1.57079632679489661923f, n);
  transvec::CopySignOf(big, x, t, m, n);
  AscendC::CompareScalar(m, a, 0.5f, AscendC::CMPMODE::GT, n64);
  AscendC::Select(z, m, big, z, kTT, static_cast<uint32_t>(n));
}

inline void Acos(const LT<float>& z, const LT<float>& x, const LT<float>& s, uint32_t tile, int32_t n) {
  const LT<float> a = s, big = s[tile], t = s[2 * tile], small = s[3 * tile];
  const LT<uint8_t> m = s[4 * tile].ReinterpretCast<uint8_t>();
  const uint32_t n64 = static_cast<uint32_t>(Round64(n));
  AsinParts(big, small, a, t, x, n);
  AscendC::Muls(small, small, -1.0f, n);
  AscendC::Adds(z, small, 1.57079632679489661923f, n);       // |x| <= 0.5
  AscendC::Muls(t, big, -1.0f, n);
  AscendC::Adds(t, t, 3.14159265358979323846f, n);           // x < -0.5
  AscendC::CompareScalar(m, x, 0.0f, AscendC::CMPMODE::LT, n64);
  AscendC::Select(big, m, t, big, kTT, static_cast<uint32_t>(n));
  AscendC::CompareScalar(m, a, 0.5f, AscendC::CMPMODE::GT, n64);
  AscendC::Select(z, m, big, z, kTT, static_cast<uint32_t>(n));
}

}  // namespace npurt::kernels::ew::trigvec
