"""nr.asarray(view, copy=True) of a non-contiguous npurt view: a new contiguous array
(the strided copy kernel on the device), equal to numpy's copy, independent of the source."""
import numpy as np
import pytest

import npurt as nr

DTYPES = [np.float32, np.float16, np.int32, np.int8, np.bool_, np.float64, np.complex64]


def _views(a):
    """(name, view) pairs built the same way on an npurt and a numpy array."""
    return [("transpose", a.T), ("reversed", a[::-1]), ("step", a[:, 1::3]), ("column", a[:, 2])]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(15, 33), (1, 7), (33, 1023)])
def test_copy_of_view_matches_numpy(dtype, shape):
    host = (np.arange(np.prod(shape)) % 101 - 50).reshape(shape).astype(dtype)
    x = nr.asarray(host)
    for (name, dview), (_, href) in zip(_views(x), _views(host)):
        y = nr.asarray(dview, copy=True)
        assert y.shape == href.shape and y.dtype == x.dtype, name
        np.testing.assert_array_equal(np.asarray(y), href, err_msg=name)  # a copy: exact for every dtype
        assert y.strides == np.empty(href.shape, href.dtype).strides, name  # C-contiguous


def test_copy_is_independent_of_the_source():
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = nr.asarray(host)
    y = nr.asarray(x.T, copy=True)
    x[...] = 0  # writing the source afterwards leaves the copy alone
    np.testing.assert_array_equal(np.asarray(y), host.T)


def test_empty_and_broadcast_views():
    x = nr.asarray(np.ones((0, 5), np.float32))
    assert nr.asarray(x.T, copy=True).shape == (5, 0)
    b = nr.broadcast_to(nr.asarray(np.arange(3, dtype=np.int32)), (4, 3))  # zero strides
    np.testing.assert_array_equal(np.asarray(nr.asarray(b, copy=True)), np.broadcast_to(np.arange(3), (4, 3)))
