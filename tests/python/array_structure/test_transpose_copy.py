"""Materialising transposed views (the copy kernel's blocked transpose mode) against numpy.

The copy kernel moves views whose next-outer stride is 1 (a transposed
matrix, possibly sliced) by blocks of rows: these cases cover partial blocks,
the per-core split, every element size, and views that are only partly
transposed or whose strides rule the block mode out.
"""
import numpy as np
import pytest

import npurt as nr


def host(shape, dtype, seed=0):
    h = np.random.default_rng(seed).integers(-100, 100, size=shape)
    return h.astype(dtype)


def check(view_nr, view_np):
    out = view_nr.copy()
    assert out.shape == view_np.shape
    np.testing.assert_array_equal(out.numpy(), np.ascontiguousarray(view_np))


DTYPES = [np.int8, np.float16, np.float32, np.int64, np.complex64, np.complex128]
# The vector (TransDataTo5HD) path: 1-, 2- and 4-byte units; 8-byte units (int64,
# complex64, float64) keep a scalar UB transpose.
UNIT_DTYPES = [np.bool_, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.float64]
SHAPES = [(0, 5), (5, 0), (1, 1), (1, 15), (15, 1), (2, 3), (15, 33), (33, 1023), (64, 64), (65, 129), (300, 70)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_2d_transpose(dtype, shape):
    h = host(shape, dtype)
    x = nr.asarray(h)
    check(nr.permute_dims(x, (1, 0)), h.T)


@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_sliced_and_batched_transposes(dtype):
    h = host((6, 40, 70), dtype)
    x = nr.asarray(h)
    check(x.transpose(0, 2, 1), h.transpose(0, 2, 1))        # batch of transposes
    check(x.transpose(2, 1, 0), h.transpose(2, 1, 0))        # stride-1 dim goes first
    check(x[:, 3:37, 5:66].transpose(0, 2, 1), h[:, 3:37, 5:66].transpose(0, 2, 1))
    check(x[1, :, ::3].T, h[1, :, ::3].T)                    # strided source rows
    check(x[1, ::2, :].T, h[1, ::2, :].T)                    # source columns spaced 2 apart
    check(x[1, :, ::-1].T, h[1, :, ::-1].T)                  # negative outer stride
    check(x[1, ::-1, :].T, h[1, ::-1, :].T)                  # negative inner stride: gather path


def test_narrow_rows_and_broadcast():
    h = host((3, 5000), np.float32)                          # inner stride 5000 > rows
    check(nr.asarray(h).T, h.T)
    b = np.broadcast_to(host((7, 1), np.float32), (7, 9))
    check(nr.broadcast_to(nr.asarray(host((7, 1), np.float32)), (7, 9)).T, b.T)


def test_large_transpose():
    h = host((1100, 2049), np.float32, seed=3)
    check(nr.asarray(h).T, h.T)
    h16 = host((513, 4100), np.float16, seed=4)
    check(nr.asarray(h16).T, h16.T)


@pytest.mark.parametrize("dtype", UNIT_DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (15, 17), (33, 1023), (1023, 17), (257, 300)])
def test_2d_transpose_every_unit(dtype, shape):
    h = host(shape, dtype, seed=5)
    check(nr.permute_dims(nr.asarray(h), (1, 0)), h.T)


@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.float32, np.int64])
def test_views_with_offsets(dtype):
    h = host((70, 301), dtype, seed=6)
    x = nr.asarray(h)
    check(x[3:, 5:].T, h[3:, 5:].T)                          # block starts not 32-B aligned
    check(x[1:66, 7:290:1].T, h[1:66, 7:290].T)
    check(x[::2, 1:].T, h[::2, 1:].T)                        # inner source stride 2 * 301


@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.float32, np.complex64])
@pytest.mark.parametrize("perm", [(0, 2, 1, 3), (0, 3, 1, 2), (0, 2, 3, 1), (3, 2, 1, 0), (1, 0, 3, 2)])
def test_4d_permutations(dtype, perm):
    h = host((3, 17, 33, 15), dtype, seed=7)
    check(nr.permute_dims(nr.asarray(h), perm), h.transpose(perm))


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32])
def test_3d_batched_odd_sizes(dtype):
    h = host((5, 1023, 33), dtype, seed=8)
    check(nr.permute_dims(nr.asarray(h), (0, 2, 1)), h.transpose(0, 2, 1))


@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.float32, np.int64])
def test_transpose_clean_at_full_check_level(dtype):
    """Full checks: no read of never-written UB, no GM write overlap between cores."""
    h = host((131, 515), dtype, seed=9)
    with nr.debug.sim_check_level("full"):
        check(nr.asarray(h).T, h.T)
        check(nr.asarray(h)[2:, 3:].T, h[2:, 3:].T)


def test_large_byte_transpose():
    h = host((2000, 1531), np.int8, seed=10)
    check(nr.asarray(h).T, h.T)


@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.float32, np.int64])
@pytest.mark.parametrize("shape", [(4100, 37), (1023, 257), (2049, 129)])
def test_wide_column_blocks(dtype, shape):
    """Output rows longer than one block's columns (176 float32, 368 float16,
    352 int8, 188 int64 with the whole-UB buffers): several column blocks per
    row, the last one partial, and rows that are not whole blocks."""
    h = host(shape, dtype, seed=11)
    check(nr.asarray(h).T, h.T)
    check(nr.asarray(h)[1:, 2:].T, h[1:, 2:].T)


@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.float32])
def test_wide_column_blocks_full_checks(dtype):
    h = host((1500, 200), dtype, seed=12)
    with nr.debug.sim_check_level("full"):
        check(nr.asarray(h).T, h.T)
