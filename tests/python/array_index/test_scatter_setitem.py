"""x[idx] = v with integer-array keys (wave 12, scatter12): the C++ fast path
(sdk_python/bindings/indexing.cpp fast_scatter, host_index.cpp) and the Python
path it falls back to, against numpy bit for bit. Host keys (lists, numpy
arrays) are checked on the host (no index_check, no status read); a scalar
value is filled into one element that scatter repeats (no broadcast copy).
Errors: numpy's IndexError at the assignment, naming __setitem__, the axis,
the index and the size; the array is unchanged and the runtime usable."""
import numpy as np
import pytest

import npurt as nr
from npurt import _npurt

ndarray = _npurt.ndarray
DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]


def launches(fn):
    with nr.profiler.profile() as p:
        fn()
        nr.synchronize()
    return [a.name for a in p.result.activities]


def base(dtype, shape=(7, 3)):
    return (np.arange(int(np.prod(shape))).reshape(shape) % 5).astype(dtype)


def value_of(dtype):
    return {"bool": True, "complex64": 2 - 1j, "complex128": 2 - 1j}.get(dtype, 3) if "float" not in dtype else -2.5


KEYS = [[0, -1, 3], np.array([6, 0, 0], np.int8), np.array([[1, 2], [-7, 4]], np.int16), np.array([[6], [3]], np.uint16), [5]]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("k", range(len(KEYS)))
def test_scalar_into_host_keys_matches_numpy_without_python(monkeypatch, dtype, k):
    monkeypatch.setattr(ndarray, "_py___setitem__", None)  # the C++ path alone must answer
    ref = base(dtype)
    x = nr.asarray(ref)
    ref[KEYS[k]] = value_of(dtype)
    x[KEYS[k]] = value_of(dtype)
    np.testing.assert_array_equal(np.asarray(x.tolist(), dtype), ref)


@pytest.mark.parametrize("dtype", ["int8", "uint32", "int64"])
def test_device_index_arrays_wrap_negative_indices(monkeypatch, dtype):
    monkeypatch.setattr(ndarray, "_py___setitem__", None)
    key = np.array([-1, 2, 0, -7], dtype) if dtype != "uint32" else np.array([6, 2, 0], dtype)
    ref = base("float32")
    x = nr.asarray(ref)
    ref[key] = 9.0
    x[nr.asarray(key)] = 9.0
    np.testing.assert_array_equal(np.asarray(x.tolist(), np.float32), ref)


def test_launches():
    x = nr.zeros((64,), dtype=nr.float32)
    assert launches(lambda: x.__setitem__([1, 5, -1], 2.0)) == ["copy H2D", "fill", "scatter"]
    v = nr.ones((1,), dtype=nr.float32)
    assert launches(lambda: x.__setitem__(np.array([3]), v)) == ["copy H2D", "scatter"]
    dev = nr.asarray(np.array([1, -2]))
    assert launches(lambda: x.__setitem__(dev, 2.0)) == ["index_check", "copy D2H", "fill", "scatter"]


def test_array_values_of_the_exact_shape_and_one_element(monkeypatch):
    monkeypatch.setattr(ndarray, "_py___setitem__", None)
    ref = base("float32")
    x = nr.asarray(ref)
    rows = np.arange(6, dtype=np.float32).reshape(2, 3) - 10
    ref[[4, 1]] = rows
    x[[4, 1]] = nr.asarray(rows)
    ref[[0, 2]] = np.float32(7)
    x[[0, 2]] = nr.asarray(np.array([7], np.float32))  # one element: repeated by the kernel
    x[[6]] = nr.asarray(np.float32(8))
    ref[[6]] = 8
    np.testing.assert_array_equal(np.asarray(x.tolist(), np.float32), ref)


def test_duplicate_indices_keep_the_last_value_like_numpy():
    for key in ([0, 0, 2, 0], np.array([0, 0, 2, 0]), nr.asarray(np.array([0, 0, 2, 0]))):
        ref = np.zeros(4, np.float32)
        x = nr.zeros((4,), dtype=nr.float32)
        v = np.array([1, 2, 3, 4], np.float32)
        ref[[0, 0, 2, 0]] = v
        x[key] = nr.asarray(v)  # scatter with unique=False: one core, in order
        np.testing.assert_array_equal(np.asarray(x.tolist(), np.float32), ref)
        x[key] = v.tolist()  # the Python path (a list value), the same rule
        np.testing.assert_array_equal(np.asarray(x.tolist(), np.float32), ref)


@pytest.mark.parametrize("key,axis,index", [([0, 7], 0, 7), (np.array([1, -8], np.int8), 0, -8),
                                             (np.array([2 ** 64 - 1], np.uint64), 0, 2 ** 64 - 1),
                                             ("device", 0, 9), ((slice(None), [0, 3]), 1, 3),
                                             (([0, 1], [1, -4]), 1, -4)])
def test_out_of_range_raises_at_the_call_and_leaves_the_array(key, axis, index):
    x = nr.asarray(base("float32"))
    if isinstance(key, str):
        key = nr.asarray(np.array([0, 9]))
    with pytest.raises(nr.IndexingError, match=rf"__setitem__: index {index} is out of bounds for axis {axis} "
                                               rf"with size {(7, 3)[axis]}") as e:
        x[key] = 1.0
    assert isinstance(e.value, IndexError)
    np.testing.assert_array_equal(np.asarray(x.tolist(), np.float32), base("float32"))
    y = nr.ones((1000,), dtype=nr.float32)  # the runtime and its pool still work
    y[[0, -1]] = 2.0
    assert float(nr.sum(y).item()) == 1002.0


def test_zero_d_and_empty_keys():
    z = nr.asarray(np.float32(1))
    with pytest.raises(IndexError):
        z[[0]] = 2.0
    with pytest.raises(IndexError):
        np.array(np.float32(1))[[0]] = 2.0  # numpy refuses it too
    x = nr.asarray(base("int32"))
    x[[]] = 5
    x[np.array([], np.int64)] = 5
    x[nr.asarray(np.array([], np.int64))] = 5
    np.testing.assert_array_equal(np.asarray(x.tolist()), base("int32"))


def test_other_keys_and_targets_take_the_python_path():
    ref = base("float32", (6, 4))
    x = nr.asarray(ref)
    cases = [
        (lambda a: a[::2], [0, 2], 4.0),                     # a non-contiguous target
        (lambda a: a, ([0, 1], [2, 3]), 5.0),                # two integer arrays
        (lambda a: a, (slice(1, None), [0, -1]), 6.0),       # a slice and an array
        (lambda a: a, [1, 3], np.arange(4, dtype=np.float32)),  # a numpy row, broadcast
        (lambda a: a, [0, 5], [7.0, 8.0, 9.0, 10.0]),        # a list row, broadcast
    ]
    for view, key, v in cases:
        view(ref)[key] = v
        target = view(x)
        target[key] = v
        np.testing.assert_array_equal(np.asarray(x.tolist(), np.float32), ref)


def test_values_read_from_the_array_itself():
    ref = base("float32")
    x = nr.asarray(ref)
    ref[[1, 2, 3]] = ref[0]
    x[[1, 2, 3]] = x[0]  # shares x's storage: the Python path copies the values first
    ref[[0, 6]] = ref[4:6]
    x[[0, 6]] = x[4:6]
    np.testing.assert_array_equal(np.asarray(x.tolist(), np.float32), ref)


@pytest.mark.parametrize("dtype", ["int8", "float32", "complex128"])
def test_repeated_value_under_full_sim_checks(dtype):
    n = 50003  # several cores, runs of rows that start unaligned in UB
    ref = np.zeros((n, 3), dtype)
    key = np.arange(n - 1, 0, -7)
    with nr.debug.sim_check_level("full"):
        x = nr.asarray(ref)
        x[key] = 1
        got = x.numpy()
    ref[key] = 1
    np.testing.assert_array_equal(got, ref)
