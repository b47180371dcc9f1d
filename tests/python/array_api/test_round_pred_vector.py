"""floor / ceil / trunc / round (float32: one Cast with the round mode) and
isnan / isinf / isfinite (float16 / float32: Compare -> mask -> bool) on the
vector path (ew_round_pred_functors.h) against numpy, bit for bit: special
values (+-0, +-inf, NaN, subnormals, the 2^23 / 2^10 boundaries +- 0.5,
halves for ties to even) at sizes that cover the vector prefix and the
scalar tail, 0-d, empty, non-contiguous and broadcast-free strided views.
"""
import numpy as np
import pytest

import npurt as nr

SHAPES = [(), (0,), (1,), (15,), (33,), (64,), (1023,), (3, 5, 7), (70000,)]
ROUNDS = ["floor", "ceil", "trunc", "round"]
PREDS = ["isnan", "isinf", "isfinite"]


def specials(dtype):
    f = np.finfo(dtype)
    big = 2.0 ** (23 if dtype == np.float32 else 10)
    vals = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, f.tiny, -f.tiny, f.smallest_subnormal,
            -f.smallest_subnormal, f.max, -f.max, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999997, -0.49999997]
    for b in (big, 2 * big, big / 2):
        vals += [b, -b, b + 0.5, b - 0.5, -b + 0.5, -b - 0.5, b + 1, b - 1]
    return np.array(vals, dtype=dtype)


def rand(shape, dtype, seed):
    g = np.random.default_rng(seed)
    a = (g.standard_normal(shape) * 8).astype(dtype)
    if a.size:
        s = specials(dtype)
        flat = a.reshape(-1)
        k = min(flat.size, s.size)
        flat[:k] = s[:k]  # the first elements: the vector prefix for long arrays, the tail for short ones
        idx = g.integers(0, flat.size, min(flat.size, 2 * s.size))
        flat[idx] = s[g.integers(0, s.size, idx.size)]
    return a


def bits(a):
    a = np.asarray(a)
    return a.view({2: np.uint16, 4: np.uint32}[a.dtype.itemsize]) if a.ndim else a.reshape(1).view(
        {2: np.uint16, 4: np.uint32}[a.dtype.itemsize])


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("op", ROUNDS)
def test_rounding_bit_exact(op, shape, dtype):
    x = rand(shape, dtype, 1)
    got, want = np.asarray(getattr(nr, op)(nr.asarray(x))), getattr(np, op)(x)
    assert got.dtype == want.dtype and got.shape == want.shape
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(bits(got)[~nan.reshape(-1)] if got.ndim == 0 else bits(got)[~nan],
                                  bits(want)[~nan.reshape(-1)] if want.ndim == 0 else bits(want)[~nan])


@pytest.mark.parametrize("op", ROUNDS)
def test_rounding_strided(op):
    x = rand((50, 90), np.float32, 2)
    for v, ref in [(nr.asarray(x).T, x.T), (nr.asarray(x)[:, ::-3], x[:, ::-3])]:
        got, want = np.asarray(getattr(nr, op)(v)), getattr(np, op)(ref)
        np.testing.assert_array_equal(bits(np.nan_to_num(got)), bits(np.nan_to_num(want)))


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("op", PREDS)
def test_predicates(op, shape, dtype):
    x = rand(shape, dtype, 3)
    got, want = np.asarray(getattr(nr, op)(nr.asarray(x))), getattr(np, op)(x)
    assert got.dtype == np.bool_ and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("op", PREDS)
def test_predicates_strided_and_input_kept(op):
    x = rand((40, 130), np.float32, 4)
    a = nr.asarray(x)
    np.testing.assert_array_equal(np.asarray(getattr(nr, op)(a.T)), getattr(np, op)(x.T))
    np.testing.assert_array_equal(np.asarray(getattr(nr, op)(a[:, 1::2])), getattr(np, op)(x[:, 1::2]))
    np.testing.assert_array_equal(bits(np.nan_to_num(np.asarray(a))), bits(np.nan_to_num(x)))  # input untouched
