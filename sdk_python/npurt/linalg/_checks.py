"""Argument checks and the error class shared by nr.linalg's functions.

Decisions (numpy.linalg's, where the standard leaves a choice):
  * LinAlgError (an npurt InvalidArgumentError, so a ValueError, like numpy's)
    for what is wrong with the matrices themselves: fewer than 2 dimensions,
    not square, exactly singular (inv, solve), not positive definite
    (cholesky).
  * UnsupportedDtypeError (also a TypeError, like array-api-strict's refusals)
    for dtypes the kernels do not take: the factorizations (kernels/linalg/)
    take float32 and float64 (float64 on the sim backend only, as everywhere);
    float16/bfloat16, integers, bool and complex are refused with the reason.
"""
from .. import _npurt
from .. import array_api as xp
from .._npurt import ArgumentTypeError, InvalidArgumentError, UnsupportedDtypeError


class LinAlgError(InvalidArgumentError):
    """A matrix argument nr.linalg cannot work with (numpy.linalg.LinAlgError's role)."""


# The dtypes of the LU / Cholesky kernels.
FACTOR_DTYPES = ("float32", "float64")
_FLOATING = ("float16", "bfloat16", "float32", "float64", "complex64", "complex128")
_NUMERIC = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64") + _FLOATING


def check_array(x, where, arg="x"):
    if not isinstance(x, _npurt.ndarray):
        raise ArgumentTypeError(f"{where}: argument '{arg}': expected an npurt.ndarray, got {type(x).__name__}")
    return x


def _check_kind(x, where, arg, allowed, kind, hint):
    check_array(x, where, arg)
    if x.dtype.name not in allowed:
        raise UnsupportedDtypeError(f"{where}: argument '{arg}': {x.dtype.name} is not a {kind} dtype ({hint})")
    return x


def check_numeric(x, where, arg="x"):
    return _check_kind(x, where, arg, _NUMERIC, "numeric", "the standard asks for numeric arrays")


def check_floating(x, where, arg="x"):
    """Any real or complex floating dtype (the composed functions: vector_norm)."""
    return _check_kind(x, where, arg, _FLOATING, "floating-point", "cast it first, e.g. x.astype(nr.float32)")


def check_factorable(x, where, arg="x"):
    """float32/float64: the dtypes of the LU and Cholesky kernels."""
    check_array(x, where, arg)
    name = x.dtype.name
    if name in FACTOR_DTYPES:
        return x
    if name in ("complex64", "complex128"):
        reason = "complex matrices are not supported yet (the LU and Cholesky kernels are real)"
    elif name in ("float16", "bfloat16"):
        reason = f"{name} is too narrow for a factorization (numpy refuses it too); cast to float32"
    else:
        reason = f"{name} is not a floating-point dtype (cast it to float32 or float64)"
    raise UnsupportedDtypeError(f"{where}: argument '{arg}': {reason}")


def check_square(x, where, arg="x"):
    """x is a stack of square matrices (..., n, n); returns n."""
    if x.ndim < 2:
        raise LinAlgError(f"{where}: argument '{arg}': {x.ndim}-dimensional array given; it must be at least "
                          "two-dimensional (a stack of square matrices)")
    if x.shape[-1] != x.shape[-2]:
        raise LinAlgError(f"{where}: argument '{arg}': the last two dimensions must be square, got "
                          f"{x.shape[-2]} x {x.shape[-1]}")
    return x.shape[-1]


def check_nonsingular(sign, where, arg="x"):
    """Raises LinAlgError when a matrix of the stack is exactly singular (lu_factor's sign 0).
    Reads one bool back to the host (a synchronization, as numpy's check is)."""
    if sign.size and bool(xp.any(sign == 0)):
        raise LinAlgError(f"{where}: argument '{arg}': singular matrix")
