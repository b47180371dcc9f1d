// kernels/elementwise/ew_complex_types.h: the complex dtypes of the elementwise
// family: DType <-> element type (std::complex<float> / std::complex<double>,
// layout-compatible with numpy's complex64 / complex128: real part first), the
// complex dtype mask, and the output element type of an (op, dtype) pair.
//
// Invariants: complex64 computes in float and complex128 in double (as numpy's
// loops do); the vector unit has no complex type, so complex dtypes are never
// in a functor's kVec mask: they are sim-only in every OpDef.
#pragma once

#include <complex>
#include <type_traits>

#include "elementwise/ew_types.h"

namespace npurt::kernels::ew {

constexpr uint32_t kComplex = bit(DType::kComplex64) | bit(DType::kComplex128);

template <> struct Elem<DType::kComplex64> { using T = std::complex<float>; };
template <> struct Elem<DType::kComplex128> { using T = std::complex<double>; };

template <class T> struct IsComplexT : std::false_type {};
template <class R> struct IsComplexT<std::complex<R>> : std::true_type {};
template <class T> constexpr bool kIsComplex = IsComplexT<T>::value;

// float for complex64, double for complex128, T itself otherwise.
template <class T> struct RealPartOf { using type = T; };
template <class R> struct RealPartOf<std::complex<R>> { using type = R; };

// Functors whose complex form returns the real part type (abs, real, imag)
// declare `static constexpr bool kRealOut = true`; every other functor lacks it.
template <class Op, class = void> struct HasRealOut : std::false_type {};
template <class Op> struct HasRealOut<Op, std::void_t<decltype(Op::kRealOut)>>
    : std::integral_constant<bool, Op::kRealOut> {};

// The kernel's output element type for Op on inputs of dtype D.
template <class Op, DType D> struct EwOut {
  using In = typename Elem<D>::T;
  using type = std::conditional_t<Op::kBoolOut, Bool8,
                                  std::conditional_t<HasRealOut<Op>::value, typename RealPartOf<In>::type, In>>;
};

}  // namespace npurt::kernels::ew
