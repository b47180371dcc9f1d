"""The vector forms of tanh, expm1, sinh, cosh, log1p and atan (kernels/elementwise/
ew_trans_vec.h) against numpy in float64 (the reference, tests only).

Tolerances: float32 <= 4 ulp of the float64 result rounded to float32, over
~1e6 points spread log-uniformly across magnitudes 2^-40 .. 2^20 (|x| < 2^-12
is where exp-based formulas cancel) plus the branch thresholds; float16
(computed in float32, rounded once) <= 1 ulp. Special values exact, with the
sign of zero: +-0, +-inf, NaN, +-1e-30, the overflow edges, atan(+-inf) = +-pi/2. Odd sizes and
non-contiguous views exercise the partial last tile (masks cover 64 lanes).
"""
import numpy as np
import pytest

import npurt as nr

from ulp_reference import ulp_error

FUNCS = ["tanh", "expm1", "sinh", "cosh", "log1p", "arctan", "arcsinh"]
F32_ULP = 4.0
F16_ULP = 1.0


def domain(name, x):
    if name == "log1p":
        x = x[x > -1]
    if name in ("sinh", "cosh", "expm1"):
        x = x[np.abs(x) < 95]  # past ~89.4 the result overflows: checked in test_special_values_exact
    return np.ascontiguousarray(x)


def spread(n, seed=0):
    rng = np.random.default_rng(seed)
    mags = 2.0 ** rng.uniform(-40, 20, n)
    sign = np.where(rng.uniform(size=n) < 0.5, -1.0, 1.0)
    edges = [0.125, 0.5, 0.625, 1.0, 2.0, 2.0 ** -12, 2.0 ** -24, 88.0, 88.7, 89.0, 89.4, 4096.0, 2.414213562373095]
    near = np.concatenate([np.array(edges) * (1 + d) for d in (-1e-7, 0.0, 1e-7)])
    return np.concatenate([sign * mags, near, -near]).astype(np.float32)


@pytest.mark.parametrize("fn", FUNCS)
def test_float32_dense_ulp(fn):
    x = domain(fn, spread(1_000_000))
    got = getattr(nr, fn)(nr.asarray(x)).numpy()
    assert got.dtype == np.float32
    assert ulp_error(got, x, fn, np.float32) <= F32_ULP


@pytest.mark.parametrize("fn", FUNCS)
def test_float16_all_values(fn):
    x = np.arange(2 ** 16, dtype=np.uint16).view(np.float16)
    x = x[np.isfinite(x)]
    x = x[x > -1] if fn == "log1p" else x
    got = getattr(nr, fn)(nr.asarray(x)).numpy()
    assert got.dtype == np.float16
    assert ulp_error(got, x, fn, np.float16) <= F16_ULP


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("fn", FUNCS)
def test_special_values_exact(fn, dtype):
    with np.errstate(all="ignore"):
        x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, -1e-30, 1e30, -1e30, 100.0, -100.0, -1.0],
                     dtype=np.float32).astype(dtype)
        want = getattr(np, fn)(x.astype(np.float64)).astype(dtype)
        got = getattr(nr, fn)(nr.asarray(x)).numpy()
    keep = np.ones(x.shape, bool)
    if fn == "log1p" and dtype == np.float16:
        keep = np.abs(x) != np.float16(1e-30)  # f16(1e-30) is 0: covered by +-0
    # exact: zeros (with sign), infinities, NaN, the +-1 limits, tiny x (f(x) = x); others 4 ulp
    exact = keep & ((want == 0) | ~np.isfinite(want) | (np.abs(want) == 1) | (np.abs(x) < 1e-20))
    np.testing.assert_array_equal(got[exact], want[exact])
    signed = keep & ~np.isnan(want)  # a NaN's sign is unspecified
    assert np.array_equal(np.signbit(got[signed]), np.signbit(want[signed])), (fn, got, want)
    np.testing.assert_allclose(got[keep], want[keep], rtol=4 * float(np.finfo(dtype).eps))


@pytest.mark.parametrize("n", [0, 1, 15, 33, 63, 64, 65, 1023])
@pytest.mark.parametrize("fn", FUNCS)
def test_sizes_and_views(fn, n):
    base = np.linspace(-3, 3, 2 * n, dtype=np.float32)
    a = nr.asarray(base)
    cases = [(a[:n], base[:n]), (a[::2], base[::2]), (a.reshape(-1, 2)[:, 1] if n else a[:0], base[1::2])]
    for view, x in cases:
        got = getattr(nr, fn)(view).numpy()
        want = getattr(np, fn)(x.astype(np.float64)).astype(np.float32)
        np.testing.assert_allclose(got, want, rtol=4 * 2.0 ** -23, atol=2.0 ** -126)


def test_0d_and_float64_scalar_path():
    x = np.float32(0.3)
    for fn in FUNCS:
        got = getattr(nr, fn)(nr.asarray(x)).numpy()
        assert got.shape == () and got.dtype == np.float32
        assert abs(float(got) - getattr(np, fn)(0.3)) <= 4 * np.spacing(np.float32(got))
        x64 = np.linspace(-2, 2, 33)
        np.testing.assert_allclose(getattr(nr, fn)(nr.asarray(x64)).numpy(), getattr(np, fn)(x64), rtol=1e-14)
