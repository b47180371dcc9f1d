"""unique_all / unique_counts / unique_inverse / unique_values against numpy's
np.unique (equal_nan=False: every NaN is distinct, as the standard says):
dtypes, shapes (0-d, empty, odd, large), views, NaN/-0.0; namedtuple fields."""
import numpy as np
import pytest

import npurt as nr

from search_cases import SORT_DTYPES, data


def ref(host):
    f = host.astype(np.float64) if host.dtype.name == "bfloat16" else host
    v, i, inv, c = np.unique(f.reshape(-1), return_index=True, return_inverse=True, return_counts=True,
                             equal_nan=False)
    return v.astype(host.dtype), i, inv.reshape(host.shape), c


def check(host, x=None):
    x = nr.asarray(host) if x is None else x
    want_v, want_i, want_inv, want_c = ref(host)
    res = nr.unique_all(x)
    assert type(res).__name__ == "UniqueAllResult"
    assert res.values.dtype == x.dtype and res.indices.dtype == nr.int64
    assert res.inverse_indices.shape == host.shape and res.counts.dtype == nr.int64
    assert res.values.numpy().tobytes() == want_v.tobytes()
    np.testing.assert_array_equal(res.indices.numpy(), want_i)
    np.testing.assert_array_equal(res.inverse_indices.numpy(), want_inv)
    np.testing.assert_array_equal(res.counts.numpy(), want_c)


@pytest.mark.parametrize("dtype", SORT_DTYPES)
def test_every_dtype(dtype):
    check(data(dtype, (31, 33), seed=1, spread=40))


@pytest.mark.parametrize("shape", [(), (0,), (1,), (15,), (1023,), (3, 0, 2), (4, 5, 6)])
def test_shapes(shape):
    check(data("float32", shape, seed=2))


def test_large_input_spans_cores_and_runs_cross_ranges():
    host = data("int32", (300_000,), seed=3, spread=1000)
    check(host)
    check(np.repeat(np.arange(7, dtype=np.int16), 20_000))  # long runs crossing every core's range


def test_nan_each_unique_and_signed_zero():
    host = np.array([np.nan, 0.0, -0.0, np.nan, 1.0, 0.0, np.nan], np.float32)
    res = nr.unique_counts(nr.asarray(host))
    v = res.values.numpy()
    assert v.size == 5 and np.isnan(v[2:]).all() and v[1] == 1.0
    np.testing.assert_array_equal(res.counts.numpy(), [3, 1, 1, 1, 1])


def test_other_variants_and_views():
    host = data("int64", (20, 30), seed=4, spread=25)
    x = nr.asarray(host)[::2, ::-3]
    sub = host[::2, ::-3]
    want_v, _, want_inv, want_c = ref(sub)
    np.testing.assert_array_equal(nr.unique_values(x).numpy(), want_v)
    inv = nr.unique_inverse(x)
    assert inv._fields == ("values", "inverse_indices")
    np.testing.assert_array_equal(inv.inverse_indices.numpy(), want_inv)
    cnt = nr.unique_counts(x)
    assert cnt._fields == ("values", "counts")
    np.testing.assert_array_equal(cnt.counts.numpy(), want_c)
    check(sub, x=x)


def test_errors():
    # complex is supported (tests/python/conformance/test_unique_complex.py)
    assert np.asarray(nr.unique_values(nr.asarray(np.ones(3, np.complex64)))).tolist() == [1 + 0j]
    with pytest.raises(TypeError, match="npurt.unique_all: argument 'x': expected an npurt.ndarray"):
        nr.unique_all([1, 2])
    with pytest.raises(ValueError, match="unique_compact: argument 'counts'"):
        s = nr.asarray(np.arange(10, dtype=np.float32))
        nr.ops.unique_compact(s, nr.asarray(np.arange(10)), nr.asarray(np.zeros(5, np.int64)))
    check(data("uint8", (9,)))


def test_full_sim_check_is_clean():
    host = data("float32", (5000,), seed=5)
    with nr.debug.sim_check_level("full"):
        check(host)


def test_numpy_dispatch():
    host = data("int16", (40,), seed=6, spread=9)
    v, c = np.unique(nr.asarray(host), return_counts=True)
    want_v, want_c = np.unique(host, return_counts=True)
    np.testing.assert_array_equal(v.numpy(), want_v)
    np.testing.assert_array_equal(c.numpy(), want_c)
