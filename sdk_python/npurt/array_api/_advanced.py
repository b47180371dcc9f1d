"""Advanced indexing over the gather/scatter kernel family (kernels/indexing):
take, take_along_axis, nonzero, and x[key] / x[key] = v for keys holding
integer arrays or a boolean mask (indexing.py sends those keys here).

Supported keys (numpy semantics):
  * integer arrays (npurt arrays, numpy arrays or lists), any number of them,
    mixed with integers, slices, ``...`` and ``None``: the arrays broadcast
    together; their dims replace the indexed axes in place when the array and
    integer entries are adjacent, else they go first;
  * one boolean array as the whole key (``x[mask]``, ``x[mask, ...]``), whose
    shape matches the leading dims of x; a 0-d boolean array.
Boolean arrays combined with other entries go to the C++ plan (_npurt._index_take /
_index_put, npurt::AdvancedIndex: a mask is its nonzero() arrays), whose key errors
are raised as nr.IndexingError.

Invariants: index arrays given as lists / numpy arrays are checked and normalized
on the host in C++ (_npurt._host_index) before their upload; npurt index arrays
on the device (index_check): the host reads only a 64-slot status; either way a
bad index raises nr.IndexingError naming the axis and the index at the call;
masks are compacted on the device (mask_count per block, a scan of the 64
block counts, mask_positions): the host reads only the total, which sizes the
result. Writes go through scatter into the
array itself (or a contiguous copy of a non-contiguous view, copied back),
except x[mask] = scalar into a contiguous x: one in-place `where` (no
compaction, no host read; _masked_fill) for the dtypes `where` takes on x's
device (all on the sim, float16 / float32 on an NPU). A 0-d value is passed to
scatter as one element, which the kernel repeats (no broadcast copy).
Assignments skip this layer: x[key] = v for every key of basic entries and
integer arrays (any number, any target layout, scalar / numpy / list /
nr.ndarray values) is npurt::AdvancedIndex (runtime/include/npurt/advanced_index.h,
the same plan as _Plan below in C++), called by the setitem slot
(sdk_python/bindings/index_advanced.cpp), and x[mask] = v for an nr.ndarray
mask is mask_assign.cpp; x[key] for those keys is AdvancedIndex::take (one
gather), masks included (alone or with other entries: a mask is its
nonzero() arrays). What still comes here: 0-d masks, keys and values the C++
side declines (values numpy warns about, subclasses, other devices), and every
error, raised here in this layer's words (the C++ side leaves x untouched and
falls back). Masks combined with other entries are answered only by the C++
plan; here its errors are raised as nr.IndexingError (an IndexError).
"""
import builtins
import functools
import operator

from .. import _npurt
from .._npurt import ArgumentTypeError, IndexingError, InvalidArgumentError
from .. import ops as _ops
from . import _dtypes

__all__ = ["take", "take_along_axis", "nonzero", "is_advanced", "advanced_getitem", "advanced_setitem",
           "check_indices"]


def _is_integer(k):
    if isinstance(k, (builtins.bool, _npurt.ndarray)):
        return False
    try:
        operator.index(k)
        return True
    except TypeError:
        return False


def _index_array(k, where, upload=True):
    """An index entry as an npurt array (uploading lists / numpy arrays; upload=False: a
    native-order numpy array for _host_indices to check on the host), or None."""
    if isinstance(k, _npurt.ndarray):
        return k
    if _is_integer(k):
        return None
    if isinstance(k, (list, tuple)) or (hasattr(k, "__array__") and not isinstance(k, (int, builtins.bool))):
        import numpy
        a = numpy.asarray(k)
        if a.size == 0 and a.dtype.kind == "f":
            a = a.astype(numpy.int64)
        if a.dtype.kind not in "iub":
            raise IndexingError(f"{where}: argument 'key': arrays used as indices must be of integer or boolean "
                             f"type, got {a.dtype}")
        if not upload and a.dtype.kind in "iu":
            return numpy.ascontiguousarray(a, a.dtype.newbyteorder("="))
        return _npurt.asarray(numpy.ascontiguousarray(a))
    return None


def _is_array_entry(k):
    if isinstance(k, _npurt.ndarray):
        return not (k.ndim == 0 and _dtypes.kind(k.dtype) in "iu")  # a 0-d integer array is an integer
    if isinstance(k, (list, tuple)):  # a sequence inside the key stands for an array, as in numpy
        return True
    if k is None or k is Ellipsis or isinstance(k, (slice, builtins.bool)) or _is_integer(k):
        return False
    return hasattr(k, "__array__")


def is_advanced(key):
    """True when the key holds an integer or boolean array (or a list standing for one)."""
    keys = key if isinstance(key, tuple) else (key,)
    return builtins.any(_is_array_entry(k) for k in keys)


def check_indices(idx, size, axis, where):
    """idx normalized to int64 in [0, size) on the device; IndexError for any index outside [-size, size)."""
    if _dtypes.kind(idx.dtype) not in "iu":
        raise IndexingError(f"{where}: argument 'indices': arrays used as indices must be of integer type, got "
                         f"{idx.dtype}")
    if idx.size == 0:
        return _npurt.zeros(tuple(idx.shape), _npurt.int64)
    y, status = _ops.index_check(idx, size=size)
    slots = status.tolist()  # a synchronizing read of 64 (count, first) pairs
    for count, first in slots:
        if count:
            raise IndexingError(f"{where}: index {first} is out of bounds for axis {axis} with size {size}")
    return y


def _checked_indices(arr, size, axis, where, like):
    """check_indices for an npurt array; a host (numpy) index array is checked and normalized on
    the host in C++ (bindings/host_index.cpp) and uploaded on like's stream: no index_check
    launch, no status read."""
    if isinstance(arr, _npurt.ndarray):
        return check_indices(arr, size, axis, where)
    y, bad = _npurt._host_index(arr, size, like)
    if y is None:
        raise IndexingError(f"{where}: index {bad} is out of bounds for axis {axis} with size {size}")
    return y


def _kind(arr):
    """'i', 'u', 'b' ... of an npurt or numpy array's dtype."""
    return _dtypes.kind(arr.dtype) if isinstance(arr, _npurt.ndarray) else arr.dtype.kind


def _axis(axis, ndim, where):
    from .manipulation import normalize_axis
    return normalize_axis(axis, ndim, where)


def take(x, indices, /, *, axis=None):
    """Elements of x at `indices` along axis (optional for 1-d x), gathered on the device."""
    where = "npurt.take"
    if not isinstance(x, _npurt.ndarray) or not isinstance(indices, _npurt.ndarray):
        raise ArgumentTypeError(f"{where}: arguments 'x' and 'indices' must be npurt.ndarray")
    if x.ndim == 0:
        raise InvalidArgumentError(f"{where}: argument 'x': needs at least 1 dimension")
    if axis is None:
        if x.ndim > 1:
            raise InvalidArgumentError(f"{where}: argument 'axis': required for a {x.ndim}-d array (None only for 1-d)")
        axis = 0
    axis = _axis(axis, x.ndim, where)
    idx = check_indices(indices, x.shape[axis], axis, where)
    return _ops.gather(x, idx, axis=axis)


def take_along_axis(x, indices, /, *, axis=-1):
    """out[..., j, ...] = x[..., indices[..., j, ...], ...] along axis; other dims broadcast."""
    from .manipulation import broadcast_shapes, broadcast_to
    where = "npurt.take_along_axis"
    if not isinstance(x, _npurt.ndarray) or not isinstance(indices, _npurt.ndarray):
        raise ArgumentTypeError(f"{where}: arguments 'x' and 'indices' must be npurt.ndarray")
    if x.ndim == 0 or indices.ndim != x.ndim:
        raise InvalidArgumentError(f"{where}: argument 'indices': must have the rank of x ({x.ndim} >= 1), got "
                                   f"{indices.ndim}")
    axis = _axis(axis, x.ndim, where)
    xs, js = list(x.shape), list(indices.shape)
    xs1, js1 = list(xs), list(js)
    xs1[axis] = js1[axis] = 1
    try:
        common = list(broadcast_shapes(tuple(xs1), tuple(js1), where=where))
    except ValueError:
        raise InvalidArgumentError(f"{where}: argument 'indices': shape {tuple(js)} does not broadcast with x's "
                                   f"{tuple(xs)} outside axis {axis}") from None
    xb, jb = list(common), list(common)
    xb[axis], jb[axis] = xs[axis], js[axis]
    idx = check_indices(broadcast_to(indices, tuple(jb)), xs[axis], axis, where)
    return _ops.gather(broadcast_to(x, tuple(xb)), idx, axis=axis, mode="along")


def _mask_positions(mask, unravel):
    """(positions [rows, count] int64, count) of the true elements of a bool mask."""
    if mask.size == 0:
        return _npurt.zeros((mask.ndim if unravel else 1, 0), _npurt.int64), 0
    counts = _ops.mask_count(mask)  # per block, in parallel
    offsets = _ops.cumsum(counts, include_initial=True)  # 65 block offsets, the total last
    count = int(offsets[-1].tolist())  # the one value the host reads: it sizes the result
    return _ops.mask_positions(mask, offsets, count=count, unravel=unravel), count


def nonzero(x, /):
    """Indices of the nonzero elements: a tuple of x.ndim int64 arrays (C order), found on the device."""
    where = "npurt.nonzero"
    if not isinstance(x, _npurt.ndarray):
        raise ArgumentTypeError(f"{where}: argument 'x': expected an npurt.ndarray, got {type(x).__name__}")
    if x.ndim == 0:
        raise InvalidArgumentError(f"{where}: argument 'x': nonzero of a 0-d array is not defined (use x[None])")
    pos, _ = _mask_positions(x, True)  # the kernels test != 0 in x's own dtype
    return tuple(pos[d] for d in range(x.ndim))


# ---- x[key] and x[key] = v -------------------------------------------------------


def _is_mask(k):
    if isinstance(k, _npurt.ndarray):
        return str(k.dtype) == "bool"
    if isinstance(k, list):
        return len(k) > 0 and builtins.all(isinstance(e, builtins.bool) for e in k)
    dt = getattr(k, "dtype", None)
    return _is_array_entry(k) and getattr(dt, "kind", None) == "b"


def _mask_with_others(key):
    """Whether the key holds a mask next to entries other than `...` (or several masks)."""
    keys = key if isinstance(key, tuple) else (key,)
    masks = [k for k in keys if _is_mask(k)]
    return builtins.bool(masks) and (len(masks) > 1 or builtins.any(k is not Ellipsis and k is not masks[0]
                                                                     for k in keys))


def _cxx_key_error(e):
    """An error of npurt::AdvancedIndex (a ValueError) in numpy's class: IndexError for the key."""
    return e if "argument 'values'" in str(e) else IndexingError(str(e))


def _sole_mask(key, x, where):
    """The boolean array when it is the whole key (possibly with ...), else None (_mask_with_others:
    False)."""
    keys = key if isinstance(key, tuple) else (key,)
    masks = [k for k in keys if _is_mask(k)]
    if not masks:
        return None
    mask = _index_array(masks[0], where)
    if mask.ndim > x.ndim or tuple(mask.shape) != tuple(x.shape[:mask.ndim]):
        raise IndexingError(f"{where}: argument 'key': boolean index of shape {tuple(mask.shape)} does not match "
                         f"the indexed array's leading shape {tuple(x.shape[:mask.ndim])}")
    return mask


def _mask_plan(x, mask):
    """(flat positions of the true elements [count], count)."""
    pos, count = _mask_positions(mask, False)
    return pos[0], count


class _Plan:
    """A key with integer arrays: the basic view, where the index dims go, the flat index."""

    def __init__(self, x, key, where):
        from .indexing import _expand_key, basic_view
        entries = _expand_key(key, x.ndim, where)
        basic, arrays, adv_pos, vaxis = [], [], [], 0
        xaxis = 0
        for pos, k in enumerate(entries):
            arr = None if isinstance(k, (slice, builtins.bool)) or k is None else _index_array(k, where, False)
            if arr is not None and arr.ndim == 0 and _kind(arr) in "iu":
                arr = None  # a 0-d integer array is an integer
            if arr is not None:
                if _kind(arr) not in "iu":
                    raise IndexingError(f"{where}: argument 'key': arrays used as indices must be of integer type "
                                     f"here, got {arr.dtype}")
                arrays.append((arr, vaxis, xaxis))
                adv_pos.append(pos)
                basic.append(slice(None))
                vaxis += 1
                xaxis += 1
                continue
            basic.append(k)
            if k is None or isinstance(k, builtins.bool):
                vaxis += 1
            elif isinstance(k, slice):
                vaxis += 1
                xaxis += 1
            else:
                adv_pos.append(pos)
                xaxis += 1
        if len(arrays) > 1:
            from .manipulation import broadcast_shapes
            try:
                broadcast_shapes(*(tuple(a.shape) for a, _, _ in arrays), where=where)
            except ValueError:
                shapes = " ".join(str(tuple(a.shape)) for a, _, _ in arrays)
                raise IndexingError(f"{where}: argument 'key': shape mismatch: indexing arrays could not be broadcast "
                                 f"together with shapes {shapes}") from None
        self.view = basic_view(x, tuple(basic), where)
        adjacent = adv_pos[-1] - adv_pos[0] + 1 == len(adv_pos)
        v_axes = [a for _, a, _ in arrays]
        self.first = v_axes[0] if adjacent else 0
        rest = [a for a in range(self.view.ndim) if a not in v_axes]
        self.order = rest[:self.first] + v_axes + rest[self.first:]
        self.sizes = [self.view.shape[a] for a in v_axes]
        self.arrays = [_checked_indices(arr, self.view.shape[va], xa, where, x) for arr, va, xa in arrays]

    def flat_index(self):
        """The broadcast index arrays folded into one index over the merged axes (C order)."""
        import npurt
        flat = self.arrays[0]
        for arr, size in zip(self.arrays[1:], self.sizes[1:]):
            flat = npurt.add(npurt.multiply(flat, size), arr)
        return flat

    def permuted(self):
        from .manipulation import permute_dims
        return permute_dims(self.view, self.order) if self.order != list(range(self.view.ndim)) else self.view

    def merged_shape(self, v):
        f, r = self.first, len(self.sizes)
        return tuple(v.shape[:f]) + (_prod(self.sizes),) + tuple(v.shape[f + r:])


def _prod(xs):
    n = 1
    for s in xs:
        n *= s
    return n


def advanced_getitem(x, key, where):
    from .manipulation import reshape
    if _mask_with_others(key):  # only the C++ plan reads these (a mask is its nonzero() arrays)
        try:
            return _npurt._index_take(x, key, where)
        except InvalidArgumentError as e:
            raise _cxx_key_error(e) from None
    mask = _sole_mask(key, x, where)
    if mask is not None:
        if mask.ndim == 0:
            from .indexing import basic_view
            return basic_view(x, builtins.bool(mask.tolist()), where)
        flat, count = _mask_plan(x, mask)
        src = reshape(x, (mask.size,) + tuple(x.shape[mask.ndim:]))
        return _ops.gather(src, flat, axis=0)
    plan = _Plan(x, key, where)
    v = plan.permuted()
    return _ops.gather(reshape(v, plan.merged_shape(v)), plan.flat_index(), axis=plan.first)


def _write(view, merged_shape, flat, src, axis, unique, where):
    """view (merged to merged_shape)[..., flat, ...] = src along axis. A non-contiguous view is
    scattered through a dense copy that is then written back (copy kernel)."""
    from .indexing import assign
    from .manipulation import reshape
    if _npurt._shares_storage(src, view):  # values read from the array being written: copy them first
        src = _ops.copy(src)
    if view.is_contiguous:
        _ops.scatter(flat, src, shape=list(merged_shape), axis=axis, unique=unique, out=reshape(view, merged_shape))
        return
    tmp = _ops.copy(view)
    _ops.scatter(flat, src, shape=list(merged_shape), axis=axis, unique=unique, out=reshape(tmp, merged_shape))
    assign(view, tmp, where)


@functools.lru_cache(maxsize=None)
def _where_takes(dtype, device_type):
    """Whether the `where` op runs for arrays of dtype on a device of device_type: every dtype it
    declares on the sim, the ones not marked sim-only elsewhere (float16 / float32 on an NPU)."""
    _, dtypes, _, _, sim_only = _npurt._op_schema("where")["inputs"][1]
    names = lambda text: {t.strip() for t in text.split(",") if t.strip()}  # noqa: E731
    return dtype in names(dtypes) and (device_type == "sim" or dtype not in names(sim_only))


def _masked_fill(x, mask, src):
    """x[mask] = src for a 0-d src (x's dtype) as one in-place `where` launch, with no mask
    compaction and no host read; False when it does not apply (a non-contiguous x, a dtype
    `where` does not take on x's device): scatter, which moves any dtype as bytes, writes it."""
    from .manipulation import reshape
    if src.ndim != 0 or not x.is_contiguous or not _where_takes(str(x.dtype), str(x.device.type)):
        return False
    cond = reshape(mask, tuple(mask.shape) + (1,) * (x.ndim - mask.ndim))  # broadcast over the trailing dims
    _ops.where(cond, src, x, out=x)  # elementwise: each element is read before it is written
    return True


def _scatter_values(value, lead, post, where):
    """The values scatter writes at positions lead + post (lead merged into one axis): a 0-d value
    as one element, which the kernel repeats itself (no broadcast copy); else value broadcast."""
    from .indexing import _broadcast_view
    from .manipulation import reshape
    if value.ndim == 0:
        return reshape(value, (1,))
    src = _broadcast_view(value, tuple(lead) + tuple(post), where)
    return reshape(src, (_prod(lead),) + tuple(post)) if src.size else src


def advanced_setitem(x, key, value, where):
    from .indexing import _device_value, assign, basic_view
    from .manipulation import reshape
    if _mask_with_others(key):  # the C++ plan, as advanced_getitem
        try:
            _npurt._index_put(x, key, _device_value(value, x, where), where)
        except InvalidArgumentError as e:
            raise _cxx_key_error(e) from None
        return
    mask = _sole_mask(key, x, where)
    if mask is not None:
        if mask.ndim == 0:
            assign(basic_view(x, builtins.bool(mask.tolist()), where), value, where)
            return
        value = _device_value(value, x, where)
        if _masked_fill(x, mask, value):
            return
        flat, count = _mask_plan(x, mask)
        rest = tuple(x.shape[mask.ndim:])
        src = _scatter_values(value, (count,), rest, where)
        if count and _prod(rest):
            _write(x, (mask.size,) + rest, flat, src, 0, True, where)
        return
    plan = _Plan(x, key, where)
    v = plan.permuted()
    flat = plan.flat_index()
    f, r = plan.first, len(plan.sizes)
    pre, post = tuple(v.shape[:f]), tuple(v.shape[f + r:])
    src = _scatter_values(_device_value(value, x, where), pre + tuple(flat.shape), post, where)
    if _prod(pre + tuple(flat.shape) + post) == 0:
        return
    _write(v, plan.merged_shape(v), reshape(flat, (flat.size,)), src, f, False, where)
