"""Argument checks and the error class shared by nr.linalg's functions.

Decisions (numpy.linalg's, where the standard leaves a choice):
  * LinAlgError (an npurt InvalidArgumentError, so a ValueError, like numpy's)
    for what is wrong with the matrices themselves: fewer than 2 dimensions,
    not square, exactly singular (inv, solve), not positive definite
    (cholesky), and the NaN/inf inputs numpy's LAPACK reports as not
    converging (eigh/eigvalsh: NaN or inf in the lower triangle; the SVD
    family: a NaN). Other NaN/inf inputs give NaN results, as in numpy.
  * UnsupportedDtypeError (also a TypeError, like array-api-strict's refusals)
    for dtypes the kernels do not take: every decomposition (kernels/linalg/:
    LU, Cholesky, QR, eigh, SVD) takes float32 and float64 (float64 on the sim backend only, as everywhere);
    float16/bfloat16, integers, bool and complex are refused with the reason.
"""
from .. import _npurt
from .. import array_api as xp
from .._npurt import ArgumentTypeError, InvalidArgumentError, UnsupportedDtypeError


class LinAlgError(InvalidArgumentError):
    """A matrix argument nr.linalg cannot work with (numpy.linalg.LinAlgError's role)."""


# The dtypes of the kernels of kernels/linalg/ (LU, Cholesky, QR, eigh, SVD).
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
    """float32/float64: the dtypes of the kernels of kernels/linalg/ (every decomposition)."""
    check_array(x, where, arg)
    name = x.dtype.name
    if name in FACTOR_DTYPES:
        return x
    if name in ("complex64", "complex128"):
        reason = f"{name}: complex matrices are not supported yet (the kernels of nr.linalg are real)"
    elif name in ("float16", "bfloat16"):
        reason = f"{name} is too narrow for a factorization (numpy refuses it too); cast to float32"
    else:
        reason = f"{name} is not a floating-point dtype (cast it to float32 or float64)"
    raise UnsupportedDtypeError(f"{where}: argument '{arg}': {reason}")


def check_matrices(x, where, arg="x", what="matrices"):
    """x is a stack of matrices (..., m, n): at least 2 dimensions."""
    if x.ndim < 2:
        raise LinAlgError(f"{where}: argument '{arg}': {x.ndim}-dimensional array given; it must have at least "
                          f"2 dimensions (a stack of {what})")
    return x


def check_square(x, where, arg="x"):
    """x is a stack of square matrices (..., n, n); returns n."""
    check_matrices(x, where, arg, "square matrices")
    if x.shape[-1] != x.shape[-2]:
        raise LinAlgError(f"{where}: argument '{arg}': the last two dimensions must be square, got "
                          f"{x.shape[-2]} x {x.shape[-1]}")
    return x.shape[-1]


def check_nonsingular(sign, where, arg="x"):
    """Raises LinAlgError when a matrix of the stack is exactly singular (lu_factor's sign 0).
    Reads one bool back to the host (a synchronization, as numpy's check is)."""
    if sign.size and bool(xp.any(sign == 0)):
        raise LinAlgError(f"{where}: argument '{arg}': singular matrix")


def check_converged(where, info, non_finite):
    """Raises LinAlgError when a QL / Jacobi kernel's info (int32 per matrix) reports a matrix that did not
    converge: -1 (the iteration cap reached), or -2 (its NaN/inf, `non_finite` saying which; numpy's
    LAPACK fails on those). Reads one int back to the host."""
    worst = int(xp.min(info)) if info.size else 0
    if worst == -1:
        raise LinAlgError(f"{where}: argument 'x': the iteration (QL / Jacobi) did not converge within its cap "
                          f"for at least one matrix of the stack")
    if worst < 0:
        raise LinAlgError(f"{where}: argument 'x': {non_finite}")
