// kernels/elementwise/ew_act_functors.h: the activation rows of the
// elementwise functor table (contract in ew_functors.h): gelu (erf and tanh
// forms), silu, swiglu and their gradients, for float32 / float16 / bfloat16.
//
// Invariants: every form computes in float (half and bfloat16 are widened on
// load and rounded once on store, ew_types.h); the scalar form F and the
// float32 vector form Vec give the same special values: NaN for -inf in
// silu and gelu's tanh form (the "x * probability" forms evaluate -inf * 0,
// as PyTorch does), 0 for -inf in gelu's erf form (its limit), +inf for +inf. Formulas avoid cancellation for negative x: gelu uses
// erfc(-x/sqrt2) instead of 1 + erf(x/sqrt2), the tanh form and silu use
// x / (1 + exp(-t)) instead of 0.5 * x * (1 + tanh(t / 2)).
#pragma once

#include <cmath>
#include <cstdint>

#include "elementwise/ew_functors.h"

namespace npurt::kernels::ew {

constexpr uint32_t kActFloats = bit(DType::kFloat16) | bit(DType::kBFloat16) | bit(DType::kFloat32);
constexpr uint32_t kVecF32 = bit(DType::kFloat32);

namespace act {
constexpr float kInvSqrt2 = 0.70710678118654752440f;
constexpr float kInvSqrt2Pi = 0.39894228040143267794f;  // 1 / sqrt(2 pi): the normal pdf's factor
constexpr float kSqrt2OverPi = 0.79788456080286535588f;
constexpr float kTanhCubic = 0.044715f;

inline float sigmoid(float t) { return 1.0f / (1.0f + std::exp(-t)); }
// 2 * sqrt(2/pi) * (x + 0.044715 x^3): the tanh form's argument, doubled (sigmoid(2u) = (1 + tanh u) / 2).
inline float tanh_arg2(float x) { return 2.0f * kSqrt2OverPi * (x + kTanhCubic * x * x * x); }

inline float gelu_erf(float x) { return x == -INFINITY ? 0.0f : 0.5f * x * std::erfc(-x * kInvSqrt2); }
inline float gelu_tanh(float x) { return x / (1.0f + std::exp(-tanh_arg2(x))); }
inline float silu(float x) { return x / (1.0f + std::exp(-x)); }

// d/dx: Phi(x) + x * phi(x).
inline float gelu_erf_grad(float x) {
  return 0.5f * std::erfc(-x * kInvSqrt2) + x * kInvSqrt2Pi * std::exp(-0.5f * x * x);
}
// d/dx of x * s(x), s = sigmoid(2u): s + x * 2 s (1 - s) * u'(x), u' = sqrt(2/pi) (1 + 3c x^2).
inline float gelu_tanh_grad(float x) {
  const float s = sigmoid(tanh_arg2(x)), sp = s * (1.0f - s);
  if (sp == 0.0f && std::isfinite(x)) return s;  // |x| large: x^2 may overflow where sp is 0
  return s + x * 2.0f * sp * kSqrt2OverPi * (1.0f + 3.0f * kTanhCubic * x * x);
}
// d/dx of x * s(x), s = sigmoid(x): s * (1 + x (1 - s)).
inline float silu_grad(float x) {
  const float s = sigmoid(x);
  return s * (1.0f + x * (1.0f - s));
}
}  // namespace act

struct ActBase : OpBase {
  static constexpr uint32_t kDTypes = kActFloats;
  static constexpr bool kWidenVec = true;  // float16/bfloat16 run the float32 Vec form (fp32 math)
};

namespace actvec {
// z = erfc(|x| / sqrt2) (times |x| when times_abs_x) by Numerical Recipes' erfcc: with
// u = |x| / sqrt2 and t = 1 / (1 + u/2), erfc(u) = t exp(-u^2 + P(t)), fractional error
// < 1.2e-7 for every u >= 0. |x| is clamped to FLT_MAX first (inf gives exp(-inf) = 0, never
// inf * 0). Leaves ax = -x^2 / 2 (the backward's phi(x) needs it); t is scratch. One helper
// for gelu's forward and backward, so both use the same erfc (the backward is its derivative).
template <class T>
inline void Erfcc(const LT<T>& z, const LT<float>& ax, const LT<float>& t, const LT<T>& x, bool times_abs_x,
                  int32_t n) {
  static constexpr float kP[] = {0.17087277f, -0.82215223f, 1.48851587f, -1.13520398f, 0.27886807f,
                                 -0.18628806f, 0.09678418f,  0.37409196f, 1.00002368f, -1.26551223f};
  AscendC::Abs(ax, x, n);
  AscendC::Mins(ax, ax, 3.4028234e38f, n);                     // |x|, inf -> FLT_MAX
  AscendC::Muls(t, ax, 0.5f * act::kInvSqrt2, n);              // u / 2
  AscendC::Adds(t, t, 1.0f, n);
  AscendC::Duplicate(z, 1.0f, n);
  AscendC::Div(t, z, t, n);                                    // t = 1 / (1 + u/2)
  AscendC::Muls(z, t, kP[0], n);
  for (int i = 1; i < 10; ++i) {                               // Horner: P(t)
    AscendC::Adds(z, z, kP[i], n);
    if (i < 9) AscendC::Mul(z, z, t, n);
  }
  if (times_abs_x) AscendC::Mul(t, ax, t, n);                  // |x| t (t no longer needed alone)
  AscendC::Mul(ax, ax, ax, n);
  AscendC::Muls(ax, ax, -0.5f, n);                             // -u^2 = -x^2 / 2
  AscendC::Add(z, z, ax, n);
  AscendC::Exp(z, z, n);
  AscendC::Mul(z, z, t, n);
}
}  // namespace actvec

// Unary forward forms. Vec (float32 only, the vector unit has no erf/tanh):
// x / (1 + exp(-k(x))) with Muls/Exp/Adds/Div in place in z.
// Vec: relu(x) - 0.5 |x| erfc(|x| / sqrt2) (= x Phi(x) without cancellation for
// x < 0), erfc by actvec::Erfcc. +inf gives +inf; -inf gives 0 (the limit) on this path.
struct GeluErfF : ActBase {
  static constexpr int kArity = 1;
  static constexpr uint32_t kVec = kVecF32;
  static constexpr uint32_t kScratch = 2;
  template <class W> static W F(W x) { return act::gelu_erf(x); }
  template <class T>
  static void Vec(const LT<T>& z, const LT<T>& x, const LT<float>& s, uint32_t tile, int32_t n) {
    const LT<float> ax = s[0], t = s[tile];
    actvec::Erfcc(z, ax, t, x, /*times_abs_x=*/true, n);      // |x| erfc(|x| / sqrt2)
    AscendC::Muls(z, z, -0.5f, n);
    AscendC::Relu(ax, x, n);
    AscendC::Add(z, z, ax, n);
  }
};
struct GeluTanhF : ActBase {
  static constexpr int kArity = 1;
  static constexpr uint32_t kVec = kVecF32;
  template <class W> static W F(W x) { return act::gelu_tanh(x); }
  template <class T> static void Vec(const LT<T>& z, const LT<T>& x, int32_t n) {
    AscendC::Mul(z, x, x, n);                                   // x^2
    AscendC::Muls(z, z, T(act::kTanhCubic), n);                 // c x^2
    AscendC::Adds(z, z, T(1), n);                               // 1 + c x^2
    AscendC::Mul(z, z, x, n);                                   // x + c x^3
    AscendC::Muls(z, z, T(-2.0f * act::kSqrt2OverPi), n);       // -2u
    AscendC::Exp(z, z, n);
    AscendC::Adds(z, z, T(1), n);
    AscendC::Div(z, x, z, n);
  }
};
struct SiluF : ActBase {
  static constexpr int kArity = 1;
  static constexpr uint32_t kVec = kVecF32;
  template <class W> static W F(W x) { return act::silu(x); }
  template <class T> static void Vec(const LT<T>& z, const LT<T>& x, int32_t n) {
    AscendC::Muls(z, x, T(-1), n);
    AscendC::Exp(z, z, n);
    AscendC::Adds(z, z, T(1), n);
    AscendC::Div(z, x, z, n);
  }
};

// Vector building blocks shared by the forms below (float32 tiles of n lanes).
namespace actvec {
// s = sigmoid(x) = 1 / (1 + exp(-x)); `one` is overwritten with 1.
inline void Sigmoid(const LT<float>& s, const LT<float>& x, const LT<float>& one, int32_t n) {
  AscendC::Muls(s, x, -1.0f, n);
  AscendC::Exp(s, s, n);
  AscendC::Adds(s, s, 1.0f, n);
  AscendC::Duplicate(one, 1.0f, n);
  AscendC::Div(s, one, s, n);
}

// z = silu'(x) = s (1 + x (1 - s)), s = sigmoid(x); t is scratch. -inf and +inf give NaN (x * 0).
inline void SiluGrad(const LT<float>& z, const LT<float>& x, const LT<float>& t, int32_t n) {
  Sigmoid(t, x, z, n);
  AscendC::Muls(z, t, -1.0f, n);
  AscendC::Adds(z, z, 1.0f, n);  // 1 - s
  AscendC::Mul(z, z, x, n);
  AscendC::Adds(z, z, 1.0f, n);
  AscendC::Mul(z, z, t, n);
}

// z = silu(x) = x / (1 + exp(-x)).
inline void Silu(const LT<float>& z, const LT<float>& x, int32_t n) {
  AscendC::Muls(z, x, -1.0f, n);
  AscendC::Exp(z, z, n);
  AscendC::Adds(z, z, 1.0f, n);
  AscendC::Div(z, x, z, n);
}
}  // namespace actvec

// swiglu: inputs are the two halves (a, b) of the last axis of one tensor.
struct SwigluF : ActBase {
  static constexpr int kArity = 2;
  static constexpr uint32_t kVec = kVecF32;
  template <class W> static W F(W a, W b) { return act::silu(a) * b; }
  template <class T> static void Vec(const LT<T>& z, const LT<T>& a, const LT<T>& b, int32_t n) {
    actvec::Silu(z, a, n);
    AscendC::Mul(z, z, b, n);
  }
};

// Backward forms: (dy, x) -> dy * f'(x).
// Vec: the erf form's Phi(x) = E + [x > 0] (1 - 2E), E = 0.5 erfc(|x| / sqrt2)
// by the forward's erfcc (no cancellation for x < 0); [x > 0] is
// min(relu(x) * 1e38, 1) (exact except for |x| < 3e-38, where 1 - 2E is 0 in
// float anyway). +-inf give NaN (x phi(x) = inf * 0), like the scalar form.
struct GeluErfGradF : ActBase {
  static constexpr int kArity = 2;
  static constexpr uint32_t kVec = kVecF32;
  static constexpr uint32_t kScratch = 2;
  template <class W> static W F(W dy, W x) { return dy * act::gelu_erf_grad(x); }
  template <class T>
  static void Vec(const LT<T>& z, const LT<T>& dy, const LT<T>& x, const LT<float>& s, uint32_t tile, int32_t n) {
    const LT<float> ax = s[0], t = s[tile];
    actvec::Erfcc(z, ax, t, x, /*times_abs_x=*/false, n);     // ax = -x^2 / 2
    AscendC::Muls(z, z, 0.5f, n);                              // E = 0.5 erfc(|x| / sqrt2)
    AscendC::Exp(t, ax, n);
    AscendC::Mul(t, t, x, n);
    AscendC::Muls(t, t, act::kInvSqrt2Pi, n);                  // x phi(x)
    AscendC::Muls(ax, z, -2.0f, n);
    AscendC::Adds(ax, ax, 1.0f, n);                            // 1 - 2E
    AscendC::Add(z, z, t, n);                                  // E + x phi(x)
    AscendC::Relu(t, x, n);
    AscendC::Muls(t, t, 1e38f, n);
    AscendC::Mins(t, t, 1.0f, n);                              // [x > 0]
    AscendC::Mul(ax, ax, t, n);
    AscendC::Add(z, z, ax, n);
    AscendC::Mul(z, z, dy, n);
  }
};
// Vec: s + x 2 s (1 - s) u'(x), s = sigmoid(2u), on x clamped to [-20, 20]
// (beyond it the gradient is exactly 1 or 0 in float, and x^3 cannot
// overflow), then + (x - x): NaN for +-inf and NaN, as the scalar form.
struct GeluTanhGradF : ActBase {
  static constexpr int kArity = 2;
  static constexpr uint32_t kVec = kVecF32;
  static constexpr uint32_t kScratch = 3;
  template <class W> static W F(W dy, W x) { return dy * act::gelu_tanh_grad(x); }
  template <class T>
  static void Vec(const LT<T>& z, const LT<T>& dy, const LT<T>& x, const LT<float>& s, uint32_t tile, int32_t n) {
    const LT<float> xc = s[0], q = s[tile], w = s[2 * tile];
    AscendC::Maxs(xc, x, -20.0f, n);
    AscendC::Mins(xc, xc, 20.0f, n);
    AscendC::Mul(q, xc, xc, n);                                // x^2
    AscendC::Muls(z, q, act::kTanhCubic, n);
    AscendC::Adds(z, z, 1.0f, n);
    AscendC::Mul(z, z, xc, n);
    AscendC::Muls(z, z, 2.0f * act::kSqrt2OverPi, n);          // 2u
    actvec::Sigmoid(z, z, w, n);                               // s (in place: Muls reads z first)
    AscendC::Muls(w, z, -1.0f, n);
    AscendC::Adds(w, w, 1.0f, n);
    AscendC::Mul(w, w, z, n);                                  // s (1 - s)
    AscendC::Muls(q, q, 3.0f * act::kTanhCubic, n);
    AscendC::Adds(q, q, 1.0f, n);
    AscendC::Muls(q, q, 2.0f * act::kSqrt2OverPi, n);          // 2 u'(x)
    AscendC::Mul(q, q, w, n);
    AscendC::Mul(q, q, xc, n);
    AscendC::Add(z, z, q, n);
    AscendC::Sub(q, x, x, n);                                  // 0, or NaN for +-inf / NaN
    AscendC::Add(z, z, q, n);
    AscendC::Mul(z, z, dy, n);
  }
};
struct SiluGradF : ActBase {
  static constexpr int kArity = 2;
  static constexpr uint32_t kVec = kVecF32;
  static constexpr uint32_t kScratch = 1;
  template <class W> static W F(W dy, W x) { return dy * act::silu_grad(x); }
  template <class T>
  static void Vec(const LT<T>& z, const LT<T>& dy, const LT<T>& x, const LT<float>& s, uint32_t, int32_t n) {
    actvec::SiluGrad(z, x, s, n);
    AscendC::Mul(z, z, dy, n);
  }
};

// swiglu_backward's two passes: da = dy * b * silu'(a), db = dy * silu(a).
struct SwigluGradAF : ActBase {
  static constexpr int kArity = 3;
  static constexpr uint32_t kVec = kVecF32;
  static constexpr uint32_t kScratch = 1;
  template <class W> static W F(W dy, W a, W b) { return dy * b * act::silu_grad(a); }
  template <class T>
  static void Vec(const LT<T>& z, const LT<T>& dy, const LT<T>& a, const LT<T>& b, const LT<float>& s, uint32_t,
                  int32_t n) {
    actvec::SiluGrad(z, a, s, n);
    AscendC::Mul(s, dy, b, n);
    AscendC::Mul(z, z, s, n);
  }
};
struct SwigluGradBF : ActBase {
  static constexpr int kArity = 2;
  static constexpr uint32_t kVec = kVecF32;
  template <class W> static W F(W dy, W a) { return dy * act::silu(a); }
  template <class T> static void Vec(const LT<T>& z, const LT<T>& dy, const LT<T>& a, int32_t n) {
    actvec::Silu(z, a, n);
    AscendC::Mul(z, z, dy, n);
  }
};

}  // namespace npurt::kernels::ew
