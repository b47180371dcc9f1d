"""Operand conversion shared by the elementwise functions and the operators:
Python scalars become cached 0-d device constants (made once by the `fill`
kernel, then broadcast by the elementwise kernels: never materialised at the
operand's shape), arrays are promoted with the `cast`/`astype` kernels.
"""
import builtins
import functools

from .. import _npurt
from .._npurt import ArgumentTypeError
from .. import ops as _ops
from . import _dtypes

ndarray = _npurt.ndarray

# Pairs the vector `cast` kernel has (docs/custom-ops.md); the rest go through `astype`.
_VECTOR_CAST = {("float32", "float16"), ("float16", "float32"), ("float32", "bfloat16"), ("bfloat16", "float32"),
                ("float32", "int32"), ("int32", "float32"), ("float32", "int16"), ("int16", "float32"),
                ("float32", "int64"), ("float16", "int32"), ("float16", "int16"), ("float16", "int8"),
                ("float16", "uint8"), ("int16", "float16"), ("int8", "float16"), ("uint8", "float16"),
                ("bfloat16", "int32"), ("int32", "int64")}


def cast(x, dt):
    if x.dtype == dt:
        return x
    if (x.dtype.name, dt.name) in _VECTOR_CAST and x.is_contiguous:
        return _ops.cast(x, dtype=dt)
    return _ops.astype(x, dtype=dt)


def constant(value, dt, where):
    """A cached 0-d device array holding `value` converted to dt on the current device: the one C++
    cache the operators' fast path shares (sdk_python/bindings/scalar_constants.cpp), converted by
    the one C++ rule nr.full takes too (npurt/fill_value.h)."""
    return _npurt._scalar_constant(value, dt, where)


def operands(where, x1, x2):
    """Promotes (array|scalar, array|scalar) to two arrays of one dtype."""
    a_arr, b_arr = isinstance(x1, ndarray), isinstance(x2, ndarray)
    if a_arr and b_arr:
        if x1.dtype == x2.dtype:
            return x1, x2
        dt = _dtypes.promote(x1.dtype, x2.dtype, where)
        return cast(x1, dt), cast(x2, dt)
    if a_arr and isinstance(x2, (builtins.bool, int, float, complex)):
        dt = _dtypes.scalar_result(x1.dtype, x2, where)
        return cast(x1, dt), constant(x2, dt, where)
    if b_arr and isinstance(x1, (builtins.bool, int, float, complex)):
        dt = _dtypes.scalar_result(x2.dtype, x1, where)
        return constant(x1, dt, where), cast(x2, dt)
    bad, arg = (x1, "x1") if not a_arr else (x2, "x2")
    if not (a_arr or b_arr):
        raise ArgumentTypeError(f"{where}: at least one argument must be an npurt.ndarray, got "
                                f"{type(x1).__name__} and {type(x2).__name__}")
    raise ArgumentTypeError(f"{where}: argument '{arg}': expected an npurt.ndarray or a Python scalar, got "
                            f"{type(bad).__name__}")


def array(where, x, arg="x"):
    if not isinstance(x, ndarray):
        raise ArgumentTypeError(f"{where}: argument '{arg}': expected an npurt.ndarray, got {type(x).__name__}")
    return x


def checks_array(fn, where):
    """fn with its first argument checked to be an npurt.ndarray: a list, None or numpy array
    passed as x gets a TypeError naming the function and 'x', not an AttributeError from inside."""
    @functools.wraps(fn)
    def checked(x, /, *args, **kwargs):
        if not isinstance(x, ndarray):
            raise ArgumentTypeError(f"{where}: argument 'x': expected an npurt.ndarray, got {type(x).__name__}")
        return fn(x, *args, **kwargs)
    return checked
