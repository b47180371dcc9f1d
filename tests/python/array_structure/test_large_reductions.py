"""Long reductions split over the cores (npurt::array::reduce's split rule,
runtime/ops/array_ops.cc: when the outputs are too few for the cores, the
reduced extent is cut into ranges of part_len elements, the last one shorter
when part_len does not divide it; a first launch writes one partial per range,
a second combines them) against numpy references computed in float64.

Error bound (float32 sum, kernels/reduction/reduce_kernel.cc): a range of
c = ceil(part_len / tile) chunks (tile = 4096 lanes for rows) accumulates in
blocks of B = 16 chunks: each lane is a serial sum of at most min(c, B) values
per block, the blocks' lanes are added serially into a total (ceil(c / B)
roundings); the lanes fold in halves down to 64 (log2(tile / 64) levels), a
tree of 6 levels sums those, and the combining launch does the same over the
partials. A value passes through at most
    d = min(c, B) + ceil(c / B) + log2(tile / 64) + 6 + ceil(log2(parts)) + 6
roundings, so |error| <= d * eps32 * sum(|x|); for 16 Mi elements (40 ranges
of 419 456, one per core of the 910B profile: c = 103) d = 16 + 7 + 6 + 6 + 6 +
6 = 47. The tests assert that
worst case (BOUND_16MI) and the typical ~1e-5 relative error. float16 inputs
accumulate in float32 and round once: within one float16 ulp (rtol 2 ** -10)
of the float64 result. max/min/any/all and int32 sums are exact.
"""
import numpy as np
import pytest

import npurt as nr
from npurt import _npurt

EPS32 = np.finfo(np.float32).eps
BOUND_16MI = 52
ROW_CHUNK, BLOCK = 4096, 16  # reduce_tiling.h: kReduceRowChunk, kReduceBlockChunks


def data(shape, dtype, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def check_sum(got, x, axis=None, c=64):
    ref = np.sum(x.astype(np.float64), axis=axis)
    bound = c * EPS32 * np.sum(np.abs(x.astype(np.float64)), axis=axis) + 1e-30
    assert np.all(np.abs(np.asarray(got, np.float64) - ref) <= bound)


def plan(xa, axis):
    """(outer, len, inner, part_len, parts) of the C++ rule."""
    axes = None if axis is None else tuple(np.atleast_1d(axis).tolist())
    return _npurt._array_reduce_plan(xa, axes)


@pytest.mark.parametrize("shape,axis,split", [
    ((1 << 22,), None, True),               # a whole array: one row
    ((4, 1 << 20), -1, True),               # few outputs over a long inner axis
    ((1 << 20, 3), 0, True),                # few outputs over a long outer axis (kOuter)
    ((2, 1 << 19, 2), 1, True),             # outer, len and inner
    (((1 << 20) + 1,), None, True),         # odd length: uneven ranges (a shorter last one)
    ((1048573,), None, True),               # a prime length
    ((3, 786431), 1, True),                 # odd rows
    ((33, 1023, 15), (0, 1), True),         # tuple axis, kOuter with an odd inner extent
    ((33, 1023, 15), 2, False),             # short rows: one launch
    ((256, 1024), -1, False),               # many outputs: one launch already spreads
])
def test_split_plan_and_float32_sum(shape, axis, split):
    x = data(shape, np.float32, 1)
    xa = nr.asarray(x)
    outer, length, inner, part_len, parts = plan(xa, axis)
    assert outer * length * inner == x.size
    assert (part_len > 0) == split
    if split:  # every element in exactly one range, no empty range
        assert 0 < part_len < length and (parts - 1) * part_len < length <= parts * part_len
    check_sum(nr.sum(xa, axis=axis), x, axis)
    np.testing.assert_allclose(np.asarray(nr.mean(xa, axis=axis), np.float64),
                               np.mean(x.astype(np.float64), axis=axis), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(np.asarray(nr.max(xa, axis=axis)), np.max(x, axis=axis))


def test_whole_array_split_gives_one_range_per_core():
    # One range per vector core (not two): each range costs its own accumulator
    # fills, partial last chunk and final fold (array_ops.cc split_part_len).
    xa = nr.empty((1 << 24,), dtype=nr.float32)
    cores = xa.device.profile.vector_cores
    _, length, _, part_len, parts = plan(xa, None)
    assert parts == cores and part_len % 64 == 0 and (parts - 1) * part_len < length
    # few long rows: the ranges fill the cores in one wave, rows x floor(cores /
    # rows) (with ceil, 3 rows made 42 units on 40 cores: a second wave of two
    # ranges, the launch ~2x the one-wave time on an NPU, and 3 more ranges)
    for rows in (2, 3, 7):
        _, _, _, _, parts = plan(nr.empty((rows, 1 << 20), dtype=nr.float32), -1)
        assert parts == cores // rows and rows * parts <= cores, rows
    # as many rows as cores: no split
    _, _, _, part_len, _ = plan(nr.empty((cores, 1 << 16), dtype=nr.float32), -1)
    assert part_len == 0


def test_plan_covers_any_length():
    for n in (1, 15, 33, 1023, (1 << 16) - 1, (1 << 20) + 1, 3 * (1 << 20) + 7, (1 << 24) + 3):
        _, length, _, part_len, parts = plan(nr.empty((n,), dtype=nr.float32), None)
        assert length == n
        if part_len:
            assert (parts - 1) * part_len < n <= parts * part_len and parts >= 2


@pytest.mark.parametrize("n", [1 << 24, (1 << 24) + 3])
def test_large_float32_sum_error_bound_against_float64(n):
    x = data((n,), np.float32, 2) + np.float32(3.0)  # a large mean: serial sums would drift
    xa = nr.asarray(x)
    got = float(nr.sum(xa))
    ref = float(np.sum(x.astype(np.float64)))
    _, _, _, part_len, parts = plan(xa, None)
    c = -(-part_len // ROW_CHUNK)
    d = min(c, BLOCK) + -(-c // BLOCK) + int(np.log2(ROW_CHUNK // 64)) + 6 + int(np.ceil(np.log2(parts))) + 6
    assert d <= BOUND_16MI
    assert abs(got - ref) <= d * EPS32 * float(np.sum(np.abs(x.astype(np.float64))))
    assert abs(got - ref) <= 1e-5 * abs(ref)
    h = (x - np.float32(3.0)).astype(np.float16)  # float16: one rounding of the float32 accumulation
    np.testing.assert_allclose(float(nr.sum(nr.asarray(h))), np.sum(h.astype(np.float64)), rtol=2.0 ** -10,
                               atol=1e-3)


@pytest.mark.parametrize("shape,axis", [((1 << 22,), None), ((8, 1 << 18), 1), ((1 << 19, 5), 0)])
def test_float16_split_keeps_float32_partials(shape, axis):
    x = (data(shape, np.float32, 3) * 0.25).astype(np.float16)
    xa = nr.asarray(x)
    ref = np.sum(x.astype(np.float64), axis=axis)
    got = nr.sum(xa, axis=axis)
    assert got.dtype == nr.float16
    # one float16 rounding of the float32-accumulated value (plus its tiny float32 error)
    np.testing.assert_allclose(np.asarray(got, np.float64), ref, rtol=2.0 ** -10,
                               atol=1e-3 * np.max(np.sum(np.abs(x.astype(np.float64)), axis=axis)) * 2.0 ** -10)
    wide = nr.sum(xa, axis=axis, dtype=nr.float32)
    assert wide.dtype == nr.float32
    check_sum(wide, x.astype(np.float32), axis)
    np.testing.assert_allclose(np.asarray(nr.mean(xa, axis=axis), np.float64), np.mean(x.astype(np.float64), axis=axis),
                               rtol=2.0 ** -10, atol=1e-4)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_max_min_mean_var_std_split(dtype):
    x = data((4, 1 << 20), dtype, 4)
    x[1, 12345] = 50.0
    x[2, (1 << 20) - 1] = -50.0
    xa = nr.asarray(x)
    for fn, ref in ((nr.max, np.max), (nr.min, np.min)):
        for axis in (None, -1):
            np.testing.assert_array_equal(np.asarray(fn(xa, axis=axis)), ref(x, axis=axis))
    x64 = x.astype(np.float64)
    tol = 1e-5 if dtype == np.float32 else 2.0 ** -10
    np.testing.assert_allclose(np.asarray(nr.mean(xa, axis=-1), np.float64), x64.mean(axis=-1), rtol=tol, atol=tol)
    if dtype == np.float32:
        np.testing.assert_allclose(float(nr.var(xa)), x64.var(), rtol=1e-4)
        np.testing.assert_allclose(np.asarray(nr.std(xa, axis=-1, correction=1)), x64.std(axis=-1, ddof=1), rtol=1e-4)


def test_nan_int_bool_and_prod_split():
    x = data((1 << 21,), np.float32, 5)
    x[(1 << 21) - 7] = np.nan
    xa = nr.asarray(x)
    assert np.isnan(float(nr.sum(xa))) and np.isnan(float(nr.max(xa))) and np.isnan(float(nr.min(xa)))
    i = np.random.default_rng(6).integers(-1000, 1000, (1 << 21,), dtype=np.int32)
    assert int(nr.sum(nr.asarray(i))) == int(i.astype(np.int64).sum())
    assert int(nr.max(nr.asarray(i))) == int(i.max())
    b = np.zeros((2, 1 << 20), bool)
    b[1, 777777] = True
    ba = nr.asarray(b)
    np.testing.assert_array_equal(np.asarray(nr.any(ba, axis=-1)), b.any(axis=-1))
    np.testing.assert_array_equal(np.asarray(nr.all(nr.logical_not(ba), axis=-1)), (~b).all(axis=-1))
    p = (1.0 + data((1 << 20,), np.float32, 7) * 1e-3).astype(np.float32)
    np.testing.assert_allclose(float(nr.prod(nr.asarray(p))), np.prod(p.astype(np.float64)), rtol=1e-3)


def test_keepdims_and_non_contiguous_views_of_long_reductions():
    x = data((2, 1 << 19), np.float32, 8)
    xa = nr.asarray(x)
    y = nr.sum(xa, axis=-1, keepdims=True)
    assert tuple(y.shape) == (2, 1)
    check_sum(np.asarray(y)[:, 0], x, -1)
    t = nr.permute_dims(xa, (1, 0))  # a view: one launch on the dispatcher's contiguous copy
    check_sum(nr.sum(t, axis=0), x.T, 0)
    s = xa[:, ::2]
    check_sum(nr.sum(s), x[:, ::2])


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_rows_longer_than_one_block_every_kind(dtype):
    """Rows of 19 chunks + 1088 (more than one block of 16 chunks, a short
    last block and tail; 128 rows: no split) and of exactly 16 chunks (one
    block, no total), for every kind."""
    for shape in [(128, 19 * ROW_CHUNK + 1088), (96, 16 * ROW_CHUNK)]:
        x = data(shape, dtype, 7) + dtype(0.5)  # row sums ~len / 2 stay below float16 max (65504)
        xa = nr.asarray(x)
        assert plan(xa, -1)[3] == 0  # one launch: the blocks, not the split, are under test
        c = -(-shape[1] // ROW_CHUNK)
        d = min(c, BLOCK) + -(-c // BLOCK) + int(np.log2(ROW_CHUNK // 64)) + 6
        if dtype == np.float32:
            check_sum(nr.sum(xa, axis=-1), x, axis=-1, c=d)
        else:
            np.testing.assert_allclose(np.asarray(nr.sum(xa, axis=-1), np.float64),
                                       np.sum(x.astype(np.float64), axis=-1), rtol=2.0 ** -10, atol=0.5)
        np.testing.assert_array_equal(np.asarray(nr.max(xa, axis=-1)), x.max(axis=-1))
        np.testing.assert_array_equal(np.asarray(nr.min(xa, axis=-1)), x.min(axis=-1))
        tol = 1e-5 if dtype == np.float32 else 2.0 ** -10
        np.testing.assert_allclose(np.asarray(nr.mean(xa, axis=-1), np.float64), x.astype(np.float64).mean(axis=-1),
                                   rtol=tol, atol=tol)
        xi = (x * 1000).astype(np.int32)
        np.testing.assert_array_equal(np.asarray(nr.sum(nr.asarray(xi), axis=-1)), xi.sum(axis=-1, dtype=np.int32))
        b = x > 1.0
        b[5] = True
        b[6] = False
        np.testing.assert_array_equal(np.asarray(nr.all(nr.asarray(b), axis=-1)), b.all(axis=-1))
        np.testing.assert_array_equal(np.asarray(nr.any(nr.asarray(b), axis=-1)), b.any(axis=-1))
        p = (1.0 + 1e-4 * data(shape, np.float32, 8)).astype(dtype)
        # a product of n float32 factors: relative error <= (n - 1) eps32 / 2 (plus one float16 rounding)
        np.testing.assert_allclose(np.asarray(nr.prod(nr.asarray(p), axis=-1), np.float64),
                                   np.prod(p.astype(np.float64), axis=-1),
                                   rtol=shape[1] * EPS32 / 2 + (2.0 ** -11 if dtype == np.float16 else 0))


def row_tile(op, shape, dtype):
    """The `tile=` of reduce_op's plan for reducing the last axis of `shape`."""
    d = nr.ops.describe(op, shape, dtype=dtype, axis=[len(shape) - 1])
    line = next(line for line in d.splitlines() if "tiling plan" in line)
    return int(line.split(" tile=")[1].split()[0])


@pytest.mark.parametrize("op,dtype,length,tile", [
    ("reduce_sum", "float32", 19 * ROW_CHUNK + 1088, 2 * ROW_CHUNK),  # long rows: two span folds per load
    ("reduce_sum", "float16", 19 * ROW_CHUNK + 1088, 2 * ROW_CHUNK),
    ("reduce_max", "float16", 3 * ROW_CHUNK, 2 * ROW_CHUNK),          # converting kinds too (Cast per chunk)
    ("reduce_sum", "int32", ROW_CHUNK + 1, 2 * ROW_CHUNK),
    ("reduce_any", "bool", 3 * ROW_CHUNK, 2 * ROW_CHUNK),
    ("reduce_sum", "float32", ROW_CHUNK, ROW_CHUNK),                  # one span: one chunk, folded in place
    ("reduce_sum", "float32", 1000, 1024),
    ("reduce_sum", "float64", 19 * ROW_CHUNK, None),                  # reduce_wide.h rows keep tile == span
])
def test_long_rows_load_two_spans_per_chunk(op, dtype, length, tile):
    """Rows longer than the 4096 accumulator lanes load 8192 elements per UB
    chunk (reduce_op.cc row_tile; kReduceRowTile) and fold them 4096 lanes at a
    time; the float64 path (reduce_wide.h) keeps one span per chunk."""
    got = row_tile(op, (16, length), dtype)
    if tile is None:
        assert got <= ROW_CHUNK
    else:
        assert got == tile


@pytest.mark.parametrize("length", [2 * ROW_CHUNK, 2 * ROW_CHUNK + 1, 3 * ROW_CHUNK, 3 * ROW_CHUNK + 17,
                                    33 * ROW_CHUNK + 5])
def test_two_span_chunks_fold_every_element_once(length):
    """Chunks of two spans with a short or single-span last chunk (and, at 33
    spans, a block boundary inside the rows): integer-valued float32 rows sum
    exactly (every partial sum < 2 ** 24), so a lost, doubled or misplaced
    piece would show; float16 and int32 agree as well."""
    rng = np.random.default_rng(length)
    rows = 128 if length > BLOCK * ROW_CHUNK else 6  # enough rows that the cores need no split
    x = rng.integers(-8, 9, size=(rows, length)).astype(np.float32)
    x[:, -1] = 100.0  # the very last element (the shortest piece) counts
    xa = nr.asarray(x)
    assert plan(xa, -1)[3] == 0
    np.testing.assert_array_equal(np.asarray(nr.sum(xa, axis=-1)), x.sum(axis=-1, dtype=np.float64).astype(np.float32))
    h = x.astype(np.float16)
    np.testing.assert_array_equal(np.asarray(nr.sum(nr.asarray(h), axis=-1, dtype=nr.float32)),
                                  x.sum(axis=-1, dtype=np.float64).astype(np.float32))
    xi = x.astype(np.int32)
    np.testing.assert_array_equal(np.asarray(nr.sum(nr.asarray(xi), axis=-1)), xi.sum(axis=-1, dtype=np.int32))
    np.testing.assert_array_equal(np.asarray(nr.max(xa, axis=-1)), x.max(axis=-1))
