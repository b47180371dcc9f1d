"""unique_* of float32/float16 on the vector path end to end (vector sort,
vunique_count + vunique_runs GatherMask compaction, take / subtract /
scatter + cumulative_sum kernels) against numpy's np.unique (equal_nan=False:
every NaN distinct, as the standard says): sizes around the 128-element tile
step and the per-core ranges, all-equal and all-distinct inputs, NaN/inf/
-0.0, runs crossing core ranges, views, 2-D, each unique_* function alone,
and vunique_runs' own contract (starts end with n; a bad counts is refused).
Values compare bit-exact, the int64 outputs equal."""
import numpy as np
import pytest

import npurt as nr
from npurt import ops
from npurt.array_api import sets

from search_cases import data


@pytest.fixture(autouse=True)
def vector_path_at_every_size(monkeypatch):
    """The vector path normally starts at 128 Ki (2 Mi with the inverse): force it here."""
    monkeypatch.setattr(sets, "_VECTOR_UNIQUE_MIN", 0)
    monkeypatch.setattr(sets, "_VECTOR_INVERSE_MIN", 0)


def ref(host):
    return np.unique(host.reshape(-1), return_index=True, return_inverse=True, return_counts=True,
                     equal_nan=False)


def check_all(host, x=None):
    x = nr.asarray(host) if x is None else x
    v, i, inv, c = ref(host)
    res = nr.unique_all(x)
    assert res.values.dtype == x.dtype and res.indices.dtype == nr.int64 and res.counts.dtype == nr.int64
    assert res.values.numpy().tobytes() == v.tobytes()
    np.testing.assert_array_equal(res.indices.numpy(), i)
    np.testing.assert_array_equal(res.inverse_indices.numpy(), inv.reshape(host.shape))
    np.testing.assert_array_equal(res.counts.numpy(), c)


@pytest.mark.parametrize("n", [1, 2, 15, 33, 127, 128, 129, 1023, 4097, 70000])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_sizes(n, dtype):
    check_all(data(dtype, (n,), seed=n))


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_all_equal_all_distinct_and_specials(dtype):
    check_all(np.full(5000, 3.5, dtype))
    check_all(np.full(33, np.nan, dtype))                      # every NaN its own value
    check_all(np.arange(3000, dtype=dtype)[::-1].copy())       # all distinct, reversed
    check_all(np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -0.0, 0.0, np.inf], dtype))
    check_all(np.array([-0.0, 0.0, 1.0], dtype))               # -0.0 first: the value kept is -0.0


def test_runs_cross_core_ranges():
    host = np.repeat(np.arange(9, dtype=np.float32), 25_000)[::-1].copy()  # long runs over every core's range
    check_all(host)
    check_all(np.random.default_rng(5).integers(0, 1000, 300_000).astype(np.float32))


def test_size_thresholds_pick_the_vector_path(monkeypatch):
    """Unforced: unique_counts from 128 Ki and unique_all from 2 Mi elements take the vector path."""
    monkeypatch.undo()
    calls = []
    real = sets._vunique
    monkeypatch.setattr(sets, "_vunique", lambda flat, need: calls.append(flat.size) or real(flat, need))
    small = np.random.default_rng(9).integers(0, 50, 1000).astype(np.float32)
    nr.unique_counts(nr.asarray(small))
    assert calls == []
    host = np.random.default_rng(9).integers(0, 3000, 1 << 17).astype(np.float32)
    r = nr.unique_counts(nr.asarray(host))
    v, c = np.unique(host, return_counts=True)
    np.testing.assert_array_equal(r.counts.numpy(), c)
    assert r.values.numpy().tobytes() == v.tobytes() and calls == [1 << 17]
    big = np.random.default_rng(10).integers(0, 100_000, 1 << 21).astype(np.float32)
    check_all(big)
    assert calls[-1] == 1 << 21


def test_views_and_2d():
    host = data("float32", (40, 60), seed=6)
    check_all(host)
    check_all(host[::2, ::-3], nr.asarray(host)[::2, ::-3])
    check_all(host.T, nr.asarray(host).T)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_each_function_alone(dtype):
    host = data(dtype, (7, 151), seed=7)
    v, i, inv, c = ref(host)
    x = nr.asarray(host)
    r = nr.unique_counts(x)
    assert r.values.numpy().tobytes() == v.tobytes()
    np.testing.assert_array_equal(r.counts.numpy(), c)
    r = nr.unique_inverse(x)
    assert r.values.numpy().tobytes() == v.tobytes()
    np.testing.assert_array_equal(r.inverse_indices.numpy(), inv.reshape(host.shape))
    assert nr.unique_values(x).numpy().tobytes() == v.tobytes()
    got = np.unique(x, return_index=True, return_counts=True)  # NEP 18 dispatch, only what is asked
    np.testing.assert_array_equal(got[1].numpy(), i)
    np.testing.assert_array_equal(got[2].numpy(), c)


def test_empty_and_0d():
    r = nr.unique_all(nr.asarray(np.zeros((0, 3), np.float32)))
    assert r.values.shape == (0,) and r.inverse_indices.shape == (0, 3)
    check_all(np.array(2.5, np.float32))


def test_vunique_runs_contract_and_errors():
    s = np.sort(data("float32", (1000,), seed=8), kind="stable")
    sd = nr.asarray(s)
    values, starts, total = ops.vunique_runs(sd, ops.vunique_count(sd))
    k = int(total.numpy()[0])
    v, first = np.unique(s, return_index=True, equal_nan=False)
    assert k == v.size
    np.testing.assert_array_equal(starts.numpy()[:k + 1], np.append(first, s.size))
    assert values.numpy()[:k].tobytes() == v.tobytes()
    with pytest.raises(ValueError, match=r"vunique_runs: argument 'counts': must be vunique_count"):
        ops.vunique_runs(sd, nr.zeros((99,), dtype=nr.int64))
    with pytest.raises(ValueError, match=r"argument 's': must be 1-D"):
        ops.vunique_runs(nr.asarray(s.reshape(10, 100)), ops.vunique_count(sd))
    check_all(s)  # still usable
