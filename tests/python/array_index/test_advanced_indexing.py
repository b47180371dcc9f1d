"""x[key] and x[key] = v with integer arrays and boolean masks against numpy
(exact: indexing moves data), including keys mixing arrays with integers,
slices, ... and None, writes through views, and the errors.
"""
import numpy as np
import pytest

import npurt as nr


def _base(shape, dtype="float32"):
    return (np.arange(int(np.prod(shape))) * 3 % 97).astype(dtype).reshape(shape)


GET_KEYS = [
    ((10,), [3, 0, -1, 3]),
    ((10,), np.array([[1, 2], [9, -10]])),
    ((4, 5), ([0, 2], slice(1, 3))),                     # x[[0, 2], 1:3]
    ((4, 5), (slice(None), [4, 0, 1])),
    ((4, 5), (1, [0, -1])),                              # int next to the array
    ((4, 5), ([3, 1], [4, 0])),                          # two arrays, paired
    ((4, 5), ([[0], [3]], [1, 2, 4])),                   # broadcast of two arrays
    ((3, 4, 5), ([2, 0], slice(None), [1, 4])),          # separated arrays: dims go first
    ((3, 4, 5), (slice(None), [3, 0, 0], 2)),
    ((3, 4, 5), ([1], slice(None), 2)),                  # array and int separated by a slice
    ((3, 4, 5), (Ellipsis, [4, 4])),
    ((3, 4, 5), (None, [1, 0], None, slice(1, None, 2))),
    ((3, 4, 5), (slice(None, None, -1), [2, -4], slice(None, None, -2))),
    ((2, 3, 4, 5), (slice(None), [0, 2], [1, 3], slice(None))),
    ((6,), []),
    ((0, 4), (slice(None), [1, 2])),
    ((33, 15), ([32, 0, 16], slice(2, None, 3))),
    ((4, 5), ((3, 0), 1)),                               # a tuple inside the key is an index array
]


@pytest.mark.parametrize("shape,key", GET_KEYS)
def test_integer_array_getitem_matches_numpy(shape, key):
    host = _base(shape)
    y = nr.asarray(host)[key]
    ref = host[key]
    assert y.shape == ref.shape
    np.testing.assert_array_equal(y.numpy(), ref)


def test_npurt_arrays_as_index_and_on_views():
    host = _base((8, 9), "int32")
    x = nr.asarray(host)
    i = nr.asarray(np.array([7, -8, 3], np.int64))
    np.testing.assert_array_equal(x[i].numpy(), host[[7, -8, 3]])
    np.testing.assert_array_equal(x.mT[i, 2:].numpy(), host.T[[7, -8, 3], 2:])
    np.testing.assert_array_equal(x[::-1][i[1:]].numpy(), host[::-1][[-8, 3]])
    np.testing.assert_array_equal(x[nr.asarray(np.int64(2)), i].numpy(), host[2, [7, -8, 3]])


@pytest.mark.parametrize("shape,mshape", [((10,), (10,)), ((4, 5), (4, 5)), ((4, 5), (4,)), ((2, 3, 4), (2, 3)),
                                          ((0, 3), (0,)), ((1023,), (1023,)), ((3, 1), (3, 1))])
@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "float16", "complex128", "uint8"])
def test_boolean_mask_getitem(shape, mshape, dtype):
    host = _base(shape, dtype)
    mask = (np.arange(int(np.prod(mshape))).reshape(mshape) * 7 % 3) == 1
    for m in (mask, nr.asarray(mask)):
        y = nr.asarray(host)[m]
        np.testing.assert_array_equal(y.numpy(), host[mask])


def test_mask_forms():
    host = _base((3, 4))
    x = nr.asarray(host)
    np.testing.assert_array_equal(x[[True, False, True]].numpy(), host[[True, False, True]])
    np.testing.assert_array_equal(x[nr.asarray(host > 20), ...].numpy(), host[host > 20])
    np.testing.assert_array_equal(x[nr.asarray(np.bool_(True))].numpy(), host[np.bool_(True)])
    assert x[nr.asarray(np.bool_(False))].shape == (0, 3, 4)
    assert x[nr.asarray(np.zeros((3, 4), bool))].shape == (0,)
    np.testing.assert_array_equal(x.mT[nr.asarray(host.T > 30)].numpy(), host.T[host.T > 30])


SET_CASES = [
    ((10,), [3, 0, -1], 7.0),
    ((10,), [1, 1, 1], np.array([1.0, 2.0, 3.0])),       # repeated index: the last value wins
    ((4, 5), ([0, 2], slice(1, 3)), np.array([[1.0, 2.0], [3.0, 4.0]])),
    ((4, 5), (slice(None), [4, 0]), np.arange(8.0).reshape(4, 2)),
    ((4, 5), ([3, 1], [4, 0]), -1.0),
    ((3, 4, 5), ([2, 0], slice(None), [1, 4]), np.arange(8.0).reshape(2, 4)),
    ((3, 4, 5), (slice(None), [3, 0], 2), np.array([5.0, 6.0])),
    ((3, 4, 5), (Ellipsis, [4]), 9.0),
    ((6,), [], 1.0),
    ((33, 15), ([32, 0, 16], slice(2, None, 3)), np.arange(5.0)),
]


@pytest.mark.parametrize("shape,key,value", SET_CASES)
def test_integer_array_setitem_matches_numpy(shape, key, value):
    host = _base(shape)
    x = nr.asarray(host)
    x[key] = value if np.isscalar(value) else nr.asarray(np.asarray(value, np.float32))
    host[key] = value
    np.testing.assert_array_equal(x.numpy(), host)


@pytest.mark.parametrize("dtype", ["float32", "int16", "bool", "float64", "complex64"])
def test_mask_setitem(dtype):
    host = _base((5, 7), dtype)
    x = nr.asarray(host)
    mask = (np.arange(35).reshape(5, 7) % 4) == 0
    x[nr.asarray(mask)] = 1
    host[mask] = 1
    np.testing.assert_array_equal(x.numpy(), host)
    rows = np.array([True, False, False, True, True])
    x[rows] = nr.asarray(np.zeros(7, dtype))
    host[rows] = 0
    np.testing.assert_array_equal(x.numpy(), host)
    count = int(mask.sum())
    x[nr.asarray(mask)] = nr.asarray(np.arange(count).astype(dtype))
    host[mask] = np.arange(count).astype(dtype)
    np.testing.assert_array_equal(x.numpy(), host)


def test_setitem_through_views_writes_the_base():
    host = _base((6, 8))
    x = nr.asarray(host)
    v = x[1:, ::2]            # a non-contiguous view
    v[[0, 3], 1] = -5.0
    host[1:, ::2][[0, 3], 1] = -5.0
    t = x.mT                  # a transposed view
    t[nr.asarray(host.T > 100)] = 0.5
    host.T[host.T > 100] = 0.5
    x[::-1][[0, 1]] = 2.0
    host[::-1][[0, 1]] = 2.0
    np.testing.assert_array_equal(x.numpy(), host)


def test_setitem_from_an_overlapping_view_of_itself():
    host = _base((5, 6))
    x = nr.asarray(host)
    x[[2, 0, 1]] = x[1:4]   # reads rows the scatter overwrites: the values are copied first
    host[[2, 0, 1]] = host[1:4].copy()
    x[nr.asarray(host > 50)] = x[nr.asarray(host > 50)][::-1]
    host[host > 50] = host[host > 50][::-1]
    np.testing.assert_array_equal(x.numpy(), host)


def test_setitem_casts_and_broadcasts_values():
    host = np.zeros((4, 3), np.int32)
    x = nr.asarray(host)
    x[[1, 2]] = nr.asarray(np.array([7.9, -2.2, 3.5], np.float32))
    host[[1, 2]] = np.array([7.9, -2.2, 3.5], np.float32)
    np.testing.assert_array_equal(x.numpy(), host)


def test_large_mask_and_index_roundtrip():
    rng = np.random.default_rng(11)
    host = rng.standard_normal(1 << 20).astype(np.float32)
    x = nr.asarray(host)
    m = host > 0.3
    np.testing.assert_array_equal(x[nr.asarray(m)].numpy(), host[m])
    x[nr.asarray(m)] = 0.0
    host[m] = 0.0
    idx = rng.integers(0, 1 << 20, 5000)
    x[nr.asarray(idx)] = 1.0
    host[idx] = 1.0
    np.testing.assert_array_equal(x.numpy(), host)


@pytest.mark.parametrize("key,err,message", [
    (([0, 3],), IndexError, "index 3 is out of bounds for axis 0 with size 3"),
    ((1, [0, -5]), IndexError, "index -5 is out of bounds for axis 1 with size 4"),
    (([0.5],), IndexError, "arrays used as indices must be of integer or boolean type"),
    ((np.ones((3, 4), bool), 0), IndexError, "too many indices for array"),
    ((np.array([True, False, True]), [0, 4]), IndexError, "index 4 is out of bounds for axis 1 with size 4"),
    ((slice(None), np.ones((3,), bool)), IndexError, "boolean index did not match indexed array along axis 1; "
                                                     "size of axis is 4 but size of corresponding boolean axis is 3"),
    ((np.ones((4,), bool),), IndexError, "boolean index of shape (4,) does not match"),
    (([0, 1], [0, 1, 2]), IndexError, "shape mismatch: indexing arrays could not be broadcast together with "
                                      "shapes (2,) (3,)"),
])
def test_bad_advanced_keys(key, err, message):
    x = nr.asarray(np.zeros((3, 4), np.float32))
    for op in ("get", "set"):
        with pytest.raises(err) as e:
            if op == "get":
                x[key if len(key) > 1 else key[0]]
            else:
                x[key if len(key) > 1 else key[0]] = 1.0
        assert message in str(e.value)
        assert "npurt." in str(e.value)
    assert x[[1]].shape == (1, 4)  # the runtime stays usable
    np.testing.assert_array_equal(x.numpy(), np.zeros((3, 4), np.float32))  # nothing was written


def test_value_shape_mismatch_names_value():
    x = nr.asarray(np.zeros((3, 4), np.float32))
    with pytest.raises(ValueError, match="npurt.ndarray.__setitem__: argument 'value': could not broadcast"):
        x[[0, 1]] = nr.asarray(np.zeros((3, 4), np.float32))


def test_sim_check_full_is_clean():
    with nr.debug.sim_check_level("full"):  # launches read NPURT_SIM_CHECK once: set it through npurt
        rng = np.random.default_rng(12)
        host = rng.standard_normal((37, 65)).astype(np.float16)
        x = nr.asarray(host)
        np.testing.assert_array_equal(x[[3, -1, 0], 5:].numpy(), host[[3, -1, 0], 5:])
        np.testing.assert_array_equal(x[nr.asarray(host > 0)].numpy(), host[host > 0])
        np.testing.assert_array_equal(nr.take_along_axis(x, nr.asarray(np.argsort(host, 1)), axis=1).numpy(),
                                      np.sort(host, 1))
        for g, r in zip(nr.nonzero(nr.asarray(host > 1)), np.nonzero(host > 1)):
            np.testing.assert_array_equal(g.numpy(), r)
        x[nr.asarray(host < -1)] = 0
        host[host < -1] = 0
        x[:, [1, 2, 63]] = 7
        host[:, [1, 2, 63]] = 7
        np.testing.assert_array_equal(x.numpy(), host)
        y = nr.cumulative_sum(nr.asarray(host.astype(np.float32)), axis=0, include_initial=True)
        assert y.shape == (38, 65)
        c = nr.cumulative_prod(nr.asarray(np.arange(1, 40, dtype=np.int32)))
        np.testing.assert_array_equal(c.numpy(), np.cumprod(np.arange(1, 40), dtype=np.int64))
        np.testing.assert_array_equal(nr.triu(nr.asarray(host), k=2).numpy(), np.triu(host, k=2))
        np.testing.assert_array_equal(nr.eye(33, 17, k=-3, dtype=nr.int8).numpy(), np.eye(33, 17, k=-3, dtype=np.int8))
        np.testing.assert_array_equal(nr.arange(-7, 1000, 3).numpy(), np.arange(-7, 1000, 3))
        np.testing.assert_allclose(nr.linspace(0, 1, 1023).numpy(), np.linspace(0, 1, 1023), rtol=2e-7)
