"""x[key] = v for the value kinds wave 12 moved into C++ (sdk_python/bindings/indexing.cpp):
integers up to 64 bits stored exactly (fill's value_int), ml_dtypes scalars, numpy arrays of
another dtype (uploaded as they are, converted by the device's astype) and lists / tuples (one
numpy.asarray into x's dtype); each against numpy bit for bit, answered without the Python
layer, with the launches counted. And the one conversion rule of npurt/fill_value.h that
setitem and nr.full share: floats truncate toward zero into integral dtypes (numpy's full and
setitem), float16 rounds the Python double once."""
import warnings

import ml_dtypes
import numpy as np
import pytest

import npurt as nr
from npurt import _npurt

ndarray = _npurt.ndarray
KEYS = [slice(1, 4), slice(None, None, -2), (slice(None, None, 3),), 2]


def launches(fn):
    with nr.profiler.profile() as p:
        fn()
    return [a.name for a in p.result.activities]


def no_python_path(monkeypatch):
    monkeypatch.setattr(ndarray, "_py___setitem__", None)  # the C++ path alone must answer


@pytest.mark.parametrize("dtype,value", [("int64", 2 ** 62 + 1), ("int64", -2 ** 63), ("int64", 2 ** 53 + 1),
                                         ("int64", -(2 ** 53) - 1), ("uint64", 2 ** 64 - 1),
                                         ("uint64", 2 ** 63 + 3), ("int64", np.int64(2 ** 62 + 1)),
                                         ("uint64", np.uint64(2 ** 64 - 1))])
@pytest.mark.parametrize("key", KEYS)
def test_big_integers_are_exact(monkeypatch, dtype, value, key):
    host = np.arange(8, dtype=dtype)
    x = nr.asarray(host)
    with monkeypatch.context() as m:
        no_python_path(m)
        x[key] = value
    host[key] = value
    assert x.numpy().tobytes() == host.tobytes()
    assert int(x.numpy()[host != np.arange(8, dtype=dtype)][0]) == int(value)


def test_big_integer_launches():
    x = nr.asarray(np.zeros(8, np.int64))
    x.numpy()
    assert launches(lambda: x.__setitem__(slice(1, 4), 2 ** 62 + 1)) == ["fill"]  # contiguous: value_int
    assert launches(lambda: x.__setitem__(slice(None, None, 2), 2 ** 62 + 1)) == ["fill", "copy"]  # 0-d, then copy
    assert launches(lambda: x.__setitem__(slice(None, None, 2), 2 ** 53)) == ["fill"]  # exact as a double


def test_big_integers_into_float_dtypes_match_numpy():
    # numpy rounds a 64-bit int once into float32 / float16 (the Python path: its host cast)
    for dtype in ("float16", "float32", "float64", "complex64"):
        for value in (2 ** 62 + 2 ** 38 + 1, 2 ** 64 - 1, -(2 ** 63) + 1):
            host = np.zeros(4, dtype)
            x = nr.asarray(host)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                x[::2] = value
                host[::2] = value
            assert x.numpy().tobytes() == host.tobytes(), (dtype, value)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32", "int8", "complex64", "bool"])
@pytest.mark.parametrize("value", [ml_dtypes.bfloat16(1.5), ml_dtypes.bfloat16(-3.0e-3), ml_dtypes.bfloat16(96),
                                   ml_dtypes.float8_e4m3fn(-2.75)])
def test_ml_dtypes_scalars(monkeypatch, dtype, value):
    np_dtype = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
    host = np.zeros(6, np_dtype)
    x = nr.asarray(host)
    with monkeypatch.context() as m:
        no_python_path(m)
        x[::-2] = value
    host[::-2] = np.asarray(value).astype(np_dtype)
    assert x.numpy().tobytes() == host.tobytes()


DTYPES = ["bool", "int8", "uint8", "int16", "int32", "uint32", "int64", "uint64", "float16", "float32", "float64",
          "complex64", "complex128"]


def device_cast_taken(src, dst):
    s, d = np.dtype(src), np.dtype(dst)
    return not ((s.kind in "fc" and d.kind in "iub") or (s.kind == "c" and d.kind != "c"))


def values(dtype, n, seed):
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(n) * 60
    v[:3] = [np.inf, -0.0, 1 + 2 ** -11 + 2 ** -40][:n] if n >= 3 else v[:3]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return (v + 1j * rng.standard_normal(n) if np.dtype(dtype).kind == "c" else v).astype(dtype)


@pytest.mark.parametrize("dst", DTYPES)
def test_numpy_arrays_of_other_dtypes_cast_on_the_device(monkeypatch, dst):
    for src in DTYPES:
        if src == dst or not device_cast_taken(src, dst):
            continue
        for key, n in [(slice(1, 5), 4), (slice(None, None, -3), 3), ((slice(None, None, 2),), 1)]:
            host = values(dst, 9, 1)
            v = values(src, n, 2)
            x = nr.asarray(host)
            with monkeypatch.context() as m:
                no_python_path(m)
                x[key] = v
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                host[key] = v
            assert x.numpy().tobytes() == host.tobytes(), (src, dst, key)


def test_numpy_array_other_dtype_launches_and_python_path_cases(monkeypatch):
    x = nr.asarray(np.zeros(8, np.float32))
    x.numpy()
    assert launches(lambda: x.__setitem__(slice(None, None, 2), np.arange(4.0))) == ["copy H2D", "astype", "copy"]
    # float -> int (NaN, out-of-range: numpy warns), complex -> real and bfloat16 keep the Python path
    y = nr.asarray(np.zeros(4, np.int32))
    with monkeypatch.context() as m:
        no_python_path(m)
        for value in (np.ones(2, np.float64), np.ones(2, np.complex64), np.ones(2, ml_dtypes.bfloat16)):
            with pytest.raises(TypeError):  # the missing Python fallback is called
                y[1:3] = value
    y[1:3] = np.array([2.7, -2.7])
    np.testing.assert_array_equal(y.numpy(), [0, 2, -2, 0])


@pytest.mark.parametrize("dtype", DTYPES + ["bfloat16"])
def test_lists_and_tuples(monkeypatch, dtype):
    np_dtype = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
    for key, value in [(slice(1, 4), [1, 0, 3]), (slice(None, None, -2), (2.5, 1.75, 0.5)),
                       ((slice(0, 6),), [[7], [1], [0], [1], [0], [2]][0]), (slice(2, 4), [True, False]),
                       (slice(0, 0), [])]:
        host = np.zeros(6, np_dtype)
        x = nr.asarray(host)
        with monkeypatch.context() as m:
            if dtype != "bfloat16":  # bfloat16: ml_dtypes' host cast (the Python path's nr.asarray)
                no_python_path(m)
            x[key] = value
        host[key] = value
        assert x.numpy().tobytes() == host.tobytes(), (key, value)
    x = nr.asarray(np.zeros((2, 3), np_dtype))
    x.numpy()
    if dtype != "bfloat16":
        assert launches(lambda: x.__setitem__((slice(None), 1), [1, 0])) == ["copy H2D", "copy"]
    with pytest.raises(nr.InvalidArgumentError, match="could not broadcast"):
        x[0] = [1, 0]


# numpy's full and setitem truncate floats into integral dtypes; npurt's full and setitem agree
TRUNCATE = [2.5, -2.5, -2.7, 127.9, -128.9, 0.1, -0.5, 1 + 2 ** -11 + 2 ** -40, 1e10, 2.0 ** 62]


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "uint32", "int64", "uint64"])
def test_full_and_setitem_truncate_like_numpy(dtype):
    info = np.iinfo(dtype)
    for v in TRUNCATE:
        if not info.min <= np.trunc(v) <= info.max:
            with pytest.raises(nr.OutOfRangeError, match=f"Python float .* is out of range for {dtype}"):
                nr.full(2, v, dtype=getattr(nr, dtype))
            continue
        want = np.full(2, v, dtype=dtype)
        assert nr.full(2, v, dtype=getattr(nr, dtype)).numpy().tobytes() == want.tobytes(), v
        x = nr.zeros(4, dtype=getattr(nr, dtype))
        x[::2] = v
        host = np.zeros(4, dtype)
        host[::2] = v
        assert x.numpy().tobytes() == host.tobytes(), v


def test_float16_rounds_the_python_double_once():
    v = 1 + 2 ** -11 + 2 ** -40  # f64 -> f16 gives 1 + 2**-10; f64 -> f32 -> f16 gives 1.0 (a tie, to even)
    assert np.float16(v) != np.float16(np.float32(v))
    want = np.full(3, v, np.float16)
    assert nr.full(3, v, dtype=nr.float16).numpy().tobytes() == want.tobytes()
    assert nr.full_like(nr.zeros(3, dtype=nr.float16), v).numpy().tobytes() == want.tobytes()
    assert (nr.zeros(3, dtype=nr.float16) + v).numpy().tobytes() == want.tobytes()
    x = nr.zeros(3, dtype=nr.float16)
    x[:] = v
    assert x.numpy().tobytes() == want.tobytes()
    y = nr.zeros(6, dtype=nr.float16)
    y[::2] = v
    assert y.numpy()[::2].tobytes() == want.tobytes()


def test_other_dtype_layouts_broadcasting_and_nested_lists(monkeypatch):
    host = np.arange(24, dtype=np.float32).reshape(4, 6)
    src = np.arange(40, dtype=np.int16).reshape(5, 8)
    cases = [((slice(None), slice(None, None, 2)), src[:4, ::-3][:, :3]),  # a strided, reversed source
             ((slice(1, 3), slice(None)), np.int64(7).reshape(())),         # 0-d
             ((slice(None), slice(1, 4)), src[0, :3]),                      # broadcast over the rows
             ((slice(None, None, -1), 0), np.array([[1], [2], [3], [4]], np.uint8)[:, 0]),
             ((slice(0, 2), slice(0, 3)), [[1, 2, 3], [4, 5, 6]]),          # nested lists
             ((slice(None), slice(4, 6)), [[1.5, -2.5]]),                   # broadcast list row
             (Ellipsis, ((9,),))]                                            # tuples, broadcast to all
    for key, value in cases:
        x = nr.asarray(host)
        with monkeypatch.context() as m:
            no_python_path(m)
            x[key] = value
        host[key] = value
        assert x.numpy().tobytes() == host.tobytes(), key
