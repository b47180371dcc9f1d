"""Shared inputs and the comparison of the complex / float64 tests.

Reference: numpy on the host (tests only). Tolerances per dtype: complex64
and float32 rtol 2e-5 (float math via libm, as numpy's loops; a few ulp apart
where numpy's SIMD loops differ), complex128 and float64 rtol 1e-12; ints and
bool exact. Special values: NaN compares equal to NaN in each part, infinities
must match exactly, and zeros of the expected result must carry its sign.
"""
import numpy as np

import npurt as nr

RTOL = {np.dtype(np.float32): 2e-5, np.dtype(np.complex64): 2e-5, np.dtype(np.float64): 1e-12,
        np.dtype(np.complex128): 1e-12, np.dtype(np.float16): 2e-3}
SHAPES = [(), (0,), (1,), (15,), (33,), (3, 11)]
COMPLEX = [np.complex64, np.complex128]

_R = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -3.5, np.inf, -np.inf, np.nan]
# every (real, imag) pair of the special real values: zeros of both signs, finite, +-inf, NaN
SPECIAL = np.array([complex(a, b) for a in _R for b in _R])


def crand(shape, dtype, seed=0, lo=-3.0, hi=3.0):
    rng = np.random.default_rng(seed)
    re = rng.uniform(lo, hi, size=shape)
    im = rng.uniform(lo, hi, size=shape)
    return (re + 1j * im).astype(dtype)


def special(dtype):
    with np.errstate(all="ignore"):
        return SPECIAL.astype(dtype)


def _parts(a):
    return (a.real, a.imag) if a.dtype.kind == "c" else (a,)


def check(got, want, signed_zeros=False, rtol=None):
    """got (npurt array) equals want (numpy) in dtype, shape and value (see module doc)."""
    got = got.numpy() if isinstance(got, nr.ndarray) else np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind not in "fc":
        np.testing.assert_array_equal(got, want)
        return
    tol = RTOL[want.dtype] if rtol is None else rtol
    for g, w in zip(_parts(got), _parts(want)):
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol * 1e-3, equal_nan=True)
        if signed_zeros:
            z = w == 0
            np.testing.assert_array_equal(np.signbit(g[z]), np.signbit(w[z]), err_msg="sign of zero")


def strided(a):
    """A non-contiguous npurt view holding the values of `a` (a step-2 slice of a double-size array)."""
    host = np.zeros(a.shape[:-1] + (2 * a.shape[-1],), dtype=a.dtype) if a.ndim else None
    if host is None:
        return nr.asarray(a), a
    host[..., ::2] = a
    x = nr.asarray(host)[..., ::2]
    assert not x.is_contiguous or a.shape[-1] <= 1
    return x, a
