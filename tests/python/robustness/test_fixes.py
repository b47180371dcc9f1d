"""Regression tests for the bugs the surface sweep (test_surface_fuzz.py) found, one per fix."""
import gc

import numpy as np
import pytest


def usable(nr):
    gc.collect()
    host = np.arange(15, dtype=np.float32)
    assert np.array_equal((nr.asarray(host) + 1).numpy(), host + 1)
    nr.synchronize()


@pytest.mark.parametrize("stream", ["s", 3, object()])
def test_op_stream_of_wrong_type(nr, stream):
    # was RuntimeError('std::bad_cast'): no op, no argument
    x = nr.asarray(np.ones(3, np.float32))
    with pytest.raises(nr.InvalidArgumentError, match=r"npurt\.ops\.add: argument 'stream': expected an npurt\.Stream"):
        nr.ops.add(x, x, stream=stream)
    usable(nr)


def test_op_closed_stream_names_op(nr):
    # was "npurt.MemoryPool.allocate: argument 'stream' ... is closed": not the op the user called
    s = nr.Stream()
    s.close()
    x = nr.asarray(np.ones(3, np.float32))
    with pytest.raises(nr.InvalidArgumentError, match=r"npurt\.ops\.add: argument 'stream': stream \d+ is closed"):
        nr.ops.add(x, x, stream=s)
    usable(nr)


@pytest.mark.parametrize("value", [2**63, -(2**63) - 1, 2**70])
def test_op_int_attribute_beyond_int64(nr, value):
    # was RuntimeError('std::bad_cast')
    with pytest.raises(nr.InvalidArgumentError, match=r"npurt\.ops\.eye: argument 'n_rows': int -?\d+ does not fit in int64"):
        nr.ops.eye(n_rows=value, dtype=nr.float32)
    with pytest.raises(nr.InvalidArgumentError, match=r"npurt\.ops\.fill: argument 'shape': int -?\d+ does not fit"):
        nr.ops.fill(shape=(1, value), dtype=nr.float32, value=1.0)
    usable(nr)


@pytest.mark.parametrize("n", [3, 4, 2**40])
def test_diff_huge_n_is_empty_not_a_hang(nr, n):
    # n = 2**40 looped 2**40 times (a hang); numpy: past shape[axis] the result is empty
    host = np.arange(3, dtype=np.float32)
    got = nr.diff(nr.asarray(host), n=n)
    assert got.shape == np.diff(host, n=min(n, 10)).shape == (0,)
    usable(nr)


@pytest.mark.parametrize("axis", [1.5, "0", float("nan"), float("inf")])
@pytest.mark.parametrize("fn", ["sum", "flip", "argmax", "cumulative_sum", "concat"])
def test_axis_must_be_an_integer(nr, fn, axis):
    # int(axis) truncated 1.5, parsed "0", and raised a bare ValueError/OverflowError for nan/inf
    x = nr.asarray(np.ones((2, 3), np.float32))
    call = (lambda: nr.concat([x, x], axis=axis)) if fn == "concat" else (lambda: getattr(nr, fn)(x, axis=axis))
    with pytest.raises(TypeError, match=rf"npurt\.{fn}: argument 'axis': expected an integer"):
        call()
    usable(nr)


def test_axis_numpy_integer_still_accepted(nr):
    x = nr.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert np.array_equal(nr.sum(x, axis=np.int64(1)).numpy(), np.array([3.0, 12.0], np.float32))


@pytest.mark.parametrize("bad", [None, [1.0, 2.0], "x", np.ones(3, np.float32)], ids=["None", "list", "str", "numpy"])
@pytest.mark.parametrize("fn", ["all", "any", "count_nonzero", "max", "mean", "min", "prod", "std", "sum", "var",
                                "broadcast_to", "expand_dims", "flip", "matrix_transpose", "moveaxis", "permute_dims",
                                "repeat", "reshape", "roll", "squeeze", "tile", "unstack"])
def test_non_array_x_is_a_type_error(nr, fn, bad):
    # was AttributeError("'list' object has no attribute 'dtype'") from inside the function
    extra = {"broadcast_to": ((3,),), "moveaxis": (0, 0), "permute_dims": ((0,),), "repeat": (1,),
             "reshape": ((3,),), "roll": (1,), "tile": ((1,),)}.get(fn, ())
    with pytest.raises(TypeError, match=rf"npurt\.{fn}: argument 'x': expected an npurt\.ndarray"):
        getattr(nr, fn)(bad, *extra)
    usable(nr)


@pytest.mark.parametrize("fn", ["full", "ones", "arange", "linspace"])
@pytest.mark.parametrize("dtype", ["float32", 1.0, object()])
def test_dtype_must_be_an_npurt_dtype(nr, fn, dtype):
    # was AttributeError("'str' object has no attribute 'name'")
    call = {"full": lambda: nr.full((2,), 1.0, dtype=dtype), "ones": lambda: nr.ones((2,), dtype=dtype),
            "arange": lambda: nr.arange(3, dtype=dtype), "linspace": lambda: nr.linspace(0, 1, 3, dtype=dtype)}[fn]
    with pytest.raises(TypeError, match=r"argument 'dtype': expected an npurt\.dtype"):
        call()
    usable(nr)


@pytest.mark.parametrize("call", ["reshape_inf", "reshape_float", "roll_nan"])
def test_shape_and_shift_must_be_integers(nr, call):
    # int() raised a bare OverflowError for inf / ValueError for nan, and truncated 2.0
    x = nr.asarray(np.arange(6, dtype=np.float32))
    f = {"reshape_inf": lambda: nr.reshape(x, float("inf")), "reshape_float": lambda: nr.reshape(x, (2.0, 3)),
         "roll_nan": lambda: nr.roll(x, float("nan"))}[call]
    with pytest.raises(TypeError, match=r"npurt\.(reshape|roll): argument '(shape|shift)': expected integers"):
        f()
    assert nr.reshape(x, (np.int64(2), 3)).shape == (2, 3)
    usable(nr)
