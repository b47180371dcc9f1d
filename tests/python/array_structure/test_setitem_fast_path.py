"""x[key] = v on the C++ path (sdk_python/bindings/indexing.cpp): one `fill`
launch into any basic-index view (strided, reversed, multi-dim; the fill op's
`strides` attribute, npurt::ops::fill_into), every dtype, numpy / complex /
bool scalar values, 0-d integer array keys; values against numpy and against
the Python layer (_py___setitem__) bit for bit, launches counted by the profiler.
"""
import warnings

import ml_dtypes
import numpy as np
import pytest

import npurt as nr
from npurt import _npurt
from test_indexing_fast_path import assign_both, get_both  # the same outcome from both paths

ndarray = _npurt.ndarray
DTYPES = ["bool", "int8", "uint8", "int16", "int32", "uint32", "int64", "uint64", "float16", "bfloat16", "float32",
          "float64", "complex64", "complex128"]
KEYS_1D = [slice(None, None, 2), slice(1, None, 3), slice(None, None, -1), slice(None, None, -2), slice(2, -1),
           slice(5, 5), slice(None, None, 1), 0, -1, slice(3, 4)]
SIZES = [1, 15, 33, 1023]


def np_dtype(dtype):
    return ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype)


def host(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * 50).astype(np.float64).astype(np_dtype(dtype))


def launches(fn):
    """The kernels fn launches, by name."""
    with nr.profiler.profile() as p:
        fn()
    return [a.name for a in p.result.activities]


def no_python_path(monkeypatch):
    monkeypatch.setattr(ndarray, "_py___setitem__", None)  # the fast path alone must answer


@pytest.mark.parametrize("dtype", DTYPES)
def test_1d_keys_every_dtype_match_numpy_and_the_python_path(monkeypatch, dtype):
    for n in SIZES:
        base = host((n,), dtype, n)
        for key in KEYS_1D:
            if isinstance(key, int) and n == 1 and key == -1:
                continue
            value = 3 if dtype != "bool" else True
            fast, slow = nr.asarray(base), nr.asarray(base)
            ndarray._py___setitem__(slow, key, value)
            with monkeypatch.context() as m:
                no_python_path(m)
                fast[key] = value
            expected = base.copy()
            expected[key] = value
            assert fast.numpy().tobytes() == expected.tobytes() == slow.numpy().tobytes(), (n, key)


@pytest.mark.parametrize("key", [(slice(None, None, -1), slice(1, None, 2)), (slice(None, None, 2), 3),
                                 (slice(1, None, 3), slice(None, None, -3)), (Ellipsis, slice(None, None, -1)),
                                 (slice(None), slice(2, 7)), (slice(None, None, -2), slice(None, None, -1), 1),
                                 (slice(None), slice(None), slice(None, None, 2)), (None, slice(None, None, -4)),
                                 (slice(2, 2), slice(None, None, 2)), (1, slice(None, None, -1), slice(0, 1))])
@pytest.mark.parametrize("dtype", ["float32", "float16", "int8", "complex128", "bool"])
def test_multi_dim_views_with_negative_steps(monkeypatch, key, dtype):
    shape = (6, 9) if len([k for k in key if k is not None and k is not Ellipsis]) <= 2 else (5, 7, 9)
    base = host(shape, dtype, 7)
    x = nr.asarray(base)
    with monkeypatch.context() as m:
        no_python_path(m)
        x[key] = 1
    expected = base.copy()
    expected[key] = 1
    assert x.numpy().tobytes() == expected.tobytes()


def test_transposed_and_sliced_bases(monkeypatch):
    base = host((8, 12), "float32", 3)
    x = nr.asarray(base)
    t = nr.permute_dims(x, (1, 0))[::-2, 1::3]  # a transposed, stepped, reversed view
    with monkeypatch.context() as m:
        no_python_path(m)
        t[1:, :] = -4.5
    expected = base.copy()
    expected.T[::-2, 1::3][1:, :] = -4.5
    np.testing.assert_array_equal(x.numpy(), expected)


def test_zero_d_and_one_element(monkeypatch):
    x = nr.asarray(np.float32(2.0))
    with monkeypatch.context() as m:
        no_python_path(m)
        x[()] = 5.0
        x[...] = 6.0
    assert x.numpy() == np.float32(6.0)
    y = nr.asarray(np.zeros((1, 1, 1), np.int16))
    with monkeypatch.context() as m:
        no_python_path(m)
        y[0, ::-1, 0] = -3
    assert y.numpy().ravel().tolist() == [-3]


@pytest.mark.parametrize("key,shape", [(slice(None, None, 2), (64,)), (slice(None, None, -3), (100,)),
                                       ((slice(None, None, -1), slice(1, None, 2)), (9, 11)),
                                       ((slice(None), 2, slice(None, None, 2)), (4, 5, 6)),
                                       ((slice(None), slice(2, 6)), (8, 8)), (slice(1, 3), (8,))])
def test_one_launch_per_assignment(key, shape):
    x = nr.asarray(np.zeros(shape, np.float32))
    x.numpy()  # the upload is done before counting
    assert launches(lambda: x.__setitem__(key, 1.0)) == ["fill"]
    expected = np.zeros(shape, np.float32)
    expected[key] = 1.0
    np.testing.assert_array_equal(x.numpy(), expected)


def test_large_strided_fill_under_full_checks():
    n = 1 << 20
    with nr.debug.sim_check_level("full"):
        x = nr.asarray(np.zeros(n, np.float32))
        x[::2] = 1.0
        x[1::4] = -2.0
        x[::-3] = 0.5
        m = nr.asarray(np.zeros((1024, 1024), np.float16))
        m[::-2, 1::2] = 3.0
        m[1::2, 100:900] = -1.0
    expected = np.zeros(n, np.float32)
    expected[::2] = 1.0
    expected[1::4] = -2.0
    expected[::-3] = 0.5
    np.testing.assert_array_equal(x.numpy(), expected)
    em = np.zeros((1024, 1024), np.float16)
    em[::-2, 1::2] = 3.0
    em[1::2, 100:900] = -1.0
    np.testing.assert_array_equal(m.numpy(), em)


def test_small_views_under_full_checks():
    with nr.debug.sim_check_level("full"):
        for dtype in DTYPES:
            for n in (15, 33, 1023):
                base = host((n, 3), dtype, n)
                x = nr.asarray(base)
                x[::-2, ::2] = 1
                x[1::3, 1] = 0
                expected = base.copy()
                expected[::-2, ::2] = 1
                expected[1::3, 1] = 0
                assert x.numpy().tobytes() == expected.tobytes(), (dtype, n)


VALUES = [np.float32(2.5), np.float32(-0.1), np.float16(0.1), np.float64(1e-3), np.int64(7), np.int8(-3),
          np.uint8(200), np.uint64(2 ** 63), np.int64(2 ** 60), np.bool_(True), np.bool_(False), np.complex64(1 - 2j),
          np.complex128(0.1 + 0.2j), 1 + 2j, complex(1e40, 0), -0.0, 0.1, 1e40, float("nan"), float("inf"), 3,
          2 ** 53 + 1, np.float32(np.nan), np.float32(1e10), np.float64(3e38), np.longdouble(0.5), True]


@pytest.mark.parametrize("dtype", DTYPES)
def test_numpy_complex_and_bool_values_match_the_python_path(dtype):
    base = host((12,), dtype, 5)
    for value in VALUES:
        for key in (slice(1, 4), slice(None, None, -3)):
            fast, slow = nr.asarray(base), nr.asarray(base)
            if assign_both(fast, slow, key, value) is None:
                assert fast.numpy().tobytes() == slow.numpy().tobytes(), (dtype, key, value)


@pytest.mark.parametrize("dtype,value", [("float32", np.float32(2.5)), ("float16", np.float32(0.1)),
                                         ("bfloat16", 0.1), ("bfloat16", np.float32(1 + 2 ** -8)),
                                         ("complex64", 1 + 2j), ("complex128", np.complex64(0.5j)),
                                         ("float64", np.int64(-9)), ("int32", np.float32(-2.7)),
                                         ("bool", np.float32(0.5)), ("uint8", np.uint16(255)), ("int64", np.bool_(True)),
                                         ("complex64", np.float16(3))])
def test_scalar_kinds_need_no_python_path(monkeypatch, dtype, value):
    base = host((7,), dtype, 2)
    x = nr.asarray(base)
    with monkeypatch.context() as m:
        no_python_path(m)
        x[::3] = value
    expected = base.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected[::3] = np.asarray(value).astype(np_dtype(dtype))
    assert x.numpy().tobytes() == expected.tobytes()


def test_bfloat16_rounds_like_ml_dtypes():
    vals = [0.1, 1 + 2 ** -8 + 2 ** -30, 1 + 2 ** -8, 1 + 3 * 2 ** -8, 3.3e38, -1e-40, 65504.0, 1 / 3, -2.0 ** -133]
    for v in vals:
        x = nr.asarray(np.zeros(3, ml_dtypes.bfloat16))
        x[::2] = v
        want = np.asarray(v).astype(ml_dtypes.bfloat16)
        assert x.numpy()[0].tobytes() == want.tobytes() and x.numpy()[2].tobytes() == want.tobytes(), v


def test_zero_d_integer_array_keys(monkeypatch):
    base = np.arange(20, dtype=np.float32).reshape(4, 5)
    x = nr.asarray(base)
    for key in [nr.asarray(np.int64(2)), (nr.asarray(np.uint8(1)), slice(None, None, -2)),
                (slice(None), nr.asarray(np.int32(-1)))]:
        plain = tuple(int(k.item()) if isinstance(k, ndarray) else k for k in key) if isinstance(key, tuple) \
            else int(key.item())
        with monkeypatch.context() as m:
            m.setattr(ndarray, "_py___getitem__", None)
            no_python_path(m)
            np.testing.assert_array_equal(x[key].numpy(), base[plain])
            x[key] = -1.0
        base[plain] = -1.0
    np.testing.assert_array_equal(x.numpy(), base)
    for key, exc in [(nr.asarray(np.int64(4)), nr.IndexingError), (nr.asarray(np.float32(1)), nr.IndexingError),
                     (nr.asarray(np.array([1, 2])), None)]:
        error = get_both(x, key)
        assert (error and error[0]) is exc or (exc is None and error is None), (key, error)


def test_errors_leave_the_runtime_usable():
    x = nr.asarray(np.zeros(6, np.int8))
    with pytest.raises(IndexError, match="index 6 is out of bounds for axis 0 with size 6"):
        x[6] = 1
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        x[::0] = 1
    with pytest.raises(nr.OutOfRangeError, match="argument 'value': Python int 300 is out of range for int8"):
        x[::2] = 300
    y = nr.asarray(np.zeros(4, np.float32))
    with pytest.raises(ValueError, match="cannot convert complex to float32"):
        y[::2] = 1 + 2j
    x[::-2] = 5
    np.testing.assert_array_equal(x.numpy(), np.array([0, 5, 0, 5, 0, 5], np.int8))


def test_fill_op_strides_attribute():
    base = nr.asarray(np.zeros(10, np.float32))
    nr.ops.fill(shape=[3, 2], strides=[-3, 1], value=2.0, out=base[1:9])  # the window's rows 2, 1, 0: 6..7, 3..4, 0..1
    np.testing.assert_array_equal(base.numpy(), [0, 2, 2, 0, 2, 2, 0, 2, 2, 0])
    with pytest.raises(ValueError, match="argument 'strides': has 1 entries for a shape of 2 dims"):
        nr.ops.fill(shape=[3, 2], strides=[2], out=base)
    with pytest.raises(ValueError, match="argument 'strides': elements of the view overlap"):
        nr.ops.fill(shape=[3, 3], strides=[2, 1], out=base[:7])
    with pytest.raises(ValueError, match="does not match the result shape"):
        nr.ops.fill(shape=[3], strides=[2], out=base)  # the window is 5 elements
    nr.ops.fill(shape=[0, 4], strides=[4, 2], out=base[:0])
    np.testing.assert_array_equal(base.numpy(), [0, 2, 2, 0, 2, 2, 0, 2, 2, 0])


ARRAY_KEYS = [slice(None, None, 2), slice(5, 15), slice(None, None, -3), slice(3, 3), 4]


@pytest.mark.parametrize("dtype", DTYPES)
def test_array_values_cast_like_the_python_path(monkeypatch, dtype):
    """x[key] = y for y of every dtype: astype on the device, then one copy; bit-identical."""
    base = host((20,), dtype, 3)
    for src_dtype in DTYPES:
        for key in ARRAY_KEYS:
            n = len(range(20)[key]) if isinstance(key, slice) else 1
            val = host((n,) if isinstance(key, slice) else (), src_dtype, 4)
            fast, slow = nr.asarray(base), nr.asarray(base)
            v = nr.asarray(val)
            if assign_both(fast, slow, key, v) is None:
                assert fast.numpy().tobytes() == slow.numpy().tobytes(), (dtype, src_dtype, key)
                expected = base.copy()
                if src_dtype != "bfloat16" and dtype != "bfloat16" and not (
                        np.dtype(src_dtype).kind == "c" and np.dtype(dtype).kind != "c"):
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        expected[key] = val.astype(np_dtype(dtype))
                    if np.dtype(src_dtype).kind == "f" and np.dtype(dtype).kind in "iub":
                        continue  # float -> int of out-of-range values is implementation-defined in C
                    assert fast.numpy().tobytes() == expected.tobytes(), (dtype, src_dtype, key)


@pytest.mark.parametrize("shape,key,vshape", [((6, 10), (slice(None, None, -2), slice(1, None, 3)), (3,)),
                                              ((6, 10), (slice(None, None, 2), slice(None)), (1, 10)),
                                              ((6, 10), (slice(1, 5), slice(2, 4)), (4, 1)),
                                              ((4, 5, 6), (slice(None), 2, slice(None, None, -2)), ()),
                                              ((4, 5, 6), (Ellipsis, slice(1, None, 2)), (5, 3)),
                                              ((1023,), slice(None, None, 3), (341,)),
                                              ((33,), slice(None, None, -1), (33,)),
                                              ((15,), slice(0, 0), (0,))])
@pytest.mark.parametrize("dtype", ["float32", "float16", "int64", "complex128", "bool"])
def test_array_values_broadcast_into_strided_views(monkeypatch, shape, key, vshape, dtype):
    base = host(shape, dtype, 5)
    val = host(vshape, dtype, 6)
    x = nr.asarray(base)
    v = nr.asarray(val)
    with monkeypatch.context() as m:
        no_python_path(m)
        assert launches(lambda: x.__setitem__(key, v)) == (["copy"] if base[key].size else [])
    expected = base.copy()
    expected[key] = val
    assert x.numpy().tobytes() == expected.tobytes()


def test_array_values_overlapping_the_target():
    base = np.arange(60, dtype=np.float32).reshape(6, 10)
    x = nr.asarray(base)
    with nr.debug.sim_check_level("full"):
        x[1:3] = x[2:4]
        base[1:3] = base[2:4].copy()
        x[::2] = x[::-2]
        base[::2] = base[::-2].copy()
        x[:, ::-1] = x
        base[:, ::-1] = base.copy()
    np.testing.assert_array_equal(x.numpy(), base)


def test_large_array_value_one_launch_under_full_checks():
    n = 1 << 20
    a = np.arange(n, dtype=np.float32)
    b = -np.arange(n // 2, dtype=np.float32)
    x, y = nr.asarray(a), nr.asarray(b)
    x.numpy()
    with nr.debug.sim_check_level("full"):
        assert launches(lambda: x.__setitem__(slice(None, None, 2), y)) == ["copy"]
        x[1:-1] = x[2:]
    a[::2] = b
    a[1:-1] = a[2:].copy()
    np.testing.assert_array_equal(x.numpy(), a)


def test_array_value_errors_are_the_python_layers():
    x = nr.asarray(np.zeros((4, 5), np.float32))
    for key, value in [(slice(None), nr.asarray(np.zeros(3, np.float32))),
                       (slice(0, 2), nr.asarray(np.zeros((2, 2, 5), np.float32))),
                       (0, nr.asarray(np.zeros(4, np.float32)))]:
        fast, slow = nr.asarray(x.numpy()), nr.asarray(x.numpy())
        error = assign_both(fast, slow, key, value)
        assert error is not None and "could not broadcast" in error[1], error
    x[0] = nr.asarray(np.ones(5, np.float32))  # usable after the errors
    assert x.numpy()[0].tolist() == [1] * 5


def test_python_assign_refuses_broadcast_targets():
    """Broadcast views are read-only (numpy's rule): the Python path's assign refuses them too,
    naming __setitem__, and leaves the base untouched."""
    base = nr.asarray(np.zeros(3, np.float32))
    x = nr.broadcast_to(base, (2, 3))
    with pytest.raises(nr.InvalidArgumentError, match="read-only"):
        ndarray._py___setitem__(x, slice(None), nr.asarray(np.array([[1, 2, 3], [4, 5, 6]], np.float32)))
    np.testing.assert_array_equal(base.numpy(), [0, 0, 0])


@pytest.mark.parametrize("dtype", DTYPES)
def test_numpy_array_values_match_the_python_path(monkeypatch, dtype):
    """numpy arrays of x's dtype are uploaded on x's stream and copied in C++ (one copy launch);
    other dtypes (numpy's host cast and its warnings), non-native byte order and subclasses
    take the Python path: the same values either way."""
    base = host((6, 8), dtype, 8)
    same = host((8,), dtype, 9)
    cases = [((slice(None, None, -2), slice(None)), same, True), ((1, slice(None, None, 3)), same[:3], True),
             ((slice(None), slice(2, 3)), host((6, 1), dtype, 10), True), (Ellipsis, host((1,), dtype, 11).reshape(()), True),
             ((slice(None), 1), same[::-1][:6], True), ((slice(0, 0),), same, True),
             ((slice(1, 3),), host((8,), "float64" if dtype != "float64" else "int32", 12), False),
             ((slice(1, 3),), same.astype(same.dtype.newbyteorder(">")), False),
             ((slice(1, 3),), np.ma.masked_array(same), False)]
    for key, value, fast_path in cases:
        fast, slow = nr.asarray(base), nr.asarray(base)
        if fast_path:
            with monkeypatch.context() as m:
                no_python_path(m)
                fast[key] = value
            ndarray._py___setitem__(slow, key, value)
        elif assign_both(fast, slow, key, value) is not None:
            continue
        assert fast.numpy().tobytes() == slow.numpy().tobytes(), (key, value.dtype)
    x = nr.asarray(base)
    x.numpy()
    assert launches(lambda: x.__setitem__((slice(None, None, 2), slice(1, None, 2)), host((3, 4), dtype, 13))) == \
        ["copy H2D", "copy"]  # the upload, then one kernel
    with pytest.raises(ValueError, match="could not broadcast"):
        x[::2] = host((4, 8), dtype, 14)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "int32", "float32"])
@pytest.mark.parametrize("n", [7, 8, 23, 4081, 70001])
def test_vector_spread_tails_and_strided_sources_under_full_checks(dtype, n):
    # 2- and 4-byte units take copy's Brcb spread: whole repeats, a tail of
    # < 8, several batches of 4080; a strided source arrives through the
    # scalar gather (S -> V), a contiguous one through DataCopyPad (MTE2 -> V).
    a = host((3 * n,), dtype, seed=n)
    src = host((3 * n,), dtype, seed=n + 1)
    x, y = nr.asarray(a), nr.asarray(src)
    with nr.debug.sim_check_level("full"):
        x[: 2 * n : 2] = y[::3]
        x[::-3] = y[: n]
    a[: 2 * n : 2] = src[::3]
    a[::-3] = src[:n]
    np.testing.assert_array_equal(x.numpy().view(np.uint8), a.view(np.uint8))
