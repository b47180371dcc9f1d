"""nr.linalg: the array API standard's (2024.12) optional linear algebra
extension.

The factorizations run on the kernels of kernels/linalg/ (LU with partial
pivoting, the LU solve, Cholesky: _factor.py); diagonal, trace, outer,
cross and vector_norm are composed from existing npurt ops (_composed.py);
qr, eigh, eigvalsh, svd, svdvals, pinv, matrix_rank and matrix_norm run on
the Householder QR, tridiagonal QL / Jacobi and one-sided Jacobi SVD kernels
(_spectral.py);
matmul, tensordot, vecdot and matrix_transpose are the main namespace's
functions. Dtype rules and errors: _checks.py (LinAlgError is numpy's
LinAlgError's counterpart, a ValueError).
"""
from ..array_api.linalg import matmul, tensordot, vecdot
from ..array_api.manipulation import matrix_transpose
from ._checks import LinAlgError
from ._composed import cross, diagonal, outer, trace, vector_norm
from ._factor import SlogdetResult, cholesky, det, inv, matrix_power, slogdet, solve
from ._spectral import (EighResult, QRResult, SVDResult, eigh, eigvalsh, matrix_norm, matrix_rank, pinv, qr, svd,
                        svdvals)

# The 23 functions of the 2024.12 extension, all of them: a partial module would make consumers that
# test `hasattr(xp, "linalg")` call what is missing (tests/python/linalg/test_linalg_namespace.py).
__all__ = ["cholesky", "cross", "det", "diagonal", "eigh", "eigvalsh", "inv", "matmul", "matrix_norm",
           "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv", "qr", "slogdet", "solve", "svd",
           "svdvals", "tensordot", "trace", "vecdot", "vector_norm"]
