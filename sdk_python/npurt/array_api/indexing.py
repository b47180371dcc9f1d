"""Indexing (views, gathers) and assignment for nr.ndarray.

    y = x[1:, ::-2, None, ..., 0]     # a view: only shape/strides/offset change
    x[0, :] = 3.0                     # device copy/fill kernels, no host round trip
    x[::-1] = x                       # overlapping source is copied first
    y = x[idx, 1:3]; x[mask] = 0      # advanced: gather/scatter kernels (_advanced.py)

Invariants:
  * ``x[key]`` with integers, slices (any step, negative too), ``...``, ``None``
    and Python bools returns a view sharing x's storage; nothing runs on the
    device.
  * ``x[key] = v`` writes only through registered kernels: one ``copy`` launch
    (npurt::ops::copy_into: a strided target is written through the copy op's
    ``out_strides``) from a broadcast (stride-0) source view; v may be a Python
    scalar (converted by the one rule of npurt/fill_value.h, numpy's), a numpy
    array or list (uploaded, a data movement) or an nr.ndarray (cast on the
    device when its dtype differs).
  * Every error is an npurt class that is also the builtin numpy raises
    (nr.IndexingError an IndexError, nr.InvalidArgumentError a ValueError,
    nr.OutOfRangeError an OverflowError, nr.ArgumentTypeError and
    nr.UnsupportedDtypeError TypeErrors), naming the function, the argument
    and the reason.
  * Keys holding integer arrays or a boolean mask go to _advanced.py (the
    gather/scatter kernel family): the result is a new array, never a view.
  * The ndarray type's x[key] / x[key] = v slots run in C++ first
    (sdk_python/bindings/indexing.cpp): plain basic keys are answered there by
    npurt::basic_index (npurt/basic_index.h) with the same view as
    basic_view, and assignments of Python / numpy / ml_dtypes scalars
    (integers up to 64 bits exactly), nr.ndarrays, numpy arrays (cast by
    astype on the device) and lists to them by one fill / copy launch;
    assignments and reads through integer-array keys (npurt::AdvancedIndex,
    npurt/advanced_index.h), masks included (npurt, numpy or list masks, alone
    or with other entries). What comes here: 0-d masks, values numpy warns about or refuses (float numpy arrays into
    integer arrays, out-of-range values), bfloat16 host casts, arrays on other
    devices, broadcast targets, subclasses, and every error.
"""
import builtins
import operator

from .. import _npurt
from .._npurt import ArgumentTypeError, IndexingError, InvalidArgumentError, OutOfRangeError, UnsupportedDtypeError

__all__ = ["getitem", "setitem", "view_of", "assign", "device_astype"]

_GET = "npurt.ndarray.__getitem__"
_SET = "npurt.ndarray.__setitem__"


def view_of(x, shape, strides, offset=0):
    """A view of x's storage (strides and offset in elements, offset relative to x)."""
    return _npurt._view(x, tuple(shape), tuple(strides), int(offset))


def _as_int(k):
    """The integer value of an index entry, or None when it is not an integer."""
    if isinstance(k, builtins.bool):
        return None
    if isinstance(k, _npurt.ndarray):
        if k.ndim == 0 and k.dtype not in (_npurt.bool,) and "int" in str(k.dtype):
            return int(k.numpy())
        return None
    try:
        return operator.index(k)
    except TypeError:
        return None


def _expand_key(key, ndim, where):
    """The key as a tuple without Ellipsis: one entry per consumed dim plus None/bools."""
    if not isinstance(key, tuple):
        key = (key,)
    consumed = 0
    ellipses = 0
    for k in key:
        if k is Ellipsis:
            ellipses += 1
        elif k is None or isinstance(k, builtins.bool):
            continue
        else:
            consumed += 1
    if ellipses > 1:
        raise IndexingError(f"{where}: argument 'key': an index can only have a single ellipsis ('...')")
    if consumed > ndim:
        raise IndexingError(f"{where}: argument 'key': too many indices for array: array is {ndim}-dimensional, "
                         f"but {consumed} were indexed")
    out = []
    for k in key:
        if k is Ellipsis:
            out.extend([slice(None)] * (ndim - consumed))
        else:
            out.append(k)
    if ellipses == 0:
        out.extend([slice(None)] * (ndim - consumed))
    return out


def _unsupported(k, where):
    raise IndexingError(f"{where}: argument 'key': only integers, slices (`:`), ellipsis (`...`), None "
                     f"(`newaxis`) and 0-d integer arrays are valid indices, got {type(k).__name__}")


def basic_view(x, key, where=_GET):
    """The view x[key] for a basic-indexing key (see the module doc)."""
    shape, strides = tuple(x.shape), _npurt._elem_strides(x)
    out_shape, out_strides = [], []
    offset = 0
    dim = 0
    for k in _expand_key(key, len(shape), where):
        if k is None or isinstance(k, builtins.bool):
            out_shape.append(1 if (k is None or k) else 0)
            out_strides.append(0)
            continue
        if isinstance(k, slice):
            if k.step is not None and not isinstance(k.step, _npurt.ndarray) and k.step == 0:
                raise InvalidArgumentError(f"{where}: argument 'key': slice step cannot be zero")
            start, stop, step = k.indices(shape[dim])
            n = len(range(start, stop, step))
            out_shape.append(n)
            out_strides.append(strides[dim] * step)
            if n > 0:
                offset += start * strides[dim]
            dim += 1
            continue
        i = _as_int(k)
        if i is None:
            _unsupported(k, where)
        n = shape[dim]
        if not -n <= i < n:
            raise IndexingError(f"{where}: argument 'key': index {i} is out of bounds for axis {dim} with size {n}")
        offset += (i + n if i < 0 else i) * strides[dim]
        dim += 1
    if 0 in out_shape:
        offset = 0  # an empty view addresses nothing; keep it inside the storage
    return view_of(x, out_shape, out_strides, offset)


def getitem(x, key):
    from . import _advanced
    if _advanced.is_advanced(key):
        return _advanced.advanced_getitem(x, key, _GET)
    return basic_view(x, key, _GET)


def setitem(x, key, value):
    from . import _advanced
    if x.read_only:  # numpy: "assignment destination is read-only" (a ValueError)
        raise _npurt.InvalidArgumentError(f"{_SET}: argument 'self': assignment destination is read-only (a view "
                                          "made by nr.broadcast_to / broadcast_arrays, whose elements may alias); "
                                          "write to a copy")
    if _advanced.is_advanced(key):
        _advanced.advanced_setitem(x, key, value, _SET)
        return
    assign(basic_view(x, key, _SET), value, _SET)


# ---- assignment ------------------------------------------------------------------

def _device_value(value, dst, where):
    """value as an nr.ndarray of dst's dtype on dst's device."""
    if isinstance(value, _npurt.ndarray):
        if value.device != dst.device:
            raise InvalidArgumentError(f"{where}: argument 'value': it is on {value.device}, the array on "
                                       f"{dst.device}")
        return device_astype(value, dst.dtype, where)
    if isinstance(value, (int, float)) and "int" in str(dst.dtype):
        # npurt/fill_value.h's rule (numpy's): ints exact, floats truncated, in range
        _npurt._check_fill_range(value, dst.dtype, f"{where}: argument 'value'")
    try:
        return _npurt.asarray(value, dst.dtype, stream=dst.stream)
    except OutOfRangeError as e:  # a list element beyond the dtype's range (numpy's OverflowError)
        raise OutOfRangeError(f"{where}: argument 'value': {e}") from None
    except (TypeError, ValueError, OverflowError) as e:
        cls = ArgumentTypeError if isinstance(e, TypeError) else InvalidArgumentError
        raise cls(f"{where}: argument 'value': cannot convert {type(value).__name__} to {dst.dtype}: {e}") from None


def device_astype(x, dtype, where):
    """x converted to dtype on the device: the namespace's astype (elementwise
    family, every pair) when present, else the `cast` op (vector Cast pairs)."""
    if str(x.dtype) == str(dtype):
        return x
    import npurt
    from .. import ops
    astype = getattr(npurt, "astype", None)
    try:
        return astype(x, dtype) if astype is not None else ops.cast(x, dtype=dtype)
    except (ValueError, TypeError, _npurt.NpurtError) as e:
        raise UnsupportedDtypeError(f"{where}: argument 'value': cannot convert {x.dtype} to {dtype} on the device: "
                                    f"{e}") from None


def _broadcast_view(src, shape, where):
    from .manipulation import broadcast_to
    try:
        return broadcast_to(src, shape)
    except ValueError:
        raise InvalidArgumentError(f"{where}: argument 'value': could not broadcast input array from shape "
                         f"{tuple(src.shape)} into shape {tuple(shape)}") from None


def _drop_broadcast_dims(dst, src):
    """A dst with zero-stride dims (a broadcast view) writes each of their elements once: the
    value src holds at the last index of those dims, what writing them in order leaves."""
    dims = [d for d, (n, s) in enumerate(zip(dst.shape, _npurt._elem_strides(dst))) if s == 0 and n > 1]
    if not dims:
        return dst, src
    return (basic_view(dst, tuple(0 if d in dims else slice(None) for d in range(dst.ndim))),
            basic_view(src, tuple(-1 if d in dims else slice(None) for d in range(dst.ndim))))


def assign(dst, value, where="npurt.assign"):
    """Writes value (broadcast to dst's shape, cast to its dtype) into the view dst."""
    src = _device_value(value, dst, where)
    src = _broadcast_view(src, tuple(dst.shape), where)
    if dst.size == 0:
        return
    if _npurt._shares_storage(src, dst):
        from .. import ops
        src = ops.copy(src)  # the copy kernel reads everything before anything is overwritten
    dst, src = _drop_broadcast_dims(dst, src)
    _npurt._copy_into(dst, src)  # one copy kernel into the view, whatever its strides


# ---- Python scalar conversions and iteration ---------------------------------------
# These read the device (a synchronizing host copy), which is their purpose.

def _scalar(x, where):
    if x.size != 1:
        raise ArgumentTypeError(f"{where}: only arrays with one element can be converted to Python scalars "
                        f"(shape {tuple(x.shape)})")
    return x.numpy().reshape(()).item()


def item(x, *args):
    where = "npurt.ndarray.item"
    if len(args) == 1 and x.ndim != 1:  # a flat (C-order) index, like numpy
        flat = operator.index(args[0])
        if not -x.size <= flat < x.size:
            raise IndexingError(f"{where}: argument 'args': index {flat} is out of bounds for size {x.size}")
        flat %= x.size
        index = []
        for n in reversed(x.shape):
            flat, i = divmod(flat, n)
            index.append(i)
        args = tuple(reversed(index))
    if args:
        return basic_view(x, args if len(args) > 1 else args[0], where).numpy().item()
    if x.size != 1:
        raise InvalidArgumentError(f"npurt.ndarray.item: can only convert an array of size 1 to a Python scalar "
                         f"(size {x.size})")
    return x.numpy().reshape(()).item()


def tolist(x):
    return x.numpy().tolist()


def _to_int(x):
    return int(_scalar(x, "npurt.ndarray.__int__"))


def _to_float(x):
    return float(_scalar(x, "npurt.ndarray.__float__"))


def _to_complex(x):
    return complex(_scalar(x, "npurt.ndarray.__complex__"))


def _to_bool(x):
    if x.size != 1:
        raise InvalidArgumentError(f"npurt.ndarray.__bool__: the truth value of an array with {x.size} elements is "
                         "ambiguous; use any() or all()")
    return builtins.bool(x.numpy().reshape(()).item())


def _to_index(x):
    if x.ndim != 0 or x.dtype == _npurt.bool or "int" not in str(x.dtype):
        raise ArgumentTypeError(f"npurt.ndarray.__index__: only 0-d integer arrays can be used as an index "
                        f"(got {x.dtype} with shape {tuple(x.shape)})")
    return int(x.numpy())


def _iterate(x):
    if x.ndim == 0:
        raise ArgumentTypeError("npurt.ndarray.__iter__: iteration over a 0-d array")
    return (x[i] for i in range(x.shape[0]))  # x[i]: the C++ basic-index path (indexing.cpp)


def to_device(x, device, /, *, stream=None):
    """x on `device`: the same device returns x itself (no copy, `stream` unused); another device gets
    a copy through the host (a synchronizing data movement)."""
    if not isinstance(device, _npurt.Device):
        raise ArgumentTypeError(f"npurt.ndarray.to_device: argument 'device': expected an npurt.Device, got "
                        f"{type(device).__name__}")
    if device == x.device:
        return x
    return _npurt.asarray(x.numpy(), device=device, stream=stream)


def install(cls=_npurt.ndarray):
    """Attaches indexing and the scalar conversions to nr.ndarray."""
    cls._py___getitem__ = getitem  # the fallbacks of the C++ __getitem__ / __setitem__ (below)
    cls._py___setitem__ = setitem
    cls.__iter__ = _iterate
    cls.tolist = tolist
    cls.__complex__ = _to_complex
    # The fallbacks of the C++ item / __int__ / __float__ / __bool__
    # (sdk_python/bindings/scalar_conversion.cpp: one-element arrays of bool,
    # integer and float16/32/64 dtypes read their element directly).
    cls._py_item = item
    cls._py___int__ = _to_int
    cls._py___float__ = _to_float
    cls._py___bool__ = _to_bool
    _npurt._install_scalar_conversions()
    cls.__index__ = _to_index
    cls.to_device = to_device
    # After the dunders above (setting one resets its slot): __getitem__ and
    # __setitem__ become C++ functions (sdk_python/bindings/indexing.cpp,
    # npurt::basic_index) that take basic keys themselves and call getitem /
    # setitem otherwise.
    _npurt._install_index_slots()


install()
