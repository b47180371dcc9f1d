"""unique_values and unique_counts of float32/float16 through the chunked first step
(sets._chunk_representatives: a sample of the first vector chunk decides; when
it has few distinct values, every chunk is sorted and deduped on its own,
then the representatives are sorted and deduped again, their counts summed
per run) against the standard's rule (sorted distinct values, every NaN distinct, -0.0 == 0.0 with
the first in position order kept, bit for bit). Sizes around the chunk
(exact multiples and a tail), NaN / +-inf / signed zeros placed across chunks,
all-distinct data (the sample sends it the direct way), 2-D and strided
inputs, and the default threshold at 1 Mi + 4097."""
import numpy as np
import pytest

import npurt as nr
from npurt.array_api import sets


def ref_unique_values(host):
    s = np.sort(host.reshape(-1), kind="stable")
    keep = np.ones(s.size, bool)
    keep[1:] = (s[1:] != s[:-1]) | np.isnan(s[1:])
    return s[keep]


@pytest.fixture
def spy(monkeypatch):
    """Records whether each call took the chunked step (True) or the sample refused it (False)."""
    taken = []
    real = sets._chunk_representatives

    def wrapped(flat, counts=False):
        r = real(flat, counts)
        taken.append(r is not None)
        return r
    monkeypatch.setattr(sets, "_chunk_representatives", wrapped)
    return taken


def few_distinct(n, dtype, seed, distinct=300):
    rng = np.random.default_rng(seed)
    v = rng.integers(-distinct // 2, distinct // 2, n).astype(np.float64) / 4
    idx = rng.choice(n, size=min(n, 40), replace=False)
    v[idx] = rng.choice([np.nan, np.inf, -np.inf, -0.0, 0.0], size=idx.size)
    return v.astype(dtype)


def check(host, x=None):
    """unique_values, then unique_counts (two calls: the spy sees both)."""
    x = nr.asarray(host) if x is None else x
    got = nr.unique_values(x).numpy()
    want = ref_unique_values(host)
    assert got.dtype == want.dtype
    assert got.tobytes() == want.tobytes()
    v, c = nr.unique_counts(x)
    want_v, want_c = np.unique(host.reshape(-1), return_counts=True, equal_nan=False)
    assert v.numpy().tobytes() == want.tobytes()  # np.unique's non-stable sort may keep the other zero
    np.testing.assert_array_equal(np.sort(want_v), np.sort(v.numpy()))
    assert c.numpy().dtype == np.int64
    np.testing.assert_array_equal(c.numpy(), want_c)


@pytest.mark.parametrize("n", [8192, 8193, 20000, 3 * 8192, 100001])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_few_distinct_take_the_chunked_step(monkeypatch, spy, n, dtype):
    monkeypatch.setattr(sets, "_CHUNKED_UNIQUE_MIN", 0)
    check(few_distinct(n, dtype, seed=n))
    assert spy == [True, True]


def test_signed_zero_first_in_position_order_across_chunks(monkeypatch, spy):
    monkeypatch.setattr(sets, "_CHUNKED_UNIQUE_MIN", 0)
    for first_zero in (-0.0, 0.0):
        host = np.tile(np.arange(1, 101, dtype=np.float32), 300)  # 30000: 3 chunks and a tail, 100 distinct
        host[9000] = first_zero           # the first zero is in the second chunk...
        host[9500] = -first_zero
        host[20000] = -first_zero         # ...later chunks and the tail hold the other sign
        host[29999] = -first_zero
        check(host)
    assert spy == [True] * 4


def test_all_distinct_goes_the_direct_way(monkeypatch, spy):
    monkeypatch.setattr(sets, "_CHUNKED_UNIQUE_MIN", 0)
    check(np.random.default_rng(4).standard_normal(50000).astype(np.float32))
    assert spy == [False, False]


def test_many_nans_are_each_distinct(monkeypatch, spy):
    monkeypatch.setattr(sets, "_CHUNKED_UNIQUE_MIN", 0)
    host = np.where(np.arange(30000) % 50 == 0, np.nan, np.arange(30000) % 7).astype(np.float32)
    check(host)
    assert spy == [True, True]


def test_views_and_2d(monkeypatch, spy):
    monkeypatch.setattr(sets, "_CHUNKED_UNIQUE_MIN", 0)
    host = few_distinct(40000, "float32", seed=9).reshape(200, 200)
    check(host)
    x = nr.asarray(host)
    check(host[:, ::3], x[:, ::3])
    assert spy == [True] * 4


def test_default_threshold_large(spy):
    host = few_distinct((1 << 20) + 4097, "float32", seed=1, distinct=1000)
    check(host)
    check(host[: sets._CHUNKED_UNIQUE_MIN - 1])  # below the threshold: the direct way, no sample
    assert spy == [True, True]
