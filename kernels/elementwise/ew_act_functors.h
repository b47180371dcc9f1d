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

// Unary forward forms. Vec (float32 only, the vector unit has no erf/tanh):
// x / (1 + exp(-k(x))) with Muls/Exp/Adds/Div in place in z.
// Vec: relu(x) - 0.5 |x| erfc(|x| / sqrt2) (= x Phi(x) without cancellation for
// x < 0), erfc by Numerical Recipes' erfcc, t exp(-z^2 + P(t)), t = 1 / (1 + z/2),
// fractional error < 1.2e-7 for every z >= 0. |x| is clamped to FLT_MAX so +inf
// gives +inf; -inf gives 0 (the limit) on this path.
struct GeluErfF : ActBase {
  static constexpr int kArity = 1;
  static constexpr uint32_t kVec = kVecF32;
  static constexpr uint32_t kScratch = 2;
  template <class W> static W F(W x) { return act::gelu_erf(x); }
  template <class T>
  static void Vec(const LT<T>& z, const LT<T>& x, const LT<float>& s, uint32_t tile, int32_t n) {
    static constexpr float kP[] = {0.17087277f, -0.82215223f, 1.48851587f, -1.13520398f, 0.27886807f,
                                   -0.18628806f, 0.09678418f,  0.37409196f, 1.00002368f, -1.26551223f};
    const LT<float> ax = s[0], t = s[tile];
    AscendC::Abs(ax, x, n);
    AscendC::Mins(ax, ax, 3.4028234e38f, n);                   // |x|, inf -> FLT_MAX
    AscendC::Muls(t, ax, 0.5f * act::kInvSqrt2, n);            // z / 2
    AscendC::Adds(t, t, 1.0f, n);
    AscendC::Duplicate(z, 1.0f, n);
    AscendC::Div(t, z, t, n);                                  // t = 1 / (1 + z/2)
    AscendC::Muls(z, t, kP[0], n);
    for (int i = 1; i < 10; ++i) {                             // Horner: P(t)
      AscendC::Adds(z, z, kP[i], n);
      if (i < 9) AscendC::Mul(z, z, t, n);
    }
    AscendC::Mul(t, ax, t, n);                                 // |x| t (t no longer needed alone)
    AscendC::Mul(ax, ax, ax, n);
    AscendC::Muls(ax, ax, -0.5f, n);                           // -z^2 = -x^2 / 2
    AscendC::Add(z, z, ax, n);
    AscendC::Exp(z, z, n);
    AscendC::Mul(z, z, t, n);                                  // |x| erfc(z)
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

// swiglu: inputs are the two halves (a, b) of the last axis of one tensor.
struct SwigluF : ActBase {
  static constexpr int kArity = 2;
  template <class W> static W F(W a, W b) { return act::silu(a) * b; }
};

// Backward forms: (dy, x) -> dy * f'(x).
#define NPURT_EW_ACT_GRAD(NAME, GRAD)                              \
  struct NAME : ActBase {                                          \
    static constexpr int kArity = 2;                               \
    template <class W> static W F(W dy, W x) { return dy * GRAD(x); } \
  };
NPURT_EW_ACT_GRAD(GeluErfGradF, act::gelu_erf_grad)
NPURT_EW_ACT_GRAD(GeluTanhGradF, act::gelu_tanh_grad)
NPURT_EW_ACT_GRAD(SiluGradF, act::silu_grad)
#undef NPURT_EW_ACT_GRAD

// swiglu_backward's two passes: da = dy * b * silu'(a), db = dy * silu(a).
struct SwigluGradAF : ActBase {
  static constexpr int kArity = 3;
  template <class W> static W F(W dy, W a, W b) { return dy * b * act::silu_grad(a); }
};
struct SwigluGradBF : ActBase {
  static constexpr int kArity = 2;
  template <class W> static W F(W dy, W a) { return dy * act::silu(a); }
};

}  // namespace npurt::kernels::ew
