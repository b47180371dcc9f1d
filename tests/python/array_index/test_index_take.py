"""x[key] for keys holding integer arrays through npurt::AdvancedIndex::take
(runtime/include/npurt/advanced_index.h, one `gather`) from the C++ getitem
slot (sdk_python/bindings/index_advanced.cpp), against numpy bit for bit with
the Python fallback switched off: the key kinds of test_index_put.py, device
index arrays, strided / permuted sources, every dtype, empty results. Errors
and masks keep the Python layer (its classes and messages)."""
import numpy as np
import pytest

import npurt as nr
from npurt import _npurt

from test_index_put import DTYPES, KEYS, base

ndarray = _npurt.ndarray


@pytest.mark.parametrize("dtype,k", [(d, k) for d in DTYPES for k in range(len(KEYS))])
def test_every_key_kind_matches_numpy_without_python(monkeypatch, dtype, k):
    monkeypatch.setattr(ndarray, "_py___getitem__", None)  # the C++ path alone must answer
    key, shape = KEYS[k]
    ref = base(dtype)
    got = nr.asarray(ref)[key]
    assert tuple(got.shape) == shape == ref[key].shape
    np.testing.assert_array_equal(np.asarray(got.tolist(), dtype).reshape(shape), ref[key])


@pytest.mark.parametrize("view", [lambda a: a[::2], lambda a: a.T, lambda a: a[:, 1:5, ::-1]])
def test_strided_sources_and_device_keys(monkeypatch, view):
    monkeypatch.setattr(ndarray, "_py___getitem__", None)
    ref = base("int32", (10, 6, 6))
    x = nr.asarray(ref)
    for key in (([0, 2, -1], [1, 3, 0]), (slice(1, 3), [0, -1]), ([0, 1], slice(None), [5, 2]),
                (nr.asarray(np.array([[0], [4]], np.int8)), [1, 2, 3])):
        npkey = tuple(k.numpy() if isinstance(k, ndarray) else k for k in key)
        np.testing.assert_array_equal(view(x)[key].numpy(), view(ref)[npkey])


def test_empty_results_and_results_are_copies(monkeypatch):
    monkeypatch.setattr(ndarray, "_py___getitem__", None)
    ref = base("float32")
    x = nr.asarray(ref)
    assert x[[]].shape == ref[[]].shape == (0, 4, 6)
    assert x[np.zeros((0, 2), np.int64), 1:3].shape == (0, 2, 2, 6)
    y = x[[0, 1], [1, 2]]
    y[...] = -1.0  # a new array: x is unchanged
    np.testing.assert_array_equal(x.numpy(), ref)


def test_errors_keep_the_python_layer_and_masks_read():
    x = nr.asarray(base("float32"))
    with pytest.raises(nr.IndexingError, match=r"__getitem__: index 5 is out of bounds for axis 0 with size 5"):
        x[[0, 5], [1, 1]]
    with pytest.raises(nr.IndexingError, match=r"shape mismatch"):
        x[[0, 1], [1, 2, 3]]
    mask = base("float32")[:, 0, 0] > 2
    np.testing.assert_array_equal(x[nr.asarray(mask)].numpy(), base("float32")[mask])
    np.testing.assert_array_equal(x[mask.tolist()].numpy(), base("float32")[mask])


def test_launches():
    x = nr.zeros((8, 8), dtype=nr.float32)
    with nr.profiler.profile() as p:
        x[[0, 2], [1, 3]]
        nr.synchronize()
    assert [a.name for a in p.result.activities] == ["copy H2D", "gather"]
