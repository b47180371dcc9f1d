"""Shared inputs and tolerances of tests/python/linalg.

Tolerances (stated once, used everywhere): a result of a factorization-based
function (det, slogdet, inv, solve, cholesky, matrix_power) may differ from
numpy.linalg's float64 result by

    atol = C * n * eps(dtype) * cond(A) * scale,   C = 20,

with scale the magnitude of the reference (max |ref|, at least 1 for
solutions), cond the 2-norm condition number (numpy, float64) and eps 2.2e-16
(float64) or 1.2e-7 (float32): the standard backward-error bound of LU with
partial pivoting with a safety factor, growth factors of random matrices being
small. Composed functions (trace, outer, cross, vector_norm) are a few
roundings per element: rtol 1e-12 (float64), 1e-5 (float32), 2e-2 (float16).
"""
import numpy as np

import npurt as nr

SIZES = (1, 2, 3, 15, 33, 100, 257)
FACTOR_DTYPES = ("float32", "float64")
EPS = {"float32": 1.2e-7, "float64": 2.2e-16}
C = 20.0


def well_conditioned(shape, seed, dtype="float64"):
    """Random entries in [-1, 1] plus n on the diagonal: cond(A) stays small for every n."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1.0, 1.0, size=shape)
    n = shape[-1]
    a = a + n * np.eye(n) if n else a
    return a.astype(dtype)


def spd(shape, seed, dtype="float64"):
    """Symmetric positive definite: r r^T + n I."""
    r = np.random.default_rng(seed).uniform(-1.0, 1.0, size=shape)
    n = shape[-1]
    return (r @ np.swapaxes(r, -1, -2) + n * np.eye(n)).astype(dtype)


def tol(a, dtype, scale=1.0):
    """The stated bound for the matrices a (float64 numpy, (..., n, n))."""
    n = a.shape[-1]
    cond = float(np.max(np.linalg.cond(a))) if a.size else 1.0
    return C * max(n, 1) * EPS[str(dtype)] * cond * max(scale, 1.0)


def to_np(x):
    return np.asarray(x)


def dev(a, dtype=None):
    return nr.asarray(a if dtype is None else np.asarray(a).astype(dtype))
