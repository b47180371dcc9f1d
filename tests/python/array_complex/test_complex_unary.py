"""Unary elementwise functions of complex64/complex128 against numpy: random
values over every test shape, non-contiguous views, and the grid of special
values (signed zeros, infinities and NaN in either part), whose results follow
C99 Annex G through glibc (as numpy's) or numpy's own formulas."""
import numpy as np
import pytest

import npurt as nr

from complex_cases import COMPLEX, SHAPES, check, crand, special, strided

def spec_sign(a):
    """np.sign, except that a NaN in either part gives NaN + NaN j, as the standard's sign
    special cases say (numpy gives 0+1j for NaN+inf j)."""
    r = np.sign(a)
    return np.where(np.isnan(a.real) | np.isnan(a.imag), np.array(complex("nan+nanj"), a.dtype), r)


# name -> numpy reference
UNARY = {
    "exp": np.exp, "expm1": np.expm1, "log": np.log, "log1p": np.log1p, "log2": np.log2, "log10": np.log10,
    "sqrt": np.sqrt, "sin": np.sin, "cos": np.cos, "tan": np.tan, "sinh": np.sinh, "cosh": np.cosh,
    "tanh": np.tanh, "asin": np.asin, "acos": np.acos, "atan": np.atan, "asinh": np.asinh, "acosh": np.acosh,
    "atanh": np.atanh, "negative": np.negative, "positive": np.positive, "abs": np.abs, "square": np.square,
    "sign": spec_sign, "reciprocal": np.reciprocal, "conj": np.conj, "real": np.real, "imag": np.imag,
    "round": np.round, "isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite,
}
# Functions whose special-value results are compared part by part with numpy
# (the rest: numpy's own SIMD loops or formulas and glibc agree on finite
# values but may give a different NaN/inf pattern; covered by random values).
SPECIAL_EXACT = ["negative", "positive", "abs", "conj", "real", "imag", "round", "isnan", "isinf", "isfinite",
                 "exp", "log", "sqrt", "sinh", "cosh", "tanh", "sin", "cos", "tan", "asinh", "asin", "acos",
                 "acosh", "atan", "atanh", "square", "sign", "reciprocal"]


def ref(name, a):
    with np.errstate(all="ignore"):
        r = UNARY[name](a)
    return np.array(r)  # real/imag: numpy returns views, npurt new arrays


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_random_values_every_shape(name, dtype):
    for i, shape in enumerate(SHAPES):
        a = crand(shape, dtype, seed=i)
        check(getattr(nr, name)(nr.asarray(a)), ref(name, a))


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_non_contiguous_view(name, dtype):
    x, a = strided(crand((4, 9), dtype, seed=3))
    check(getattr(nr, name)(x), ref(name, a))


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("name", SPECIAL_EXACT)
def test_special_values(name, dtype):
    a = special(dtype)
    check(getattr(nr, name)(nr.asarray(a)), ref(name, a), signed_zeros=True)


@pytest.mark.parametrize("dtype", COMPLEX)
def test_real_imag_give_the_real_dtype(dtype):
    a = crand((5,), dtype)
    want = np.float32 if dtype == np.complex64 else np.float64
    assert nr.real(nr.asarray(a)).dtype == nr.dtype(np.dtype(want).name)
    assert nr.abs(nr.asarray(a)).dtype == nr.dtype(np.dtype(want).name)
    assert nr.imag(nr.asarray(a)).dtype == nr.dtype(np.dtype(want).name)


def test_conj_negates_the_imaginary_part_including_zero():
    a = np.array([1 + 0j, complex(1, -0.0), -2 + 3j, complex(np.nan, 1)], dtype=np.complex128)
    got = nr.conj(nr.asarray(a)).numpy()
    check(got, np.conj(a), signed_zeros=True)
    assert np.signbit(got.imag[0]) and not np.signbit(got.imag[1])


def test_sign_of_zero_and_infinities():
    a = np.array([0j, complex(np.inf, 2), complex(-1, np.inf), complex(3, 4)], dtype=np.complex128)
    got = nr.sign(nr.asarray(a)).numpy()
    np.testing.assert_array_equal(got, [0, 1, 1j, 0.6 + 0.8j])


@pytest.mark.parametrize("name", ["ceil", "floor", "trunc", "signbit", "logical_not", "bitwise_invert"])
def test_functions_without_complex_forms_refuse_clearly(name):
    x = nr.asarray(np.array([1 + 2j], dtype=np.complex64))
    with pytest.raises(TypeError) as e:  # nr.UnsupportedDtypeError is a TypeError
        getattr(nr, name)(x)
    assert f"npurt.{name}" in str(e.value) and "complex64" in str(e.value)
