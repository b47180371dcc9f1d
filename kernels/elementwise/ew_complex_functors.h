// kernels/elementwise/ew_complex_functors.h: the complex rows of the
// elementwise functor table. An existing real functor (ew_functors.h,
// ew_unary_functors.h) gains complex64/complex128 through ComplexExt<Op>,
// which NPURT_EW_DEFINE instantiates instead of Op: WithComplex<Op, Part>
// keeps Op's real forms (vector and scalar) and adds Part's complex scalar form
// F(std::complex<R>...) (more specialised, so overload resolution picks it for
// complex operands). The complex-only ops real, imag and conj are rows of
// their own (NPURT_EW_COMPLEX_OPS in ew_complex_ops.h, kernels in ew_kernels_complex.cc).
//
// Invariants: complex dtypes are never vector dtypes (sim-only); abs, real
// and imag of complex give the real part's dtype (kRealOut); semantics are
// numpy's loops (ew_complex_math.h says where they differ from std::complex).
#pragma once

#include <cmath>
#include <complex>

#include "elementwise/ew_complex_math.h"
#include "elementwise/ew_complex_types.h"
#include "elementwise/ew_unary_functors.h"

namespace npurt::kernels::ew {

// Default: an op without a complex form is instantiated as itself.
template <class Op> struct ComplexExt { using type = Op; };
template <class Op> using EwFunctor = typename ComplexExt<Op>::type;

// The dtypes a functor computes on the vector unit (EwOpInfo::vec_dtypes): its kVec,
// plus float16 and bfloat16 when it runs the float32 form on widened UB tiles (kWidenVec).
template <class F> constexpr uint32_t EwVecDTypes() {
  return F::kVec | (F::kWidenVec && (F::kVec & bit(DType::kFloat32)) != 0
                        ? bit(DType::kFloat16) | bit(DType::kBFloat16) : 0u);
}

// Op's real forms plus Part's complex forms.
template <class Op, class Part>
struct WithComplex : Op, Part {
  static constexpr uint32_t kDTypes = Op::kDTypes | kComplex;
  static constexpr bool kRealOut = Part::kRealOut;
  using Op::F;
  using Part::F;
};

// Ops whose generic scalar form already means the right thing for std::complex
// (==, != compare both parts as numpy does; where selects).
template <class Op>
struct AlsoComplex : Op {
  static constexpr uint32_t kDTypes = Op::kDTypes | kComplex;
};

struct PartBase {
  static constexpr bool kRealOut = false;
};
template <class R> using Cx = std::complex<R>;

#define NPURT_EW_CPART1(NAME, EXPR)                                       \
  struct NAME : PartBase {                                                \
    template <class R> static Cx<R> F(Cx<R> a) { return EXPR; }          \
  };
NPURT_EW_CPART1(CExp, std::exp(a))
NPURT_EW_CPART1(CLog, std::log(a))
NPURT_EW_CPART1(CSqrt, std::sqrt(a))
NPURT_EW_CPART1(CReciprocal, cx::reciprocal(a))
NPURT_EW_CPART1(CSquare, cx::mul(a, a))
NPURT_EW_CPART1(CNegative, (Cx<R>{-a.real(), -a.imag()}))
NPURT_EW_CPART1(CSign, cx::sign(a))
NPURT_EW_CPART1(CSin, std::sin(a))
NPURT_EW_CPART1(CCos, std::cos(a))
NPURT_EW_CPART1(CTan, std::tan(a))
NPURT_EW_CPART1(CAsin, std::asin(a))
NPURT_EW_CPART1(CAcos, std::acos(a))
NPURT_EW_CPART1(CAtan, std::atan(a))
NPURT_EW_CPART1(CSinh, std::sinh(a))
NPURT_EW_CPART1(CCosh, std::cosh(a))
NPURT_EW_CPART1(CTanh, std::tanh(a))
NPURT_EW_CPART1(CAsinh, std::asinh(a))
NPURT_EW_CPART1(CAcosh, std::acosh(a))
NPURT_EW_CPART1(CAtanh, std::atanh(a))
NPURT_EW_CPART1(CExpm1, cx::expm1(a))
NPURT_EW_CPART1(CLog1p, cx::log1p(a))
// numpy: log(z) scaled by log2(e) / log10(e), not log(z) / log(2).
NPURT_EW_CPART1(CLog2, cx::scale(std::log(a), R(1.442695040888963407359924681001892137)))
NPURT_EW_CPART1(CLog10, cx::scale(std::log(a), R(0.434294481903251827651128918916605082)))
NPURT_EW_CPART1(CRound, (Cx<R>{std::nearbyint(a.real()), std::nearbyint(a.imag())}))  // half to even
#undef NPURT_EW_CPART1

#define NPURT_EW_CPART2(NAME, EXPR)                                       \
  struct NAME : PartBase {                                                \
    template <class R> static Cx<R> F(Cx<R> a, Cx<R> b) { return EXPR; } \
  };
NPURT_EW_CPART2(CAdd, (Cx<R>{a.real() + b.real(), a.imag() + b.imag()}))
NPURT_EW_CPART2(CSub, (Cx<R>{a.real() - b.real(), a.imag() - b.imag()}))
NPURT_EW_CPART2(CMul, cx::mul(a, b))
NPURT_EW_CPART2(CDiv, cx::div(a, b))
NPURT_EW_CPART2(CPow, cx::pow(a, b))
#undef NPURT_EW_CPART2

struct CAbs {
  static constexpr bool kRealOut = true;
  template <class R> static R F(Cx<R> a) { return std::hypot(a.real(), a.imag()); }
};

// Predicates: a part that is NaN makes z NaN; an infinite part makes it infinite.
struct CIsNan : PartBase {
  template <class R> static bool F(Cx<R> a) { return std::isnan(a.real()) || std::isnan(a.imag()); }
};
struct CIsInf : PartBase {
  template <class R> static bool F(Cx<R> a) { return std::isinf(a.real()) || std::isinf(a.imag()); }
};
struct CIsFinite : PartBase {
  template <class R> static bool F(Cx<R> a) { return std::isfinite(a.real()) && std::isfinite(a.imag()); }
};

#define NPURT_EW_WITH_COMPLEX(Op, Part) \
  template <> struct ComplexExt<Op> { using type = WithComplex<Op, Part>; };
NPURT_EW_WITH_COMPLEX(AddF, CAdd)
NPURT_EW_WITH_COMPLEX(SubF, CSub)
NPURT_EW_WITH_COMPLEX(MulF, CMul)
NPURT_EW_WITH_COMPLEX(DivF, CDiv)
NPURT_EW_WITH_COMPLEX(PowF, CPow)
NPURT_EW_WITH_COMPLEX(ExpF, CExp)
NPURT_EW_WITH_COMPLEX(LogF, CLog)
NPURT_EW_WITH_COMPLEX(SqrtF, CSqrt)
NPURT_EW_WITH_COMPLEX(ReciprocalF, CReciprocal)
NPURT_EW_WITH_COMPLEX(SquareF, CSquare)
NPURT_EW_WITH_COMPLEX(NegativeF, CNegative)
NPURT_EW_WITH_COMPLEX(AbsF, CAbs)
NPURT_EW_WITH_COMPLEX(SignF, CSign)
NPURT_EW_WITH_COMPLEX(SinF, CSin)
NPURT_EW_WITH_COMPLEX(CosF, CCos)
NPURT_EW_WITH_COMPLEX(TanF, CTan)
NPURT_EW_WITH_COMPLEX(AsinF, CAsin)
NPURT_EW_WITH_COMPLEX(AcosF, CAcos)
NPURT_EW_WITH_COMPLEX(AtanF, CAtan)
NPURT_EW_WITH_COMPLEX(SinhF, CSinh)
NPURT_EW_WITH_COMPLEX(CoshF, CCosh)
NPURT_EW_WITH_COMPLEX(TanhF, CTanh)
NPURT_EW_WITH_COMPLEX(AsinhF, CAsinh)
NPURT_EW_WITH_COMPLEX(AcoshF, CAcosh)
NPURT_EW_WITH_COMPLEX(AtanhF, CAtanh)
NPURT_EW_WITH_COMPLEX(Expm1F, CExpm1)
NPURT_EW_WITH_COMPLEX(Log1pF, CLog1p)
NPURT_EW_WITH_COMPLEX(Log2F, CLog2)
NPURT_EW_WITH_COMPLEX(Log10F, CLog10)
NPURT_EW_WITH_COMPLEX(RoundF, CRound)
NPURT_EW_WITH_COMPLEX(IsNanF, CIsNan)
NPURT_EW_WITH_COMPLEX(IsInfF, CIsInf)
NPURT_EW_WITH_COMPLEX(IsFiniteF, CIsFinite)
#undef NPURT_EW_WITH_COMPLEX
template <> struct ComplexExt<EqualF> { using type = AlsoComplex<EqualF>; };
template <> struct ComplexExt<NotEqualF> { using type = AlsoComplex<NotEqualF>; };
template <> struct ComplexExt<WhereF> { using type = AlsoComplex<WhereF>; };

// ---- complex-only rows: real, imag, conj --------------------------------------
struct RealPartF : OpBase {
  static constexpr int kArity = 1;
  static constexpr uint32_t kDTypes = kComplex;
  static constexpr bool kRealOut = true;
  template <class R> static R F(Cx<R> a) { return a.real(); }
};
struct ImagPartF : OpBase {
  static constexpr int kArity = 1;
  static constexpr uint32_t kDTypes = kComplex;
  static constexpr bool kRealOut = true;
  template <class R> static R F(Cx<R> a) { return a.imag(); }
};
struct ConjF : OpBase {
  static constexpr int kArity = 1;
  static constexpr uint32_t kDTypes = kComplex;
  template <class R> static Cx<R> F(Cx<R> a) { return {a.real(), -a.imag()}; }
};

}  // namespace npurt::kernels::ew
