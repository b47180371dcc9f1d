"""The C++ fast path of x[key] and x[key] = v (sdk_python/bindings/indexing.cpp,
npurt::basic_index) against numpy and against the Python layer it stands in
for (indexing.getitem / setitem, kept on the type as _py___getitem__ /
_py___setitem__): the same view (shape, strides, offset into the same
storage), the same values written, the same errors.
"""
import random
import warnings

import numpy as np
import pytest

import npurt as nr
from npurt import _npurt
from npurt.array_api import indexing

ndarray = _npurt.ndarray


def _bound(rng):
    return rng.choice([None, None, rng.randint(-9, 9), rng.choice([-(2 ** 70), 2 ** 70, 2 ** 62])])


def random_key(rng, ndim):
    """A basic key with at most ndim consumed entries: ints in range, slices of any step,
    None, one Ellipsis, bools; alone or in a tuple."""
    entries, consumed, ellipsis = [], 0, False
    for _ in range(rng.randint(0, ndim + 2)):
        r = rng.random()
        if r < 0.45 and consumed < ndim:
            step = rng.choice([None, 1, 2, 3, 7, -1, -2, -5, 10 ** 6])
            entries.append(slice(_bound(rng), _bound(rng), step))
            consumed += 1
        elif r < 0.7 and consumed < ndim:
            entries.append(("int", consumed))  # filled in below from the dim it lands on
            consumed += 1
        elif r < 0.8 and not ellipsis:
            entries.append(Ellipsis)
            ellipsis = True
        elif r < 0.93:
            entries.append(None)
        else:
            entries.append(rng.random() < 0.5)
    return entries


def concrete_key(rng, entries, shape):
    """Replaces the ("int", _) placeholders by in-range indices (negative too) of their dims."""
    consumed = sum(1 for e in entries if isinstance(e, (slice, tuple)))
    dims, out, dim = list(shape), [], 0
    for e in entries:
        if e is Ellipsis:
            dim += len(dims) - consumed
        if isinstance(e, tuple):
            n = dims[dim]
            if n == 0:
                e = slice(None)  # no valid integer on an empty dim
            else:
                e = rng.randint(-n, n - 1)
        if isinstance(e, (slice, int)) and not isinstance(e, bool):
            dim += 1
        out.append(e)
    return tuple(out) if len(out) != 1 or rng.random() < 0.5 else out[0]


def bases(rng):
    """(nr array, numpy array) pairs: contiguous, strided, reversed and 0-d bases."""
    shape = tuple(rng.randint(0, 5) for _ in range(rng.randint(0, 4)))
    host = np.arange(int(np.prod(shape)) * 4, dtype=np.float32)
    if rng.random() < 0.5 or not shape:
        h = host[: int(np.prod(shape))].reshape(shape)
        return nr.asarray(h), h
    big = host.reshape((2,) + shape + (2,)) if int(np.prod(shape)) else host[:0].reshape((2,) + shape + (2,))
    key = (rng.choice([0, 1]),) + (slice(None, None, rng.choice([1, -1])),) * len(shape) + (rng.choice([0, -1]),)
    x = nr.asarray(np.ascontiguousarray(big))
    return x[key], big[key]


def same_view(a, b):
    assert a.shape == b.shape
    assert _npurt._elem_strides(a) == _npurt._elem_strides(b)
    assert _npurt._elem_offset(a) == _npurt._elem_offset(b)
    assert _npurt._shares_storage(a, b)


@pytest.mark.parametrize("seed", range(8))
def test_random_basic_keys_match_numpy_and_the_python_path(seed):
    rng = random.Random(seed)
    for _ in range(150):
        x, h = bases(rng)
        key = concrete_key(rng, random_key(rng, len(h.shape)), h.shape)
        y = x[key]
        same_view(y, ndarray._py___getitem__(x, key))
        same_view(y, _npurt.basic_index(x, key))
        entries = key if isinstance(key, tuple) else (key,)
        if any(isinstance(k, bool) for k in entries):
            continue  # numpy reads bools as 0-d masks (advanced: a copy, dims may move); npurt as views
        expected = h[key]
        assert y.shape == expected.shape, key
        if expected.size:  # numpy's strides of length-1 dims are arbitrary (and x[True] copies)
            assert [s for s, n in zip(y.strides, y.shape) if n > 1] == \
                [s for s, n in zip(expected.strides, expected.shape) if n > 1], key
        np.testing.assert_array_equal(y.numpy(), expected)


def test_getitem_is_the_cpp_function_and_slot():
    x = nr.asarray(np.arange(6, dtype=np.float32))
    assert type(ndarray.__getitem__).__module__ != indexing.__name__
    assert ndarray._py___getitem__ is indexing.getitem
    same_view(x.__getitem__(slice(1, 3)), x[1:3])


@pytest.mark.parametrize("key,exc,text", [
    (5, IndexError, "index 5 is out of bounds for axis 0 with size 4"),
    (-5, IndexError, "index -5 is out of bounds for axis 0 with size 4"),
    ((0, 0, 0), IndexError, "too many indices for array: array is 2-dimensional, but 3 were indexed"),
    ((Ellipsis, Ellipsis), IndexError, "an index can only have a single ellipsis"),
    (slice(None, None, 0), ValueError, "slice step cannot be zero"),
    (1.5, IndexError, "only integers, slices"),
    (slice(1.5, None), TypeError, "slice indices must be integers"),
    (2 ** 80, IndexError, "is out of bounds for axis 0"),
])
def test_errors_are_the_python_layers(key, exc, text):
    x = nr.asarray(np.zeros((4, 3), np.float32))
    for op in (lambda: x[key], lambda: x.__setitem__(key, 1.0)):
        with pytest.raises(exc, match="npurt.ndarray.__[gs]etitem__" if exc is not TypeError else text) as e:
            op()
        assert text in str(e.value)


def test_delete_is_not_supported():
    x = nr.asarray(np.zeros(3, np.float32))
    with pytest.raises(AttributeError, match="__delitem__"):
        del x[0]


def test_basic_index_binding_rejects_advanced_entries():
    x = nr.asarray(np.zeros(3, np.float32))
    with pytest.raises(ValueError, match="npurt.basic_index: argument 'key'"):
        _npurt.basic_index(x, [0, 1])
    with pytest.raises(ValueError, match="npurt.basic_index: argument 'key': index 3 is out of bounds"):
        _npurt.basic_index(x, 3)


def test_other_entries_take_the_python_path():
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = nr.asarray(host)
    for key in [np.int64(1), (np.int32(-1), slice(np.int64(1), None)), nr.asarray(np.int64(2)), [0, 2],
                (slice(None), nr.asarray(np.array([1, 3]))), nr.asarray(host > 5)]:
        np.testing.assert_array_equal(x[key].numpy(), host[key.numpy() if isinstance(key, ndarray) else key])


FLOATS = [0, 2.5, -0.0, 0.1, 1e40, -1e-50, float("inf"), float("nan"), 2 ** 53, -(2 ** 53), 16777217, 3,
          2 ** 53 + 1, True]
INTS = [0, 3, -1, 127, -128, 128, 255, 256, 65535, -(2 ** 31), 2 ** 31, 2 ** 53, 2 ** 63 - 1, -(2 ** 63), 2 ** 64 - 1,
        2 ** 64, 2.0, False]


def assign_both(fast, slow, key, value):
    """fast[key] = value and the Python path on slow: the same warnings, or the same error."""
    outcomes = []
    for assign in (lambda: fast.__setitem__(key, value), lambda: ndarray._py___setitem__(slow, key, value)):
        with warnings.catch_warnings(record=True) as warned:
            warnings.simplefilter("always")
            try:
                assign()
                error = None
            except Exception as e:  # noqa: BLE001 - compared below
                error = (type(e), str(e))
        outcomes.append((error, [str(w.message) for w in warned]))
    assert outcomes[0] == outcomes[1], (key, value)
    return outcomes[0][0]


HALVES = FLOATS + [65504.0, 65519.0, 65520.0, 65510, 65536, 1e-9, 6e-8, 2.9802322387695312e-08, 2049.0, 2051.0,
                  1.0009765625 + 2 ** -30, 1.00048828125, 1.00146484375, -3.0517578125e-05, 5.960464477539063e-08]
INTO_INTS = [2.5, -2.7, -0.5, 127.9, 128.0, -128.9, 255.5, 256.0, 1e10, -1e19, 2.0 ** 53, float("nan"), float("inf"),
             True, False]


@pytest.mark.parametrize("dtype,value", [("float32", v) for v in FLOATS] + [("float64", v) for v in FLOATS] +
                         [("float16", v) for v in HALVES] +
                         [(d, v) for d in ("int8", "uint8", "int32", "int64", "uint64") for v in INTS + INTO_INTS] +
                         [("bool", v) for v in (True, False, 0, 2, 0.5)])
def test_scalar_assignment_matches_numpy_and_the_python_path(dtype, value):
    rng = random.Random(hash((dtype, str(value))) & 0xffff)
    for _ in range(25):
        shape = tuple(rng.randint(0, 5) for _ in range(rng.randint(0, 3)))
        base = np.arange(int(np.prod(shape))).astype(dtype).reshape(shape)
        key = concrete_key(rng, random_key(rng, len(shape)), shape)
        fast, slow = nr.asarray(base), nr.asarray(base)
        if assign_both(fast, slow, key, value) is not None:
            continue  # both raised the same error (an int out of the dtype's range)
        expected = base.copy()
        if any(isinstance(k, bool) for k in (key if isinstance(key, tuple) else (key,))):
            expected[...] = slow.numpy()  # numpy's bool keys differ (see above): the two paths only
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                expected[key] = value
        assert fast.numpy().tobytes() == expected.tobytes(), (key, value)
        assert slow.numpy().tobytes() == expected.tobytes(), (key, value)


def test_iteration_yields_views():
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = nr.asarray(host)
    rows = list(x)
    assert len(rows) == 3 and all(_npurt._shares_storage(r, x) for r in rows)
    np.testing.assert_array_equal(np.stack([r.numpy() for r in rows]), host)


@pytest.mark.parametrize("dtype", [np.float16, np.int32, np.float64, np.bool_])
def test_other_dtypes_and_values_still_assign(dtype):
    host = np.zeros((3, 4), dtype)
    x = nr.asarray(host)
    x[1:, ::-2] = 1
    x[0] = True
    host[1:, ::-2] = 1
    host[0] = True
    np.testing.assert_array_equal(x.numpy(), host)
    y = nr.asarray(np.zeros(4, np.float32))
    y[1:3] = nr.asarray(np.array([5.0, 6.0], np.float32))
    y[::2] = 7.0  # strided target: the Python path's copy
    y[-1] = np.float32(9.0)
    np.testing.assert_array_equal(y.numpy(), np.array([7, 5, 7, 9], np.float32))


def get_both(x, key):
    """x[key] and the Python path's: the same values, or the same error (returned)."""
    outcomes = []
    for get in (lambda: x[key], lambda: ndarray._py___getitem__(x, key)):
        try:
            outcomes.append(get().numpy().tobytes())
        except Exception as e:  # noqa: BLE001 - compared below
            outcomes.append((type(e), str(e)))
    assert outcomes[0] == outcomes[1], key
    return outcomes[0] if isinstance(outcomes[0], tuple) else None


def test_numpy_integer_keys_take_the_fast_path(monkeypatch):
    host = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x = nr.asarray(host)
    keys = [np.int64(1), np.int32(-1), (np.uint8(1), slice(None), np.int16(-2)), (Ellipsis, np.intp(3)),
            (np.int64(0), None, slice(np.int64(1), None))]
    for key in keys:
        slow = ndarray._py___getitem__(x, key)
        with monkeypatch.context() as m:  # the fast path alone answers these keys
            m.setattr(ndarray, "_py___getitem__", None)
            fast = x[key]
        same_view(fast, slow)
        np.testing.assert_array_equal(fast.numpy(), host[key])
    for key in [np.int64(2), (np.int64(0), np.int64(5)), np.bool_(True)]:
        get_both(x, key)
    y = nr.asarray(np.zeros(4, np.float16))
    with monkeypatch.context() as m:
        m.setattr(ndarray, "_py___setitem__", None)
        y[np.int64(2)] = 0.1
    assert y.numpy()[2] == np.float16(0.1)


@pytest.mark.parametrize("dtype,value,expected", [("float16", 0.1, 0.1), ("float16", 7, 7), ("int32", -2.7, -2),
                                                  ("uint8", 255.9, 255), ("bool", True, True), ("float64", False, 0)])
def test_new_fast_fill_values_need_no_python_path(monkeypatch, dtype, value, expected):
    x = nr.asarray(np.zeros(5, dtype))
    with monkeypatch.context() as m:
        m.setattr(ndarray, "_py___setitem__", None)
        x[1:3] = value
    np.testing.assert_array_equal(x.numpy(), np.array([0, expected, expected, 0, 0]).astype(dtype))


@pytest.mark.parametrize("seed", range(6))
def test_strided_targets_fill_like_numpy_and_the_python_path(monkeypatch, seed):
    """Non-contiguous views (strided, reversed, transposed bases; stepped keys):
    fill per contiguous block, without the Python path, the values numpy writes."""
    rng = random.Random(seed)
    for _ in range(60):
        x, h = bases(rng)
        if rng.random() < 0.3 and x.ndim >= 2:
            x, h = nr.permute_dims(x, tuple(reversed(range(x.ndim)))), h.T
        key = concrete_key(rng, random_key(rng, x.ndim), h.shape)
        if any(isinstance(k, bool) for k in (key if isinstance(key, tuple) else (key,))):
            continue  # numpy's bool keys differ (see above)
        value = rng.choice([7, -1.5, True, 0.1])
        slow = nr.asarray(x.numpy())
        ndarray._py___setitem__(slow, key, value)
        expected = h.copy()
        expected[key] = value
        with monkeypatch.context() as m:
            m.setattr(ndarray, "_py___setitem__", None)
            x[key] = value
        assert x.numpy().tobytes() == expected.tobytes() == slow.numpy().tobytes(), (key, value)


def test_broadcast_targets_take_the_python_path():
    x = nr.broadcast_to(nr.asarray(np.zeros(3, np.float32)), (2, 3))
    outcomes = []
    for assign in (lambda: x.__setitem__(slice(None), 1.0), lambda: ndarray._py___setitem__(x, slice(None), 1.0)):
        try:
            assign()
            outcomes.append(None)
        except Exception as e:  # noqa: BLE001 - compared below
            outcomes.append((type(e), str(e)))
    assert outcomes[0] == outcomes[1]
