"""The array API `linalg` extension's decompositions and what is built on them:
qr, eigh, eigvalsh, svd, svdvals, pinv, matrix_rank, matrix_norm.

The decompositions run on the device in kernels/linalg/ (`linalg_qr`:
Householder; `linalg_eigh`: Householder tridiagonalization + implicit QL, or
cyclic Jacobi; `linalg_svd`: one-sided Jacobi), one
matrix of the stack per block; pinv, matrix_rank and matrix_norm are npurt
array operations on their results (or on abs/sum/max/min for matrix_norm's
'fro', 1, -1, inf, -inf).

Decisions:
  * dtypes: float32 and float64 (float64 on the sim backend only, as every
    float64 kernel). float16/bfloat16, integers, bool and complex raise
    UnsupportedDtypeError (a TypeError) naming the function and 'x', as
    array-api-strict does for non-floating input (complex: not implemented).
  * eigh/eigvalsh read the lower triangle (numpy's UPLO='L'); eigenvalues are
    ascending, singular values descending; vector signs are not normalized.
  * NaN / inf follow numpy 2.x, whose LAPACK reports them as not
    converging: eigh/eigvalsh raise LinAlgError for a NaN or inf in the lower
    triangle (numpy does from n = 3 on; its 2 x 2 case returns NaN), the SVD
    family (svd, svdvals, pinv, matrix_rank, matrix_norm 2/-2/'nuc') for a
    NaN; an inf alone gives NaN singular values (matrix_rank 0), and NaN U /
    Vh / pinv (numpy's are LAPACK's leftovers). qr gives NaN/inf results. QL
    / Jacobi that does not converge within the iteration cap raises
    LinAlgError too (never seen for finite input).
  * Every SVD (svd, svdvals, pinv, matrix_rank, matrix_norm 2/-2/'nuc') is
    npurt::ops::svd (`_npurt._linalg_svd`): a matrix at least twice as tall
    as wide first takes its QR (A = Q R; complete Q for full_matrices) and
    Jacobi runs on the small R (U = Q U_R, cube matmul); twice as wide, the
    same on A^T. Jacobi's cost grows with the long side, QR's much less:
    1000x50 float32 reduced svd 56 -> 25 ms CPU on the sim.
  * rtol (pinv, matrix_rank): None means max(M, N) * eps of x's dtype, times
    the largest singular value, as the standard says; a float or an array
    broadcasting against the stack shape.
"""
import builtins
import collections

from .. import _npurt
from .._npurt import ArgumentTypeError, InvalidArgumentError
from ._checks import LinAlgError, check_converged, check_factorable, check_matrices, check_square
from .. import array_api as _xp
from .. import ops as _ops

__all__ = ["QRResult", "EighResult", "SVDResult", "qr", "eigh", "eigvalsh", "svd", "svdvals", "pinv",
           "matrix_rank", "matrix_norm"]

QRResult = collections.namedtuple("QRResult", ["Q", "R"])
EighResult = collections.namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
SVDResult = collections.namedtuple("SVDResult", ["U", "S", "Vh"])

_EPS = {"float32": 1.1920928955078125e-07, "float64": 2.220446049250313e-16}
_NORM_ORDS = ("fro", "nuc", 1, -1, 2, -2, float("inf"), float("-inf"))


def _matrices(where, x, square=False):
    """x checked (_checks.py, as the LU family's): an npurt array of float32/float64 matrices (square ones
    for eigh)."""
    check_factorable(x, where)
    if square:
        check_square(x, where)
    else:
        check_matrices(x, where)
    return x


_EIGH_NON_FINITE = "Eigenvalues did not converge (a matrix of the stack has NaN or inf in its lower triangle)"


def _check_converged(where, info):
    """Raises LinAlgError when an eigh / svd kernel's info reports a matrix that did not converge."""
    check_converged(where, info, _EIGH_NON_FINITE)


def qr(x, /, *, mode="reduced"):
    """QR decomposition of x [..., M, N]: QRResult(Q, R), A = Q R with orthonormal Q columns and upper
    triangular R. mode='reduced': Q [..., M, K], R [..., K, N], K = min(M, N); 'complete': Q [..., M, M],
    R [..., M, N]."""
    where = "npurt.linalg.qr"
    _matrices(where, x)
    if not isinstance(mode, str) or mode not in ("reduced", "complete"):
        raise InvalidArgumentError(f"{where}: argument 'mode': must be 'reduced' or 'complete', got {mode!r}")
    q, r = _ops.linalg_qr(x, complete=mode == "complete")
    return QRResult(q, r)


def eigh(x, /):
    """Eigenvalues (ascending) and eigenvectors (columns) of the symmetric matrices x [..., M, M], read from
    the lower triangle: EighResult(eigenvalues [..., M], eigenvectors [..., M, M])."""
    where = "npurt.linalg.eigh"
    _matrices(where, x, square=True)
    w, v, info = _ops.linalg_eigh(x, vectors=True)
    _check_converged(where, info)
    return EighResult(w, v)


def eigvalsh(x, /):
    """Eigenvalues (ascending) of the symmetric matrices x [..., M, M] (lower triangle): [..., M]."""
    where = "npurt.linalg.eigvalsh"
    _matrices(where, x, square=True)
    w, _, info = _ops.linalg_eigh(x, vectors=False)
    _check_converged(where, info)
    return w


def svd(x, /, *, full_matrices=True):
    """Singular value decomposition of x [..., M, N]: SVDResult(U, S, Vh), A = U diag(S) Vh, S [..., K]
    descending (K = min(M, N)); U [..., M, M] and Vh [..., N, N] with full_matrices, else [..., M, K] and
    [..., K, N]."""
    where = "npurt.linalg.svd"
    _matrices(where, x)
    if not isinstance(full_matrices, builtins.bool):
        raise ArgumentTypeError(f"{where}: argument 'full_matrices': expected a bool, got "
                                f"{type(full_matrices).__name__}")
    return SVDResult(*_svd(where, x, full_matrices, vectors=True))


def svdvals(x, /):
    """Singular values of x [..., M, N], descending: [..., min(M, N)]."""
    return _singular_values("npurt.linalg.svdvals", x)


def _singular_values(where, x):
    _matrices(where, x)
    return _svd(where, x, False, vectors=False)[1]


def _svd(where, x, full_matrices, vectors):
    """(U, S, Vh) of the checked x (U and Vh [..., 0, 0] without vectors): npurt::ops::svd, whose
    QR-first path for long matrices is the only copy of that rule."""
    try:
        return _npurt._linalg_svd(x, full_matrices=full_matrices, vectors=vectors)
    except InvalidArgumentError as e:  # non-convergence (a NaN, or the sweep cap): numpy's LinAlgError
        raise LinAlgError(str(e).replace("npurt::ops::svd", where)) from None


def _cutoff(where, x, s, rtol):
    """rtol * largest singular value, shaped [..., 1] against s [..., K] (K >= 1)."""
    if rtol is None:
        rtol = builtins.max(x.shape[-2:]) * _EPS[x.dtype.name]
    elif isinstance(rtol, _npurt.ndarray):
        rtol = _xp.expand_dims(_xp.astype(rtol, x.dtype), axis=-1)
    elif isinstance(rtol, builtins.bool) or not isinstance(rtol, (int, float)):
        raise ArgumentTypeError(f"{where}: argument 'rtol': expected a float, an npurt.ndarray or None, got "
                                f"{type(rtol).__name__}")
    return s[..., :1] * rtol


def pinv(x, /, *, rtol=None):
    """Moore-Penrose pseudo-inverse of x [..., M, N] from its SVD: [..., N, M]. Singular values at most
    rtol * the largest one count as zero (rtol None: max(M, N) * eps)."""
    where = "npurt.linalg.pinv"
    _matrices(where, x)
    u, s, vh = _svd(where, x, False, vectors=True)
    if s.shape[-1] == 0:
        return _xp.zeros(x.shape[:-2] + (x.shape[-1], x.shape[-2]), dtype=x.dtype)
    keep = s > _cutoff(where, x, s, rtol)
    s_inv = _xp.where(keep, 1.0 / _xp.where(keep, s, 1.0), 0.0)
    return _xp.matmul(_xp.matrix_transpose(vh) * _xp.expand_dims(s_inv, axis=-2), _xp.matrix_transpose(u))


def matrix_rank(x, /, *, rtol=None):
    """Rank of the matrices x [..., M, N]: how many singular values exceed rtol * the largest one (rtol None:
    max(M, N) * eps). int64 [...]."""
    where = "npurt.linalg.matrix_rank"
    s = _singular_values(where, x)
    if s.shape[-1] == 0:
        return _xp.zeros(x.shape[:-2], dtype=_npurt.int64)
    return _xp.astype(_xp.count_nonzero(s > _cutoff(where, x, s, rtol), axis=-1), _npurt.int64)


def _extreme(where, ord, values, largest):
    """max (largest) or min over the last axis of non-negative values (abs-sums, singular values): the max of
    none is 0, as numpy's and array-api-strict's norms give for empty matrices; the min of none is undefined."""
    if values.shape[-1] != 0:
        return (_xp.max if largest else _xp.min)(values, axis=-1)
    if not largest:
        raise InvalidArgumentError(f"{where}: argument 'x': ord={ord} of an empty matrix is undefined")
    return _xp.zeros(values.shape[:-1], dtype=values.dtype, device=values.device)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """Matrix norm of every matrix of x [..., M, N]: ord 'fro' (default; None too), 'nuc' (sum of singular values),
    1 / -1 (max / min column abs-sum), inf / -inf (max / min row abs-sum), 2 / -2 (largest / smallest
    singular value). keepdims keeps the two axes as size 1."""
    where = "npurt.linalg.matrix_norm"
    _matrices(where, x)
    ord = "fro" if ord is None else ord  # numpy's (and array-api-strict's) None: Frobenius
    if isinstance(ord, builtins.bool) or ord not in _NORM_ORDS:
        raise InvalidArgumentError(f"{where}: argument 'ord': must be one of 'fro', 'nuc', 1, -1, 2, -2, inf, "
                                   f"-inf, got {ord!r}")
    if ord == "fro":
        y = _xp.sqrt(_xp.sum(x * x, axis=(-2, -1)))
    elif ord == "nuc":
        y = _xp.sum(_singular_values(where, x), axis=-1)
    elif ord in (2, -2):
        y = _extreme(where, ord, _singular_values(where, x), ord == 2)
    else:
        sums = _xp.sum(_xp.abs(x), axis=-2 if ord in (1, -1) else -1)
        y = _extreme(where, ord, sums, ord in (1, float("inf")))
    if keepdims:
        y = _xp.expand_dims(_xp.expand_dims(y, axis=-1), axis=-1)
    return y
