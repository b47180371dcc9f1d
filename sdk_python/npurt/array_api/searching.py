"""Searching and sorting: argmax argmin sort argsort searchsorted, on the device.

Every function runs device kernels (kernels/sort, kernels/reduction/argreduce_*);
this layer only arranges the calls:

  * sort/argsort move the sorted axis last (a view; the dispatcher makes it
    contiguous with the copy kernel), call npurt::array::sort_last (C++,
    npurt/sort_ops.h: the one plan of chunks and merge passes; float32/float16
    and exact casts of int16/bfloat16/int8/uint8/bool on the vector unit with
    Sort32 + MrgSort keys, int32/uint32 there too as two radix passes over
    16-bit digits, int64/uint64/uint16/float64 on the scalar unit's
    ``sort_block`` + ``sort_merge``), and move the axis back. The sort is always stable (the
    ``stable`` flag only allows what we always do); NaNs go last, or first when
    descending; -0.0 and 0.0 are equal.
  * argmax/argmin run one kernel over the [outer, len, inner] view of the axis.
  * searchsorted promotes x1 and x2 to one dtype on the device and binary
    searches every x2 element in x1 (through ``sorter`` when given).

Invariants: no numpy on the data path; errors name the function and the
argument (bad axis -> AxisError, unsupported dtype -> TypeError).
"""
import builtins

from .. import _npurt
from .._npurt import ArgumentTypeError, InvalidArgumentError, UnsupportedDtypeError
from ._dtypes import result_type
from .indexing import device_astype
from .manipulation import _copy, moveaxis, normalize_axis, reshape

__all__ = ["argmax", "argmin", "sort", "argsort", "searchsorted"]

_UNORDERED = ("complex64", "complex128")


def _ops():
    from .. import ops
    return ops


def check_array(x, where, arg="x"):
    if not isinstance(x, _npurt.ndarray):
        raise ArgumentTypeError(f"{where}: argument '{arg}': expected an npurt.ndarray, got {type(x).__name__}")
    if str(x.dtype) in _UNORDERED:
        raise UnsupportedDtypeError(f"{where}: argument '{arg}': {x.dtype} values have no order (real dtypes and "
                                    "bool are supported)")
    return x


# unique_values' vector path (vunique_*: Compare takes half/float).
_VECTOR_SORTED = ("float32", "float16")


def sort_last(x, descending=False, chunk=0, vchunk=0, scalar=False):
    """(values, int64 indices) of x (>= 1-D) sorted stably along its last axis.
    The plan (vector or scalar unit, UB chunk, merge passes) and the launches
    are npurt::array::sort_last's (runtime/ops/sort_ops.cc): a nonzero `chunk`
    (or scalar=True) forces the scalar unit, a nonzero `vchunk` the vector unit."""
    return _npurt._sort_last(x, descending=builtins.bool(descending), chunk=chunk, vchunk=vchunk,
                             scalar=builtins.bool(scalar))


def sort_plan(x, descending=False, chunk=0, vchunk=0, scalar=False):
    """(unit, score dtype, rows, n, chunk, merge widths) of sort_last(x, ...)."""
    return _npurt._sort_plan(x, descending=builtins.bool(descending), chunk=chunk, vchunk=vchunk,
                             scalar=builtins.bool(scalar))


def _sort_along(x, axis, descending, where):
    check_array(x, where)
    a = normalize_axis(axis, x.ndim, where)
    last = a == x.ndim - 1
    values, indices = sort_last(x if last else moveaxis(x, a, -1), descending)
    if last:
        return values, indices
    return values, indices, a


def sort(x, /, *, axis=-1, descending=False, stable=True):
    """x sorted along `axis` (stable; NaN last, first when descending)."""
    out = _sort_along(x, axis, descending, "npurt.sort")
    return out[0] if len(out) == 2 else _copy(moveaxis(out[0], -1, out[2]))


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    """int64 indices that sort x along `axis` (stable; NaN last, first when descending)."""
    out = _sort_along(x, axis, descending, "npurt.argsort")
    return out[1] if len(out) == 2 else _copy(moveaxis(out[1], -1, out[2]))


def _arg_extreme(op_name):
    where = f"npurt.{op_name}"

    def arg(x, /, *, axis=None, keepdims=False):
        check_array(x, where)
        axes = [] if axis is None else [normalize_axis(axis, x.ndim, where)]
        if x.ndim == 0 and axis is None:
            axes = []
        if (axis is None and x.size == 0) or (axis is not None and x.shape[axes[0]] == 0):
            raise InvalidArgumentError(f"{where}: argument 'x': attempt to get {op_name} of an empty sequence")
        return getattr(_ops(), op_name)(x, axis=axes, keepdims=builtins.bool(keepdims))

    arg.__name__ = arg.__qualname__ = op_name
    arg.__doc__ = (f"Index (int64) of the {'largest' if op_name == 'argmax' else 'smallest'} element over `axis` "
                   "(None: the flattened array); the first occurrence wins, a NaN beats every number.")
    return arg


argmax = _arg_extreme("argmax")
argmin = _arg_extreme("argmin")


def _as_device_array(v, like, where, arg):
    if isinstance(v, _npurt.ndarray):
        return v
    if isinstance(v, (builtins.bool, builtins.int, builtins.float)):
        try:
            return _npurt.asarray(v, like.dtype, stream=like.stream)
        except (TypeError, ValueError, OverflowError) as e:
            raise ArgumentTypeError(f"{where}: argument '{arg}': cannot convert {v!r} to {like.dtype}: {e}") from None
    raise ArgumentTypeError(f"{where}: argument '{arg}': expected an npurt.ndarray, got {type(v).__name__}")


def promote_pair(x1, x2, where):
    """x1, x2 converted on the device to their promoted dtype (x2 may be a Python scalar)."""
    check_array(x1, where, "x1")
    x2 = check_array(_as_device_array(x2, x1, where, "x2"), where, "x2")
    if str(x1.dtype) == str(x2.dtype):
        return x1, x2
    try:
        dt = result_type(x1.dtype, x2.dtype)
    except TypeError as e:
        raise UnsupportedDtypeError(f"{where}: argument 'x2': {x2.dtype} does not promote with x1's {x1.dtype}: "
                                    f"{e}") from None
    return device_astype(x1, dt, where), device_astype(x2, dt, where)


def searchsorted(x1, x2, /, *, side="left", sorter=None):
    """Indices (int64, x2's shape) where x2's elements would be inserted into the
    1-D x1 (sorted ascending, or sorted by `sorter`) to keep it sorted."""
    where = "npurt.searchsorted"
    if side not in ("left", "right"):
        raise InvalidArgumentError(f"{where}: argument 'side': must be 'left' or 'right', got {side!r}")
    check_array(x1, where, "x1")
    if x1.ndim != 1:
        raise InvalidArgumentError(f"{where}: argument 'x1': must be 1-D, got {x1.ndim}-D")
    x1, x2 = promote_pair(x1, x2, where)
    if sorter is not None:
        if not isinstance(sorter, _npurt.ndarray) or not str(sorter.dtype).startswith(("int", "uint")):
            raise ArgumentTypeError(f"{where}: argument 'sorter': expected an integer npurt.ndarray")
        if tuple(sorter.shape) != tuple(x1.shape):
            raise InvalidArgumentError(f"{where}: argument 'sorter': shape {tuple(sorter.shape)} differs from x1's "
                                       f"{tuple(x1.shape)}")
        sorter = device_astype(sorter, _npurt.int64, where)
    return _ops().searchsorted(x1, x2, sorter, side=side)


# ---- numpy dispatch (NEP 18): numpy's signatures mapped onto the functions above ----

def _np_sort(a, axis=-1, kind=None, order=None, *, stable=None):
    if order is not None:
        raise ArgumentTypeError("numpy.sort: argument 'order' is not supported for npurt arrays")
    return sort(reshape(a, (-1,)), axis=-1) if axis is None else sort(a, axis=axis)


def _np_argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    if order is not None:
        raise ArgumentTypeError("numpy.argsort: argument 'order' is not supported for npurt arrays")
    return argsort(reshape(a, (-1,)), axis=-1) if axis is None else argsort(a, axis=axis)


def _np_arg(fn, name):
    def call(a, axis=None, out=None, *, keepdims=False):
        if out is not None:
            raise ArgumentTypeError(f"numpy.{name}: argument 'out' is not supported for npurt arrays")
        return fn(a, axis=axis, keepdims=builtins.bool(keepdims))
    return call


def _np_searchsorted(a, v, side="left", sorter=None):
    return searchsorted(a, v, side=side, sorter=sorter)


NUMPY_FUNCTIONS = {"sort": _np_sort, "argsort": _np_argsort, "argmax": _np_arg(argmax, "argmax"),
                   "argmin": _np_arg(argmin, "argmin"), "searchsorted": _np_searchsorted}
