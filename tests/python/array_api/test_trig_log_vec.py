"""The vector forms of sin, cos, tan, asin, acos (kernels/elementwise/ew_trig_vec.h)
and log2, log10, atanh, acosh (ew_log_vec.h) against numpy in float64 (the
reference, tests only).

Tolerances: float32 <= 4 ulp of the float64 result rounded to float32, over
~1e6 points spread log-uniformly across each function's domain (2^-40 .. 2^13
for sin/cos/tan, so both sides of the reduction bound 6400 where lanes go to
the scalar form, plus huge arguments), subnormals and the branch thresholds;
float16 (computed in float32, rounded once) <= 1 ulp over every finite value.
Special values exact with the sign of zero: +-0, +-inf, NaN, sin(-0) = -0,
log2(1) = +0, acos(1) = +0, atanh(+-1) = +-inf, acosh(1) = +0, out-of-domain NaN.
Odd sizes and non-contiguous views exercise the partial last tile.
"""
import numpy as np
import pytest

import npurt as nr

from ulp_reference import ulp_error

FUNCS = ["sin", "cos", "tan", "arcsin", "arccos", "log2", "log10", "arctanh", "arccosh"]
F32_ULP = 4.0
F16_ULP = 1.0


def domain_points(fn, n, seed=0):
    rng = np.random.default_rng(seed)
    sign = np.where(rng.uniform(size=n) < 0.5, -1.0, 1.0)
    tiny = np.array([1e-45, 1e-40, 1.2e-38, 2.0 ** -126, 2.0 ** -140])
    if fn in ("sin", "cos", "tan"):
        x = sign * 2.0 ** rng.uniform(-40, 13, n)
        near = np.array([np.pi / 4, np.pi / 2, np.pi, 6399.9, 6400.0, 6400.5, 1e5, 3.0e38, 1e20])
        x = np.concatenate([x, near, -near, tiny, -tiny])
    elif fn in ("arcsin", "arccos", "arctanh"):
        x = sign * np.minimum(2.0 ** rng.uniform(-40, 0, n), 1.0)
        near = np.array([0.5, 0.4999999, 0.5000001, 0.9999999, 1.0])
        x = np.concatenate([x, near, -near, tiny, -tiny])
    elif fn == "arccosh":
        x = 1.0 + 2.0 ** rng.uniform(-30, 40, n)
        x = np.concatenate([x, [1.0, 2.0, 1.9999999, 2.0000002, 4096.0, 4096.001, 3.0e38]])
    else:  # log2, log10: positive magnitudes incl. subnormals and values near 1
        x = 2.0 ** rng.uniform(-149, 128, n)
        x = np.concatenate([x, 1.0 + sign[:1000] * 2.0 ** rng.uniform(-24, -1, 1000), tiny, 2.0 ** np.arange(-149, 128)])
    return np.ascontiguousarray(x.astype(np.float32))


@pytest.mark.parametrize("fn", FUNCS)
def test_float32_dense_ulp(fn):
    x = domain_points(fn, 1_000_000)
    got = getattr(nr, fn)(nr.asarray(x)).numpy()
    assert got.dtype == np.float32
    assert ulp_error(got, x, fn, np.float32) <= F32_ULP


@pytest.mark.parametrize("fn", FUNCS)
def test_float16_all_values(fn):
    x = np.arange(2 ** 16, dtype=np.uint16).view(np.float16)
    x = x[np.isfinite(x)]
    got = getattr(nr, fn)(nr.asarray(x)).numpy()
    assert got.dtype == np.float16
    assert ulp_error(got, x, fn, np.float16) <= F16_ULP


SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 1e-30, -1e-30, 1e30, -1e30,
            8.0, 100.0, 1e-45]


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("fn", FUNCS)
def test_special_values_exact(fn, dtype):
    with np.errstate(all="ignore"):
        x = np.array(SPECIALS, dtype=np.float32).astype(dtype)
        want = getattr(np, fn)(x.astype(np.float64)).astype(dtype)
        got = getattr(nr, fn)(nr.asarray(x)).numpy()
    exact = (want == 0) | ~np.isfinite(want) | (np.abs(x) < 1e-20) & (x != 0) & (fn[:3] in ("sin", "tan", "arc"))
    exact &= ~((np.abs(x) < 1e-20) & (fn in ("arccos", "arccosh")))
    np.testing.assert_array_equal(got[exact], want[exact])
    signed = ~np.isnan(want)  # a NaN's sign is unspecified
    assert np.array_equal(np.signbit(got[signed]), np.signbit(want[signed])), (fn, x, got, want)
    np.testing.assert_allclose(got[signed], want[signed], rtol=4 * float(np.finfo(dtype).eps))


@pytest.mark.parametrize("n", [0, 1, 15, 33, 63, 64, 65, 1023])
@pytest.mark.parametrize("fn", FUNCS)
def test_sizes_and_views(fn, n):
    lo, hi = {"arccosh": (1, 7), "log2": (0.01, 7), "log10": (0.01, 7)}.get(fn, (-0.99, 0.99))
    if fn in ("sin", "cos", "tan"):
        lo, hi = -7000.0, 7000.0  # both sides of the reduction bound within one tile
    base = np.linspace(lo, hi, 2 * n, dtype=np.float32)
    a = nr.asarray(base)
    cases = [(a[:n], base[:n]), (a[::2], base[::2]), (a.reshape(-1, 2)[:, 1] if n else a[:0], base[1::2])]
    for view, x in cases:
        got = getattr(nr, fn)(view).numpy()
        assert got.shape == x.shape
        if x.size:
            assert ulp_error(got, np.ascontiguousarray(x), fn, np.float32) <= F32_ULP


def test_0d_bfloat16_and_float64_scalar_path():
    for fn in FUNCS:
        v = 1.5 if fn == "arccosh" else 0.3
        got = getattr(nr, fn)(nr.asarray(np.float32(v))).numpy()
        assert got.shape == () and got.dtype == np.float32
        assert abs(float(got) - getattr(np, fn)(v)) <= 4 * abs(np.spacing(np.float32(got)))
        x64 = np.linspace(1.01, 3, 33) if fn == "arccosh" else np.linspace(0.01, 0.99, 33)
        np.testing.assert_allclose(getattr(nr, fn)(nr.asarray(x64)).numpy(), getattr(np, fn)(x64), rtol=1e-14)
        xb = nr.asarray(x64.astype(np.float32)).astype(nr.bfloat16)
        gb = getattr(nr, fn)(xb).astype(nr.float32).numpy()
        np.testing.assert_allclose(gb, getattr(np, fn)(xb.astype(nr.float32).numpy().astype(np.float64)), rtol=2 ** -7)


def test_large_arguments_take_the_scalar_form():
    x = np.array([6400.0, -6400.0, 1e5, -3e7, 3.4e38, 12345.678], dtype=np.float32)
    for fn in ("sin", "cos", "tan"):
        got = getattr(nr, fn)(nr.asarray(x)).numpy()
        want = getattr(np, fn)(x.astype(np.float64)).astype(np.float32)
        np.testing.assert_allclose(got, want, rtol=4 * 2.0 ** -23, atol=0)


@pytest.mark.parametrize("fn", FUNCS)
def test_large_float16_tiles_fit(fn):
    # 2 Mi elements: full-size tiles, whose widened float32 UB tiles the host must reserve.
    lo, hi = (1.0, 6.0) if fn == "arccosh" else ((0.01, 6.0) if fn.startswith("log") else (-0.99, 0.99))
    x = np.random.default_rng(3).uniform(lo, hi, 1 << 21).astype(np.float16)
    got = getattr(nr, fn)(nr.asarray(x)).numpy()
    assert got.dtype == np.float16
    assert ulp_error(got, x, fn, np.float16) <= F16_ULP
