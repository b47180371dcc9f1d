"""Reductions on complex64/complex128 (sum prod mean; all any count_nonzero,
nonzero meaning either part nonzero) and float64 (sum prod max min mean var
std with correction) against numpy: axes (None, int, tuple, non-adjacent),
keepdims, empty axes, 0-d, non-contiguous inputs, NaN/inf."""
import numpy as np
import pytest

import npurt as nr

from complex_cases import COMPLEX, check, crand

AXES = [None, 0, 1, -1, (0, 2), (1, 2), (0, 1, 2)]


def frand(shape, seed=0):
    return np.random.default_rng(seed).uniform(-2, 2, size=shape)


def ref(fn, a, **kw):
    with np.errstate(all="ignore"):
        return np.asarray(fn(a, **kw))


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("name", ["sum", "prod", "mean"])
@pytest.mark.parametrize("axis", AXES)
def test_complex_sum_prod_mean(name, dtype, axis):
    a = crand((3, 5, 4), dtype, seed=1, lo=-1.2, hi=1.2)
    for keepdims in (False, True):
        check(getattr(nr, name)(nr.asarray(a), axis=axis, keepdims=keepdims),
              ref(getattr(np, name), a, axis=axis, keepdims=keepdims).astype(dtype), rtol=1e-4 if
              dtype == np.complex64 else 1e-11)


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "mean"])
@pytest.mark.parametrize("axis", AXES)
def test_float64(name, axis):
    a = frand((3, 5, 4), seed=2)
    for keepdims in (False, True):
        check(getattr(nr, name)(nr.asarray(a), axis=axis, keepdims=keepdims),
              ref(getattr(np, name), a, axis=axis, keepdims=keepdims))


@pytest.mark.parametrize("name", ["var", "std"])
@pytest.mark.parametrize("correction", [0.0, 1.0])
@pytest.mark.parametrize("axis", [None, 0, (1, 2), -1])
def test_float64_var_std(name, correction, axis):
    a = frand((4, 6, 3), seed=3)
    check(getattr(nr, name)(nr.asarray(a), axis=axis, correction=correction),
          ref(getattr(np, name), a, axis=axis, ddof=correction), rtol=1e-10)


def test_float64_long_rows_keep_precision():
    a = np.random.default_rng(4).uniform(0, 1, size=(2, 100003))
    check(nr.sum(nr.asarray(a), axis=1), a.sum(axis=1), rtol=1e-13)
    check(nr.mean(nr.asarray(a)), np.asarray(a.mean()), rtol=1e-13)
    b = np.random.default_rng(5).uniform(-1, 1, size=(7, 3001)) + 0j
    check(nr.sum(nr.asarray(b), axis=0), b.sum(axis=0))


@pytest.mark.parametrize("dtype", [np.float64, np.complex64, np.complex128])
def test_edge_shapes(dtype):
    for shape, axis in [((), None), ((0,), None), ((1,), 0), ((0, 3), 0), ((3, 0), 1), ((17,), 0)]:
        a = (frand(shape) + (1j * frand(shape, 1) if np.dtype(dtype).kind == "c" else 0)).astype(dtype)
        for name in ("sum", "prod", "mean"):
            check(getattr(nr, name)(nr.asarray(a), axis=axis), ref(getattr(np, name), a, axis=axis).astype(dtype))


def test_special_values_propagate():
    a = np.array([[1.0, np.nan, 2.0], [np.inf, 1.0, -np.inf], [3.0, -0.0, 0.0]])
    for name in ("sum", "prod", "max", "min", "mean"):
        check(getattr(nr, name)(nr.asarray(a), axis=1), ref(getattr(np, name), a, axis=1))
    c = np.array([complex(1, np.nan), complex(np.inf, 1), 2 + 2j])
    for name in ("sum", "mean"):
        check(getattr(nr, name)(nr.asarray(c)), ref(getattr(np, name), c))


def test_non_contiguous_inputs():
    a = crand((6, 8), np.complex128, seed=6)
    check(nr.sum(nr.asarray(a)[::2, 1::3], axis=0), a[::2, 1::3].sum(axis=0))
    f = frand((6, 8), seed=7)
    check(nr.max(nr.permute_dims(nr.asarray(f), (1, 0)), axis=1), f.T.max(axis=1))


@pytest.mark.parametrize("dtype", COMPLEX)
def test_truth_reductions_test_both_parts(dtype):
    a = np.array([[0j, 1j, 0j], [2 + 0j, 0j, 0j], [0j, 0j, 0j], [-0.0 + 0j, complex(0, np.nan), 3 + 3j]], dtype=dtype)
    for axis in (None, 0, 1):
        check(nr.any(nr.asarray(a), axis=axis), np.asarray(np.any(a, axis=axis)))
        check(nr.all(nr.asarray(a), axis=axis), np.asarray(np.all(a, axis=axis)))
        check(nr.count_nonzero(nr.asarray(a), axis=axis), np.asarray(np.count_nonzero(a, axis=axis)))


def test_sum_dtype_argument_widens_first():
    a = np.full(1000, 0.1, dtype=np.float32)
    check(nr.sum(nr.asarray(a), dtype=nr.float64), a.sum(dtype=np.float64), rtol=1e-6)
    check(nr.sum(nr.asarray(np.arange(4, dtype=np.int32)), dtype=nr.complex64), np.asarray(6 + 0j, np.complex64))


def test_unsupported_requests_raise_clear_errors():
    c = nr.asarray(np.array([1 + 1j], dtype=np.complex64))
    for name in ("max", "min"):
        with pytest.raises(TypeError, match=f"npurt.{name}: argument 'x': complex64"):
            getattr(nr, name)(c)
    with pytest.raises(TypeError, match="npurt.var: argument 'x': complex64"):
        nr.var(c)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8, np.uint32, np.uint64, np.bool_])
@pytest.mark.parametrize("name", ["sum", "prod", "max", "min"])
def test_integers_accumulate_in_64_bits(name, dtype):
    rng = np.random.default_rng(8)
    if dtype == np.bool_:
        a = rng.integers(0, 2, size=(4, 37)).astype(bool)
        if name in ("max", "min"):
            return  # bool max/min: not a numeric reduction of the standard
    elif np.dtype(dtype).itemsize == 8:  # values beyond 2**32 and, for uint64, beyond 2**63
        lo = 0 if np.dtype(dtype).kind == "u" else -(1 << 40)
        hi = (1 << 63) + (1 << 62) if dtype == np.uint64 else 1 << 40
        a = rng.integers(lo, hi, size=(4, 37), dtype=dtype)
    else:
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max, size=(4, 37), endpoint=True).astype(dtype)
    for axis in (None, 0, 1):
        with np.errstate(all="ignore"):
            want = np.asarray(getattr(np, name)(a, axis=axis))
        check(getattr(nr, name)(nr.asarray(a), axis=axis), want)
