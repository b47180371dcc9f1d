"""numpy ufunc.reduce / ufunc.accumulate on nr.ndarray (NEP 13, array_api/interop.py).

reduce maps add/multiply/maximum/minimum/logical_and/logical_or to sum/prod/max/min/all/any,
accumulate maps add/multiply to cumulative_sum/cumulative_prod; the result is an nr.ndarray
computed on the device and compared with numpy's own ufunc on the host copy. Tolerances:
float32 rtol 1e-5 (different summation order; prod rtol 1e-4), float64 rtol 1e-12, integers and
bools exact; dtypes must equal numpy's (add.reduce and add.accumulate of int8 or bool give int64).

Error paths are checked by calling __array_ufunc__ directly, except in one subprocess: numpy
2.4 leaks the operand when __array_ufunc__ raises for reduce/accumulate (nanobind then reports
leaked instances at exit), so the suite itself must not take that path through numpy.
"""
import os
import subprocess
import sys

import numpy as np
import pytest

import npurt as nr

RTOL = {np.float32: 1e-5, np.float64: 1e-12}


def host_data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.random(shape) < 0.7
    if np.dtype(dtype).kind in "iu":
        return rng.integers(1, 4, size=shape).astype(dtype)
    return (rng.random(shape) + 0.5).astype(dtype)  # in [0.5, 1.5): products stay in range


def check(got, expected, rtol):
    assert isinstance(got, nr.ndarray), type(got)
    expected = np.asarray(expected)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    assert np.dtype(got.numpy().dtype) == expected.dtype, (got.dtype, expected.dtype)
    if expected.dtype.kind in "fc":
        np.testing.assert_allclose(got.numpy(), expected, rtol=rtol)
    else:
        np.testing.assert_array_equal(got.numpy(), expected)


REDUCE_UFUNCS = [np.add, np.multiply, np.maximum, np.minimum, np.logical_and, np.logical_or]
SHAPES = [(1,), (15,), (33,), (1023,), (3, 5), (2, 3, 4), (4, 0)]


@pytest.mark.parametrize("ufunc", REDUCE_UFUNCS, ids=lambda u: u.__name__)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int8, np.bool_])
@pytest.mark.parametrize("shape", SHAPES)
def test_reduce_matches_numpy(ufunc, dtype, shape):
    host = host_data(shape, dtype)
    x = nr.asarray(host)
    for axis in (0, -1, None, tuple(range(len(shape)))):
        for keepdims in (False, True):
            try:
                expected = ufunc.reduce(host, axis=axis, keepdims=keepdims)
            except ValueError:  # max/min of an empty axis: no identity (called directly: see the docstring)
                with pytest.raises(Exception, match="empty|zero-size|identity"):
                    x.__array_ufunc__(ufunc, "reduce", x, axis=axis, keepdims=keepdims)
                continue
            rtol = RTOL.get(dtype, 0) * (10 if ufunc is np.multiply else 1)
            check(ufunc.reduce(x, axis=axis, keepdims=keepdims), expected, rtol)


def test_reduce_positional_axis_dtype_0d_and_views():
    host = host_data((7, 33), np.float32)
    x = nr.asarray(host)
    check(np.add.reduce(x, 1), np.add.reduce(host, 1), 1e-5)
    check(np.add.reduce(x, axis=0, dtype=np.float64), np.add.reduce(host, axis=0, dtype=np.float64), 1e-12)
    check(np.multiply.reduce(x, axis=1, dtype="f8"), np.multiply.reduce(host, axis=1, dtype="f8"), 1e-12)
    check(np.maximum.reduce(x, axis=1, dtype=np.float64), np.maximum.reduce(host, axis=1, dtype=np.float64), 0)
    check(np.add.reduce(x[::2, 1::3], axis=1), np.add.reduce(host[::2, 1::3], axis=1), 1e-5)  # strided view
    check(np.logical_or.reduce(x[:, :0], axis=1), np.logical_or.reduce(host[:, :0], axis=1), 0)  # empty
    check(np.add.reduce(nr.asarray(np.float32(2.5)), axis=()), np.add.reduce(np.float32(2.5), axis=()), 0)


@pytest.mark.parametrize("ufunc", [np.add, np.multiply], ids=lambda u: u.__name__)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int8, np.bool_])
@pytest.mark.parametrize("shape", [(1,), (15,), (33,), (1023,), (0,), (3, 5), (2, 3, 4)])
def test_accumulate_matches_numpy(ufunc, dtype, shape):
    host = host_data(shape, dtype)
    x = nr.asarray(host)
    for axis in range(-len(shape), len(shape)):
        expected = ufunc.accumulate(host, axis=axis)
        rtol = RTOL.get(dtype, 0) * (10 if ufunc is np.multiply else 1)
        check(ufunc.accumulate(x, axis=axis), expected, rtol)


def test_accumulate_dtype_and_views():
    big = np.array([100, 100, 3, -120], np.int8)
    check(np.add.accumulate(nr.asarray(big)), np.add.accumulate(big), 0)  # widened to int64: no wrap
    check(np.add.accumulate(nr.asarray(big), dtype=np.int8), np.add.accumulate(big, dtype=np.int8), 0)  # wraps
    host = host_data((5, 8), np.float32)
    check(np.multiply.accumulate(nr.asarray(host)[:, ::3], axis=1), np.multiply.accumulate(host[:, ::3], axis=1),
          1e-4)
    check(np.add.accumulate(nr.asarray(host), axis=0, dtype=np.float64),
          np.add.accumulate(host, axis=0, dtype=np.float64), 1e-12)


def test_unsupported_forms_raise_type_errors_naming_them():
    x = nr.asarray(np.arange(1, 7, dtype=np.float32).reshape(2, 3))
    cases = [((np.subtract, "reduce", x), {}, r"numpy.subtract.reduce is not implemented.*add, logical_and"),
             ((np.maximum, "accumulate", x), {}, r"numpy.maximum.accumulate is not implemented.*add, multiply"),
             ((np.add, "reduceat", x, [0]), {}, r"numpy.add.reduceat is not implemented"),
             ((np.add, "outer", x, x), {}, r"numpy.add.outer is not implemented"),
             ((np.add, "reduce", x), {"initial": 1.0}, r"numpy.add.reduce: argument\(s\) \['initial'\]"),
             ((np.add, "reduce", x), {"where": np.ones(3, bool)}, r"numpy.add.reduce: argument\(s\) \['where'\]"),
             ((np.add, "reduce", x), {"out": (np.zeros(3),)}, r"numpy.add: out= is not supported"),
             ((np.add, "reduce", x), {"dtype": object}, r"numpy.add.reduce: argument 'dtype': .*object"),
             ((np.logical_or, "reduce", x), {"dtype": np.float32}, r"logical_or reduces to bool"),
             ((np.add, "accumulate", x), {"axis": None}, r"numpy.add.accumulate: argument 'axis': expected an int"),
             ((np.add, "accumulate", nr.asarray(np.float32(1))), {}, r"a 0-d array has no axis"),
             ((np.add, "reduce", np.zeros(3)), {}, r"does not mix ndarray")]
    for (ufunc, method, *inputs), kwargs, message in cases:
        with pytest.raises(TypeError, match=message):
            x.__array_ufunc__(ufunc, method, *inputs, **kwargs)
    with pytest.raises(Exception, match="axis"):
        x.__array_ufunc__(np.add, "reduce", x, axis=5)  # the reduction's own error
    assert float(np.add.reduce(x, axis=None)) == 21.0  # the runtime stays usable


def test_no_leaked_instances_at_exit():
    """The reduce/accumulate calls of this module, through numpy, in a fresh interpreter: nanobind must
    not report leaked instances at exit (it did while accumulate raised inside numpy)."""
    code = ("import numpy as np, npurt as nr\n"
            "x = nr.asarray(np.arange(1, 13, dtype=np.float32).reshape(3, 4))\n"
            "np.add.accumulate(x); np.multiply.accumulate(x, axis=1); np.add.reduce(x, axis=None)\n"
            "np.maximum.reduce(x); np.logical_or.reduce(x, axis=1, keepdims=True)\n")
    env = dict(os.environ, NPURT_SIM_DEVICES="1")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "leaked" not in out.stderr, out.stderr
