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
