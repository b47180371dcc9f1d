"""sort / argsort against numpy's stable sort, across dtypes, shapes, axes,
descending, stability, NaN/-0.0 and views. Sorting moves values only, so every
comparison is exact (bit-exact for values, equal for indices)."""
import numpy as np
import pytest

import npurt as nr
from npurt.array_api import searching

from search_cases import SORT_DTYPES, data, ref_sort


def check(host, axis=-1, descending=False, x=None):
    x = nr.asarray(host) if x is None else x
    want_v, want_i = ref_sort(host, axis, descending)
    got_i = nr.argsort(x, axis=axis, descending=descending).numpy()
    got_v = nr.sort(x, axis=axis, descending=descending).numpy()
    assert got_i.dtype == np.int64
    np.testing.assert_array_equal(got_i, want_i)
    assert got_v.dtype == host.dtype and got_v.shape == host.shape
    assert got_v.tobytes() == np.ascontiguousarray(want_v).tobytes()  # -0.0 and NaN kept bit-exact


@pytest.mark.parametrize("dtype", SORT_DTYPES)
@pytest.mark.parametrize("descending", [False, True])
def test_every_dtype_1d(dtype, descending):
    check(data(dtype, (1023,), seed=1), descending=descending)


@pytest.mark.parametrize("n", [0, 1, 2, 15, 16, 17, 33, 64, 65, 1023])
@pytest.mark.parametrize("dtype", ["float32", "int64", "float16"])
def test_odd_sizes(n, dtype):
    check(data(dtype, (n,), seed=n))


@pytest.mark.parametrize("shape,axis", [((7, 33), -1), ((7, 33), 0), ((3, 4, 5), 1), ((3, 4, 5), 0),
                                        ((0, 5), 1), ((5, 0), 0), ((1, 1), 0), ((2, 3, 300), 1)])
@pytest.mark.parametrize("descending", [False, True])
def test_axes(shape, axis, descending):
    check(data("float32", shape, seed=3), axis=axis, descending=descending)


@pytest.mark.parametrize("chunk", [64, 128])
@pytest.mark.parametrize("n", [65, 300, 1000, 4097])
@pytest.mark.parametrize("descending", [False, True])
def test_merge_passes_with_small_chunks(chunk, n, descending):
    """A small explicit chunk makes short rows go through several merge passes
    (including odd run counts and partial last runs)."""
    host = data("float32", (3, n), seed=n)
    v, i = searching.sort_last(nr.asarray(host), descending, chunk=chunk)
    want_v, want_i = ref_sort(host, -1, descending)
    np.testing.assert_array_equal(i.numpy(), want_i)
    assert v.numpy().tobytes() == want_v.tobytes()


def test_large_rows_exceed_ub():
    """100k-element rows: several UB chunks per row and merge passes split over cores."""
    host = data("float32", (2, 100_000), seed=7)
    check(host)
    check(host, descending=True)


def test_many_rows_split_over_cores():
    check(data("int32", (500, 37), seed=8, spread=10), axis=1)


def test_stability_equal_keys_keep_order():
    host = np.array([3, 1, 3, 1, 2, 3, 1, 2] * 40, dtype=np.int16)
    got = nr.argsort(nr.asarray(host)).numpy()
    np.testing.assert_array_equal(got, np.argsort(host, kind="stable"))
    got = nr.argsort(nr.asarray(host), descending=True).numpy()
    want = np.concatenate([np.flatnonzero(host == k) for k in (3, 2, 1)])
    np.testing.assert_array_equal(got, want)


def test_nan_and_signed_zero():
    host = np.array([np.nan, 1.0, -0.0, np.inf, 0.0, -np.inf, np.nan, -0.0, 2.0], dtype=np.float32)
    got = nr.sort(nr.asarray(host)).numpy()
    assert got.tobytes() == np.sort(host, kind="stable").tobytes()  # NaN last, -0.0/0.0 in input order
    down = nr.sort(nr.asarray(host), descending=True).numpy()
    assert np.isnan(down[:2]).all() and down[2] == np.inf and down[-1] == -np.inf


def test_non_contiguous_views():
    host = data("float64", (40, 30), seed=9)
    x = nr.asarray(host)
    check(host[::-2, 1::3], axis=0, x=x[::-2, 1::3])
    check(host.T, axis=1, x=x.T, descending=True)


def test_zero_d_and_bad_axis_raise_axis_error():
    x = nr.asarray(np.float32(3.0))
    with pytest.raises(IndexError, match="npurt.sort: argument 'axis'"):
        nr.sort(x)
    with pytest.raises(IndexError, match="npurt.argsort: argument 'axis'"):
        nr.argsort(nr.asarray(np.zeros((2, 3))), axis=2)


def test_complex_is_rejected_and_runtime_stays_usable():
    with pytest.raises(TypeError, match="npurt.sort: argument 'x': complex64"):
        nr.sort(nr.asarray(np.ones(3, np.complex64)))
    with pytest.raises(TypeError, match="npurt.argsort: argument 'x': expected an npurt.ndarray"):
        nr.argsort([3, 1])
    check(data("int8", (9,)))


def test_kernel_rejects_bad_chunk_naming_the_op():
    with pytest.raises(ValueError, match="sort_block: argument 'chunk'"):
        nr.ops.sort_block(nr.asarray(np.ones(10, np.float32)), chunk=100)
    with pytest.raises(ValueError, match="sort_block: argument 'x'.*0-d"):
        nr.ops.sort_block(nr.asarray(np.float32(1)))


@pytest.mark.parametrize("dtype", ["float32", "uint64", "bfloat16", "bool"])
def test_full_sim_check_is_clean(dtype):
    host = data(dtype, (3, 700), seed=11)
    with nr.debug.sim_check_level("full"):
        v, i = searching.sort_last(nr.asarray(host), False, chunk=128)
        got_v, got_i = v.numpy(), i.numpy()
    want_v, want_i = ref_sort(host, -1, False)
    np.testing.assert_array_equal(got_i, want_i)
    assert got_v.tobytes() == want_v.tobytes()


def test_numpy_dispatch():
    host = data("float32", (4, 9), seed=12)
    x = nr.asarray(host)
    got = np.sort(x, axis=0)
    assert isinstance(got, nr.ndarray)
    np.testing.assert_array_equal(got.numpy(), np.sort(host, axis=0))
    np.testing.assert_array_equal(np.argsort(x).numpy(), np.argsort(host, kind="stable"))
    np.testing.assert_array_equal(np.sort(x, axis=None).numpy(), np.sort(host, axis=None))
