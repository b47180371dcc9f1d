"""Basic indexing (views), assignment and scalar conversions against numpy.

Views and assignments move data only, so every comparison is exact.
"""
import numpy as np
import pytest

import npurt as nr
from npurt import _npurt
from npurt.array_api import indexing  # noqa: F401  (installs x[...] on nr.ndarray)
from npurt.array_api import manipulation  # noqa: F401

SHAPES_KEYS = [
    ((5,), 2), ((5,), -1), ((5,), slice(1, 4)), ((5,), slice(None, None, -1)), ((5,), slice(4, 0, -2)),
    ((5,), slice(7, 9)), ((5,), slice(None, None, 3)), ((4, 6), (1, slice(None, None, -2))),
    ((4, 6), (Ellipsis, 3)), ((4, 6), (None, slice(1, 3), None, -1)), ((2, 3, 4), (Ellipsis, None)),
    ((2, 3, 4), (1, Ellipsis, slice(3, None, -1))), ((2, 3, 4), ()), ((), ()), ((), Ellipsis), ((), None),
    ((0, 3), (slice(None), 1)), ((3, 0), (1,)), ((15,), slice(1, None, 2)), ((33, 3), (slice(None, None, -5), 2)),
    ((1023,), slice(-1000, -3, 7)), ((3, 4), (True,)), ((3, 4), (False, 1)), ((2, 3, 4), (Ellipsis, 1, 2)),
]


@pytest.mark.parametrize("shape,key", SHAPES_KEYS)
def test_getitem_matches_numpy_and_is_a_view(shape, key):
    host = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    x = nr.asarray(host)
    y = x[key]
    expected = host[key]
    assert isinstance(y, nr.ndarray)
    assert y.shape == expected.shape
    np.testing.assert_array_equal(y.numpy(), expected)
    assert _npurt._shares_storage(x, y)


def test_view_sees_later_writes_to_the_base():
    x = nr.asarray(np.zeros((4, 5), np.int32))
    col = x[:, 2]
    x[...] = 7
    np.testing.assert_array_equal(col.numpy(), np.full(4, 7, np.int32))


def test_zero_d_integer_array_is_an_index():
    host = np.arange(10, dtype=np.int16)
    x = nr.asarray(host)
    assert x[nr.asarray(np.int64(3))].item() == 3


@pytest.mark.parametrize("key,message", [
    (5, "index 5 is out of bounds for axis 0 with size 3"),
    ((0, -5), "index -5 is out of bounds for axis 1 with size 4"),
    ((0, 0, 0), "too many indices for array: array is 2-dimensional, but 3 were indexed"),
    ((Ellipsis, Ellipsis), "single ellipsis"),
    (1.5, "only integers, slices"),
    ([0.5, 1.5], "arrays used as indices must be of integer or boolean type"),
])
def test_bad_keys_raise_index_error_naming_the_function(key, message):
    x = nr.asarray(np.zeros((3, 4), np.float32))
    with pytest.raises(IndexError, match="npurt.ndarray.__getitem__: argument 'key'") as e:
        x[key]
    assert message in str(e.value)
    assert x[1, 1].item() == 0.0  # the runtime stays usable


# ---- assignment ------------------------------------------------------------------

ASSIGN_CASES = [
    ((6,), slice(1, 4), 3.5),
    ((4, 5), (slice(None), 2), np.arange(4, dtype=np.float32)),       # non-contiguous column
    ((4, 5), (slice(None, None, -1),), np.arange(5, dtype=np.float32)),  # reversed rows, broadcast row
    ((4, 5), (slice(1, 3), slice(None, None, 2)), -1.0),
    ((3, 4, 5), (Ellipsis, slice(None, None, -2)), np.arange(3, dtype=np.float32)[:, None, None]),
    ((), (), 9.0),
    ((0, 3), (slice(None),), 1.0),
    ((33, 15), (slice(None, None, 3), slice(2, None, 4)), np.float32(2.5)),
    ((1023,), slice(None, None, 7), np.arange(147, dtype=np.float32)),
]


@pytest.mark.parametrize("shape,key,value", ASSIGN_CASES)
def test_setitem_matches_numpy(shape, key, value):
    host = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    x = nr.asarray(host)
    x[key] = value if np.isscalar(value) or isinstance(value, np.floating) else nr.asarray(value)
    host[key] = value
    np.testing.assert_array_equal(x.numpy(), host)


def test_setitem_transposed_target_uses_one_dense_copy():
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = nr.asarray(host)
    src = np.arange(100, 112, dtype=np.float32).reshape(4, 3)
    x.T[...] = nr.asarray(src)
    host.T[...] = src
    np.testing.assert_array_equal(x.numpy(), host)


def test_setitem_overlapping_source_is_read_first():
    host = np.arange(10, dtype=np.int32)
    x = nr.asarray(host)
    x[1:] = x[:-1]
    host[1:] = host[:-1].copy()
    np.testing.assert_array_equal(x.numpy(), host)
    x[::-1] = x
    np.testing.assert_array_equal(x.numpy(), host[::-1])


def test_setitem_from_numpy_and_lists_and_casts_dtype():
    x = nr.asarray(np.zeros((2, 3), np.float32))
    x[0] = [1, 2, 3]
    x[1, 1:] = np.array([7.5, 8.5], dtype=np.float64)
    np.testing.assert_array_equal(x.numpy(), np.array([[1, 2, 3], [0, 7.5, 8.5]], np.float32))
    y = nr.asarray(np.zeros(4, np.int32))
    y[1:3] = nr.asarray(np.array([2.9, -3.9], np.float32))  # device cast float32 -> int32 truncates
    np.testing.assert_array_equal(y.numpy(), np.array([0, 2, -3, 0], np.int32))


def test_setitem_shape_mismatch_is_a_clear_error():
    x = nr.asarray(np.zeros((3, 4), np.float32))
    with pytest.raises(ValueError, match=r"npurt.ndarray.__setitem__: argument 'value': could not broadcast "
                                         r"input array from shape \(3,\) into shape \(3, 4\)"):
        x[...] = nr.asarray(np.ones(3, np.float32))
    with pytest.raises(IndexError, match="out of bounds"):
        x[3] = 1.0
    assert x.numpy().sum() == 0


def test_views_feed_existing_ops():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((33, 16)).astype(np.float32)
    b = rng.standard_normal((16, 33)).astype(np.float32)
    x, y = nr.asarray(a), nr.asarray(b)
    z = nr.ops.add(x[::-2, 1::3], y.T[::-2, 1::3])
    np.testing.assert_allclose(z.numpy(), a[::-2, 1::3] + b.T[::-2, 1::3], rtol=1e-6)
    c = x[:, ::-1].copy()
    assert c.is_contiguous
    np.testing.assert_array_equal(c.numpy(), a[:, ::-1])


# ---- scalar conversions, len, iteration -----------------------------------------------

def test_scalar_conversions_and_iteration():
    x = nr.asarray(np.array([[1.5, -2.0], [3.0, 4.25]], np.float32))
    assert x[0, 0].item() == 1.5 and x.item(3) == 4.25 and x.item(1, 0) == 3.0
    assert x.tolist() == [[1.5, -2.0], [3.0, 4.25]]
    assert float(x[1, 1]) == 4.25 and int(x[0, 1]) == -2 and complex(x[0, 0]) == 1.5 + 0j
    assert bool(x[0, 0]) is True and bool(nr.asarray(np.zeros(1, np.float32))) is False
    assert len(x) == 2 and [r.tolist() for r in x] == [[1.5, -2.0], [3.0, 4.25]]
    assert [7, 8, 9][nr.asarray(np.int32(1))] == 8
    with pytest.raises(ValueError, match="ambiguous"):
        bool(x)
    with pytest.raises(TypeError, match="only arrays with one element"):
        float(x)
    with pytest.raises(ValueError, match="size 4"):
        x.item()
    with pytest.raises(TypeError, match="iteration over a 0-d array"):
        iter(x[0, 0])
    with pytest.raises(TypeError, match="0-d"):
        len(x[0, 0])
    assert list(nr.asarray(np.zeros((0, 2), np.float32))) == []
