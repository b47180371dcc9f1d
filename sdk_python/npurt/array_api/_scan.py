"""Cumulative functions: cumulative_sum, cumulative_prod (the scan kernel
family, kernels/scan: ``nr.ops.cumsum`` / ``nr.ops.cumprod``) and diff
(subtract/not_equal of two shifted views, elementwise kernels).

Dtype rules (array API 2024.12): signed integers and bool accumulate in and
return the default integer dtype int64, unsigned integers uint64, floats keep
their dtype (float16/bfloat16 accumulate in float32 inside the kernel). An
explicit ``dtype`` is the accumulation and result dtype: the input is cast to
it on the device first unless the kernel takes the pair directly.

The scan itself is npurt::array::scan (runtime/ops/scan_ops.cc, bound as
``_npurt._array_scan``): it owns the split of a long 1-D float32 scan into k
rows scanned in parallel plus a combining pass (the result differs from a
sequential float32 scan by rounding only), so C++ callers get the same.
"""
import builtins

from .. import _npurt
from .._npurt import InvalidArgumentError, UnsupportedDtypeError
from . import _convert, _dtypes

__all__ = ["cumulative_sum", "cumulative_prod", "diff"]

def _default_dtype(dt):
    k = _dtypes.kind(dt)
    if k in "ib":
        return _dtypes.DEFAULT_INT
    if k == "u":
        return _npurt.uint64
    return dt


def _scan(name, x, axis, dtype, include_initial):
    where = f"npurt.{name}"
    x = _convert.array(where, x)
    if x.ndim == 0:  # like array-api-strict: a 0-d array scans as one element
        from .manipulation import reshape
        x = reshape(x, (1,))
    if axis is None:
        if x.ndim > 1:
            raise InvalidArgumentError(f"{where}: argument 'axis': required for a {x.ndim}-d array (None only for 1-d)")
        axis = 0
    from .manipulation import normalize_axis
    axis = normalize_axis(axis, x.ndim, where)
    out = _default_dtype(x.dtype) if dtype is None else dtype
    if str(out) == "bool":
        raise UnsupportedDtypeError(f"{where}: argument 'dtype': bool cannot accumulate")
    widening = _dtypes.kind(x.dtype) in "iub" and str(out) in ("int64", "uint64") and \
        str(out) == str(_default_dtype(x.dtype))
    if str(out) != str(x.dtype) and not widening:
        from .indexing import device_astype
        x = device_astype(x, out, f"{where}: argument 'x'")
    # Kernel errors come back under `where` (scan() renames npurt.ops.cumsum / cumprod).
    return _npurt._array_scan(name, x, axis, str(out), builtins.bool(include_initial))


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """Cumulative sum along axis (optional for 1-d), on the device (kernels/scan)."""
    return _scan("cumulative_sum", x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """Cumulative product along axis (optional for 1-d), on the device (kernels/scan)."""
    return _scan("cumulative_prod", x, axis, dtype, include_initial)


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    """n-th discrete difference along axis: x[1:] - x[:-1] (x[1:] != x[:-1] for bool), repeated n times."""
    import npurt
    from .manipulation import concat, normalize_axis
    where = "npurt.diff"
    x = _convert.array(where, x)
    if x.ndim == 0:
        raise InvalidArgumentError(f"{where}: argument 'x': needs at least 1 dimension")
    if isinstance(n, builtins.bool) or not isinstance(n, int) or n < 0:
        raise InvalidArgumentError(f"{where}: argument 'n': must be a non-negative int, got {n!r}")
    axis = normalize_axis(axis, x.ndim, where)
    parts = [p for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        parts = [_convert.array(where, p, "prepend/append") for p in parts]
        x = concat(parts, axis=axis)
    # Past shape[axis] differences the result is empty along axis: a huge n must not loop n times.
    for _ in range(min(n, x.shape[axis])):
        hi = tuple(slice(1, None) if d == axis else slice(None) for d in range(x.ndim))
        lo = tuple(slice(None, -1) if d == axis else slice(None) for d in range(x.ndim))
        x = npurt.not_equal(x[hi], x[lo]) if str(x.dtype) == "bool" else npurt.subtract(x[hi], x[lo])
    return x
