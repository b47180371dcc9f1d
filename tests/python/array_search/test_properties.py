"""Property tests (hypothesis): sort/argsort/argmax/unique/searchsorted on
random arrays of random real dtypes and shapes against numpy, exact."""
import numpy as np
import pytest

import npurt as nr

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

from search_cases import ref_sort  # noqa: E402

DTYPES = st.sampled_from([np.int8, np.uint16, np.int32, np.int64, np.uint64, np.float16, np.float32,
                          np.float64, np.bool_])
ARRAYS = DTYPES.flatmap(lambda dt: hnp.arrays(dt, hnp.array_shapes(min_dims=1, max_dims=3, min_side=0,
                                                                   max_side=40)))
SETTINGS = settings(max_examples=60, deadline=None)


@SETTINGS
@given(ARRAYS, st.data(), st.booleans())
def test_sort_and_argsort(host, data, descending):
    axis = data.draw(st.integers(-host.ndim, host.ndim - 1))
    x = nr.asarray(host)
    want_v, want_i = ref_sort(host, axis, descending)
    np.testing.assert_array_equal(nr.argsort(x, axis=axis, descending=descending).numpy(), want_i)
    assert nr.sort(x, axis=axis, descending=descending).numpy().tobytes() == np.ascontiguousarray(
        want_v).tobytes()


@SETTINGS
@given(ARRAYS, st.data())
def test_argmax_argmin(host, data):
    axis = data.draw(st.one_of(st.none(), st.integers(-host.ndim, host.ndim - 1)))
    if host.size == 0 or (axis is not None and host.shape[axis] == 0):
        return
    x = nr.asarray(host)
    np.testing.assert_array_equal(nr.argmax(x, axis=axis).numpy(), np.argmax(host, axis=axis))
    np.testing.assert_array_equal(nr.argmin(x, axis=axis).numpy(), np.argmin(host, axis=axis))


@SETTINGS
@given(ARRAYS)
def test_unique_all(host):
    res = nr.unique_all(nr.asarray(host))
    v, i, inv, c = np.unique(host.reshape(-1), return_index=True, return_inverse=True, return_counts=True,
                             equal_nan=False)
    assert res.values.numpy().tobytes() == v.tobytes()
    np.testing.assert_array_equal(res.indices.numpy(), i)
    np.testing.assert_array_equal(res.inverse_indices.numpy(), inv.reshape(host.shape))
    np.testing.assert_array_equal(res.counts.numpy(), c)


@SETTINGS
@given(ARRAYS, st.sampled_from(["left", "right"]))
def test_searchsorted(host, side):
    x1 = np.sort(host.reshape(-1))
    x2 = host[..., ::-1]
    got = nr.searchsorted(nr.asarray(x1), nr.asarray(host)[..., ::-1], side=side).numpy()
    np.testing.assert_array_equal(got, np.searchsorted(x1, x2, side=side))
