"""Creation functions available now: empty, zeros (bound from C++), full, ones
and the *_like forms, all device-side (`fill` kernel). arange, eye, linspace,
meshgrid, tril and triu need the creation kernel family (not built yet).
"""
import builtins

from .. import _npurt
from .. import ops as _ops
from . import _convert, _dtypes


def _shape(shape):
    return (shape,) if isinstance(shape, int) else tuple(shape)


def _fill_dtype(value, dtype):
    if dtype is not None:
        return dtype
    return _dtypes.scalar_dtype(value)


def full(shape, fill_value, *, dtype=None, device=None):
    if not isinstance(fill_value, (builtins.bool, int, float, complex)):
        raise TypeError(f"npurt.full: argument 'fill_value': expected a Python bool, int, float or complex, got "
                        f"{type(fill_value).__name__}")
    dt = _fill_dtype(fill_value, dtype)
    if isinstance(fill_value, complex) and _dtypes.kind(dt) != "c":
        raise TypeError(f"npurt.full: argument 'fill_value': a complex value needs a complex dtype, got {dt}")
    _convert._check_range(fill_value, dt, "npurt.full")
    # fill_attrs: integers exactly (value_int: no rounding through float beyond 2**53), complex with value_imag
    return _ops.fill(shape=_shape(shape), dtype=dt, **_convert.fill_attrs(fill_value, dt))


def ones(shape, *, dtype=None, device=None):
    return full(shape, 1, dtype=dtype or _dtypes.DEFAULT_FLOAT)


def empty_like(x, /, *, dtype=None, device=None):
    x = _convert.array("npurt.empty_like", x)
    return _npurt.empty(x.shape, dtype or x.dtype)


def zeros_like(x, /, *, dtype=None, device=None):
    x = _convert.array("npurt.zeros_like", x)
    return _npurt.zeros(x.shape, dtype or x.dtype)


def ones_like(x, /, *, dtype=None, device=None):
    x = _convert.array("npurt.ones_like", x)
    return full(x.shape, 1, dtype=dtype or x.dtype)


def full_like(x, /, fill_value, *, dtype=None, device=None):
    x = _convert.array("npurt.full_like", x)
    return full(x.shape, fill_value, dtype=dtype or x.dtype)
