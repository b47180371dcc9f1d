"""nr.linalg's functions on the LU and Cholesky kernels (kernels/linalg/,
npurt::ops::lu_factor / lu_solve / cholesky): det, slogdet, inv, solve,
cholesky, and matrix_power (repeated squaring with matmul; inv first for a
negative power).

Decisions:
  * det = sign * exp(logabsdet) of the one LU pass, as numpy computes it, so
    det and slogdet agree; an exactly singular matrix gives det 0 and
    slogdet (0, -inf); NaN inputs give NaN, no error.
  * inv and solve raise LinAlgError for an exactly singular matrix (numpy's
    behaviour; the standard leaves it open), cholesky for a matrix that is
    not positive definite. Each check reads one bool back to the host.
  * solve (2024.12): x2 is a vector only when it is 1-D (shape (n,)), else a
    stack (..., n, k) whose batch dimensions broadcast with x1's. x1 is
    factored once at its own batch shape; the factors are broadcast.
  * dtypes: float32 and float64 (see _checks.py); solve promotes the pair.
"""
import collections
import operator

from .. import _npurt
from .. import array_api as xp
from .._npurt import ArgumentTypeError
from ..array_api.manipulation import broadcast_shapes
from ._checks import LinAlgError, check_factorable, check_floating, check_nonsingular, check_square

SlogdetResult = collections.namedtuple("SlogdetResult", ["sign", "logabsdet"])


def _factor(x, where, arg="x"):
    check_factorable(x, where, arg)
    check_square(x, where, arg)
    return _npurt._lu_factor(x)


def det(x, /):
    """Determinant of each square matrix of x (..., n, n) -> (...)."""
    _, _, sign, logabsdet = _factor(x, "npurt.linalg.det")
    return sign * xp.exp(logabsdet)


def slogdet(x, /):
    """(sign, log|det|) of each square matrix of x; singular: (0, -inf)."""
    _, _, sign, logabsdet = _factor(x, "npurt.linalg.slogdet")
    return SlogdetResult(sign, logabsdet)


def _identity_like(x):
    eye = xp.eye(x.shape[-1], dtype=x.dtype, device=x.device)
    return xp.broadcast_to(eye, tuple(x.shape))


def inv(x, /):
    """Inverse of each square matrix of x; LinAlgError when one is singular."""
    where = "npurt.linalg.inv"
    lu, piv, sign, _ = _factor(x, where)
    check_nonsingular(sign, where)
    return _npurt._lu_solve(lu, piv, _identity_like(x))


def solve(x1, x2, /):
    """x with x1 @ x = x2 (x2 (n,) a vector, else a stack (..., n, k)); LinAlgError when x1 is singular."""
    where = "npurt.linalg.solve"
    check_factorable(x1, where, "x1")
    check_factorable(x2, where, "x2")
    n = check_square(x1, where, "x1")
    dtype = xp.result_type(x1, x2)
    a, b = x1.astype(dtype, copy=False), x2.astype(dtype, copy=False)
    vector = b.ndim == 1
    if vector:
        b = xp.expand_dims(b, axis=-1)
    if b.shape[-2] != n:
        raise LinAlgError(f"{where}: argument 'x2': has {b.shape[-2]} rows, x1's matrices are {n} x {n} "
                          f"(x2's shape {tuple(x2.shape)}; a 1-D x2 is one vector, else (..., {n}, k))")
    batch = broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2]), where=where)
    lu, piv, sign, _ = _npurt._lu_factor(a)
    if all(batch):  # an empty broadcast batch solves nothing, so nothing is singular (numpy's rule)
        check_nonsingular(sign, where, "x1")
    if tuple(a.shape[:-2]) != batch:
        lu, piv = xp.broadcast_to(lu, batch + (n, n)), xp.broadcast_to(piv, batch + (n,))
    x = _npurt._lu_solve(lu, piv, xp.broadcast_to(b, batch + tuple(b.shape[-2:])))
    return x[..., 0] if vector else x


def cholesky(x, /, *, upper=False):
    """Lower Cholesky factor L (x = L L^T) of each symmetric positive-definite matrix of x,
    from its lower triangle; upper=True returns U = L^T. LinAlgError when not positive definite."""
    where = "npurt.linalg.cholesky"
    check_factorable(x, where)
    check_square(x, where)
    factor, info = _npurt._cholesky(x, upper=bool(upper))
    if info.size and bool(xp.any(info != 0)):
        raise LinAlgError(f"{where}: argument 'x': matrix is not positive definite")
    return factor


def matrix_power(x, n, /):
    """x raised to the integer power n (n < 0: the inverse's power; n = 0: the identity)."""
    where = "npurt.linalg.matrix_power"
    if isinstance(n, bool):
        raise ArgumentTypeError(f"{where}: argument 'n': expected an integer, got bool")
    try:
        n = operator.index(n)
    except TypeError:
        raise ArgumentTypeError(f"{where}: argument 'n': expected an integer, got {type(n).__name__}") from None
    check_floating(x, where)  # n < 0 needs inv's dtypes (float32/float64): inv checks them
    check_square(x, where)
    if n == 0:
        return _identity_like(x).copy()
    if n < 0:
        x, n = inv(x), -n
    result, square = None, x
    while True:  # binary powering: the set bits of n pick the squares to multiply in
        if n & 1:
            result = square if result is None else xp.matmul(result, square)
        n >>= 1
        if not n:
            break
        square = xp.matmul(square, square)
    return result.copy() if result is x else result
