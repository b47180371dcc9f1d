// kernels/fused/fused_math.h: tanh, sin and cos of the fused elementwise
// kernel as compositions of level-2 Ascend C vector instructions on float32 UB
// tiles (the A2/A3 vector unit has Exp/Ln/Sqrt but no tanh/sin/cos; these are
// what an NPU kernel computes, so the sim does exactly what the device would).
//
// Contract of every function: dst, src, s0..s2 are float tiles of at least n64
// elements (n64 = n rounded up to 64, Compare's 256-byte granule); s0..s2 and
// mask are scratch, disjoint from dst and src; dst may be src (src is dead
// once dst is written). Lanes >= n hold unspecified values.
// Accuracy (float32, measured in tests/python/fuse): tanh ~2 ulp (Cephes
// tanhf: odd polynomial below |x| = 0.625, 1 - 2 / (exp(2|x|) + 1) above);
// sin/cos: Cody-Waite reduction by pi (3-part constant, exact for |x| < ~1e5)
// and a degree-11 odd polynomial on [-pi/2, pi/2], ~3 ulp absolute near 1.
#pragma once

#include "kernel_operator.h"

namespace npurt::kernels::fused {

struct MathScratch {
  AscendC::LocalTensor<float> s0, s1, s2;
  AscendC::LocalTensor<uint8_t> mask;
};

// z * P(z) with P(z) = c[0] z^(N-1) + ... + c[N-1], by Horner's rule:
// d = c0 z; then d = (d + c[i]) z for each further coefficient. dst may not be z.
template <int N>
__aicore__ inline void VecHornerTimesZ(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& z,
                                       const float (&c)[N], int32_t n) {
  AscendC::Muls(dst, z, c[0], n);
  for (int i = 1; i < N; ++i) {
    AscendC::Adds(dst, dst, c[i], n);
    AscendC::Mul(dst, dst, z, n);
  }
}

__aicore__ inline void VecTanh(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                               const MathScratch& w, int32_t n, int32_t n64) {
  const auto &s0 = w.s0, &s1 = w.s1, &s2 = w.s2;
  AscendC::Abs(s0, src, n);                       // |x|
  AscendC::Muls(s1, s0, 2.0f, n);                 // large |x|: 1 - 2 / (exp(2|x|) + 1)
  AscendC::Exp(s1, s1, n);
  AscendC::Adds(s1, s1, 1.0f, n);
  AscendC::Duplicate(s2, 2.0f, n);
  AscendC::Div(s1, s2, s1, n);
  AscendC::Muls(s1, s1, -1.0f, n);
  AscendC::Adds(s1, s1, 1.0f, n);
  AscendC::CompareScalar(w.mask, src, 0.0f, AscendC::CMPMODE::LT, n64);  // odd: restore the sign
  AscendC::Muls(s2, s1, -1.0f, n);
  AscendC::Select(s1, w.mask, s2, s1, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
  AscendC::CompareScalar(w.mask, s0, 0.625f, AscendC::CMPMODE::LT, n64);  // small |x|: polynomial
  AscendC::Mul(s2, src, src, n);                  // z = x^2
  constexpr float kTanhP[] = {-5.70498872745e-3f, 2.06390887954e-2f, -5.37397155531e-2f, 1.33314422036e-1f,
                              -3.33332819422e-1f};
  VecHornerTimesZ(s0, s2, kTanhP, n);             // z P(z)
  AscendC::Adds(s0, s0, 1.0f, n);                 // x (1 + z P(z)), not x + x z P(z): at x = -0, z P(z) is -0
  AscendC::Mul(s0, s0, src, n);                   // and -0 + (-0 * -0) would give +0; this keeps tanh(-0) = -0
  AscendC::Select(dst, w.mask, s0, s1, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
}

// sin(x) (cosine = false) or cos(x) (cosine = true). x = k*pi + r (sin) or
// x = (k + 1/2)*pi + r (cos), |r| <= pi/2; sin x = (-1)^k sin r and
// cos x = -(-1)^k sin r.
__aicore__ inline void VecSinCos(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                                 const MathScratch& w, int32_t n, bool cosine) {
  const auto &s0 = w.s0, &s1 = w.s1, &s2 = w.s2;
  constexpr float kInvPi = 0.318309886183790671538f;
  constexpr float kPi1 = 3.140625f, kPi2 = 9.67502593994140625e-4f, kPi3 = 1.509957990978376432e-7f;
  AscendC::Muls(s0, src, kInvPi, n);
  if (cosine) AscendC::Adds(s0, s0, -0.5f, n);
  AscendC::Cast(s0, s0, AscendC::RoundMode::CAST_RINT, n);  // k (integral float)
  if (cosine) AscendC::Adds(s1, s0, 0.5f, n);
  else AscendC::Muls(s1, s0, 1.0f, n);
  AscendC::Muls(s2, s1, -kPi1, n);                // r = x - t*pi1 - t*pi2 - t*pi3 (t*pi1 exact)
  AscendC::Add(s2, s2, src, n);
  AscendC::Axpy(s2, s1, -kPi2, n);
  AscendC::Axpy(s2, s1, -kPi3, n);
  AscendC::Muls(s1, s0, 0.5f, n);                 // parity p = k - 2 floor(k / 2)
  AscendC::Cast(s1, s1, AscendC::RoundMode::CAST_FLOOR, n);
  AscendC::Muls(s1, s1, -2.0f, n);
  AscendC::Add(s1, s1, s0, n);
  AscendC::Muls(s1, s1, cosine ? 2.0f : -2.0f, n);  // sign: 1 - 2p (sin), 2p - 1 (cos)
  AscendC::Adds(s1, s1, cosine ? -1.0f : 1.0f, n);
  AscendC::Mul(s0, s2, s2, n);                    // z = r^2; sin r = r + r z P(z)
  constexpr float kSinP[] = {-2.5052108385441718775e-8f, 2.7557319223985890653e-6f, -1.9841269841269841270e-4f,
                             8.3333333333333333333e-3f, -1.6666666666666666667e-1f};
  VecHornerTimesZ(dst, s0, kSinP, n);             // z P(z)
  AscendC::Mul(dst, dst, s2, n);
  AscendC::Add(dst, dst, s2, n);
  AscendC::Mul(dst, dst, s1, n);
}

}  // namespace npurt::kernels::fused
