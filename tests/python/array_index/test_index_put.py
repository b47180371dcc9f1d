"""x[key] = v for every advanced key kind through npurt::AdvancedIndex
(runtime/include/npurt/advanced_index.h, runtime/ops/advanced_index.cc) from the C++
setitem slot (sdk_python/bindings/index_advanced.cpp), against numpy bit for
bit: several integer arrays (broadcast together), slices / integers / ... /
None next to arrays (index dims in place or first, as numpy), device and host
index arrays mixed, numpy / list / nr.ndarray / scalar values broadcast to the
target, strided and permuted targets, duplicates (last write wins), empty keys.
The C++ path must answer alone (the Python fallback is switched off), except
for errors, which keep the Python layer's classes and messages."""
import ml_dtypes
import numpy as np
import pytest

import npurt as nr
from npurt import _npurt

ndarray = _npurt.ndarray
DTYPES = ["bool", "int8", "uint8", "int32", "int64", "uint64", "float16", "float32", "float64", "complex64"]


def base(dtype, shape=(5, 4, 6)):
    return (np.arange(int(np.prod(shape))).reshape(shape) % 7).astype(dtype)


def host(x, dtype):
    return np.asarray(x.tolist(), dtype)


# (key, shape of x[key]) for x of shape (5, 4, 6)
KEYS = [
    (([0, 2, -1], [1, 3, 0]), (3, 6)),                   # two arrays, adjacent
    ((slice(1, 4), [0, -1]), (3, 2, 6)),                 # slice then array: index dims in place
    (([4, 0], slice(None, None, -2)), (2, 2, 6)),        # array then a negative-step slice
    (([0, 1], slice(None), [5, 2]), (2, 4)),             # arrays apart: index dims first
    ((1, slice(None), [5, 2, 2]), (3, 4)),               # an integer and an array apart
    ((Ellipsis, np.array([[1], [-2]], np.int16)), (5, 4, 2, 1)),
    ((None, [3, 1], 2), (1, 2, 6)),
    ((np.array([[0], [4]], np.uint8), [1, 2, 3]), (2, 3, 6)),  # arrays broadcast together
    (([1, 1, 1],), (3, 4, 6)),                          # duplicates
    (((2, 0), (3, 3)), (2, 6)),                         # tuples inside a tuple key
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("k", range(len(KEYS)))
def test_scalar_into_every_key_kind(monkeypatch, dtype, k):
    monkeypatch.setattr(ndarray, "_py___setitem__", None)  # the C++ path alone must answer
    key, _ = KEYS[k]
    ref = base(dtype)
    x = nr.asarray(ref)
    v = {"bool": True, "complex64": 2 - 1j}.get(dtype, 3)
    ref[key] = v
    x[key] = v
    np.testing.assert_array_equal(host(x, dtype), ref)


@pytest.mark.parametrize("k", range(len(KEYS)))
def test_value_kinds_broadcast_to_the_target(monkeypatch, k):
    monkeypatch.setattr(ndarray, "_py___setitem__", None)
    key, shape = KEYS[k]
    full = (np.arange(int(np.prod(shape))).reshape(shape) - 50).astype(np.float64)
    values = [full, full.astype(np.int32), full[-1:], full[..., -1:], full.tolist(), full[-1].tolist(),
              nr.asarray(full.astype(np.float32)), nr.asarray(full[-1].astype(np.float32)),
              nr.asarray(full.astype(np.int16)), np.float32(1.5), nr.asarray(np.float32(-4))]
    for v in values:
        ref = base("float32")
        x = nr.asarray(ref)
        ref[key] = v.numpy() if isinstance(v, ndarray) else v
        x[key] = v
        np.testing.assert_array_equal(host(x, np.float32), ref)


@pytest.mark.parametrize("view", [lambda a: a[::2], lambda a: a.T, lambda a: a[:, 1:5, ::-1],
                                  lambda a: np.permute_dims(a, (1, 0, 2)) if isinstance(a, np.ndarray) else
                                  nr.permute_dims(a, (1, 0, 2))])
@pytest.mark.parametrize("k", [0, 1, 3, 7])
def test_strided_and_permuted_targets(monkeypatch, view, k):
    monkeypatch.setattr(ndarray, "_py___setitem__", None)
    key, _ = KEYS[k]
    ref = base("int32", (10, 6, 6))
    x = nr.asarray(ref)
    rv, xv = view(ref), view(x)
    rv[key] = -1
    xv[key] = -1
    np.testing.assert_array_equal(host(x, np.int32), ref)
    vals = np.arange(int(np.prod(rv[key].shape)), dtype=np.int32).reshape(rv[key].shape)
    rv[key] = vals
    xv[key] = nr.asarray(vals)
    np.testing.assert_array_equal(host(x, np.int32), ref)


def test_device_and_host_index_arrays_mixed(monkeypatch):
    monkeypatch.setattr(ndarray, "_py___setitem__", None)
    for dt in ("int8", "int32", "int64", "uint16"):
        i = np.array([[0], [4], [2]], dt)
        j = np.array([3, 1], np.int64) if dt == "uint16" else np.array([-1, 1], np.int64)
        for key in ((nr.asarray(i), j), (i, nr.asarray(j)), (nr.asarray(i), nr.asarray(j)),
                    (nr.asarray(i), slice(None), nr.asarray(j))):
            ref = base("float32")
            x = nr.asarray(ref)
            npkey = tuple(k.numpy() if isinstance(k, ndarray) else k for k in key)
            v = np.arange(int(np.prod(ref[npkey].shape)), dtype=np.float32).reshape(ref[npkey].shape)
            ref[npkey] = v
            x[key] = v
            np.testing.assert_array_equal(host(x, np.float32), ref)


def test_duplicates_keep_the_last_value_in_c_order(monkeypatch):
    monkeypatch.setattr(ndarray, "_py___setitem__", None)
    ref = np.zeros((3, 3), np.float32)
    x = nr.zeros((3, 3), dtype=nr.float32)
    key = ([0, 2, 0, 0], [1, 1, 1, 1])
    v = np.array([1, 2, 3, 4], np.float32)
    ref[key] = v
    x[key] = v
    np.testing.assert_array_equal(host(x, np.float32), ref)
    assert host(x, np.float32)[0, 1] == 4


def test_exact_scalars_and_ml_dtypes(monkeypatch):
    monkeypatch.setattr(ndarray, "_py___setitem__", None)
    x = nr.zeros((4, 4), dtype=nr.int64)
    x[[0, 3], [1, 2]] = 2 ** 62 + 1
    assert x.tolist()[0][1] == x.tolist()[3][2] == 2 ** 62 + 1
    u = nr.zeros((4,), dtype=nr.uint64)
    u[[1, -1]] = 2 ** 64 - 1
    assert u.tolist() == [0, 2 ** 64 - 1, 0, 2 ** 64 - 1]
    b = nr.zeros((4, 4), dtype=nr.bfloat16)
    b[1:3, [0, 2]] = ml_dtypes.bfloat16(1.5)
    ref = np.zeros((4, 4), ml_dtypes.bfloat16)
    ref[1:3, [0, 2]] = 1.5
    np.testing.assert_array_equal(b.numpy(), ref)


def test_empty_keys_and_values_that_share_the_array(monkeypatch):
    monkeypatch.setattr(ndarray, "_py___setitem__", None)
    ref = base("float32")
    x = nr.asarray(ref)
    x[[], [1]] = 5.0
    x[np.zeros((0, 2), np.int64), 1:3] = np.ones((6,), np.float32)
    x[[]] = nr.ones((0, 4, 6), dtype=nr.float32)
    np.testing.assert_array_equal(host(x, np.float32), ref)
    ref[[1, 2], [0, 3]] = ref[0, 1:3].copy()
    x[[1, 2], [0, 3]] = x[0, 1:3]  # the values live in x's storage: copied before the scatter
    np.testing.assert_array_equal(host(x, np.float32), ref)


@pytest.mark.parametrize("key,cls,msg", [
    (([0, 5], [1, 1]), nr.IndexingError, r"__setitem__: index 5 is out of bounds for axis 0 with size 5"),
    (([0, 1], slice(None), [1, -7]), nr.IndexingError, r"index -7 is out of bounds for axis 2 with size 6"),
    (("dev", [0, 1]), nr.IndexingError, r"index 9 is out of bounds for axis 0 with size 5"),
    (([0, 1], [1, 2, 3]), nr.IndexingError,
     r"shape mismatch: indexing arrays could not be broadcast together with shapes \(2,\) \(3,\)"),
    (([0], 1, 2, 3), nr.IndexingError, r"too many indices for array: array is 3-dimensional, but 4 were indexed"),
    (([0], [0.5]), nr.IndexingError, r"arrays used as indices must be of integer"),
])
def test_errors_keep_the_python_layers_class_and_message(key, cls, msg):
    x = nr.asarray(base("float32"))
    if key[0] == "dev":
        key = (nr.asarray(np.array([0, 9])),) + key[1:]
    with pytest.raises(cls, match=msg):
        x[key] = 1.0
    np.testing.assert_array_equal(host(x, np.float32), base("float32"))
    with pytest.raises(nr.InvalidArgumentError, match=r"could not broadcast input array from shape \(3,\)"):
        x[[0, 1], [1, 2]] = np.ones(3, np.float32)
    with pytest.raises(nr.OutOfRangeError):
        nr.zeros((4, 4), dtype=nr.int8)[[0, 1], [1, 2]] = 300
    np.testing.assert_array_equal(host(x, np.float32), base("float32"))
    x[[0, -1], [0, -1]] = 2.0  # still usable
    assert host(x, np.float32)[-1, -1, 0] == 2.0


def test_launches():
    def launches(fn):
        with nr.profiler.profile() as p:
            fn()
            nr.synchronize()
        return [a.name for a in p.result.activities]
    x = nr.zeros((8, 8), dtype=nr.float32)
    # one upload of the flat index, the one-element value, one scatter
    assert launches(lambda: x.__setitem__(([0, 2], [1, 3]), 1.0)) == ["copy H2D", "fill", "scatter"]
    # a non-contiguous target: scattered into a dense copy, written back
    assert launches(lambda: x[::2].__setitem__([0, 2], 1.0)) == ["copy H2D", "fill", "copy", "scatter", "copy"]


def test_cpp_api_without_python_values():
    x = nr.zeros((3, 4), dtype=nr.float32)
    _npurt._index_put(x, ([2, 0], slice(1, 3)), nr.ones((2, 2), dtype=nr.float32))
    ref = np.zeros((3, 4), np.float32)
    ref[[2, 0], 1:3] = 1
    np.testing.assert_array_equal(host(x, np.float32), ref)
    with pytest.raises(nr.InvalidArgumentError, match=r"npurt.index_put: index 3 is out of bounds for axis 0"):
        _npurt._index_put(x, ([3],), nr.ones((1,), dtype=nr.float32))
