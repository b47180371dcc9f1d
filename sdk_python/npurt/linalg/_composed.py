"""nr.linalg's functions composed from existing npurt ops (each op a device
kernel; no numpy): diagonal (a strided view), trace (the sum of it), outer
and cross (broadcasting elementwise ops), vector_norm (abs / pow / sum /
max / min).

Decisions:
  * diagonal returns a read-only view of x's storage (numpy's diagonal is a
    read-only view too): no copy, no kernel.
  * trace sums with nr.sum's dtype rule (dtype=None: integers -> the default
    integer dtype, floats keep theirs).
  * cross: axis must be negative (2023.12+: it counts from the end of both
    arrays, before broadcasting) and both arrays must have size 3 there.
  * vector_norm: ord 2 = sqrt(sum |x|^2), 1 = sum |x|, inf = max |x| (0 over
    an empty axis, as numpy), -inf = min |x| (an empty axis raises), 0 = the count of nonzeros (in x's real dtype), other p = (sum
    |x|^p)^(1/p) (a negative p gives 0 when an element is 0, as numpy's).
    The result has x's real dtype (complex64 -> float32).
"""
import math
import numbers

from .. import _npurt
from .. import array_api as xp
from .._npurt import ArgumentTypeError, InvalidArgumentError
from ..array_api.manipulation import normalize_axes
from ._checks import check_array, check_floating, check_numeric



def diagonal(x, /, *, offset=0):
    """Read-only view of the `offset`-th diagonals of the matrices of x (..., m, n) -> (..., k)."""
    where = "npurt.linalg.diagonal"
    check_array(x, where)
    if isinstance(offset, bool) or not isinstance(offset, numbers.Integral):
        raise ArgumentTypeError(f"{where}: argument 'offset': expected an integer, got {type(offset).__name__}")
    if x.ndim < 2:
        raise InvalidArgumentError(f"{where}: argument 'x': needs at least 2 dimensions, got {x.ndim}")
    offset = int(offset)
    rows, cols = x.shape[-2], x.shape[-1]
    k = max(0, min(rows - max(0, -offset), cols - max(0, offset)))
    strides = _npurt._elem_strides(x)
    start = (offset * strides[-1] if offset >= 0 else -offset * strides[-2]) if k and x.size else 0
    view = _npurt._view(x, tuple(x.shape[:-2]) + (k,), tuple(strides[:-2]) + (strides[-2] + strides[-1],), start)
    return _npurt._read_only_view(view)


def trace(x, /, *, offset=0, dtype=None):
    """Sum of the `offset`-th diagonal of each matrix of x (..., m, n) -> (...)."""
    check_numeric(x, "npurt.linalg.trace")
    return xp.sum(diagonal(x, offset=offset), axis=-1, dtype=dtype)


def outer(x1, x2, /):
    """x1[i] * x2[j] of two 1-D arrays -> (len(x1), len(x2))."""
    where = "npurt.linalg.outer"
    for arg, v in (("x1", x1), ("x2", x2)):
        check_numeric(v, where, arg)
        if v.ndim != 1:
            raise InvalidArgumentError(f"{where}: argument '{arg}': must be 1-dimensional, got {v.ndim} dimensions")
    return xp.multiply(xp.reshape(x1, (-1, 1)), xp.reshape(x2, (1, -1)))


def _component(x, axis, i):
    return x[(Ellipsis, i) + (slice(None),) * (-axis - 1)]


def cross(x1, x2, /, *, axis=-1):
    """The cross product of 3-element vectors along `axis` (negative), broadcasting the other dimensions."""
    where = "npurt.linalg.cross"
    check_numeric(x1, where, "x1")
    check_numeric(x2, where, "x2")
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise ArgumentTypeError(f"{where}: argument 'axis': expected an integer, got {type(axis).__name__}")
    axis = int(axis)
    if axis >= 0:
        raise InvalidArgumentError(f"{where}: argument 'axis': must be negative (it counts from the end of both "
                                   f"arrays), got {axis}")
    for arg, v in (("x1", x1), ("x2", x2)):
        if v.ndim < -axis:
            raise InvalidArgumentError(f"{where}: argument 'axis': {axis} is out of bounds for {arg} with "
                                       f"{v.ndim} dimensions")
        if v.shape[axis] != 3:
            raise InvalidArgumentError(f"{where}: argument '{arg}': dimension {axis} must have size 3, got "
                                       f"{v.shape[axis]}")
    a = [_component(x1, axis, i) for i in range(3)]
    b = [_component(x2, axis, i) for i in range(3)]
    c = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    return xp.stack(c, axis=axis)


def _check_ord(ord, where):
    if isinstance(ord, bool) or not isinstance(ord, numbers.Real):
        raise ArgumentTypeError(f"{where}: argument 'ord': expected a number (int, float, inf or -inf), got "
                                f"{type(ord).__name__}")
    if math.isnan(ord):
        raise InvalidArgumentError(f"{where}: argument 'ord': nan is not a norm order")
    return float(ord)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """The vector p-norm of x over `axis` (None: all elements; a tuple: those axes flattened)."""
    where = "npurt.linalg.vector_norm"
    check_floating(x, where)
    p = _check_ord(ord, where)
    axes = normalize_axes(axis, x.ndim, where)
    keep = bool(keepdims)
    a = xp.abs(x)  # real dtype
    if p == math.inf:  # an empty reduction is 0, as numpy's (the max of no absolute values); -inf raises
        empty = any(x.shape[i] == 0 for i in axes)
        return xp.sum(a, axis=axes, keepdims=keep) if empty else xp.max(a, axis=axes, keepdims=keep)
    if p == -math.inf:
        return xp.min(a, axis=axes, keepdims=keep)
    if p == 0:
        return xp.sum((a != 0).astype(a.dtype), axis=axes, keepdims=keep)
    if p == 1:
        return xp.sum(a, axis=axes, keepdims=keep)
    if p == 2:
        return xp.sqrt(xp.sum(a * a, axis=axes, keepdims=keep))
    return xp.pow(xp.sum(xp.pow(a, p), axis=axes, keepdims=keep), 1.0 / p)
