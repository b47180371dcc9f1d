"""Every error x[key] and x[key] = v raise is an npurt class that also is the builtin numpy
raises in the same case (nr.IndexingError an IndexError, nr.InvalidArgumentError a ValueError,
nr.OutOfRangeError an OverflowError, nr.ArgumentTypeError a TypeError), with a message naming
the op (__getitem__ / __setitem__), the argument and the reason; the runtime stays usable after
each (sdk_python/npurt/array_api/indexing.py, _advanced.py)."""
import warnings

import numpy as np
import pytest

import npurt as nr

GET = "npurt.ndarray.__getitem__"
SET = "npurt.ndarray.__setitem__"


def numpy_error(call):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            call()
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return type(e)
    return None


# (name, key, npurt class, message fragment): getitem and setitem (value 1) of a 3x4 array
KEYS = [
    ("out-of-bounds integer", (3, 0), nr.IndexingError, "argument 'key': index 3 is out of bounds for axis 0 with size 3"),
    ("negative out of bounds", -5, nr.IndexingError, "argument 'key': index -5 is out of bounds for axis 0"),
    ("too many indices", (0, 0, 0), nr.IndexingError, "argument 'key': too many indices for array: array is "
                                                       "2-dimensional, but 3 were indexed"),
    ("two ellipses", (Ellipsis, Ellipsis), nr.IndexingError, "argument 'key': an index can only have a single "
                                                             "ellipsis"),
    ("bad key type", "a", nr.IndexingError, "argument 'key': only integers, slices"),
    ("float index", 1.5, nr.IndexingError, "argument 'key': only integers, slices (`:`), ellipsis (`...`), None "
                                           "(`newaxis`) and 0-d integer arrays are valid indices, got float"),
    ("float index in a tuple", (0, 2.0), nr.IndexingError, "got float"),
    ("float 0-d array index", nr.asarray(np.float32(1)), nr.IndexingError, "argument 'key'"),
    ("boolean mask shape", np.array([True, False]), nr.IndexingError,
     "argument 'key': boolean index of shape (2,) does not match the indexed array's leading shape (3,)"),
    ("integer array out of bounds", np.array([0, 7]), nr.IndexingError, "index 7 is out of bounds for axis 0"),
    ("float array index", np.array([0.5, 1.0]), nr.IndexingError,
     "argument 'key': arrays used as indices must be of integer or boolean type, got float64"),
    ("index arrays not broadcastable", (np.array([0, 1]), np.array([0, 1, 2])), nr.IndexingError,
     "argument 'key': shape mismatch: indexing arrays could not be broadcast together"),
    ("slice step zero", slice(None, None, 0), nr.InvalidArgumentError, "argument 'key': slice step cannot be zero"),
]


def base():
    return np.arange(12, dtype=np.float32).reshape(3, 4)


def check_usable(x, host):
    x[0, 1:3] = 9.0
    host[0, 1:3] = 9.0
    np.testing.assert_array_equal(x.numpy(), host)
    np.testing.assert_array_equal(x[1:, ::2].numpy(), host[1:, ::2])


@pytest.mark.parametrize("name,key,cls,fragment", KEYS, ids=[k[0] for k in KEYS])
@pytest.mark.parametrize("op", ["get", "set"])
def test_key_errors(name, key, cls, fragment, op):
    host = base()
    x = nr.asarray(host)
    with pytest.raises(cls) as info:
        if op == "get":
            x[key]
        else:
            x[key] = 1.0
    e = info.value
    assert fragment in str(e), str(e)
    assert str(e).startswith(GET if op == "get" else SET), str(e)
    assert isinstance(e, nr.NpurtError) and e.code == "INVALID_ARGUMENT"
    np_key = key.numpy() if isinstance(key, nr.ndarray) else key
    np_cls = numpy_error((lambda: host[np_key]) if op == "get" else (lambda: host.__setitem__(np_key, 1.0)))
    assert np_cls is not None and issubclass(cls, np_cls), (np_cls, cls)  # numpy's own class is a base
    check_usable(x, host)


# (name, key, value, npurt class, message fragment) of x[key] = value (x: 3x4 float32 or int8)
VALUES = [
    ("shape mismatch", slice(None), np.ones((2, 4), np.float32), nr.InvalidArgumentError,
     "argument 'value': could not broadcast input array from shape (2, 4) into shape (3, 4)"),
    ("nr shape mismatch", (0,), nr.asarray(np.ones(3, np.float32)), nr.InvalidArgumentError, "could not broadcast"),
    ("mask value shape", np.array([True, False, True]), np.ones((3, 4), np.float32), nr.InvalidArgumentError,
     "could not broadcast"),
    ("string value", 0, "abc", nr.InvalidArgumentError, "argument 'value': cannot convert str to float32"),
    ("ragged list", 0, [[1, 2], [3]], nr.InvalidArgumentError, "argument 'value': cannot convert list to float32"),
]


@pytest.mark.parametrize("name,key,value,cls,fragment", VALUES, ids=[v[0] for v in VALUES])
def test_value_errors(name, key, value, cls, fragment):
    host = base()
    x = nr.asarray(host)
    with pytest.raises(cls, match=None) as info:
        x[key] = value
    assert fragment in str(info.value) and str(info.value).startswith(SET), str(info.value)
    np_value = value.numpy() if isinstance(value, nr.ndarray) else value
    np_cls = numpy_error(lambda: host.copy().__setitem__(key, np_value))
    assert np_cls is not None and issubclass(cls, np_cls), (np_cls, cls)
    check_usable(x, host)


@pytest.mark.parametrize("value,cls,fragment", [
    (300, nr.OutOfRangeError, "argument 'value': Python int 300 is out of range for int8"),
    (-129, nr.OutOfRangeError, "Python int -129 is out of range for int8"),
    (2 ** 70, nr.OutOfRangeError, "Python int 1180591620717411303424 is out of range for int8"),
    (300.0, nr.OutOfRangeError, "argument 'value': Python float 300.0 is out of range for int8"),
    (float("inf"), nr.OutOfRangeError, "Python float inf is out of range for int8"),
    (float("nan"), nr.InvalidArgumentError, "argument 'value': Python float nan cannot be converted to int8"),
    ([1, 300], nr.OutOfRangeError, "argument 'value': npurt.asarray: argument 'obj': a value is out of range"),
])
def test_out_of_range_values(value, cls, fragment):
    host = np.zeros(4, np.int8)
    x = nr.asarray(host)
    for key in (slice(0, 2), slice(None, None, 2), np.array([0, 3]), np.array([True, False, False, True])):
        with pytest.raises(cls) as info:
            x[key] = value
        assert fragment in str(info.value) and str(info.value).startswith(SET), str(info.value)
    if not isinstance(value, list):
        np_cls = numpy_error(lambda: host.copy().__setitem__(0, value))
        assert np_cls is None or issubclass(cls, np_cls), (np_cls, cls)  # NaN / inf: numpy only warns
    x[1::2] = 5
    np.testing.assert_array_equal(x.numpy(), [0, 5, 0, 5])


def test_read_only_target():
    x = nr.broadcast_to(nr.asarray(np.arange(4, dtype=np.float32)), (3, 4))
    for key, value in [((0, 1), 1.0), (slice(None), np.ones(4, np.float32)), (np.array([0, 1]), 2.0)]:
        with pytest.raises(nr.InvalidArgumentError, match="argument 'self': assignment destination is read-only"):
            x[key] = value
    host = np.broadcast_to(np.arange(4, dtype=np.float32), (3, 4))
    assert issubclass(nr.InvalidArgumentError, numpy_error(lambda: host.__setitem__((0, 1), 1.0)))
    np.testing.assert_array_equal(x.numpy(), host)


def test_scalar_conversion_errors():
    x = nr.asarray(np.arange(3, dtype=np.int32))
    for call, cls, np_call in [(lambda: int(x), nr.ArgumentTypeError, lambda: int(np.arange(3))),
                               (lambda: bool(x), nr.InvalidArgumentError, lambda: bool(np.arange(3))),
                               (lambda: iter(x[0]), nr.ArgumentTypeError, lambda: iter(np.zeros(()))),
                               (lambda: x.item(5), nr.IndexingError, lambda: np.arange(3).item(5)),
                               (lambda: [0, 1][x], nr.ArgumentTypeError, lambda: [0, 1][np.arange(3)])]:
        with pytest.raises(cls):
            call()
        assert issubclass(cls, numpy_error(np_call))
    assert x[1].item() == 1


def test_classes():
    assert issubclass(nr.IndexingError, nr.InvalidArgumentError) and issubclass(nr.IndexingError, IndexError)
    assert issubclass(nr.OutOfRangeError, nr.InvalidArgumentError) and issubclass(nr.OutOfRangeError, OverflowError)
    assert nr.IndexingError("m").code == "INVALID_ARGUMENT" and nr.OutOfRangeError("m").code == "INVALID_ARGUMENT"
    assert nr.IndexingError.__module__ == "npurt" and nr.OutOfRangeError.__module__ == "npurt"
