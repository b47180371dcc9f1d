// kernels/elementwise/ew_op_list.h: the op table of the elementwise family,
// X(op_name, Functor, arity, doc), one list per device source file. The device
// files expand it into kernel entries, ew_ops.cc into OpDefs: one row per op,
// written once. (`add` and `mul` are the registry's same-shape ops kept for
// compatibility; the broadcasting sum is `add_broadcast`.)
#pragma once

#define NPURT_EW_ARITH_OPS(X)                                                                  \
  X(add_broadcast, AddF, 2, "z = x + y with broadcasting; integers wrap.")                      \
  X(subtract, SubF, 2, "z = x - y with broadcasting; integers wrap.")                           \
  X(multiply, MulF, 2, "z = x * y with broadcasting; integers wrap.")                           \
  X(divide, DivF, 2, "z = x / y (floating dtypes; cast integers first).")                       \
  X(maximum, MaxF, 2, "Elementwise maximum; NaN propagates.")                                   \
  X(minimum, MinF, 2, "Elementwise minimum; NaN propagates.")                                   \
  X(floor_divide, FloorDivF, 2, "floor(x / y) like numpy; integer division by 0 gives 0.")      \
  X(remainder, RemainderF, 2, "x - floor(x / y) * y (sign of y) like numpy; integer x % 0 gives 0.") \
  X(pow, PowF, 2, "x ** y; integers wrap, a negative integer exponent gives 0 (except for 1, -1).") \
  X(atan2, Atan2F, 2, "Quadrant-aware arctangent of x / y.")                                    \
  X(hypot, HypotF, 2, "sqrt(x**2 + y**2) without undue overflow.")                              \
  X(copysign, CopysignF, 2, "Magnitude of x with the sign of y.")                               \
  X(logaddexp, LogAddExpF, 2, "log(exp(x) + exp(y)) without undue overflow.")                   \
  X(nextafter, NextAfterF, 2, "Next representable value after x towards y (float32, float64).")

#define NPURT_EW_LOGIC_OPS(X)                                                                  \
  X(equal, EqualF, 2, "x == y (bool).")                                                         \
  X(not_equal, NotEqualF, 2, "x != y (bool).")                                                  \
  X(less, LessF, 2, "x < y (bool).")                                                            \
  X(less_equal, LessEqualF, 2, "x <= y (bool).")                                                \
  X(greater, GreaterF, 2, "x > y (bool).")                                                      \
  X(greater_equal, GreaterEqualF, 2, "x >= y (bool).")                                          \
  X(logical_and, LogicalAndF, 2, "Truth of x and y (bool).")                                    \
  X(logical_or, LogicalOrF, 2, "Truth of x or y (bool).")                                       \
  X(logical_xor, LogicalXorF, 2, "Truth of x xor y (bool).")                                    \
  X(bitwise_and, BitAndF, 2, "x & y (integers, bool).")                                         \
  X(bitwise_or, BitOrF, 2, "x | y (integers, bool).")                                           \
  X(bitwise_xor, BitXorF, 2, "x ^ y (integers, bool).")                                         \
  X(bitwise_left_shift, ShiftLeftF, 2, "x << y; shifts >= the bit width give 0.")               \
  X(bitwise_right_shift, ShiftRightF, 2, "x >> y (arithmetic for signed); shifts >= the width give 0 or -1.") \
  X(where, WhereF, 3, "condition ? x : y with broadcasting of all three.")

#define NPURT_EW_UNARY_OPS(X)                                                                  \
  X(exp, ExpF, 1, "e ** x.")                                                                    \
  X(log, LogF, 1, "Natural logarithm.")                                                         \
  X(sqrt, SqrtF, 1, "Square root.")                                                             \
  X(reciprocal, ReciprocalF, 1, "1 / x.")                                                       \
  X(square, SquareF, 1, "x * x; integers wrap.")                                                \
  X(negative, NegativeF, 1, "-x; integers wrap.")                                               \
  X(abs, AbsF, 1, "|x|; abs of the most negative integer wraps to itself.")                     \
  X(sign, SignF, 1, "-1, 0 or 1 (floats: NaN stays NaN, -0 gives +0).")                          \
  X(bitwise_invert, BitInvertF, 1, "~x (integers); logical not for bool.")                      \
  X(sin, SinF, 1, "Sine.")                                                                      \
  X(cos, CosF, 1, "Cosine.")                                                                    \
  X(tan, TanF, 1, "Tangent.")                                                                   \
  X(asin, AsinF, 1, "Inverse sine.")                                                            \
  X(acos, AcosF, 1, "Inverse cosine.")                                                          \
  X(atan, AtanF, 1, "Inverse tangent.")                                                         \
  X(sinh, SinhF, 1, "Hyperbolic sine.")                                                         \
  X(cosh, CoshF, 1, "Hyperbolic cosine.")                                                       \
  X(tanh, TanhF, 1, "Hyperbolic tangent.")                                                      \
  X(asinh, AsinhF, 1, "Inverse hyperbolic sine.")                                               \
  X(acosh, AcoshF, 1, "Inverse hyperbolic cosine.")                                             \
  X(atanh, AtanhF, 1, "Inverse hyperbolic tangent.")                                            \
  X(expm1, Expm1F, 1, "exp(x) - 1, accurate near 0.")                                           \
  X(log1p, Log1pF, 1, "log(1 + x), accurate near 0.")                                           \
  X(log2, Log2F, 1, "Base-2 logarithm.")                                                        \
  X(log10, Log10F, 1, "Base-10 logarithm.")                                                     \
  X(ceil, CeilVF, 1, "Smallest integral value >= x.")                                            \
  X(floor, FloorVF, 1, "Largest integral value <= x.")                                           \
  X(trunc, TruncVF, 1, "Integral part of x, towards 0.")                                         \
  X(round, RoundVF, 1, "Nearest integral value, ties to even.")                                  \
  X(isnan, IsNanVF, 1, "x is NaN (bool).")                                                       \
  X(isinf, IsInfVF, 1, "x is +-inf (bool).")                                                     \
  X(isfinite, IsFiniteVF, 1, "x is neither NaN nor +-inf (bool).")                               \
  X(signbit, SignBitF, 1, "The sign bit of x is set (bool).")                                   \
  X(logical_not, LogicalNotF, 1, "not x (bool).")

#define NPURT_EW_ALL_OPS(X) NPURT_EW_ARITH_OPS(X) NPURT_EW_LOGIC_OPS(X) NPURT_EW_UNARY_OPS(X)
