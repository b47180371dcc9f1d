"""Type promotion with complex dtypes (the standard's table), astype between
complex and every other dtype (complex -> real keeps the real part, like
numpy; -> bool tests both parts), and fill of complex values."""
import warnings

import numpy as np
import pytest

import npurt as nr

from complex_cases import SPECIAL, check, crand

ALL = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
       "float64", "complex64", "complex128"]


@pytest.mark.parametrize("pair,want", [(("float32", "complex64"), "complex64"),
                                       (("float64", "complex64"), "complex128"),
                                       (("float32", "complex128"), "complex128"),
                                       (("complex64", "complex128"), "complex128"),
                                       (("float64", "complex128"), "complex128")])
def test_standard_promotion_table(pair, want):
    a, b = (nr.dtype(p) for p in pair)
    assert nr.result_type(a, b) == nr.dtype(want) == nr.result_type(b, a)
    x = nr.asarray(np.ones(3, dtype=pair[0]))
    y = nr.asarray(np.full(3, 1 + 1j, dtype=pair[1]) if pair[1].startswith("c") else np.ones(3, pair[1]))
    got = nr.add(x, y)
    assert got.dtype == nr.dtype(want)
    check(got, np.ones(3, dtype=pair[0]).astype(want) + np.asarray(y.numpy()).astype(want))


@pytest.mark.parametrize("src", ALL)
@pytest.mark.parametrize("dst", ["complex64", "complex128"])
def test_astype_to_complex(src, dst):
    a = (np.arange(-3, 9) % 5).astype(src) if src != "bool" else np.arange(12) % 3 == 0
    if src.startswith("c"):
        a = crand((12,), src, seed=3)
    got = nr.astype(nr.asarray(a), nr.dtype(dst))
    check(got, a.astype(dst))


@pytest.mark.parametrize("dst", ALL)
@pytest.mark.parametrize("src", ["complex64", "complex128"])
def test_astype_from_complex(src, dst):
    a = np.array([1.5 - 2j, -2.25 + 0j, 0j, 0 + 1j, 7 + 3j, complex(-0.0, -0.0)], dtype=src)
    if dst.startswith("uint"):  # negative -> unsigned saturates to 0 in npurt (numpy wraps): in range only
        a = a.real.__abs__() + 1j * a.imag
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        want = a.astype(dst)
    check(nr.astype(nr.asarray(a), nr.dtype(dst)), want)


def test_astype_complex_special_values_and_views():
    a = SPECIAL.astype(np.complex128)
    check(nr.astype(nr.asarray(a), nr.complex64), a.astype(np.complex64), signed_zeros=True)
    check(nr.astype(nr.asarray(a), nr.float64), a.real.copy(), signed_zeros=True)
    x = nr.asarray(a.reshape(10, 10))[:, ::3]
    check(nr.astype(x, nr.complex64), a.reshape(10, 10)[:, ::3].astype(np.complex64))


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_full_and_python_complex_scalars(dt):
    x = nr.full((2, 3), 1.5 - 2j, dtype=nr.dtype(dt))
    check(x, np.full((2, 3), 1.5 - 2j, dtype=dt))
    check(nr.zeros((0,), dtype=nr.dtype(dt)), np.zeros((0,), dtype=dt))
