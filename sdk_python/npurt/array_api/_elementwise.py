"""The standard's elementwise functions over the registered elementwise
kernels (kernels/elementwise/): promotion here, broadcasting and strides in
the kernel. Errors from the kernel's checks are re-raised under the public
name ("npurt.add: argument 'x2': shapes (2,) and (3,) cannot be broadcast ...").
"""
from .. import _npurt
from .._npurt import ArgumentTypeError, UnsupportedDtypeError
from .. import ops as _ops
from . import _args, _convert, _dtypes

_F32 = _dtypes._D["float32"]
_UNARY_FLOAT = "exp log sqrt reciprocal sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh " \
               "expm1 log1p log2 log10".split()
_UNARY_SAME = "negative abs square sign".split()           # any numeric dtype, result of the same dtype
_UNARY_ROUNDING = "ceil floor trunc round".split()          # identity on integers
_UNARY_PREDICATE = "isnan isinf isfinite signbit logical_not".split()
_BINARY_SAME = "subtract multiply maximum minimum floor_divide remainder pow bitwise_and bitwise_or " \
               "bitwise_xor bitwise_left_shift bitwise_right_shift".split()
_BINARY_FLOAT = "divide atan2 hypot copysign logaddexp nextafter".split()
_COMPARE = "equal not_equal less less_equal greater greater_equal logical_and logical_or logical_xor".split()
_KERNEL_NAME = {"add": "add_broadcast"}
# npurt::array::BinaryOp numbers of the ops npurt::array::binary may defer and fuse (array_ops.h):
# float32 operands of these go through it, so `a * 2 + b` fuses like `a * x + y`.
_DEFERRABLE = {"add": 0, "subtract": 1, "multiply": 2}


def _public_error(e, kernel, name):
    msg = str(e).replace(f"npurt.ops.{kernel}", f"npurt.{name}")
    out = type(e)(msg)
    if hasattr(e, "code"):  # the status name ("UNSUPPORTED_DTYPE") travels with the class
        out.code = e.code
    return out


def _run(name, kernel, *args):
    try:
        return _ops.get(kernel)(*args)
    except (ValueError, TypeError) as e:
        raise _public_error(e, kernel, name) from None


def _blame_promotion(e, where, given, used):
    """A kernel refusing a promoted operand: blame the other operand, whose type forced the
    promotion (bitwise_and(int32 array, 1.5) is wrong because of 1.5, not of the int32 array)."""
    msg = str(e)
    for i in (0, 1):
        g, u = given[i], used[i]
        if f"argument 'x{i + 1}'" in msg and isinstance(g, _convert.ndarray) and g.dtype != u.dtype and \
                not isinstance(given[1 - i], _convert.ndarray):  # two arrays: each dtype is the caller's choice
            reason = msg.split(": ", 2)[-1]
            e.args = (f"{where}: argument 'x{2 - i}': a {type(given[1 - i]).__name__} operand promotes x{i + 1} "
                      f"from {g.dtype} to {u.dtype}, and then {reason}",)
            break
    return e


def _to_float(x):
    return x if _dtypes.kind(x.dtype) in "fc" else _convert.cast(x, _dtypes.DEFAULT_FLOAT)


def _make_unary(name):
    where = f"npurt.{name}"

    def f(x, /):
        x = _convert.array(where, x)
        if name in _UNARY_FLOAT:
            x = _to_float(x)
        elif name in _UNARY_ROUNDING and _dtypes.kind(x.dtype) in "iub":
            return x.copy()
        return _run(name, name, x)
    return f


def _make_binary(name):
    where = f"npurt.{name}"
    kernel = _KERNEL_NAME.get(name, name)
    code = _DEFERRABLE.get(name)

    def f(x1, x2, /):
        a, b = _convert.operands(where, x1, x2)
        if name in _BINARY_FLOAT and _dtypes.kind(a.dtype) not in "fc":
            a, b = _to_float(a), _to_float(b)
        if code is not None and a.dtype == _F32 and b.dtype == _F32:
            # Same kernel; errors already carry the public name. A Python scalar operand is the cached
            # 0-d constant float32(value) (_convert.constant): say so, a fused program can embed it.
            if type(x2) in (int, float) and b.ndim == 0:
                return _npurt._array_binary_const(code, a, b, 1, float(x2))
            if type(x1) in (int, float) and a.ndim == 0:
                return _npurt._array_binary_const(code, a, b, 0, float(x1))
            return _npurt._array_binary(code, a, b)
        try:
            return _run(name, kernel, a, b)
        except ValueError as e:  # error path only: the success path pays nothing (zero-cost try)
            raise _blame_promotion(e, where, (x1, x2), (a, b)) from None

    if name != "pow":
        return f

    def pow_(x1, x2, /):
        # Small number exponents take the vector unit instead of the scalar pow loop (~40x slower
        # on sim, bench/math_functions.py), as numpy does for 2 and -1.
        if type(x2) in (int, float) and x2 in (2, 3, -1) and isinstance(x1, _convert.ndarray):
            kind = _dtypes.kind(x1.dtype)
            if x2 == 2 and kind in ("iuf" if type(x2) is int else "f"):
                return _run(name, "square", x1)  # x * x: the same single rounding as pow(x, 2)
            if x2 == 3 and kind in ("iuf" if type(x2) is int else "f"):
                # (x * x) * x: exact wherever x**3 is representable (then x**2 is too), integers wrap
                # alike, otherwise within one more rounding of pow (the pow tests' tolerance).
                return _run(name, "multiply", _run(name, "square", x1), x1)
            if x2 == -1 and kind == "f":
                return _run(name, "reciprocal", x1)  # 1 / x is pow(x, -1) correctly rounded, signed 0/inf alike
        return f(x1, x2)
    return pow_


def positive(x, /):
    return _convert.array("npurt.positive", x).copy()


def bitwise_invert(x, /):
    x = _convert.array("npurt.bitwise_invert", x)
    return _run("bitwise_invert", "bitwise_invert", x)


def _is_complex(x):
    return _dtypes.kind(x.dtype) == "c"


def conj(x, /):
    x = _convert.array("npurt.conj", x)
    return _run("conj", "conj", x) if _is_complex(x) else x.copy()


def real(x, /):
    """The real part: float32 for complex64, float64 for complex128; a copy of a real x."""
    x = _convert.array("npurt.real", x)
    return _run("real", "real", x) if _is_complex(x) else x.copy()


def imag(x, /):
    """The imaginary part: float32 for complex64, float64 for complex128; zeros for a real x."""
    from . import _creation
    x = _convert.array("npurt.imag", x)
    return _run("imag", "imag", x) if _is_complex(x) else _creation.zeros_like(x)


def where(condition, x1, x2, /):
    c = _convert.array("npurt.where", condition, "condition")
    if c.dtype != _dtypes._D["bool"]:
        c = _convert.cast(c, _dtypes._D["bool"])
    a, b = _convert.operands("npurt.where", x1, x2)
    return _run("where", "where", c, a, b)


@_args.public("npurt.clip", "x")
def clip(x, /, min=None, max=None):  # noqa: A002  (the standard's names)
    x = _convert.array("npurt.clip", x)
    for arg, bound in (("min", min), ("max", max)):
        if bound is not None and not isinstance(bound, (_convert.ndarray, bool, int, float, complex)):
            raise ArgumentTypeError(f"npurt.clip: argument '{arg}': expected an npurt.ndarray or a Python scalar, got "
                                    f"{type(bound).__name__}")
    y = x
    if min is not None:
        y = maximum(y, min if not isinstance(min, _convert.ndarray) else _convert.cast(min, x.dtype))
    if max is not None:
        y = minimum(y, max if not isinstance(max, _convert.ndarray) else _convert.cast(max, x.dtype))
    return y if y is not x else x.copy()


def astype(x, dtype, /, *, copy=True, device=None):
    x = _convert.array("npurt.astype", x)
    if not isinstance(dtype, _convert._npurt.dtype):
        raise UnsupportedDtypeError("npurt.astype: argument 'dtype': expected an npurt.dtype, got "
                                    f"{type(dtype).__name__}")
    if x.dtype == dtype:
        return x.copy() if copy else x
    return _convert.cast(x, dtype)


_g = globals()
for _n in _UNARY_FLOAT + _UNARY_SAME + _UNARY_ROUNDING + _UNARY_PREDICATE:
    _g[_n] = _make_unary(_n)
    _g[_n].__name__ = _g[_n].__qualname__ = _n
for _n in ["add"] + _BINARY_SAME + _BINARY_FLOAT + _COMPARE:
    _g[_n] = _make_binary(_n)
    _g[_n].__name__ = _g[_n].__qualname__ = _n

__all__ = (_UNARY_FLOAT + _UNARY_SAME + _UNARY_ROUNDING + _UNARY_PREDICATE + ["add"] + _BINARY_SAME + _BINARY_FLOAT
           + _COMPARE + ["positive", "bitwise_invert", "conj", "real", "imag", "where", "clip", "astype"])
