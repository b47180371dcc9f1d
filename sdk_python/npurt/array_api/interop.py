"""numpy interop: DLPack both ways and numpy dispatch (NEP 13 / NEP 18).

    h = np.from_dlpack(x)        # sim: a zero-copy, writable host view of x
    y = nr.from_dlpack(h)        # zero-copy when writable and 32-byte aligned, else a copy
    np.exp(x); np.sum(x, axis=1); np.concatenate([x, y])   # run on npurt, return nr.ndarray

Invariants:
  * __dlpack__ waits for the array's pending work before handing memory out
    (sim only: its device memory is host memory, exported as CPU (1, 0)).
  * numpy functions and ufuncs on nr.ndarray dispatch to npurt's own
    implementation (device kernels) or raise TypeError naming the numpy
    function; numpy arrays mixed in are refused rather than uploaded silently.
"""
import builtins

from .. import _npurt
from .._npurt import ArgumentTypeError, UnsupportedDtypeError
from . import _args, manipulation, reductions

__all__ = ["from_dlpack", "install"]

_KDLCPU = 1


# ---- DLPack ------------------------------------------------------------------------

@_args.public("npurt.ndarray.__dlpack__")
def _dlpack(self, /, *, stream=None, max_version=None, dl_device=None, copy=None):
    if stream is not None and stream != -1:
        raise BufferError("npurt.ndarray.__dlpack__: argument 'stream': sim arrays are exported as CPU memory "
                          f"(after their pending work), so stream must be None, got {stream!r}")
    if copy is True:
        # "copy=True: the producer must always copy" (DLPack 1.0 / array API 2024.12): export a
        # device-side copy (the copy kernel), which the capsule keeps alive; the export itself
        # then shares that copy's memory.
        return _npurt._dlpack_export(self.copy(), max_version, dl_device, None)
    return _npurt._dlpack_export(self, max_version, dl_device, copy)


def _dlpack_device(self, /):
    if self.device.type != "sim":
        raise BufferError(f"npurt.ndarray.__dlpack_device__: {self.device} memory is not exported through DLPack")
    return (_KDLCPU, 0)


@_args.public("npurt.from_dlpack", "x")
def from_dlpack(x, /, *, device=None, copy=None, stream=None):
    """An nr.ndarray from any DLPack producer (numpy, torch CPU tensors, ...)."""
    where = "npurt.from_dlpack"
    if isinstance(x, _npurt.ndarray):
        return _npurt.asarray(x, device=device, copy=copy)
    if not hasattr(x, "__dlpack__"):
        raise ArgumentTypeError(f"{where}: argument 'x': {type(x).__name__} does not implement __dlpack__")
    if device is not None:
        stream = stream if stream is not None else _npurt.current_stream(device)
    try:
        capsule = x.__dlpack__(max_version=(1, 0), dl_device=(_KDLCPU, 0), copy=copy)
    except TypeError:  # a producer that predates DLPack 1.0 keywords
        capsule = x.__dlpack__()
    return _npurt._dlpack_import(capsule, copy, stream)


# ---- NEP 13: ufuncs ---------------------------------------------------------------

# numpy ufunc names that differ from the array API names.
_UFUNC_NAMES = {"absolute": "abs", "power": "pow", "true_divide": "divide", "arccos": "acos", "arcsin": "asin",
                "arctan": "atan", "arctan2": "atan2", "arccosh": "acosh", "arcsinh": "asinh", "arctanh": "atanh",
                "invert": "bitwise_invert", "left_shift": "bitwise_left_shift",
                "right_shift": "bitwise_right_shift", "conjugate": "conj", "fmod": "remainder"}
_UFUNC_REDUCE = {"add": reductions.sum, "multiply": reductions.prod, "maximum": reductions.max,
                 "minimum": reductions.min, "logical_or": reductions.any, "logical_and": reductions.all}
_UFUNC_ACCUMULATE = {"add": "cumulative_sum", "multiply": "cumulative_prod"}
# Why reduce/accumulate are implemented rather than refused: numpy 2.4 leaks a reference to the
# operand whenever __array_ufunc__ raises (or returns NotImplemented) for ufunc.reduce/accumulate
# (numpy.add.reduce on a plain Python class with a raising __array_ufunc__ shows it too), which
# nanobind reports as leaked instances at exit. The common ones now succeed; the rest still raise.


def _check_operands(name, operands):
    for a in operands:
        if isinstance(a, _npurt.ndarray) or isinstance(a, (builtins.int, builtins.float, builtins.bool, complex)):
            continue
        if type(a).__module__ == "numpy" and getattr(a, "ndim", 1) == 0:
            continue  # numpy scalars act like Python scalars
        raise ArgumentTypeError(f"numpy.{name}: npurt does not mix {type(a).__name__} operands with nr.ndarray "
                                "implicitly; convert with nr.asarray(...) (host -> device) or x.numpy()")


def _npurt_dtype(where, dtype):
    """numpy's dtype= (np.float64, 'f8', np.dtype(...)) as an npurt dtype (nr.dtype's own
    conversion), with numpy's TypeError for what npurt lacks."""
    if dtype is None or isinstance(dtype, _npurt.dtype):
        return dtype
    try:
        return _npurt.dtype(dtype)
    except ValueError:
        raise UnsupportedDtypeError(f"{where}: argument 'dtype': {dtype!r} is not an npurt dtype") from None


def _unsupported(where, kwargs, allowed):
    bad = sorted(k for k, v in kwargs.items() if k not in allowed and not (k == "where" and v is True))
    if bad:
        raise ArgumentTypeError(f"{where}: argument(s) {bad} are not supported for npurt arrays")


def _ufunc_reduce(name, x, axis=0, dtype=None, keepdims=False, **rest):
    """ufunc.reduce: add -> sum, multiply -> prod, maximum -> max, minimum -> min, logical_and -> all,
    logical_or -> any (numpy's default axis 0; axis None or a tuple reduce several axes)."""
    where = f"numpy.{name}.reduce"
    _unsupported(where, rest, ())
    if not isinstance(x, _npurt.ndarray):
        raise ArgumentTypeError(f"{where}: argument 'array': expected an nr.ndarray, got {type(x).__name__}")
    dtype = _npurt_dtype(where, dtype)
    kw = {"axis": axis, "keepdims": builtins.bool(keepdims)}
    if name in ("add", "multiply"):
        return _UFUNC_REDUCE[name](x, dtype=dtype, **kw)
    if dtype is not None and name in ("maximum", "minimum"):
        x = x.astype(dtype)  # numpy computes the reduction in dtype
    elif dtype is not None and str(dtype) != "bool":
        raise UnsupportedDtypeError(f"{where}: argument 'dtype': {name} reduces to bool, got {dtype}")
    return _UFUNC_REDUCE[name](x, **kw)


def _ufunc_accumulate(name, x, axis=0, dtype=None, **rest):
    """ufunc.accumulate: add -> cumulative_sum, multiply -> cumulative_prod. Without dtype= both sides
    widen the same way (bool and small ints to int64, small unsigned to uint64, floats kept)."""
    import npurt
    where = f"numpy.{name}.accumulate"
    _unsupported(where, rest, ())
    if not isinstance(x, _npurt.ndarray):
        raise ArgumentTypeError(f"{where}: argument 'array': expected an nr.ndarray, got {type(x).__name__}")
    if x.ndim == 0:
        raise ArgumentTypeError(f"{where}: argument 'array': a 0-d array has no axis to accumulate along")
    if not isinstance(axis, (builtins.int,)) or isinstance(axis, builtins.bool):
        raise ArgumentTypeError(f"{where}: argument 'axis': expected an int, got {axis!r}")
    fn = getattr(npurt, _UFUNC_ACCUMULATE[name])
    dtype = _npurt_dtype(where, dtype)
    return fn(x, axis=axis, dtype=dtype)


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    import npurt
    name = ufunc.__name__
    if kwargs.get("out") is not None:
        raise ArgumentTypeError(f"numpy.{name}: out= is not supported for npurt arrays")
    kwargs.pop("out", None)
    if method in ("__call__", "reduce", "accumulate"):  # reduceat/outer/at: refused below, whatever the operands
        _check_operands(name, inputs)
    if method == "reduce" and name in _UFUNC_REDUCE:
        return _ufunc_reduce(name, *inputs, **kwargs)
    if method == "accumulate" and name in _UFUNC_ACCUMULATE:
        return _ufunc_accumulate(name, *inputs, **kwargs)
    fn = getattr(npurt, _UFUNC_NAMES.get(name, name), None)
    if method != "__call__" or fn is None or kwargs:
        what = name if method == "__call__" else f"{name}.{method}"
        extra = f" with {sorted(kwargs)}" if kwargs and fn is not None and method == "__call__" else ""
        hint = ""
        if method == "reduce":
            hint = f" (reduce is implemented for {', '.join(sorted(_UFUNC_REDUCE))})"
        elif method == "accumulate":
            hint = f" (accumulate is implemented for {', '.join(sorted(_UFUNC_ACCUMULATE))})"
        raise ArgumentTypeError(f"numpy.{what}{extra} is not implemented for npurt arrays{hint}; convert explicitly "
                                "with x.numpy()")
    return fn(*inputs)


# ---- NEP 18: numpy functions ------------------------------------------------------

def _concatenate(arrays, axis=0, out=None, dtype=None, casting=None):
    _no_extras("concatenate", out=out, dtype=dtype, casting=casting)
    return manipulation.concat(arrays, axis=axis)


def _stack(arrays, axis=0, out=None, dtype=None, casting=None):
    _no_extras("stack", out=out, dtype=dtype, casting=casting)
    return manipulation.stack(arrays, axis=axis)


def _reshape(a, shape=None, order="C", *, newshape=None, copy=None):
    if order != "C":
        raise ArgumentTypeError("numpy.reshape: npurt arrays support order='C' only")
    return manipulation.reshape(a, shape if shape is not None else newshape, copy=copy)


def _transpose(a, axes=None):
    return manipulation.permute_dims(a, tuple(range(a.ndim - 1, -1, -1)) if axes is None else axes)


def _no_extras(name, **given):
    bad = sorted(k for k, v in given.items() if v is not None)
    if bad:
        raise ArgumentTypeError(f"numpy.{name}: argument(s) {bad} are not supported for npurt arrays")


def _reduction(fn, name):
    def call(a, axis=None, dtype=None, out=None, keepdims=False, **kw):
        _no_extras(name, out=out, **{k: v for k, v in kw.items() if k != "ddof" and v is not None
                                    and not (k == "where" and v is True)})
        extra = {"correction": kw["ddof"]} if "ddof" in kw else {}
        if dtype is not None:
            extra["dtype"] = dtype
        return fn(a, axis=axis, keepdims=builtins.bool(keepdims), **extra)
    return call


_FUNCTIONS = {
    "concatenate": _concatenate, "stack": _stack, "reshape": _reshape, "transpose": _transpose,
    "moveaxis": lambda a, source, destination: manipulation.moveaxis(a, source, destination),
    "expand_dims": lambda a, axis: manipulation.expand_dims(a, axis=axis),
    "squeeze": lambda a, axis=None: manipulation.squeeze(a, axis=axis),
    "broadcast_to": lambda array, shape, subok=False: manipulation.broadcast_to(array, shape),
    "broadcast_arrays": lambda *args, subok=False: tuple(manipulation.broadcast_arrays(*args)),  # numpy's tuple
    "flip": lambda m, axis=None: manipulation.flip(m, axis=axis),
    "tile": lambda A, reps: manipulation.tile(A, reps if isinstance(reps, (tuple, list)) else (reps,)),
    "repeat": lambda a, repeats, axis=None: manipulation.repeat(a, repeats, axis=axis),
    "roll": lambda a, shift, axis=None: manipulation.roll(a, shift, axis=axis),
    "matrix_transpose": manipulation.matrix_transpose,
    "permute_dims": lambda a, axes=None: _transpose(a, axes),
    "ravel": lambda a, order="C": manipulation.reshape(a, (-1,)),
    "shape": lambda a: tuple(a.shape), "ndim": lambda a: a.ndim, "size": lambda a, axis=None: (
        a.size if axis is None else a.shape[axis]),
    "count_nonzero": lambda a, axis=None, *, keepdims=False: reductions.count_nonzero(a, axis=axis,
                                                                                      keepdims=keepdims),
}
for _name, _fn in (("sum", reductions.sum), ("prod", reductions.prod), ("max", reductions.max),
                   ("amax", reductions.max), ("min", reductions.min), ("amin", reductions.min),
                   ("mean", reductions.mean), ("any", reductions.any), ("all", reductions.all),
                   ("var", reductions.var), ("std", reductions.std)):
    _FUNCTIONS[_name] = _reduction(_fn, _name)
from . import searching as _searching, sets as _sets  # noqa: E402
_FUNCTIONS.update(_searching.NUMPY_FUNCTIONS, **_sets.NUMPY_FUNCTIONS)


def _array_function(self, func, types, args, kwargs):
    import npurt
    name = func.__name__
    impl = _FUNCTIONS.get(name)
    if impl is None:
        own = getattr(npurt, name, None)  # the namespace's own function of that name (elementwise, creation ...)
        impl = own if callable(own) and not isinstance(own, type) else None
    if impl is None:
        raise ArgumentTypeError(f"numpy.{name} is not implemented for npurt arrays; convert explicitly with x.numpy() "
                                "or use the npurt namespace")
    for t in types:
        if not issubclass(t, _npurt.ndarray):
            raise ArgumentTypeError(f"numpy.{name}: npurt does not mix {t.__name__} arguments with nr.ndarray "
                                    "implicitly; convert with nr.asarray(...) or x.numpy()")
    return impl(*args, **kwargs)


def install(cls=_npurt.ndarray):
    cls.__dlpack__ = _dlpack
    cls.__dlpack_device__ = _dlpack_device
    cls.__array_ufunc__ = _array_ufunc
    cls.__array_function__ = _array_function


install()
