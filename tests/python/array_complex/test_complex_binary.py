"""Binary elementwise functions on complex arrays against numpy: add subtract
multiply divide pow equal not_equal, with broadcasting, non-contiguous views,
Python complex/float/int scalars on either side, operators, and the special
values of numpy's formulas (textbook multiply, Smith's division, x / 0)."""
import numpy as np
import pytest

import npurt as nr

from complex_cases import COMPLEX, check, crand, special, strided

BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
          "pow": np.power, "equal": np.equal, "not_equal": np.not_equal}


def ref(name, a, b):
    with np.errstate(all="ignore"):
        return np.asarray(BINARY[name](a, b))


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("shapes", [((), ()), ((0,), (1,)), ((1,), (1,)), ((15,), (15,)), ((3, 11), (11,)),
                                    ((4, 1), (1, 5))])
def test_random_values_with_broadcasting(name, dtype, shapes):
    a, b = crand(shapes[0], dtype, seed=1), crand(shapes[1], dtype, seed=2)
    check(getattr(nr, name)(nr.asarray(a), nr.asarray(b)), ref(name, a, b), rtol=1e-4 if name == "pow" and
          dtype == np.complex64 else None)


@pytest.mark.parametrize("name", sorted(BINARY))
def test_non_contiguous_operands(name):
    x, a = strided(crand((3, 7), np.complex128, seed=4))
    y, b = strided(crand((3, 7), np.complex128, seed=5))
    check(getattr(nr, name)(x, y), ref(name, a, b))
    check(getattr(nr, name)(nr.permute_dims(nr.asarray(a.T.copy()), (1, 0)), y), ref(name, a, b))


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "equal", "not_equal"])
def test_special_values_all_pairs(name, dtype):
    s = special(dtype)
    a, b = np.meshgrid(s, s)
    check(getattr(nr, name)(nr.asarray(a), nr.asarray(b)), ref(name, a, b), signed_zeros=name != "divide")


@pytest.mark.parametrize("dtype", COMPLEX)
def test_pow_integral_and_zero_exponents(dtype):
    a = crand((12,), dtype, seed=6)
    for e in (0, 1, 2, 3, 5, -2, 0.5, 1j, 2 + 1j):
        check(nr.pow(nr.asarray(a), e), ref("pow", a, np.asarray(e, dtype=dtype)), rtol=1e-4)
    z = np.array([0j, 0j, 0j], dtype=dtype)
    check(nr.pow(nr.asarray(z), nr.asarray(np.array([2, -1, 1j], dtype=dtype))),
          ref("pow", z, np.array([2, -1, 1j], dtype=dtype)))


@pytest.mark.parametrize("dtype", COMPLEX)
def test_python_scalars_and_operators(dtype):
    a = crand((6,), dtype, seed=7)
    x = nr.asarray(a)
    check(x + 1j, a + np.asarray(1j, dtype=dtype))
    check(2.5 * x, np.asarray(2.5, dtype=dtype) * a)
    check(x - 3, a - np.asarray(3, dtype=dtype))
    check((1 + 2j) / x, np.asarray(1 + 2j, dtype=dtype) / a)
    check(x ** 2, a ** 2)
    check(x == x, a == a)
    check(-x, -a)
    check(abs(x), np.abs(a))


@pytest.mark.parametrize("real", [np.float32, np.float64, np.float16, np.int8, np.int32, np.bool_])
def test_complex_scalar_with_a_real_array(real):
    a = np.arange(5).astype(real)
    got = nr.multiply(nr.asarray(a), 2 - 1j)
    want = np.complex128 if real in (np.float64,) else np.complex64
    assert got.dtype == nr.dtype(np.dtype(want).name)
    check(got, (a.astype(want) * np.asarray(2 - 1j, dtype=want)))


def test_where_selects_complex():
    a, b = crand((7,), np.complex64, seed=8), crand((7,), np.complex64, seed=9)
    c = np.arange(7) % 2 == 0
    check(nr.where(nr.asarray(c), nr.asarray(a), nr.asarray(b)), np.where(c, a, b))


@pytest.mark.parametrize("name", ["maximum", "minimum", "less", "greater", "floor_divide", "remainder", "atan2"])
def test_orderless_functions_refuse_complex(name):
    x = nr.asarray(np.array([1 + 2j], dtype=np.complex128))
    with pytest.raises(TypeError) as e:  # nr.UnsupportedDtypeError is a TypeError
        getattr(nr, name)(x, x)
    assert f"npurt.{name}" in str(e.value) and "complex128" in str(e.value)
