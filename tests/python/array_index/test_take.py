"""take, take_along_axis, nonzero and count_nonzero against numpy (exact:
these functions move or count data), with out-of-bounds checks on the device.
"""
import ml_dtypes
import numpy as np
import pytest

import npurt as nr

DTYPES = ["bool", "int8", "uint16", "int32", "int64", "float16", "bfloat16", "float32", "float64", "complex64",
          "complex128"]


def _host(shape, dtype, seed=0):
    dt = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    vals = np.random.default_rng(seed).integers(-50, 50, shape)
    if dt.kind == "b":
        return (vals > 0)
    if dt.kind == "u":
        vals = np.abs(vals)
    return vals.astype(dt)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,axis,idx", [
    ((10,), None, [0, 9, -1, -10, 3, 3]), ((1,), 0, [0, -1, 0]), ((7, 33), 1, [32, 0, -33]),
    ((7, 33), 0, [[6, 0], [1, -2]]), ((3, 4, 5), 1, [2]), ((1023,), 0, list(range(-1023, 1023, 5))),
    ((4, 0), 0, [1, 3]), ((5, 6), 1, []), ((2, 3, 40), -1, [39, 1, 38, 2, 37]),
])
def test_take_matches_numpy(dtype, shape, axis, idx):
    host = _host(shape, dtype)
    ind = np.array(idx, dtype=np.int64)
    y = nr.take(nr.asarray(host), nr.asarray(ind), axis=axis)
    ref = np.take(host, ind, axis=0 if axis is None else axis)
    assert y.shape == ref.shape and str(y.dtype) == dtype
    np.testing.assert_array_equal(y.numpy(), ref)


@pytest.mark.parametrize("idx_dtype", ["int8", "int16", "int32", "uint8", "uint32", "uint64"])
def test_take_with_every_integer_index_dtype(idx_dtype):
    host = np.arange(100, dtype=np.float32)
    ind = np.array([0, 99, 5, 7], dtype=idx_dtype)
    np.testing.assert_array_equal(nr.take(nr.asarray(host), nr.asarray(ind)).numpy(), host[ind])


def test_take_from_views_and_with_view_indices():
    host = np.arange(6 * 200, dtype=np.int32).reshape(6, 200)
    x = nr.asarray(host)
    ind = np.array([199, 0, 17, 17, -5], dtype=np.int64)
    i = nr.asarray(np.stack([ind, ind % 67]))
    np.testing.assert_array_equal(nr.take(x.mT, i[0], axis=0).numpy(), np.take(host.T, ind, axis=0))
    np.testing.assert_array_equal(nr.take(x[::-2, 1::3], i[1, ::2], axis=1).numpy(),
                                  np.take(host[::-2, 1::3], (ind % 67)[::2], axis=1))


def test_take_large():
    host = np.random.default_rng(1).standard_normal(1 << 20).astype(np.float32)
    ind = np.random.default_rng(2).integers(-(1 << 20), 1 << 20, 300000)
    np.testing.assert_array_equal(nr.take(nr.asarray(host), nr.asarray(ind)).numpy(), host[ind])
    rows = np.random.default_rng(3).standard_normal((2000, 96)).astype(np.float32)
    ri = np.random.default_rng(4).integers(0, 2000, 3001)
    np.testing.assert_array_equal(nr.take(nr.asarray(rows), nr.asarray(ri), axis=0).numpy(), rows[ri])


@pytest.mark.parametrize("bad,axis,size", [([0, 3], 0, 3), ([-4], 0, 3), ([1, 2, 2 ** 40], 1, 5)])
def test_take_out_of_bounds_raises_index_error_naming_axis_and_index(bad, axis, size):
    x = nr.asarray(np.zeros((3, 5), np.float32))
    with pytest.raises(IndexError) as e:
        nr.take(x, nr.asarray(np.array(bad, np.int64)), axis=axis)
    first = [b for b in bad if not -size <= b < size][0]
    assert str(e.value) == f"npurt.take: index {first} is out of bounds for axis {axis} with size {size}"
    assert nr.take(x, nr.asarray(np.array([1], np.int64)), axis=axis).shape[axis] == 1  # still usable


def test_take_argument_errors():
    x = nr.asarray(np.zeros((3, 5), np.float32))
    i = nr.asarray(np.array([0], np.int64))
    with pytest.raises(ValueError, match="npurt.take: argument 'axis': required for a 2-d array"):
        nr.take(x, i)
    with pytest.raises(IndexError, match="must be of integer type"):
        nr.take(x, nr.asarray(np.array([0.0], np.float32)), axis=0)
    with pytest.raises(IndexError, match="npurt.take: argument 'axis'"):
        nr.take(x, i, axis=2)
    with pytest.raises(TypeError, match="npurt.take"):
        nr.take(x, [0], axis=0)


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "float16", "uint8", "complex128", "complex64"])
@pytest.mark.parametrize("xshape,ishape,axis", [((5,), (7,), 0), ((4, 6), (4, 3), 1), ((4, 6), (9, 6), 0),
                                                ((3, 4, 5), (3, 2, 5), 1), ((3, 4, 5), (1, 4, 2), -1),
                                                ((3, 1, 5), (3, 6, 5), 2), ((2, 3), (2, 0), 1)])
def test_take_along_axis_matches_numpy_with_broadcasting(dtype, xshape, ishape, axis):
    host = _host(xshape, dtype, 5)
    n = xshape[axis]
    ind = np.random.default_rng(6).integers(-n, n, ishape)
    y = nr.take_along_axis(nr.asarray(host), nr.asarray(ind), axis=axis)
    bx = list(np.broadcast_shapes(tuple(1 if d == axis % len(xshape) else s for d, s in enumerate(xshape)),
                                  tuple(1 if d == axis % len(xshape) else s for d, s in enumerate(ishape))))
    ref_ind = np.broadcast_to(ind, tuple(ishape[d] if d == axis % len(xshape) else bx[d] for d in range(len(bx))))
    ref_x = np.broadcast_to(host, tuple(xshape[d] if d == axis % len(xshape) else bx[d] for d in range(len(bx))))
    np.testing.assert_array_equal(y.numpy(), np.take_along_axis(ref_x, ref_ind, axis=axis))


def test_take_along_axis_with_argsort_like_indices_and_errors():
    host = np.random.default_rng(7).standard_normal((6, 40)).astype(np.float32)
    order = np.argsort(host, axis=1)
    y = nr.take_along_axis(nr.asarray(host), nr.asarray(order), axis=1)
    np.testing.assert_array_equal(y.numpy(), np.sort(host, axis=1))
    with pytest.raises(IndexError, match="npurt.take_along_axis: index 40 is out of bounds for axis 1 with size 40"):
        nr.take_along_axis(nr.asarray(host), nr.asarray(np.full((6, 1), 40)), axis=1)
    with pytest.raises(ValueError, match="npurt.take_along_axis: argument 'indices': must have the rank of x"):
        nr.take_along_axis(nr.asarray(host), nr.asarray(np.zeros(3, np.int64)), axis=1)
    with pytest.raises(ValueError, match="npurt.take_along_axis: argument 'indices': shape"):
        nr.take_along_axis(nr.asarray(host), nr.asarray(np.zeros((4, 2), np.int64)), axis=1)


@pytest.mark.parametrize("shape", [(1,), (15,), (33, 3), (4, 0), (2, 3, 4, 5), (1023,), (0,)])
@pytest.mark.parametrize("dtype", ["bool", "float32", "int32", "float16"])
def test_nonzero_matches_numpy(shape, dtype):
    host = _host(shape, dtype, 8)
    if dtype != "bool":
        host[..., ::3] = 0
    got = nr.nonzero(nr.asarray(host))
    ref = np.nonzero(host)
    assert isinstance(got, tuple) and len(got) == len(ref)
    for g, r in zip(got, ref):
        assert str(g.dtype) == "int64"
        np.testing.assert_array_equal(g.numpy(), r)


@pytest.mark.parametrize("dtype", ["float32", "float16", "float64", "complex64", "complex128", "int8", "uint64"])
def test_nonzero_special_values(dtype):
    if dtype.startswith(("int", "uint")):
        host = np.array([0, 1, 0, 2, 0, 0, 3], dtype)
    else:
        host = np.array([0.0, -0.0, np.nan, 1e-30, 0.0, np.inf, -2.0], dtype)
        if dtype.startswith("complex"):
            host[0] = 1j  # imaginary part only: nonzero
    for g, r in zip(nr.nonzero(nr.asarray(host.reshape(7, 1))), np.nonzero(host.reshape(7, 1))):
        np.testing.assert_array_equal(g.numpy(), r)


def test_nonzero_of_views_large_and_errors():
    host = np.random.default_rng(9).standard_normal((300, 700)).astype(np.float32) > 1.0
    x = nr.asarray(host)
    for g, r in zip(nr.nonzero(x), np.nonzero(host)):
        np.testing.assert_array_equal(g.numpy(), r)
    for g, r in zip(nr.nonzero(x.mT[::-3]), np.nonzero(host.T[::-3])):
        np.testing.assert_array_equal(g.numpy(), r)
    with pytest.raises(ValueError, match="npurt.nonzero: argument 'x': nonzero of a 0-d array"):
        nr.nonzero(nr.asarray(np.float32(1)))
    assert nr.nonzero(nr.asarray(np.zeros(5, np.float32)))[0].shape == (0,)


@pytest.mark.parametrize("axis,keepdims", [(None, False), (0, False), (1, True), ((0, 2), False), (-1, True)])
def test_count_nonzero(axis, keepdims):
    host = np.random.default_rng(10).integers(-1, 2, (4, 5, 6)).astype(np.float32)
    y = nr.count_nonzero(nr.asarray(host), axis=axis, keepdims=keepdims)
    ref = np.count_nonzero(host, axis=axis, keepdims=keepdims)
    np.testing.assert_array_equal(y.numpy(), ref)
