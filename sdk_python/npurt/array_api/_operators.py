"""Python operators on nr.ndarray (+ - * / // % ** & | ^ << >> ~, comparisons,
unary - + abs), their reflected and in-place forms, attached to the bound
class at import. The binary and comparison operators are C++ methods
(sdk_python/bindings/operators.cpp): two arrays of one dtype run there
(npurt::array::binary); everything else calls the Python method installed
here as `_py__<op>__` (promotion, Python scalars, NotImplemented for foreign
types), the elementwise function's path. In-place forms write through the kernel's
`out=` (a strided view through its basic-index assignment; the result's dtype
and shape must be the array's own, as the standard requires).
"""
import builtins

from .. import _npurt
from .._npurt import ArgumentTypeError, InvalidArgumentError
from .. import ops as _ops
from . import _convert, _elementwise

ndarray = _npurt.ndarray
_SCALARS = (builtins.bool, int, float, complex)

# dunder stem -> elementwise function name
_BINARY = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide", "floordiv": "floor_divide",
           "mod": "remainder", "pow": "pow", "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
           "lshift": "bitwise_left_shift", "rshift": "bitwise_right_shift"}
_COMPARE = {"lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal", "eq": "equal",
            "ne": "not_equal"}


def _forward(name):
    """The Python path of `x <op> other` (the C++ method calls it for what it does not handle)."""
    fn = getattr(_elementwise, name)

    def method(self, other):
        if not isinstance(other, (ndarray, *_SCALARS)):
            return NotImplemented
        return fn(self, other)
    return method


def _reflected(name):
    fn = getattr(_elementwise, name)

    def method(self, other):
        if not isinstance(other, _SCALARS):
            return NotImplemented
        return fn(other, self)
    return method


def _inplace(stem, name):
    fn = getattr(_elementwise, name)
    where = f"npurt.ndarray.__i{stem}__"

    def method(self, other):
        if not isinstance(other, (ndarray, *_SCALARS)):
            return NotImplemented
        return store_inplace(where, self, fn(self, other))
    return method


def store_inplace(where, target, r):
    """Writes the result r of `target <op>= other` into target and returns target.

    The standard keeps the left operand's dtype and shape, so any other result is a
    TypeError. A contiguous target takes r through the copy kernel's `out=`; a strided
    view (x[:, 1], x[::2], a transposed array) takes it through `target[...] = r`, the
    strided scatter of basic-index assignment, so the write lands in the viewed base.
    r is a fresh array, so it never overlaps target.
    """
    if target.read_only:  # numpy: "output array is read-only" (a ValueError)
        raise InvalidArgumentError(f"{where}: argument 'self': output array is read-only (a view made by "
                                   "nr.broadcast_to / broadcast_arrays, whose elements may alias)")
    if r.dtype != target.dtype or tuple(r.shape) != tuple(target.shape):
        raise ArgumentTypeError(f"{where}: the result ({r.dtype}{list(r.shape)}) cannot be stored in the left "
                                f"operand ({target.dtype}{list(target.shape)}): in-place operators keep the array's "
                                "dtype and shape")
    if target.is_contiguous:
        _ops.copy(r, out=target)
    else:
        target[...] = r
    return target


def _unary(fn):
    def method(self):
        return fn(self)
    return method


def install():
    # __<op>__ itself is bound in C++ (bindings/operators.cpp) and falls back to _py__<op>__.
    for stem, name in _BINARY.items():
        setattr(ndarray, f"_py__{stem}__", _forward(name))
        setattr(ndarray, f"__r{stem}__", _reflected(name))
        setattr(ndarray, f"__i{stem}__", _inplace(stem, name))
    for stem, name in _COMPARE.items():
        setattr(ndarray, f"_py__{stem}__", _forward(name))
    ndarray.__neg__ = _unary(_elementwise.negative)
    ndarray.__pos__ = _unary(_elementwise.positive)
    ndarray.__abs__ = _unary(_elementwise.abs)
    ndarray.__invert__ = _unary(_elementwise.bitwise_invert)
    from .linalg import operators as _matmul_operators  # @ goes to the cube kernel (linalg.py)
    ndarray.__matmul__, ndarray.__rmatmul__, ndarray.__imatmul__ = _matmul_operators()
    _npurt._install_operator_slots()  # last: setting a dunder resets the type's C slot (operators.cpp)
