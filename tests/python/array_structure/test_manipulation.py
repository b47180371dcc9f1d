"""Manipulation functions against numpy (exact: they only move data)."""
import numpy as np
import pytest

import npurt as nr
from npurt import _npurt
from npurt.array_api import manipulation as M


def arr(shape, dtype=np.float32, seed=0):
    host = np.random.default_rng(seed).integers(-50, 50, size=shape).astype(dtype)
    return host, nr.asarray(host)


def same(x, expected):
    assert isinstance(x, nr.ndarray)
    assert x.shape == expected.shape, (x.shape, expected.shape)
    np.testing.assert_array_equal(x.numpy(), expected)


@pytest.mark.parametrize("shape,new", [((6,), (2, 3)), ((2, 3, 4), (-1,)), ((2, 3, 4), (4, -1)), ((), (1, 1)),
                                       ((1,), ()), ((0, 3), (3, 0)), ((1023,), (3, 341)), ((15, 1), (1, 15, 1))])
def test_reshape_contiguous_is_a_view(shape, new):
    host, x = arr(shape)
    y = M.reshape(x, new)
    same(y, host.reshape(new))
    assert _npurt._shares_storage(x, y)
    same(x.reshape(*new) if new else x.reshape(()), host.reshape(new))


def test_reshape_of_views_copies_only_when_needed():
    host, x = arr((4, 6))
    v = M.reshape(x[:, ::2], (4, 3, 1))      # view: strides allow it
    same(v, host[:, ::2].reshape(4, 3, 1))
    assert _npurt._shares_storage(x, v)
    t = M.reshape(x.T, (-1,))               # needs the copy kernel
    same(t, host.T.reshape(-1))
    assert not _npurt._shares_storage(x, t)
    with pytest.raises(ValueError, match="npurt.reshape: argument 'copy'"):
        M.reshape(x.T, (24,), copy=False)
    with pytest.raises(ValueError, match=r"cannot reshape array of size 24 into shape \(5, -1\)"):
        M.reshape(x, (5, -1))


def test_transposes_and_axis_moves():
    host, x = arr((2, 3, 4))
    same(M.permute_dims(x, (2, 0, 1)), host.transpose(2, 0, 1))
    same(M.matrix_transpose(x), np.swapaxes(host, -1, -2))
    same(x.T, host.T)
    same(x.mT, np.swapaxes(host, -1, -2))
    same(x.transpose(1, 0, 2), host.transpose(1, 0, 2))
    same(M.moveaxis(x, 0, -1), np.moveaxis(host, 0, -1))
    same(M.moveaxis(x, (0, 1), (2, 0)), np.moveaxis(host, (0, 1), (2, 0)))
    with pytest.raises(ValueError, match="not a permutation"):
        M.permute_dims(x, (0, 0, 1))
    with pytest.raises(ValueError, match="npurt.matrix_transpose"):
        M.matrix_transpose(nr.asarray(np.zeros(3, np.float32)))


def test_expand_squeeze_flip():
    host, x = arr((3, 1, 4))
    same(M.expand_dims(x, axis=0), host[None])
    same(M.expand_dims(x, axis=-1), host[..., None])
    same(M.squeeze(x, axis=1), host.squeeze(1))
    same(M.squeeze(x), host.squeeze())
    same(M.flip(x), np.flip(host))
    same(M.flip(x, axis=(0, 2)), np.flip(host, axis=(0, 2)))
    same(M.flip(x[::2], axis=-1), np.flip(host[::2], axis=-1))
    with pytest.raises(ValueError, match="npurt.squeeze: argument 'axis'.*axis 0 has size 3"):
        M.squeeze(x, axis=0)
    with pytest.raises(M.AxisError, match="npurt.expand_dims: argument 'axis': axis 4 is out of bounds"):
        M.expand_dims(x, axis=4)
    with pytest.raises(IndexError):  # AxisError is also an IndexError, like numpy's
        M.flip(x, axis=3)


def test_broadcasting_views():
    host, x = arr((3, 1))
    same(M.broadcast_to(x, (2, 3, 5)), np.broadcast_to(host, (2, 3, 5)))
    h2, y = arr((1, 4), seed=1)
    pair = M.broadcast_arrays(x, y)
    assert isinstance(pair, list)  # 2024.12: List[array]
    a, b = pair
    ea, eb = np.broadcast_arrays(host, h2)
    same(a, ea)
    same(b, eb)
    assert _npurt._elem_strides(a)[1] == 0
    with pytest.raises(ValueError, match=r"npurt.broadcast_to: argument 'shape': cannot broadcast shape \(3, 1\)"):
        M.broadcast_to(x, (4, 2))
    with pytest.raises(ValueError, match="cannot be broadcast together"):
        M.broadcast_arrays(x, nr.asarray(np.zeros((2, 1), np.float32)))


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_concat_and_stack(axis):
    h1, x = arr((3, 4), np.int32, 1)
    h2, y = arr((3, 4), np.int32, 2)
    same(M.concat([x, y[:, ::-1]], axis=axis), np.concatenate([h1, h2[:, ::-1]], axis=axis))
    if axis is not None:
        same(M.stack([x, y.T.T, x], axis=axis), np.stack([h1, h2, h1], axis=axis))


def test_concat_edge_cases_and_errors():
    h1, x = arr((0, 5))
    h2, y = arr((33, 5))
    same(M.concat([x, y, x]), np.concatenate([h1, h2, h1]))
    with pytest.raises(ValueError, match=r"npurt.concat: argument 'arrays': array 1 has shape \(5, 33\)"):
        M.concat([y, y.T])
    with pytest.raises(TypeError, match="element 1 is a ndarray, not an npurt.ndarray"):
        M.concat([y, h2])
    with pytest.raises(ValueError, match="zero-dimensional"):
        M.concat([nr.asarray(np.float32(1))])
    with pytest.raises(ValueError, match="npurt.stack: argument 'arrays': all input arrays must have the same"):
        M.stack([y, x])


def test_tile_repeat_roll_unstack():
    host, x = arr((2, 3))
    same(M.tile(x, (2, 1, 2)), np.tile(host, (2, 1, 2)))
    same(M.repeat(x, 2, axis=1), np.repeat(host, 2, axis=1))
    same(M.repeat(x, 3), np.repeat(host, 3))
    same(M.repeat(x, [1, 0, 2], axis=1), np.repeat(host, [1, 0, 2], axis=1))
    same(M.roll(x, 1, axis=1), np.roll(host, 1, axis=1))
    same(M.roll(x, -4), np.roll(host, -4))
    same(M.roll(x, (1, 2), axis=(0, 1)), np.roll(host, (1, 2), axis=(0, 1)))
    parts = M.unstack(x, axis=1)
    assert len(parts) == 3
    for p, e in zip(parts, np.moveaxis(host, 1, 0)):
        same(p, e)


def test_large_transpose_copy():
    host, x = arr((257, 1030))
    same(M.reshape(x.T, (-1,)), host.T.reshape(-1))
