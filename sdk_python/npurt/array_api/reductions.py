"""Reductions: sum prod max min mean any all var std count_nonzero, on the device.

Every function runs the one reduction kernel family (kernels/reduction,
``nr.ops.reduce_<kind>``): float32 and float16 (accumulated in float32) and
int32 natively; float64 (every kind) and complex64/complex128 (sum, prod,
mean) on the scalar unit, sim-only. This layer only arranges the call:

  * axis (None, int or tuple) is checked and normalized here (AxisError);
    npurt::array::reduce (runtime/ops/array_ops.cc, through
    _npurt._array_reduce) does the rest: a permuted view when the reduced
    axes are not adjacent, the split of long reductions over the cores (its
    one rule), keepdims;
  * dtypes the kernel lacks are converted first on the device (x.astype):
    small integers and bool to int32 for max/min, integers to float32 for
    mean; sum/prod of integers and bool accumulate in int64/uint64 and return
    them like numpy (wrapping as numpy does); int64/uint32/uint64 max/min run
    in 64 bits.

Invariants: no numpy on the data path; every error names the function and
the argument (bad axis -> AxisError, bad dtype -> TypeError).
"""
import builtins
import numbers

from .. import _npurt
from .._npurt import ArgumentTypeError, UnsupportedDtypeError
from .indexing import device_astype
from .manipulation import normalize_axes
from . import _args, _convert

__all__ = ["sum", "prod", "max", "min", "mean", "any", "all", "var", "std", "count_nonzero"]

_INT_KINDS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


def _astype(x, dtype, where):
    return device_astype(x, dtype, f"{where}: argument 'x'")


def _reduce(kind, x, axis, keepdims, out_dtype, where):
    """npurt::array::reduce (C++: the adjacent-axes view, the split of long
    reductions over the cores, keepdims) after the argument checks here."""
    if not isinstance(x, _npurt.ndarray):
        raise ArgumentTypeError(f"{where}: argument 'x': expected an npurt.ndarray, got {type(x).__name__}")
    axes = None if axis is None else tuple(normalize_axes(axis, x.ndim, where))
    wide = out_dtype is not None and str(x.dtype) == "float16" and str(out_dtype) == "float32"
    return _npurt._array_reduce(kind, x, axes, bool(keepdims), wide)


def _numeric_input(x, kind, dtype, where):
    """x converted to a dtype the kernel takes, and the result dtype to return."""
    name = str(x.dtype)
    if name == "bfloat16":
        raise UnsupportedDtypeError(f"{where}: argument 'x': bfloat16 is not supported by the reduction kernels "
                                    "(float16, float32, float64, complex and integers are)")
    if name in ("complex64", "complex128") and kind in ("max", "min"):
        raise UnsupportedDtypeError(f"{where}: argument 'x': {name} has no ordering (the standard leaves {kind} of "
                                    "complex unspecified)")
    if dtype is not None and kind in ("sum", "prod") and str(dtype) != name and \
            str(dtype) in ("float64", "complex64", "complex128"):
        return _astype(x, dtype, where), dtype  # accumulate in the requested (wider) dtype
    if name == "bool" or name in _INT_KINDS:
        if kind in ("sum", "prod"):  # numpy's int64/uint64 accumulation (64-bit kernel, wrapping)
            acc = _npurt.int64 if name == "bool" or name.startswith("int") else _npurt.uint64
            return _astype(x, acc, where), (dtype if dtype is not None else acc)
        if name in ("int64", "uint32"):  # max/min: exact in int64
            return _astype(x, _npurt.int64, where), (dtype if dtype is not None else x.dtype)
        if name == "uint64":
            return x, (dtype if dtype is not None else x.dtype)
        return _astype(x, _npurt.int32, where), (dtype if dtype is not None else x.dtype)
    return x, (dtype if dtype is not None else x.dtype)


def _finish(y, result, where):
    return y if str(y.dtype) == str(result) else _astype(y, result, where)


# The Python implementations of sum/prod/max/min/mean by kind (the path behind
# the C++ fast path; tests compare the two).
_PYTHON_PATH = {}


def _numeric(kind):
    where = f"npurt.{kind}"
    fast = getattr(_npurt, "_fast_" + kind)

    def python_path(x, axis, keepdims, dtype):
        _convert.array(where, x)  # checks_array's check, after the fast path (no wrapper frame)
        if kind in ("max", "min") and dtype is not None:
            raise ArgumentTypeError(f"{where}: unexpected keyword argument 'dtype'")
        src, result = _numeric_input(x, kind, dtype, where)
        y = _reduce(kind, src, axis, keepdims, result, where)
        return _finish(y, result, where)

    # Float arrays with axis None/int and a bool keepdims take the x.sum() fast
    # path (operators.cpp; the same npurt::array::reduce call): right after a
    # 64 MiB sum the Python below ran ~12 us on cold caches before the launch.
    def reduce(x, /, *, axis=None, keepdims=False, dtype=None):
        if dtype is None:
            y = fast(x, axis, keepdims)
            if y is not None:
                return y
        return python_path(x, axis, keepdims, dtype)

    reduce.__name__ = reduce.__qualname__ = kind
    reduce.__doc__ = (f"{kind} of x over axis (None: all, int or tuple), keepdims, on the device "
                      "(kernels/reduction).")
    _PYTHON_PATH[kind] = python_path
    return reduce


sum = _numeric("sum")
prod = _numeric("prod")
max = _numeric("max")
min = _numeric("min")


def _mean_python_path(x, axis, keepdims, dtype=None):
    where = "npurt.mean"
    _convert.array(where, x)
    name = str(x.dtype)
    if name not in ("float32", "float16", "float64", "complex64", "complex128"):
        if name == "bfloat16":
            raise UnsupportedDtypeError(f"{where}: argument 'x': bfloat16 is not supported by the reduction kernels")
        x = _astype(x, _npurt.float32, where)
    return _reduce("mean", x, axis, keepdims, None, where)


_PYTHON_PATH["mean"] = _mean_python_path


def mean(x, /, *, axis=None, keepdims=False):
    y = _npurt._fast_mean(x, axis, keepdims)  # float arrays, axis None/int (operators.cpp)
    if y is not None:
        return y
    return _mean_python_path(x, axis, keepdims)


def _truth(x, where):
    if str(x.dtype) == "bool":
        return x
    import npurt
    not_equal = getattr(npurt, "not_equal", None)
    if not_equal is None:
        raise UnsupportedDtypeError(f"{where}: argument 'x': {x.dtype} input needs the elementwise not_equal "
                                    "kernel, which this build lacks; pass a bool array")
    return not_equal(x, 0)


def any(x, /, *, axis=None, keepdims=False):
    return _reduce("any", _truth(x, "npurt.any"), axis, keepdims, None, "npurt.any")


def all(x, /, *, axis=None, keepdims=False):
    return _reduce("all", _truth(x, "npurt.all"), axis, keepdims, None, "npurt.all")


def count_nonzero(x, /, *, axis=None, keepdims=False):
    where = "npurt.count_nonzero"
    y = _reduce("sum", _astype(_truth(x, where), _npurt.int32, where), axis, keepdims, None, where)
    return _astype(y, _npurt.int64, where)


@_args.public("npurt.var", "x")
def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    """(sum(d**2) - sum(d)**2 / N) / (N - correction) with d = x - mean: the corrected two-pass
    algorithm (Chan, Golub, LeVeque 1983; Higham, Accuracy and Stability, 1.9). The rounded mean
    is off by up to an ulp; the second term removes that error to first order, so constant input
    gives exactly 0 (plain two-pass gave 64 for 40 copies of 5.6e16, whose sum rounds one ulp up)."""
    import npurt
    where = "npurt.var"
    if isinstance(correction, builtins.bool) or not isinstance(correction, numbers.Real):
        raise ArgumentTypeError(f"{where}: argument 'correction': expected a real number, got "
                                f"{type(correction).__name__}")
    if str(x.dtype) in ("complex64", "complex128"):
        raise UnsupportedDtypeError(f"{where}: argument 'x': {x.dtype} is not a real floating-point dtype (the "
                                    "standard's var/std take real floating arrays)")
    m = mean(x, axis=axis, keepdims=True)
    x = _astype(x, m.dtype, where)
    d = npurt.subtract(x, m)
    n = x.size // builtins.max(1, m.size) if x.ndim else 1
    ss = sum(npurt.multiply(d, d), axis=axis, keepdims=keepdims)
    if n > 1:  # n == 1: d is exactly 0; n == 0: ss is 0 and the result NaN
        s1 = sum(d, axis=axis, keepdims=keepdims)
        # (s1 / n) * s1 <= ss (Cauchy-Schwarz), so it overflows only where ss did: there ss stays inf
        # (inf - inf would be NaN); the clamp catches a rounding below 0
        fixed = npurt.maximum(npurt.subtract(ss, npurt.multiply(npurt.divide(s1, float(n)), s1)), 0.0)
        ss = npurt.where(npurt.isinf(ss), ss, fixed)
    denom = n - correction
    return npurt.multiply(ss, float("nan") if denom <= 0 else 1.0 / denom)


@_args.public("npurt.std", "x")
def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    import npurt
    return npurt.sqrt(var(x, axis=axis, correction=correction, keepdims=keepdims))


# x.sum() ... x.mean() are C++ methods (sdk_python/bindings/operators.cpp, npurt::array::reduce) for
# float arrays with axis None/int; they call these functions, installed as _py_<name>, for the rest.
_FAST_METHODS = ("sum", "prod", "max", "min", "mean")


def install(cls=_npurt.ndarray):
    """x.sum(), x.max(), ... as methods (numpy style)."""
    for f in (sum, prod, max, min, mean, any, all, var, std):
        method = _args.public("npurt.ndarray." + f.__name__, "x")(f)  # x.sum(9): the error names ndarray.sum
        setattr(cls, ("_py_" if f.__name__ in _FAST_METHODS else "") + f.__name__, method)


install()


# Robustness (tests/python/robustness): a non-array x is a TypeError naming the function
# (sum, prod, max, min and mean check it themselves, after the fast path).
for _name in ['all', 'any', 'count_nonzero', 'std', 'var']:
    globals()[_name] = _convert.checks_array(globals()[_name], "npurt." + _name)
del _name
