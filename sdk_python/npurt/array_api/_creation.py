"""Creation functions, all device-side: empty, zeros (bound from C++), full,
ones and the *_like forms (`fill` kernel); arange, linspace, eye, tril, triu
(the creation kernel family, kernels/creation: every value is computed by the
kernel from start/step); meshgrid (broadcast views made contiguous by the
`copy` kernel).

Invariants: dtype rules follow the array API standard (arange: the default
integer dtype int64 when start/stop/step are all ints, else the default
float32; linspace and eye: float32); arange's length is
ceil((stop - start) / step) (0 when negative); `device` must be None or the
current device (arrays are made on the current stream).
"""
import builtins
import math
import numbers
import operator

from .. import _npurt
from .._npurt import ArgumentTypeError, InvalidArgumentError, UnsupportedDtypeError
from .. import ops as _ops
from . import _args, _convert, _dtypes
from ._args import public


def _dtype_arg(dtype, where):
    """dtype= must be an npurt.dtype or None (anything else failed later as an AttributeError)."""
    if dtype is not None and not isinstance(dtype, _npurt.dtype):
        raise UnsupportedDtypeError(f"{where}: argument 'dtype': expected an npurt.dtype, got {type(dtype).__name__}")
    return dtype


def _fill_dtype(value, dtype):
    if dtype is not None:
        return _dtype_arg(dtype, "npurt.full")
    return _dtypes.scalar_dtype(value)


@public("npurt.full", "shape")
def full(shape, fill_value, *, dtype=None, device=None):
    shape = _args.sizes(shape, "npurt.full")
    if not isinstance(fill_value, (builtins.bool, int, float, complex)):
        raise ArgumentTypeError("npurt.full: argument 'fill_value': expected a Python bool, int, float or "
                                f"complex, got {type(fill_value).__name__}")
    dt = _fill_dtype(fill_value, dtype)
    if isinstance(fill_value, complex) and _dtypes.kind(dt) != "c":
        raise UnsupportedDtypeError("npurt.full: argument 'fill_value': a complex value needs a complex dtype, "
                                    f"got {dt}")
    # the C++ rule of npurt/fill_value.h: exact ints (OverflowError out of range), complex parts, else float
    return _ops.fill(shape=shape, dtype=dt, **_npurt._fill_attrs(fill_value, dt, "npurt.full"))


# The bound C++ constructors, given Python signatures (inspect.signature cannot read nanobind functions).
def asarray(obj, /, dtype=None, *, device=None, copy=None, stream=None):
    if isinstance(obj, _npurt.ndarray) and dtype is not None and dtype != obj.dtype:
        # An array converted to another dtype: a device cast, which always makes a new array.
        if copy is False:
            raise InvalidArgumentError(f"npurt.asarray: argument 'copy': copy=False, but converting {obj.dtype} "
                                       f"to {dtype} needs a copy")
        return _convert.cast(_npurt.asarray(obj, None, device=device, stream=stream), dtype)
    return _npurt.asarray(obj, dtype, device=device, stream=stream, copy=copy)


@public("npurt.empty", "shape")
def empty(shape, dtype=None, *, device=None, stream=None):
    return _npurt.empty(shape, dtype, device=device, stream=stream)


@public("npurt.zeros", "shape")
def zeros(shape, dtype=None, *, device=None, stream=None):
    return _npurt.zeros(shape, dtype, device=device, stream=stream)


for _fn in (asarray, empty, zeros):
    _fn.__doc__ = getattr(_npurt, _fn.__name__).__doc__


@public("npurt.ones", "shape")
def ones(shape, *, dtype=None, device=None):
    return full(shape, 1, dtype=dtype or _dtypes.DEFAULT_FLOAT)


@public("npurt.empty_like", "x")
def empty_like(x, /, *, dtype=None, device=None):
    x = _convert.array("npurt.empty_like", x)
    return _npurt.empty(x.shape, dtype or x.dtype)


@public("npurt.zeros_like", "x")
def zeros_like(x, /, *, dtype=None, device=None):
    x = _convert.array("npurt.zeros_like", x)
    return _npurt.zeros(x.shape, dtype or x.dtype)


@public("npurt.ones_like", "x")
def ones_like(x, /, *, dtype=None, device=None):
    x = _convert.array("npurt.ones_like", x)
    return full(x.shape, 1, dtype=dtype or x.dtype)


@public("npurt.full_like", "x")
def full_like(x, /, fill_value, *, dtype=None, device=None):
    x = _convert.array("npurt.full_like", x)
    return full(x.shape, fill_value, dtype=dtype or x.dtype)


def _check_device(device, where):
    if device is not None and device != _npurt.current_device():
        raise InvalidArgumentError(f"{where}: argument 'device': {device} is not the current device "
                                   f"({_npurt.current_device()}); switch with npurt.set_device first")


def _real_scalar(v, where, arg):
    """v as a Python int or float (numpy scalars and 0-d arrays accepted)."""
    if isinstance(v, _npurt.ndarray) and v.ndim == 0:
        v = v.item()
    if isinstance(v, (int, float)):
        return int(v) if isinstance(v, builtins.bool) else v  # a bool is the int it stands for
    try:
        return operator.index(v)
    except TypeError:
        pass
    if isinstance(v, numbers.Real):
        return float(v)
    raise ArgumentTypeError(f"{where}: argument '{arg}': expected a real number, got {type(v).__name__}")


def _arange_length(start, stop, step, where):
    if step == 0:
        raise InvalidArgumentError(f"{where}: argument 'step': must not be zero")
    if all(isinstance(v, int) for v in (start, stop, step)):
        return len(range(start, stop, step))
    try:
        n = math.ceil((stop - start) / step)
    except (OverflowError, ValueError):  # inf or NaN bounds
        raise InvalidArgumentError(f"{where}: arguments 'start', 'stop', 'step': the range from {start} to {stop} "
                                   f"by {step} has no finite length") from None
    return builtins.max(0, n)


def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    """Values start + i * step for i < ceil((stop - start) / step), computed on the device."""
    where = "npurt.arange"
    _check_device(device, where)
    start = _real_scalar(start, where, "start")
    step = _real_scalar(step, where, "step")
    if stop is None:
        start, stop = 0, start
    stop = _real_scalar(stop, where, "stop")
    n = _arange_length(start, stop, step, where)
    _dtype_arg(dtype, where)
    integral = all(isinstance(v, int) for v in (start, stop, step))
    dt = dtype if dtype is not None else (_dtypes.DEFAULT_INT if integral else _dtypes.DEFAULT_FLOAT)
    if _dtypes.kind(dt) == "c":
        raise UnsupportedDtypeError(f"{where}: argument 'dtype': complex dtypes are not supported")
    exact = integral and _dtypes.kind(dt) in "iu"
    if exact and n > 0:
        for v in (start, start + (n - 1) * step):
            _npurt._check_fill_range(v, dt, where)
    if exact:
        return _ops.arange(num=n, dtype=dt, integral=True, int_start=start, int_step=step)
    return _ops.arange(num=n, dtype=dt, start=float(start), step=float(step))


@public("npurt.linspace", "num")
def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    """num evenly spaced values over [start, stop] (or [start, stop) without endpoint), like numpy."""
    where = "npurt.linspace"
    _check_device(device, where)
    num = _count(num, where, "num")
    if isinstance(start, complex) or isinstance(stop, complex) or \
            (_dtype_arg(dtype, where) is not None and _dtypes.kind(dtype) == "c"):
        return _complex_linspace(start, stop, num, dtype, builtins.bool(endpoint))
    start = _real_scalar(start, where, "start")
    stop = _real_scalar(stop, where, "stop")
    dt = dtype if dtype is not None else _dtypes.DEFAULT_FLOAT
    return _ops.linspace(num=num, dtype=dt, start=float(start), stop=float(stop), endpoint=builtins.bool(endpoint))


def _complex_linspace(start, stop, num, dtype, endpoint):
    """Complex linspace (the standard: a complex start or stop gives the default complex dtype):
    the real and imaginary parts are two real linspaces on the device, joined as re + im * 1j.
    Parts are spaced independently, like numpy; an infinite imaginary part is not supported
    (inf * 1j has a NaN real part), which the standard leaves unspecified for linspace."""
    where = "npurt.linspace"
    start, stop = _complex_scalar(start, where, "start"), _complex_scalar(stop, where, "stop")
    dt = dtype if dtype is not None else _dtypes._D["complex64"]
    if _dtypes.kind(dt) != "c":
        raise UnsupportedDtypeError(f"{where}: argument 'dtype': a complex start or stop needs a complex dtype, "
                                    f"got {dt}")
    part = _dtypes._D["float64" if dt == _dtypes._D["complex128"] else "float32"]
    re = _ops.linspace(num=num, dtype=part, start=start.real, stop=stop.real, endpoint=endpoint)
    im = _ops.linspace(num=num, dtype=part, start=start.imag, stop=stop.imag, endpoint=endpoint)
    return _convert.cast(re, dt) + _convert.cast(im, dt) * 1j


def _complex_scalar(v, where, arg):
    if isinstance(v, _npurt.ndarray) and v.ndim == 0:
        v = v.item()
    if isinstance(v, numbers.Complex):
        return complex(v)
    raise ArgumentTypeError(f"{where}: argument '{arg}': expected a number, got {type(v).__name__}")


def _count(v, where, arg):
    try:
        v = operator.index(v) if not isinstance(v, builtins.bool) else None
    except TypeError:
        v = None
    if v is None:
        raise ArgumentTypeError(f"{where}: argument '{arg}': expected an int")
    if v < 0:
        raise InvalidArgumentError(f"{where}: argument '{arg}': must be >= 0, got {v}")
    return v


@public("npurt.eye", ("n_rows", "n_cols"))
def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    """A [n_rows, n_cols] array with ones on diagonal k, computed on the device."""
    where = "npurt.eye"
    _check_device(device, where)
    n_rows = _count(n_rows, where, "n_rows")
    n_cols = n_rows if n_cols is None else _count(n_cols, where, "n_cols")
    if n_rows * n_cols > _args.INT64_MAX:
        raise InvalidArgumentError(f"{where}: arguments 'n_rows', 'n_cols': a {n_rows} x {n_cols} array has too many "
                                   "elements (int64 overflow)")
    if isinstance(k, builtins.bool) or not isinstance(k, int):
        raise ArgumentTypeError(f"{where}: argument 'k': expected an int, got {type(k).__name__}")
    return _ops.eye(n_rows=n_rows, n_cols=n_cols, k=k, dtype=dtype or _dtypes.DEFAULT_FLOAT)


def _triangle(name, x, k):
    where = f"npurt.{name}"
    x = _convert.array(where, x)
    if isinstance(k, builtins.bool) or not isinstance(k, int):
        raise ArgumentTypeError(f"{where}: argument 'k': expected an int, got {type(k).__name__}")
    if x.ndim < 2:
        raise InvalidArgumentError(f"{where}: argument 'x': needs at least 2 dimensions (a stack of matrices), got "
                                   f"{x.ndim}")
    return getattr(_ops, name)(x, k=k)


def tril(x, /, *, k=0):
    """x with the elements above diagonal k of every matrix (last two dims) zeroed."""
    return _triangle("tril", x, k)


def triu(x, /, *, k=0):
    """x with the elements below diagonal k of every matrix (last two dims) zeroed."""
    return _triangle("triu", x, k)


def meshgrid(*arrays, indexing="xy"):
    """Coordinate matrices from 1-D arrays: a list of new contiguous arrays (the 2024.12 standard's
    List[array]; the tuple is 2025.12's), copied like numpy's default."""
    from .manipulation import broadcast_to, reshape
    where = "npurt.meshgrid"
    if indexing not in ("xy", "ij"):
        raise InvalidArgumentError(f"{where}: argument 'indexing': must be 'xy' or 'ij', got {indexing!r}")
    for i, a in enumerate(arrays):
        _convert.array(where, a, f"arrays[{i}]")
        if a.ndim != 1:
            raise InvalidArgumentError(f"{where}: argument 'arrays[{i}]': must be 1-D, got {a.ndim} dimensions")
    if not arrays:
        return []
    dt = _dtypes.result_type(*arrays)
    shape = [a.shape[0] for a in arrays]
    if indexing == "xy" and len(arrays) > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, a in enumerate(arrays):
        axis = i
        if indexing == "xy" and len(arrays) > 1 and i < 2:
            axis = 1 - i
        view_shape = [1] * len(shape)
        view_shape[axis] = a.shape[0]
        a = _convert.cast(a, dt)
        out.append(_ops.copy(broadcast_to(reshape(a, tuple(view_shape)), tuple(shape))))
    return out
