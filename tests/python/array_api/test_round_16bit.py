"""floor / ceil / trunc / round of float16 and bfloat16 through float32 UB tiles
(kernels/elementwise/ew_round_pred_functors.h, kWidenVec) against numpy, exact
(bit patterns: -0 stays -0, NaN stays NaN, +-inf and integral values pass):
every float16 bit pattern, bfloat16 values across magnitudes, odd sizes, views.
"""
import numpy as np
import pytest

import npurt as nr

FUNCS = ["floor", "ceil", "trunc", "round"]


def same_bits(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got[~nan].view(np.uint16), want[~nan].view(np.uint16))


@pytest.mark.parametrize("fn", FUNCS)
def test_float16_every_bit_pattern(fn):
    x = np.arange(2 ** 16, dtype=np.uint16).view(np.float16)
    with np.errstate(invalid="ignore"):
        want = getattr(np, fn)(x)
    same_bits(getattr(nr, fn)(nr.asarray(x)).numpy(), want)


@pytest.mark.parametrize("fn", FUNCS)
def test_bfloat16_values(fn):
    rng = np.random.default_rng(5)
    x32 = (rng.uniform(-1, 1, 100_000) * 2.0 ** rng.uniform(-10, 40, 100_000)).astype(np.float32)
    x32 = np.concatenate([x32, np.array([0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, np.inf, -np.inf, np.nan], np.float32)])
    xb = nr.asarray(x32).astype(nr.bfloat16)
    xf = xb.astype(nr.float32).numpy()  # the bfloat16 values, exactly
    got = getattr(nr, fn)(xb).astype(nr.float32).numpy()
    want = getattr(np, fn)(xf)  # integral values of bfloat16 inputs are bfloat16 values
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got[~nan].view(np.uint32), want[~nan].view(np.uint32))


@pytest.mark.parametrize("n", [0, 1, 15, 33, 63, 65, 1023])
@pytest.mark.parametrize("fn", FUNCS)
def test_sizes_and_views(fn, n):
    base = np.linspace(-7.5, 7.5, 2 * n).astype(np.float16)
    a = nr.asarray(base)
    for view, x in [(a[:n], base[:n]), (a[::2], base[::2]), (a[::-1], base[::-1])]:
        same_bits(getattr(nr, fn)(view).numpy(), getattr(np, fn)(x))
