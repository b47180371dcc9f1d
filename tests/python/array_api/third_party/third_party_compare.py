"""Differential helpers for third-party array-API consumers (array-api-extra, scikit-learn,
scipy) run on npurt arrays: the same call on numpy arrays is the reference.

`both(f, *args, **kwargs)` calls f once with the numpy arguments (copies: array-api-extra's
`at` may write into its argument) and once with every numpy argument moved to npurt, and
returns (npurt result, numpy result). `assert_same` converts results with np.asarray
(tuples, lists and named tuples element by element, Python scalars as they are) and
requires an npurt array wherever numpy's result is a numpy array, compares shapes exactly, integers and bools exactly, floating and complex values within
a tolerance of the result's precision (float16 1e-2, float32 2e-4, float64 1e-9
relative). npurt's default floating dtype is float32 where numpy's is float64, so a
float64 numpy result may come back as float32 (see docs/numpy-users.md, "Type
promotion"); the tolerance then follows the lower precision. Other dtype differences fail.
"""
import numpy as np

import npurt as nr

RTOL = {2: 1e-2, 4: 2e-4, 8: 1e-9, 16: 1e-9}  # by itemsize; complex64 (8) is float32 per part
ATOL_SCALE = {2: 1e-3, 4: 1e-5, 8: 1e-12, 16: 1e-12}


def rand(shape, dtype, seed=0, positive=False):
    """Values for dtype: integers in [0, 9], bools, reals in [-3, 3) (or (0.1, 3.1)), complex."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype.kind in "iu":
        return rng.integers(0, 10, size=shape).astype(dtype)
    a = rng.uniform(0.1, 3.1, size=shape) if positive else rng.uniform(-3, 3, size=shape)
    if dtype.kind == "c":
        a = a + 1j * rng.uniform(-3, 3, size=shape)
    return a.astype(dtype)


def both(f, *args, **kwargs):
    """(f on npurt copies of the numpy arguments, f on the numpy arguments); keyword
    arguments that are numpy arrays move too."""
    def moved(to):
        return ([to(a) if isinstance(a, np.ndarray) else a for a in args],
                {k: to(a) if isinstance(a, np.ndarray) else a for k, a in kwargs.items()})
    np_args, np_kwargs = moved(np.copy)
    want = f(*np_args, **np_kwargs)
    nr_args, nr_kwargs = moved(nr.asarray)
    return f(*nr_args, **nr_kwargs), want


def _precision(got, want, scalar_itemsize):
    if not isinstance(want, np.ndarray) and not isinstance(got, nr.ndarray):
        return scalar_itemsize  # Python numbers: the caller knows the precision they were computed in
    sizes = [d.itemsize // (2 if d.kind == "c" else 1) for d in (np.asarray(got).dtype, np.asarray(want).dtype)
             if d.kind in "fc"]
    return min(sizes) if sizes else 8


def _same_dtype(got, want):
    if got.dtype == want.dtype:
        return True
    # npurt's default float is float32 where numpy gives float64 (complex64 / complex128 alike)
    return (got.dtype, want.dtype) in ((np.float32, np.float64), (np.complex64, np.complex128))


def assert_same(got, want, what="", scalar_itemsize=4, rtol=None):
    """scalar_itemsize: the precision (bytes of a real) of results that are Python numbers;
    float32 by default, npurt's default float (integer labels become float32 scores).
    rtol: a looser relative tolerance for float32 (iterative fits stop at the solver's
    tolerance, where rounding differences move the stopping point)."""
    if hasattr(want, "_fields") or isinstance(want, (tuple, list)):
        assert len(got) == len(want), f"{what}: {len(got)} results vs {len(want)}"
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same(g, w, f"{what}[{i}]", scalar_itemsize, rtol)
        return
    if isinstance(want, (str, type(None))):
        assert got == want, f"{what}: {got!r} vs {want!r}"
        return
    if isinstance(want, np.ndarray):  # the consumer kept the data on npurt's side
        assert isinstance(got, nr.ndarray), f"{what}: got {type(got).__name__}, not an npurt array"
    g, w = np.asarray(got), np.asarray(want)
    assert g.shape == w.shape, f"{what}: shape {g.shape} vs numpy {w.shape}"
    if isinstance(want, np.ndarray):
        assert _same_dtype(g, w), f"{what}: dtype {g.dtype} vs numpy {w.dtype}"
    if g.dtype.kind in "fc" or w.dtype.kind in "fc":
        p = _precision(got, want, scalar_itemsize)
        parts = np.abs(np.stack([w.real, w.imag]).astype(np.float64))  # no overflow of |re + im j|
        scale = float(np.max(parts, initial=1.0, where=np.isfinite(parts)))
        r = RTOL[p] if rtol is None or p != 4 else max(rtol, RTOL[p])
        np.testing.assert_allclose(g.astype(np.complex128), w.astype(np.complex128), rtol=r,
                                   atol=ATOL_SCALE[p] * scale * r / RTOL[p], equal_nan=True, err_msg=what)
    else:
        np.testing.assert_array_equal(g, w, err_msg=what)
