"""The vector-unit sort path (float32/float16, and int16/bfloat16/int8/uint8/
bool through exact casts: vsort_block + vsort_merge + vsort_extract, on
Sort32/MrgSort) against numpy's stable sort: sizes around
the 32-element Sort32 groups, the 128-element chunk step, the 4095-structure
MrgSort list limit and several chunks; duplicates, NaN placement (last, first
when descending, payload kept), -0.0 vs 0.0 in input order, +-inf, all-NaN
rows, small chunks forcing merge passes, many rows, and a full sim check run.
Sorting moves values only: values compare bit-exact, indices equal."""
import numpy as np
import pytest

import npurt as nr
from npurt.array_api import searching

from search_cases import data, ref_sort


def check(host, descending=False, vchunk=0):
    v, i = searching.sort_last(nr.asarray(host), descending, vchunk=vchunk)
    want_v, want_i = ref_sort(host, -1, descending)
    got_i = i.numpy()
    assert got_i.dtype == np.int64
    np.testing.assert_array_equal(got_i, want_i)
    assert v.numpy().tobytes() == np.ascontiguousarray(want_v).tobytes()


@pytest.mark.parametrize("n", [1, 2, 31, 32, 33, 127, 128, 129, 1023, 4095, 4097, 8192, 8193, 65536])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("descending", [False, True])
def test_sizes(n, dtype, descending):
    check(data(dtype, (n,), seed=n), descending, vchunk=128 if n < 32 else 0)  # short rows: forced


@pytest.mark.parametrize("n", [1, 33, 1023, 8193, 20000])
@pytest.mark.parametrize("dtype", ["bfloat16", "int16", "int8", "uint8", "bool"])
@pytest.mark.parametrize("descending", [False, True])
def test_exactly_converted_dtypes(n, dtype, descending):
    """dtypes sorted by an exact float32/float16 score (int16/bfloat16 -> float32, int8/uint8/bool -> float16)."""
    check(data(dtype, (n,), seed=n), descending, vchunk=128 if n < 32 else 0)
    check(data(dtype, (3, n // 3 + 1), seed=n), descending, vchunk=128)


@pytest.mark.parametrize("vchunk", [128, 256, 384])
@pytest.mark.parametrize("n", [129, 1000, 5000])
@pytest.mark.parametrize("descending", [False, True])
def test_merge_passes_with_small_chunks(vchunk, n, descending):
    check(data("float32", (3, n), seed=n + vchunk), descending, vchunk)


def test_duplicates_keep_input_order():
    host = np.array([3, 1, 3, 1, 2, 3, 1, 2] * 300, dtype=np.float32)
    check(host)
    check(host, descending=True)
    check(host, vchunk=128)


def test_nan_payloads_signed_zero_and_infinities():
    nan2 = np.frombuffer(np.uint32(0x7FC00123).tobytes(), np.float32)[0]
    base = np.array([np.nan, 1.0, -0.0, np.inf, 0.0, -np.inf, nan2, -0.0, 2.0, np.inf, -np.nan],
                    dtype=np.float32)
    for reps in (1, 50, 1000):  # the NaN/+inf group inside one chunk, and across chunks and merge segments
        host = np.tile(base, reps)
        check(host)
        check(host, descending=True)
        check(host, vchunk=128)
        check(host, descending=True, vchunk=128)


@pytest.mark.parametrize("fill", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_constant_and_special_rows(fill, dtype):
    host = np.full(5000, fill, dtype=dtype)
    check(host)
    check(host, descending=True, vchunk=128)
    mixed = host.copy()
    mixed[::3] = np.nan
    mixed[1::7] = np.inf
    check(mixed)
    check(mixed, descending=True)


@pytest.mark.parametrize("shape", [(7, 33), (500, 37), (2, 3, 300), (1, 1), (4, 0), (300, 5)])
def test_many_rows(shape):
    check(data("float32", shape, seed=3))
    check(data("float16", shape, seed=4), descending=True)
    if shape[-1]:  # rows shorter than 32 take the scalar path by default: force the vector one too
        check(data("float32", shape, seed=5), vchunk=128)


def test_public_sort_and_argsort_use_it_on_axes():
    host = data("float32", (40, 300), seed=5)
    x = nr.asarray(host)
    np.testing.assert_array_equal(nr.argsort(x, axis=0).numpy(), np.argsort(host, axis=0, kind="stable"))
    assert nr.sort(x).numpy().tobytes() == np.sort(host, kind="stable").tobytes()
    np.testing.assert_array_equal(nr.argsort(x[:, ::3]).numpy(), np.argsort(host[:, ::3], kind="stable"))


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "int8"])
def test_full_sim_check_is_clean(dtype):
    host = data(dtype, (3, 1500), seed=11)
    with nr.debug.sim_check_level("full"):
        v, i = searching.sort_last(nr.asarray(host), True, vchunk=256)
        got_v, got_i = v.numpy(), i.numpy()
    want_v, want_i = ref_sort(host, -1, True)
    np.testing.assert_array_equal(got_i, want_i)
    assert got_v.tobytes() == want_v.tobytes()


def test_kernels_reject_bad_arguments_naming_the_op():
    x = nr.asarray(np.ones(10, np.float32))
    with pytest.raises(ValueError, match="vsort_block: argument 'chunk'"):
        nr.ops.vsort_block(x, chunk=100)
    with pytest.raises(nr.UnsupportedDtypeError, match="vsort_merge: argument 'dtype'"):
        nr.ops.vsort_merge(nr.ops.vsort_block(x, chunk=128), width=128, dtype=nr.int32)
    with pytest.raises(ValueError, match="vsort_extract: argument 'x'"):
        nr.ops.vsort_extract(nr.ops.vsort_block(x, chunk=128), nr.asarray(np.ones(11, np.float32)))
    with pytest.raises(nr.UnsupportedDtypeError, match="vsort_block: argument 'x': dtype int64 is not supported"):  # not exact
        nr.ops.vsort_block(nr.asarray(np.ones(10, np.int64)), chunk=128)
    with pytest.raises(ValueError, match="vsort_block: argument 'digit'"):  # int32 sorts by 16-bit digits
        nr.ops.vsort_block(nr.asarray(np.ones(10, np.int32)), chunk=128)
    with pytest.raises(ValueError, match="vsort_block: argument 'digit'"):
        nr.ops.vsort_block(x, chunk=128, digit=0)
    check(data("float32", (9,)))  # the runtime stays usable


def ref_unique_values(host):
    """The standard's rule: sorted distinct values, every NaN distinct, -0.0 == 0.0 (the first in sorted order)."""
    s = np.sort(host.reshape(-1), kind="stable")
    if s.size == 0:
        return s
    keep = np.ones(s.size, bool)
    keep[1:] = (s[1:] != s[:-1]) | np.isnan(s[1:])
    return s[keep]


@pytest.mark.parametrize("n", [1, 2, 33, 1023, 4097, 20000, 65536])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_unique_values_vector_path(n, dtype):
    host = data(dtype, (n,), seed=n)
    got = nr.unique_values(nr.asarray(host)).numpy()
    assert got.tobytes() == ref_unique_values(host).tobytes()


def test_unique_values_specials_and_full_check():
    host = np.tile(np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 1.0, np.nan, 0.0], np.float32), 3000)
    with nr.debug.sim_check_level("full"):
        got = nr.unique_values(nr.asarray(host.reshape(100, 240))).numpy()
    assert got.tobytes() == ref_unique_values(host).tobytes()
    assert np.isnan(got[-6000:]).all() and got[1] == 0.0 and np.signbit(got[1])  # -0.0 sorts first of its run
    one = nr.unique_values(nr.asarray(np.float32(2.5))).numpy()
    np.testing.assert_array_equal(one, [2.5])
