"""Shape manipulation: the array API's manipulation functions plus x.T / x.mT.

Invariants:
  * reshape, permute_dims, matrix_transpose, expand_dims, squeeze,
    broadcast_to, broadcast_arrays, flip, moveaxis and unstack return views
    (metadata only); broadcast_to's and broadcast_arrays' are read-only, as
    numpy's (their elements may alias: writes raise, DLPack exports flag them). reshape copies (the ``copy`` kernel) only when no view
    exists, like numpy; ``copy=False`` then raises.
  * concat, stack, tile, repeat and roll write into a new array through
    views of it and the ``copy`` kernel (indexing.assign): no host round trip.
  * A bad axis raises AxisError (a ValueError and an IndexError, like numpy's)
    naming the function, the argument and the valid range.
"""
import builtins
import operator

from .. import _npurt
from .._npurt import ArgumentTypeError, InvalidArgumentError, UnsupportedDtypeError
from .indexing import assign, basic_view, view_of
from . import _args, _convert

__all__ = ["AxisError", "normalize_axis", "normalize_axes", "reshape", "permute_dims", "matrix_transpose",
           "expand_dims", "squeeze", "broadcast_to", "broadcast_shapes", "broadcast_arrays", "flip", "moveaxis",
           "unstack", "concat", "stack", "tile", "repeat", "roll"]


class AxisError(ValueError, IndexError):
    """An axis argument out of range (also a ValueError and an IndexError, like numpy's)."""


def normalize_axis(axis, ndim, where, arg="axis"):
    # operator.index, not int(): 1.5, "0", nan and inf are not axes (int() truncated, parsed or
    # raised ValueError/OverflowError without naming the function).
    try:
        a = operator.index(axis) if not isinstance(axis, builtins.bool) else None
    except TypeError:
        a = None
    if a is None:
        raise ArgumentTypeError(f"{where}: argument '{arg}': expected an integer, got {type(axis).__name__}")
    if not -ndim <= a < ndim:
        raise AxisError(f"{where}: argument '{arg}': axis {a} is out of bounds for array of dimension {ndim}")
    return a + ndim if a < 0 else a


def normalize_axes(axis, ndim, where, arg="axis"):
    """None -> all axes; int or sequence -> sorted unique tuple; repeats are an error."""
    if axis is None:
        return tuple(range(ndim))
    seq = axis if isinstance(axis, (tuple, list)) else (axis,)
    out = tuple(normalize_axis(a, ndim, where, arg) for a in seq)
    if len(set(out)) != len(out):
        raise InvalidArgumentError(f"{where}: argument '{arg}': repeated axis in {tuple(seq)}")
    return tuple(sorted(out))


def _prod(xs):
    n = 1
    for v in xs:
        n *= v
    return n


def _copy(x):
    """A contiguous copy of any view (the copy kernel)."""
    from .. import ops
    return ops.copy(x)


def _strides(x):
    return _npurt._elem_strides(x)


def _integer(v, where, arg):
    """operator.index(v) as a TypeError naming the function (int() truncated 2.5 and raised
    a bare ValueError/OverflowError for NaN/inf)."""
    try:
        return operator.index(v)
    except TypeError:
        raise ArgumentTypeError(f"{where}: argument '{arg}': expected integers, got {type(v).__name__}") from None


def _resolve_shape(shape, size, where):
    shape = (shape,) if not isinstance(shape, (tuple, list)) else tuple(shape)
    shape = tuple(_integer(s, where, "shape") for s in shape)
    unknown = [i for i, s in enumerate(shape) if s == -1]
    if len(unknown) > 1 or any(s < -1 for s in shape):
        raise InvalidArgumentError(f"{where}: argument 'shape': {shape} may hold one -1 and otherwise sizes >= 0")
    if unknown:
        known = _prod(s for s in shape if s != -1)
        if known == 0 or size % known:
            raise InvalidArgumentError(f"{where}: argument 'shape': cannot reshape array of size {size} into shape "
                                       f"{shape}")
        shape = tuple(size // known if s == -1 else s for s in shape)
    if _prod(shape) != size:
        raise InvalidArgumentError(f"{where}: argument 'shape': cannot reshape array of size {size} into shape {shape}")
    return shape


def _nocopy_strides(shape, strides, new):
    """Strides viewing (shape, strides) as shape `new`, or None (numpy's algorithm)."""
    old = [(n, s) for n, s in zip(shape, strides) if n != 1]
    out = [0] * len(new)
    oi, oj, ni, nj = 0, 1, 0, 1
    while ni < len(new) and oi < len(old):
        np_, op = new[ni], old[oi][0]
        while np_ != op:
            if np_ < op:
                np_ *= new[nj]
                nj += 1
            else:
                op *= old[oj][0]
                oj += 1
        for ok in range(oi, oj - 1):
            if old[ok][1] != old[ok + 1][0] * old[ok + 1][1]:
                return None
        out[nj - 1] = old[oj - 1][1]
        for nk in range(nj - 1, ni, -1):
            out[nk - 1] = out[nk] * new[nk]
        ni, nj, oi, oj = nj, nj + 1, oj, oj + 1
    for i in range(len(new) - 1, ni - 1, -1):  # trailing size-1 dims
        out[i] = out[i + 1] * new[i + 1] if i + 1 < len(new) else 1
    return out


def _contiguous(shape):
    out, acc = [0] * len(shape), 1
    for i in range(len(shape) - 1, -1, -1):
        out[i] = acc
        acc *= shape[i]
    return out


def reshape(x, /, shape, *, copy=None):
    where = "npurt.reshape"
    new = _resolve_shape(shape, x.size, where)
    if copy:
        x = _copy(x)
    if x.size == 0:
        return view_of(x, new, _contiguous(new))
    strides = _nocopy_strides(tuple(x.shape), _strides(x), new)
    if strides is None:
        if copy is False:
            raise InvalidArgumentError(f"{where}: argument 'copy': copy=False but this reshape of a non-contiguous "
                                       "view needs a copy")
        x = _copy(x)
        strides = _contiguous(new)
    return view_of(x, new, strides)


def permute_dims(x, /, axes):
    where = "npurt.permute_dims"
    axes = _args.int_sequence(axes, where, "axes")
    norm = tuple(normalize_axis(a, x.ndim, where, "axes") for a in axes)
    if sorted(norm) != list(range(x.ndim)):
        raise InvalidArgumentError(f"{where}: argument 'axes': {axes} is not a permutation of the {x.ndim} axes")
    s = _strides(x)
    return view_of(x, [x.shape[a] for a in norm], [s[a] for a in norm])


def matrix_transpose(x, /):
    if x.ndim < 2:
        raise InvalidArgumentError(f"npurt.matrix_transpose: argument 'x': needs at least 2 dimensions, got {x.ndim}")
    axes = list(range(x.ndim))
    axes[-2], axes[-1] = axes[-1], axes[-2]
    return permute_dims(x, axes)


def expand_dims(x, /, axis=0):
    a = normalize_axis(axis, x.ndim + 1, "npurt.expand_dims")
    shape, s = list(x.shape), list(_strides(x))
    shape.insert(a, 1)
    s.insert(a, 0)
    return view_of(x, shape, s)


def squeeze(x, /, axis=None):
    where = "npurt.squeeze"
    if axis is None:
        axes = tuple(i for i, n in enumerate(x.shape) if n == 1)
    else:
        axes = normalize_axes(axis, x.ndim, where)
    for a in axes:
        if x.shape[a] != 1:
            raise InvalidArgumentError(f"{where}: argument 'axis': cannot select an axis to squeeze out which has size "
                                       f"not equal to one (axis {a} has size {x.shape[a]})")
    keep = [i for i in range(x.ndim) if i not in axes]
    s = _strides(x)
    return view_of(x, [x.shape[i] for i in keep], [s[i] for i in keep])


def broadcast_shapes(*shapes, where="npurt.broadcast_shapes"):
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for i in range(-ndim, 0):
        sizes = {s[i] for s in shapes if len(s) >= -i and s[i] != 1}
        if len(sizes) > 1:
            raise InvalidArgumentError(f"{where}: shapes {' '.join(str(tuple(s)) for s in shapes)} cannot be broadcast "
                                       f"together (sizes {sorted(sizes)} in dimension {i})")
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def broadcast_to(x, /, shape):
    where = "npurt.broadcast_to"
    shape = _args.sizes(shape, where)
    if len(shape) < x.ndim or any(n < 0 for n in shape):
        raise InvalidArgumentError(f"{where}: argument 'shape': cannot broadcast shape {tuple(x.shape)} to {shape}")
    lead = len(shape) - x.ndim
    s = _strides(x)
    strides = [0] * lead
    for i, n in enumerate(x.shape):
        if n == shape[lead + i]:
            strides.append(s[i])
        elif n == 1:
            strides.append(0)
        else:
            raise InvalidArgumentError(f"{where}: argument 'shape': cannot broadcast shape {tuple(x.shape)} to {shape}")
    return _npurt._read_only_view(view_of(x, shape, strides))  # read-only as numpy's: elements may alias


def broadcast_arrays(*arrays):
    shape = broadcast_shapes(*(tuple(a.shape) for a in arrays), where="npurt.broadcast_arrays")
    return [broadcast_to(a, shape) for a in arrays]  # 2024.12: List[array] (a tuple from 2025.12)


def flip(x, /, *, axis=None):
    axes = normalize_axes(axis, x.ndim, "npurt.flip")
    s = list(_strides(x))
    offset = 0
    for a in axes:
        if x.shape[a] > 0:
            offset += s[a] * (x.shape[a] - 1)
        s[a] = -s[a]
    return view_of(x, x.shape, s, offset if x.size else 0)


def moveaxis(x, source, destination, /):
    where = "npurt.moveaxis"
    src = source if isinstance(source, (tuple, list)) else (source,)
    dst = destination if isinstance(destination, (tuple, list)) else (destination,)
    if len(src) != len(dst):
        raise InvalidArgumentError(f"{where}: arguments 'source' and 'destination' must have the same number of "
                                   "elements")
    src = [normalize_axis(a, x.ndim, where, "source") for a in src]
    dst = [normalize_axis(a, x.ndim, where, "destination") for a in dst]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise InvalidArgumentError(f"{where}: repeated axis in 'source' or 'destination'")
    order = [a for a in range(x.ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return permute_dims(x, order)


def unstack(x, /, *, axis=0):
    a = normalize_axis(axis, x.ndim, "npurt.unstack")
    return tuple(basic_view(x, (slice(None),) * a + (i,)) for i in range(x.shape[a]))


def _result_dtype(arrays, where):
    dtypes = {a.dtype for a in arrays}
    if len(dtypes) == 1:
        return arrays[0].dtype
    import npurt
    result_type = getattr(npurt, "result_type", None)
    if result_type is None:
        raise UnsupportedDtypeError(f"{where}: argument 'arrays': mixed dtypes {sorted(map(str, dtypes))} need "
                                    "type promotion")
    return result_type(*arrays)


def _check_arrays(arrays, where):
    arrays = _args.array_sequence(arrays, where)
    if not arrays:
        raise InvalidArgumentError(f"{where}: argument 'arrays': need at least one array")
    for i, a in enumerate(arrays):
        if not isinstance(a, _npurt.ndarray):
            raise ArgumentTypeError(f"{where}: argument 'arrays': element {i} is a {type(a).__name__}, not an "
                                    "npurt.ndarray (convert it with nr.asarray)")
    return arrays


def concat(arrays, /, *, axis=0):
    where = "npurt.concat"
    arrays = _check_arrays(arrays, where)
    if axis is None:
        arrays, axis = [reshape(a, (-1,)) for a in arrays], 0
    first = arrays[0]
    if first.ndim == 0:
        raise InvalidArgumentError(f"{where}: argument 'arrays': zero-dimensional arrays cannot be concatenated")
    a = normalize_axis(axis, first.ndim, where)
    for i, x in enumerate(arrays):
        if x.ndim != first.ndim or any(x.shape[d] != first.shape[d] for d in range(x.ndim) if d != a):
            raise InvalidArgumentError(f"{where}: argument 'arrays': array {i} has shape {tuple(x.shape)}, "
                                       f"incompatible with {tuple(first.shape)} outside axis {a}")
    shape = list(first.shape)
    shape[a] = sum(x.shape[a] for x in arrays)
    out = _npurt.empty(tuple(shape), _result_dtype(arrays, where), stream=first.stream)
    start = 0
    for x in arrays:
        n = x.shape[a]
        assign(basic_view(out, (slice(None),) * a + (slice(start, start + n),)), x, where)
        start += n
    return out


def stack(arrays, /, *, axis=0):
    where = "npurt.stack"
    arrays = _check_arrays(arrays, where)
    for i, x in enumerate(arrays):
        if tuple(x.shape) != tuple(arrays[0].shape):
            raise InvalidArgumentError(f"{where}: argument 'arrays': all input arrays must have the same shape, "
                                       f"array {i} has {tuple(x.shape)}, array 0 {tuple(arrays[0].shape)}")
    a = normalize_axis(axis, arrays[0].ndim + 1, where)
    return concat([expand_dims(x, axis=a) for x in arrays], axis=a)


@_args.public("npurt.tile", "repetitions")
def tile(x, repetitions, /):
    reps = _args.sizes(repetitions, "npurt.tile", "repetitions")
    nd = max(len(reps), x.ndim)
    reps = (1,) * (nd - len(reps)) + reps
    x = reshape(x, (1,) * (nd - x.ndim) + tuple(x.shape))
    interleaved = reshape(x, [v for n in x.shape for v in (1, n)])
    big = broadcast_to(interleaved, [v for r, n in zip(reps, x.shape) for v in (r, n)])
    return reshape(big, [r * n for r, n in zip(reps, x.shape)], copy=True)


@_args.public("npurt.repeat", "repeats")
def repeat(x, repeats, /, *, axis=None):
    where = "npurt.repeat"
    if not isinstance(repeats, _npurt.ndarray):
        counts = _args.sizes(repeats, where, "repeats")
        repeats = list(counts) if isinstance(repeats, (tuple, list)) else counts[0]
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    a = normalize_axis(axis, x.ndim, where)
    if isinstance(repeats, int):
        if repeats < 0:
            raise InvalidArgumentError(f"{where}: argument 'repeats': must be >= 0, got {repeats}")
        shape = list(x.shape)
        expanded = expand_dims(x, axis=a + 1)
        big = broadcast_to(expanded, shape[:a + 1] + [repeats] + shape[a + 1:])
        return reshape(big, shape[:a] + [shape[a] * repeats] + shape[a + 1:], copy=True)
    counts = [int(r) for r in (repeats.tolist() if hasattr(repeats, "tolist") else repeats)]
    if len(counts) == 1 and x.shape[a] != 1:  # shape (1,) broadcasts to (M,), as the standard allows
        return repeat(x, counts[0], axis=a)
    if len(counts) != x.shape[a] or any(c < 0 for c in counts):
        raise InvalidArgumentError(f"{where}: argument 'repeats': need {x.shape[a]} counts >= 0 along axis {a}, "
                                   f"got {counts}")
    pieces = [repeat(basic_view(x, (slice(None),) * a + (slice(i, i + 1),)), c, axis=a)
              for i, c in enumerate(counts) if c]
    if not pieces:
        shape = list(x.shape)
        shape[a] = 0
        return _npurt.empty(tuple(shape), x.dtype, stream=x.stream)
    return concat(pieces, axis=a)


def roll(x, /, shift, *, axis=None):
    where = "npurt.roll"
    if axis is None:
        return reshape(roll(reshape(x, (-1,)), shift, axis=0), tuple(x.shape))
    shifts = shift if isinstance(shift, (tuple, list)) else (shift,)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    if len(shifts) != len(axes):
        if len(shifts) == 1:
            shifts = tuple(shifts) * len(axes)
        else:
            raise InvalidArgumentError(f"{where}: arguments 'shift' and 'axis' must have the same length")
    out = x
    for s, ax in zip(shifts, axes):
        a = normalize_axis(ax, x.ndim, where)
        n = out.shape[a]
        k = _integer(s, where, "shift") % n if n else 0
        if k == 0:
            out = _copy(out) if out is x else out
            continue
        pre = (slice(None),) * a
        out = concat([basic_view(out, pre + (slice(n - k, n),)), basic_view(out, pre + (slice(0, n - k),))], axis=a)
    return out


# ---- methods on nr.ndarray ---------------------------------------------------------

def _method_reshape(x, *shape, copy=None):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    return reshape(x, shape, copy=copy)


@_args.public("npurt.ndarray.transpose", "x")
def _method_transpose(x, *axes):
    if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
        axes = axes[0]
    return permute_dims(x, axes if axes else tuple(range(x.ndim - 1, -1, -1)))


def install(cls=_npurt.ndarray):
    """Attaches x.T, x.mT and numpy's reshape/transpose/flatten/ravel/squeeze methods."""
    cls.T = property(lambda x: permute_dims(x, tuple(range(x.ndim - 1, -1, -1))),
                     doc="the array with its axes reversed (a view)")
    cls.mT = property(matrix_transpose, doc="the last two axes swapped (a view)")
    cls.reshape = _method_reshape
    cls.transpose = _method_transpose
    cls.ravel = lambda x: reshape(x, (-1,))
    cls.flatten = lambda x: reshape(x, (-1,), copy=True)
    cls.squeeze = squeeze


install()


# Robustness (tests/python/robustness): a non-array x is a TypeError naming the function.
for _name in ['broadcast_to', 'expand_dims', 'flip', 'matrix_transpose', 'moveaxis', 'permute_dims', 'repeat', 'reshape', 'roll', 'squeeze', 'tile', 'unstack']:
    globals()[_name] = _convert.checks_array(globals()[_name], "npurt." + _name)
del _name
