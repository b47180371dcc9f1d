"""The array API's linear algebra functions over the cube-unit `matmul`
kernel (kernels/matmul/) and, for the dtypes the cube has no path for, the
scalar-unit `matmul_generic` kernel: matmul (also `@`), tensordot, vecdot. Promotion,
the standard's shape rules and their error messages live here; batch
broadcasting, transposes and 1-D operands are handled by the kernel.

Decisions:
  * dtypes: float32, float16 and bfloat16 go to the cube kernel (fp32
    accumulation, the result in the promoted dtype); integers, float64 and
    complex go to `matmul_generic` (integers wrap modulo 2^bits like numpy;
    64-bit and complex dtypes are sim-only). Boolean operands raise TypeError
    (the standard asks for numeric dtypes).
  * A transposed view (x.mT of a contiguous array) is passed to the kernel as
    the contiguous original with trans_a / trans_b: no copy. Other
    non-contiguous views are copied by the dispatcher.
  * K = 0 returns zeros (the `fill` kernel); the kernel itself needs K >= 1.
"""
import builtins

from .. import _npurt
from .._npurt import ArgumentTypeError, InvalidArgumentError, UnsupportedDtypeError
from .. import ops as _ops
from ._operators import store_inplace
from . import _convert, _dtypes, manipulation

__all__ = ["matmul", "tensordot", "vecdot"]

ndarray = _npurt.ndarray
_FLOATS = ("float32", "float16", "bfloat16")
_GENERIC = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float64",
            "complex64", "complex128")


def _operands(where, x1, x2):
    for arg, x in (("x1", x1), ("x2", x2)):
        if not isinstance(x, ndarray):
            raise ArgumentTypeError(f"{where}: argument '{arg}': expected an npurt.ndarray, got {type(x).__name__}")
    dt = x1.dtype if x1.dtype == x2.dtype else _dtypes.promote(x1.dtype, x2.dtype, where)
    if dt.name not in _FLOATS and dt.name not in _GENERIC:
        raise UnsupportedDtypeError(f"{where}: {dt.name} operands are not supported: matrix products need a numeric "
                                    f"dtype (convert with astype first)")
    return _convert.cast(x1, dt), _convert.cast(x2, dt)


def _kernel_view(x):
    """(array, trans): a transposed view of a contiguous matrix goes in as the original."""
    if x.ndim >= 2 and not x.is_contiguous:
        t = manipulation.matrix_transpose(x)
        if t.is_contiguous:
            return t, True
    return x, False


def _check_shapes(where, x1, x2):
    if x1.ndim == 0 or x2.ndim == 0:
        arg = "x1" if x1.ndim == 0 else "x2"
        raise InvalidArgumentError(f"{where}: argument '{arg}': 0-d arrays are not allowed (use multiply)")
    k1 = x1.shape[-1]
    k2 = x2.shape[0] if x2.ndim == 1 else x2.shape[-2]
    if k1 != k2:
        axis2 = "0" if x2.ndim == 1 else "-2"
        raise InvalidArgumentError(f"{where}: argument 'x2': contracted dimension {k2} (axis {axis2} of shape "
                                   f"{tuple(x2.shape)}) does not match {k1} (axis -1 of x1's shape {tuple(x1.shape)})")
    b1 = tuple(x1.shape[:-2]) if x1.ndim > 2 else ()
    b2 = tuple(x2.shape[:-2]) if x2.ndim > 2 else ()
    try:
        batch = manipulation.broadcast_shapes(b1, b2)
    except ValueError:
        raise InvalidArgumentError(f"{where}: argument 'x2': batch dims {b2} cannot be broadcast with x1's "
                                   f"{b1}") from None
    return tuple(batch) + ((x1.shape[-2],) if x1.ndim > 1 else ()) + ((x2.shape[-1],) if x2.ndim > 1 else ()), k1


def _as_3d(x, batch, rows, cols):
    """x (its batch dims broadcastable to `batch`) as [B or 1, rows, cols] for matmul_generic."""
    own = tuple(x.shape[:-2])
    if _prod(own) == 1:
        return manipulation.reshape(x, (1, rows, cols))
    if own != tuple(batch):  # partly broadcast batch dims: materialize (the kernel takes B or 1)
        x = manipulation.broadcast_to(x, tuple(batch) + (rows, cols))
    return manipulation.reshape(x, (_prod(batch), rows, cols))


def _generic(where, a, b, shape, k):
    """matmul_generic on the 3-D forms of a and b; the result reshaped to `shape`."""
    a2 = a if a.ndim > 1 else manipulation.reshape(a, (1, k))
    b2 = b if b.ndim > 1 else manipulation.reshape(b, (k, 1))
    batch = manipulation.broadcast_shapes(tuple(a2.shape[:-2]), tuple(b2.shape[:-2]))
    a3 = _as_3d(a2, batch, a2.shape[-2], k)
    b3 = _as_3d(b2, batch, k, b2.shape[-1])
    try:
        y = _ops.matmul_generic(a3, b3)
    except (ValueError, TypeError) as e:
        raise type(e)(str(e).replace("npurt.ops.matmul_generic", where)) from None
    return manipulation.reshape(y, shape)


def _matmul(where, x1, x2):
    a, b = _operands(where, x1, x2)
    shape, k = _check_shapes(where, a, b)
    if k == 0 or 0 in shape:
        return _ops.fill(shape=shape, dtype=a.dtype, value=0.0)
    if a.dtype.name not in _FLOATS:
        return _generic(where, a, b, shape, k)
    a, ta = _kernel_view(a)
    b, tb = _kernel_view(b)
    try:
        return _ops.matmul(a, b, trans_a=ta, trans_b=tb)
    except (ValueError, TypeError) as e:
        raise type(e)(str(e).replace("npurt.ops.matmul", where)) from None


def matmul(x1, x2, /):
    """Matrix product with the array API's rules: 1-D operands are promoted
    (a row for x1, a column for x2) and that dimension removed; batch
    dimensions broadcast. float32/float16/bfloat16 with fp32 accumulation."""
    return _matmul("npurt.matmul", x1, x2)


def _axes_pair(where, axes, n1, n2):
    if isinstance(axes, builtins.bool) or not isinstance(axes, (int, tuple, list)):
        raise ArgumentTypeError(f"{where}: argument 'axes': expected an int or a pair of sequences, got "
                                f"{type(axes).__name__}")
    if isinstance(axes, int):
        if axes < 0 or axes > min(n1, n2):
            raise InvalidArgumentError(f"{where}: argument 'axes': {axes} must be in [0, {min(n1, n2)}]")
        return list(range(n1 - axes, n1)), list(range(axes))
    if len(axes) != 2:
        raise InvalidArgumentError(f"{where}: argument 'axes': expected two sequences of axes, got {len(axes)} items")
    s1 = [axes[0]] if isinstance(axes[0], int) else list(axes[0])
    s2 = [axes[1]] if isinstance(axes[1], int) else list(axes[1])
    if len(s1) != len(s2):
        raise InvalidArgumentError(f"{where}: argument 'axes': {len(s1)} axes of x1 against {len(s2)} axes of x2")
    a1 = [manipulation.normalize_axis(a, n1, where, "axes") for a in s1]
    a2 = [manipulation.normalize_axis(a, n2, where, "axes") for a in s2]
    if len(set(a1)) != len(a1) or len(set(a2)) != len(a2):
        raise InvalidArgumentError(f"{where}: argument 'axes': repeated axis")
    return a1, a2


def _prod(xs):
    n = 1
    for v in xs:
        n *= v
    return n


def tensordot(x1, x2, /, *, axes=2):
    """Sum of products over the given axes: axes=N contracts the last N axes
    of x1 with the first N of x2; a pair of sequences names them."""
    where = "npurt.tensordot"
    a, b = _operands(where, x1, x2)
    c1, c2 = _axes_pair(where, axes, a.ndim, b.ndim)
    for i, j in zip(c1, c2):
        if a.shape[i] != b.shape[j]:
            raise InvalidArgumentError(f"{where}: argument 'axes': x1 axis {i} has size {a.shape[i]} but x2 axis "
                                       f"{j} has size {b.shape[j]}")
    f1 = [i for i in range(a.ndim) if i not in c1]
    f2 = [j for j in range(b.ndim) if j not in c2]
    k = _prod(a.shape[i] for i in c1)
    p, q = _prod(a.shape[i] for i in f1), _prod(b.shape[j] for j in f2)
    a2 = manipulation.reshape(manipulation.permute_dims(a, f1 + c1), (p, k))
    b2 = manipulation.reshape(manipulation.permute_dims(b, c2 + f2), (k, q))
    y = _matmul(where, a2, b2)
    return manipulation.reshape(y, tuple(a.shape[i] for i in f1) + tuple(b.shape[j] for j in f2))


def vecdot(x1, x2, /, *, axis=-1):
    """Dot product of vectors along `axis` (of the broadcast shape), the
    other dims broadcast. Complex x1 is conjugated first (the standard's
    vecdot is sum(conj(x1) * x2))."""
    where = "npurt.vecdot"
    a, b = _operands(where, x1, x2)
    if a.ndim == 0 or b.ndim == 0:
        raise InvalidArgumentError(f"{where}: argument '{'x1' if a.ndim == 0 else 'x2'}': 0-d arrays are not allowed")
    try:
        shape = tuple(manipulation.broadcast_shapes(tuple(a.shape), tuple(b.shape)))
    except ValueError:
        raise InvalidArgumentError(f"{where}: argument 'x2': shape {tuple(b.shape)} cannot be broadcast with x1's "
                                   f"{tuple(a.shape)}") from None
    ax = manipulation.normalize_axis(axis, len(shape), where)
    if ax - len(shape) < -min(a.ndim, b.ndim):
        raise InvalidArgumentError(f"{where}: argument 'axis': {axis} must index a dimension of both x1 and x2")
    if a.shape[ax - len(shape)] != b.shape[ax - len(shape)]:  # one is 1: broadcast along the axis too
        a, b = manipulation.broadcast_arrays(a, b)
    if _dtypes.kind(a.dtype) == "c":
        from .. import conj
        a = conj(a)
    a = manipulation.moveaxis(a, ax - len(shape), -1)
    b = manipulation.moveaxis(b, ax - len(shape), -1)
    y = _matmul(where, manipulation.expand_dims(a, axis=-2), manipulation.expand_dims(b, axis=-1))
    return manipulation.reshape(y, tuple(y.shape[:-2]))


def _matmul_op(self, other):
    if not isinstance(other, ndarray):
        return NotImplemented
    return _matmul("npurt.matmul", self, other)  # x1 @ x2 names the function, as x1 + x2 names npurt.add


def _rmatmul_op(self, other):
    if not isinstance(other, ndarray):
        return NotImplemented
    return _matmul("npurt.matmul", other, self)


def _imatmul_op(self, other):
    where = "npurt.ndarray.__imatmul__"
    if not isinstance(other, ndarray):
        return NotImplemented
    return store_inplace(where, self, _matmul(where, self, other))


def operators():
    """(__matmul__, __rmatmul__, __imatmul__) for nr.ndarray."""
    return _matmul_op, _rmatmul_op, _imatmul_op
