"""nr.ndarray introspection, repr, copy and numpy protocol."""
import numpy as np
import pytest


def test_properties_match_numpy(nr):
    host = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    x = nr.asarray(host)
    assert isinstance(x, nr.ndarray)
    assert (x.shape, x.strides, x.ndim, x.size, x.nbytes, x.itemsize) == (
        host.shape, host.strides, host.ndim, host.size, host.nbytes, host.itemsize)
    assert x.dtype is nr.int16 and x.device == nr.current_device() and x.is_contiguous
    assert x.stream == nr.current_stream()


def test_repr_shows_values(nr):
    x = nr.asarray(np.array([[1.5, 2.0], [3.0, -4.0]], dtype=np.float32))
    r = repr(x)
    assert r.startswith("ndarray([[ 1.5,  2. ],") and "-4." in r and "dtype=float32" in r and "sim:0" in r
    assert str(nr.asarray([1, 2, 3])) == "[1 2 3]"
    assert "bfloat16" in repr(nr.zeros(3, nr.bfloat16))


def test_copy_is_new_storage_with_same_values(nr):
    host = np.random.default_rng(1).standard_normal(1000).astype(np.float32)
    x = nr.asarray(host)
    y = x.copy()
    assert y is not x and y.shape == x.shape and y.dtype == x.dtype
    del x
    assert np.array_equal(y.numpy(), host)
    assert nr.zeros((0, 3)).copy().shape == (0, 3)


def test_array_protocol(nr):
    x = nr.asarray(np.arange(5, dtype=np.int32))
    assert np.asarray(x).dtype == np.int32
    assert np.array(x, dtype=np.float64).dtype == np.float64
    assert np.array_equal(np.asarray(x) * 2, np.arange(5) * 2)
    assert np.asarray(nr.zeros(3, nr.bfloat16)).dtype == nr.bfloat16.dtype


def test_asarray_of_ndarray(nr):
    x = nr.zeros(4, nr.int8)
    assert nr.asarray(x) is x and nr.asarray(x, nr.int8) is x
    y = nr.asarray(x, copy=True)
    assert y is not x and np.array_equal(y.numpy(), x.numpy())
    z = nr.asarray(x, nr.float32)  # another dtype: a device cast (the standard's asarray)
    assert z.dtype == nr.float32 and np.array_equal(z.numpy(), np.zeros(4, np.float32))
    with pytest.raises(ValueError, match="copy"):
        nr.asarray(x, nr.float32, copy=False)
    with pytest.raises(ValueError, match="copy"):
        nr.asarray([1, 2], copy=False)
