"""nr.linalg: the array API standard's (2024.12) optional linear algebra
extension.

The factorizations run on the kernels of kernels/linalg/ (LU with partial
pivoting, the LU solve, Cholesky: _factor.py); diagonal, trace, outer,
cross and vector_norm are composed from existing npurt ops (_composed.py);
matmul, tensordot, vecdot and matrix_transpose are the main namespace's
functions. Dtype rules and errors: _checks.py (LinAlgError is numpy's
LinAlgError's counterpart, a ValueError).
"""
from ..array_api.linalg import matmul, tensordot, vecdot
from ..array_api.manipulation import matrix_transpose
from ._checks import LinAlgError
from ._composed import cross, diagonal, outer, trace, vector_norm
from ._factor import SlogdetResult, cholesky, det, inv, matrix_power, slogdet, solve

__all__ = ["cholesky", "cross", "det", "diagonal", "inv", "matmul", "matrix_power", "matrix_transpose", "outer",
           "slogdet", "solve", "tensordot", "trace", "vecdot", "vector_norm"]
