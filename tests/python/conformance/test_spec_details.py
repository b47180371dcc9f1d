"""Details array-api-tests checks that the random differential run can miss:
a Python -0.0 operand keeps its sign even after 0.0 was used (scalar constants
are cached), isdtype's parameters carry the standard's names, complex 0**w is
0 for Re w > 0, sign() of a complex value holding a NaN is NaN + NaN j, and
meshgrid/broadcast_arrays return lists (2024.12's List[array])."""
import inspect
import math
import os
import sys

import numpy as np
import pytest

import npurt as nr

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "tools", "conformance"))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
def test_negative_zero_scalar_after_positive_zero(dtype):
    x = nr.asarray(np.array([-1.5, 2.0, 1.0], dtype))
    with np.errstate(all="ignore"):
        for s in (0.0, -0.0, 0.0, -0.0):
            got = np.asarray(x / s)
            want = np.array([-1.5, 2.0, 1.0], dtype) / np.array(s, dtype)
            np.testing.assert_array_equal(got, want)
    y = nr.asarray(np.array([1.0], "float32"))
    assert math.copysign(1.0, float(np.asarray(nr.copysign(y, 0.0))[0])) == 1.0
    assert math.copysign(1.0, float(np.asarray(nr.copysign(y, -0.0))[0])) == -1.0


def test_isdtype_signature_and_keywords():
    params = list(inspect.signature(nr.isdtype).parameters.values())
    assert [p.name for p in params] == ["dtype", "kind"]
    assert nr.isdtype(nr.int8, kind="integral") and nr.isdtype(dtype=nr.float32, kind=("bool", "real floating"))
    assert not nr.isdtype(nr.uint8, "signed integer")
    with pytest.raises(ValueError, match="npurt.isdtype: argument 'kind'"):
        nr.isdtype(nr.int8, "ints")


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_zero_base_pow(dtype):
    base = nr.asarray(np.array([0j, 0j, 0j, 1 + 1j], dtype))
    exp = nr.asarray(np.array([2 - 3j, 1 + 2j, -1 + 1j, 2 - 3j], dtype))
    got = np.asarray(base ** exp)
    np.testing.assert_array_equal(got[:2], np.zeros(2, dtype))
    assert np.isnan(got[2].real) and np.isnan(got[2].imag)  # Re w <= 0: undefined, NaN like numpy
    want = np.power(np.array(1 + 1j, np.complex128), 2 - 3j)
    assert abs(got[3] - want) <= 1e-5 * abs(want)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_sign_nan_parts(dtype):
    nan, inf = float("nan"), float("inf")
    z = np.array([complex(nan, inf), complex(inf, nan), complex(nan, 0), complex(0, nan), complex(inf, 1),
                  complex(0, -0.0), complex(3, 4)], dtype)
    got = np.asarray(nr.sign(nr.asarray(z)))
    assert np.isnan(got[:4].real).all() and np.isnan(got[:4].imag).all()
    np.testing.assert_allclose(got[4:], np.array([1, 0, 0.6 + 0.8j], dtype), rtol=1e-6)


def test_sequence_results_are_lists_as_in_2024_12():
    # 2024.12 returns List[array] from meshgrid and broadcast_arrays and a list of devices
    # (array-api PR 981 made them tuples for 2025.12); the reference pinned to 2024.12 agrees
    pytest.importorskip("array_api_strict")
    from run import reference_namespace
    xs = reference_namespace()
    for m in (nr, xs):
        a, b = m.asarray([1.0, 2.0]), m.asarray([3.0, 4.0, 5.0])
        grids = m.meshgrid(a, b, indexing="ij")
        pair = m.broadcast_arrays(a, m.reshape(a, (2, 1)))
        assert isinstance(grids, list) and [tuple(g.shape) for g in grids] == [(2, 3), (2, 3)], m
        assert isinstance(pair, list) and [tuple(p.shape) for p in pair] == [(2, 2), (2, 2)], m
        assert isinstance(m.__array_namespace_info__().devices(), list), m
    np.testing.assert_array_equal(nr.meshgrid(nr.asarray([1.0, 2.0]), nr.asarray([3.0, 4.0, 5.0]))[0].numpy(),
                                  np.meshgrid([1.0, 2.0], [3.0, 4.0, 5.0])[0].astype(np.float32))
    assert nr.meshgrid() == [] and nr.broadcast_arrays() == []
