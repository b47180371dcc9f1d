"""Property tests: random integer-array / slice / int / None keys and random
masks, x[key] and x[key] = v compared with numpy (exact), via hypothesis."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import npurt as nr

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def array_and_key(draw):
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=1, max_size=4)))
    entries = []
    n_arrays = 0
    for n in shape:
        kind = draw(st.sampled_from(["slice", "int", "array", "array", "skip"]))
        if kind == "skip":
            break
        if kind == "slice":
            entries.append(slice(draw(st.integers(-n, n)), draw(st.integers(-n - 1, n)), draw(st.sampled_from([1, 2, -1]))))
        elif kind == "int":
            entries.append(draw(st.integers(-n, n - 1)))
        else:
            entries.append(draw(st.lists(st.integers(-n, n - 1), min_size=1, max_size=4)))
            n_arrays += 1
    if n_arrays == 0:
        entries.append([0])  # at least one array (axis len >= 1 whatever dim it lands on)
        entries = entries[: len(shape)]
        if not any(isinstance(e, list) for e in entries):
            entries[-1] = [0]
    if draw(st.booleans()):
        entries.insert(draw(st.integers(0, len(entries))), None)
    return shape, tuple(entries)


def _numpy_key(key):
    lists = [k for k in key if isinstance(k, list)]
    if len(lists) > 1:  # the arrays must broadcast: use equal lengths
        m = min(len(k) for k in lists)
        key = tuple(k[:m] if isinstance(k, list) else k for k in key)
    return key


@SETTINGS
@given(array_and_key())
def test_getitem_property(case):
    shape, key = case
    key = _numpy_key(key)
    host = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    ref = host[key]
    got = nr.asarray(host)[key]
    assert got.shape == ref.shape
    np.testing.assert_array_equal(got.numpy(), ref)


@SETTINGS
@given(array_and_key(), st.integers(-100, 100))
def test_setitem_property(case, value):
    shape, key = case
    key = _numpy_key(key)
    host = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    x = nr.asarray(host)
    vals = (np.arange(host[key].size, dtype=np.int32) + value).reshape(host[key].shape)
    x[key] = nr.asarray(vals)
    host2 = host.copy()
    host2[key] = vals
    np.testing.assert_array_equal(x.numpy(), host2)


@SETTINGS
@given(st.lists(st.integers(1, 6), min_size=1, max_size=3), st.integers(0, 2 ** 32 - 1), st.integers(1, 3))
def test_mask_property(shape, seed, lead):
    shape = tuple(shape)
    lead = min(lead, len(shape))
    rng = np.random.default_rng(seed)
    host = rng.standard_normal(shape).astype(np.float32)
    mask = rng.random(shape[:lead]) > 0.5
    x = nr.asarray(host)
    np.testing.assert_array_equal(x[mask].numpy(), host[mask])
    x[nr.asarray(mask)] = -1.0
    host[mask] = -1.0
    np.testing.assert_array_equal(x.numpy(), host)
