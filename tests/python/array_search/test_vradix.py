"""int32/uint32 sort and argsort on the vector unit: an LSD radix sort of two
16-bit digits, each an exact float32 score (vsort_block digit=0/1 +
vsort_merge, then vsort_take / vsort_take_through gathers), and uint16 as
its one digit (digit 0 + vsort_take), against numpy's
stable sort. Covers INT32_MIN/MAX and UINT32_MAX, values that differ only in
the low or only in the high digit (and across the low digit's sign bit),
duplicates (stability), descending, empty / 1 / odd sizes, several chunks and
merge passes, rows, axis != -1 and non-contiguous inputs, 1 Mi elements, the
public sort/argsort, and the kernels' argument errors."""
import numpy as np
import pytest

import npurt as nr
import npurt.array_api as xp
from npurt.array_api import searching

from search_cases import data, ref_sort


def check(host, descending=False, vchunk=0):
    x = nr.asarray(host)
    assert searching.sort_plan(x, descending, vchunk=vchunk)[0] == ("vector" if host.shape[-1] >= 32 or vchunk
                                                                     else "scalar")
    v, i = searching.sort_last(x, descending, vchunk=vchunk)
    want_v, want_i = ref_sort(host, -1, descending)
    np.testing.assert_array_equal(i.numpy(), want_i)
    assert v.numpy().dtype == host.dtype
    np.testing.assert_array_equal(v.numpy(), want_v)


def digit_edges(dtype, n, seed):
    """Values that tie in one 16-bit digit and differ in the other, plus the extremes."""
    info = np.iinfo(dtype)
    rng = np.random.default_rng(seed)
    hi = rng.choice(np.array([0, 1, 0x7FFF, 0x8000, 0xFFFF], np.uint32), n)
    lo = rng.choice(np.array([0, 1, 0x7FFF, 0x8000, 0x8001, 0xFFFF], np.uint32), n)
    v = ((hi << np.uint32(16)) | lo).view(np.int32 if dtype == "int32" else np.uint32).copy()
    v[: min(n, 3)] = [info.min, info.max, 0][: min(n, 3)]
    return v


@pytest.mark.parametrize("dtype", ["int32", "uint32"])
@pytest.mark.parametrize("n", [1, 15, 32, 33, 1023, 4097, 8193, 20000])
@pytest.mark.parametrize("descending", [False, True])
def test_sizes_extremes_and_digit_ties(dtype, n, descending):
    check(data(dtype, (n,), seed=n), descending, vchunk=128 if n < 32 else 0)
    check(digit_edges(dtype, n, seed=n), descending, vchunk=128 if n < 32 else 0)


@pytest.mark.parametrize("dtype", ["int32", "uint32"])
@pytest.mark.parametrize("vchunk", [128, 384])
@pytest.mark.parametrize("descending", [False, True])
def test_merge_passes_and_rows(dtype, vchunk, descending):
    check(data(dtype, (3, 1000), seed=vchunk, spread=50), descending, vchunk=vchunk)  # many duplicates: stability
    check(digit_edges(dtype, 5000, seed=2).reshape(2, 2500), descending, vchunk=vchunk)


def test_large_row():
    host = data("int32", (1 << 20,), seed=5)
    check(host)
    check(host, descending=True)


def test_public_sort_argsort_axes_and_strided_views():
    host = data("int32", (40, 1023), seed=3)
    x = xp.asarray(host)
    for axis in (0, 1, -1):
        np.testing.assert_array_equal(xp.argsort(x, axis=axis, stable=True).numpy(),
                                      np.argsort(host, axis=axis, kind="stable"))
        np.testing.assert_array_equal(xp.sort(x, axis=axis).numpy(), np.sort(host, axis=axis))
    got = xp.argsort(x, axis=0, descending=True, stable=True).numpy()
    np.testing.assert_array_equal(got, ref_sort(host, 0, True)[1])
    t = x.T  # non-contiguous rows of 40
    np.testing.assert_array_equal(xp.sort(t, axis=-1).numpy(), np.sort(host.T, axis=-1))
    u = xp.asarray(data("uint32", (5000,), seed=4))[::3]
    np.testing.assert_array_equal(xp.argsort(u, stable=True).numpy(), np.argsort(u.numpy(), kind="stable"))


def test_empty_and_zero_d():
    for shape in [(0,), (3, 0), (0, 40)]:
        v, i = searching.sort_last(nr.asarray(np.zeros(shape, np.int32)))
        assert v.numpy().shape == shape and i.numpy().shape == shape
    with pytest.raises(ValueError, match="npurt.sort: argument 'x'"):
        searching.sort_last(nr.asarray(np.int32(3)))


def test_take_kernels_reject_bad_arguments():
    x = nr.asarray(np.arange(200, dtype=np.int32))
    keys = nr.ops.vsort_block(x, chunk=256, digit=0)
    with pytest.raises(ValueError, match="vsort_take: argument 'x'"):
        nr.ops.vsort_take(keys, nr.asarray(np.arange(199, dtype=np.int32)))
    with pytest.raises(nr.UnsupportedDtypeError, match="vsort_take: argument 'x': dtype float32"):
        nr.ops.vsort_take(keys, nr.asarray(np.arange(200, dtype=np.float32)))
    with pytest.raises(ValueError, match="vsort_take_through: argument 'perm'"):
        nr.ops.vsort_take_through(keys, x, nr.asarray(np.arange(199, dtype=np.int64)))
    with pytest.raises(ValueError, match="vsort_block: argument 'digit'"):
        nr.ops.vsort_block(x, chunk=256, digit=2)
    v, i = nr.ops.vsort_take(keys, x)  # the runtime stays usable; low digits of 0..199 are the values
    np.testing.assert_array_equal(i.numpy(), np.arange(200))
    np.testing.assert_array_equal(v.numpy(), np.arange(200))


@pytest.mark.parametrize("n", [1, 15, 33, 1023, 4097, 20000])
@pytest.mark.parametrize("descending", [False, True])
def test_uint16_one_digit(n, descending):
    check(data("uint16", (n,), seed=n), descending, vchunk=128 if n < 32 else 0)
    host = digit_edges("uint32", n, seed=n).astype(np.uint16)  # 0, 1, 0x7FFF, 0x8000, 0x8001, 0xFFFF
    check(host, descending, vchunk=128 if n < 32 else 0)
    if n > 1000:
        check(data("uint16", (3, n), seed=2, spread=40), descending, vchunk=128)  # duplicates, merge passes


@pytest.mark.parametrize("dtype", ["int32", "uint32", "uint16"])
def test_full_sim_check_is_clean(dtype):
    host = digit_edges("uint32" if dtype == "uint16" else dtype, 4500, seed=11).astype(dtype).reshape(3, 1500)
    with nr.debug.sim_check_level("full"):
        v, i = searching.sort_last(nr.asarray(host), True, vchunk=256)
        got_v, got_i = v.numpy(), i.numpy()
    want_v, want_i = ref_sort(host, -1, True)
    np.testing.assert_array_equal(got_i, want_i)
    np.testing.assert_array_equal(got_v, want_v)
