"""astype (vector `cast` or the scalar `astype` kernel) and the creation
functions that exist (full, ones, *_like) against numpy."""
import numpy as np
import pytest

import npurt as nr
from test_elementwise import check, rand

DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
          np.float16, np.float32, np.float64]


@pytest.mark.parametrize("src", DTYPES)
@pytest.mark.parametrize("dst", DTYPES)
def test_astype_pairs(src, dst):
    a = rand((33,), src, 1)
    if np.dtype(src).kind == "f" and np.dtype(dst).kind in "iu":
        a = np.abs(a)  # in range of every integer dtype (negative -> unsigned is undefined in numpy)
    got = nr.astype(nr.asarray(a), getattr(nr, np.dtype(dst).name))
    with np.errstate(all="ignore"):
        check(got, a.astype(dst))


def test_astype_copy_flag_and_errors():
    x = nr.asarray(np.ones(3, np.float32))
    assert nr.astype(x, nr.float32, copy=False) is x
    assert nr.astype(x, nr.float32) is not x
    with pytest.raises(TypeError, match="npurt.astype: argument 'dtype': expected an npurt.dtype, got str"):
        nr.astype(x, "float32")


@pytest.mark.parametrize("shape", [(), (0,), (1,), (33,), (3, 5)])
def test_full_ones_like(shape):
    check(nr.full(shape, 2.5), np.full(shape, 2.5, np.float32))
    check(nr.full(shape, 7, dtype=nr.int16), np.full(shape, 7, np.int16))
    check(nr.full(shape, True), np.full(shape, True))
    check(nr.ones(shape), np.ones(shape, np.float32))
    x = nr.asarray(rand(shape, np.int8, 1))
    check(nr.ones_like(x), np.ones(shape, np.int8))
    check(nr.zeros_like(x), np.zeros(shape, np.int8))
    check(nr.full_like(x, -3), np.full(shape, -3, np.int8))
    assert nr.empty_like(x).shape == shape


def test_full_errors():
    with pytest.raises(OverflowError, match="npurt.full: Python int 300 is out of range for int8"):
        nr.full((2,), 300, dtype=nr.int8)
    with pytest.raises(TypeError, match="npurt.full: argument 'fill_value'"):
        nr.full((2,), "x")
