"""x[mask] = scalar into a contiguous array is one in-place `where` launch
(sdk_python/npurt/array_api/_advanced.py, _masked_fill) for the dtypes `where` takes on the
array's device (every dtype on the sim; float16 / float32 on an NPU): no mask compaction, no
host read; bit-identical to numpy (untouched elements keep their bits, NaN payloads included)
and to the scatter path every other case takes."""
import warnings

import numpy as np
import pytest

import ml_dtypes

import npurt as nr
from npurt.array_api import _advanced

OTHER = ["bool", "int8", "uint8", "int16", "int32", "uint32", "int64", "uint64", "bfloat16", "float64", "complex64",
         "complex128"]


def launches(fn):
    with nr.profiler.profile() as p:
        fn()
    return [a.name for a in p.result.activities]


def host(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    v = (rng.standard_normal(shape) * 100).astype(dtype)
    flat = v.reshape(-1).view(np.uint16 if dtype == "float16" else np.uint32)
    flat[::7] = 0x7e01 if dtype == "float16" else 0x7fc00123  # NaNs with payloads stay as they are
    return v


def check_both_paths(monkeypatch, base, mask, value, expected):
    """x[mask] = value through `where` (an npurt mask) and through scatter (a numpy mask,
    _masked_fill off): both give numpy's bytes."""
    for use_where in (True, False):
        x = nr.asarray(base)
        with monkeypatch.context() as m:
            if not use_where:
                m.setattr(_advanced, "_masked_fill", lambda *a: False)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # 70000.0 into float16: numpy's overflow warning, on both paths
                x[nr.asarray(mask) if use_where else mask] = value
        assert x.numpy().tobytes() == expected.tobytes(), (use_where, value)


CASES = [((8,), (8,)), ((5, 7), (5, 7)), ((5, 7), (5,)), ((3, 4, 6), (3, 4)), ((3, 4, 6), (3,)), ((1000,), (1000,))]


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("shape,mshape", CASES)
@pytest.mark.parametrize("value", [1.5, -0.0, float("nan"), np.float32(3.25), 70000.0, True, 7])
def test_where_path_matches_numpy_and_scatter(monkeypatch, dtype, shape, mshape, value):
    base = host(shape, dtype, 1)
    mask = np.random.default_rng(2).random(mshape) < 0.4
    expected = base.copy()
    with np.errstate(over="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected[mask] = value
    check_both_paths(monkeypatch, base, mask, value, expected)


def test_one_where_launch_and_fallbacks():
    x = nr.asarray(np.zeros((4, 6), np.float32))
    m = nr.asarray(np.array([True, False, True, True]))
    x.numpy()
    # the C++ path (bindings/mask_assign.cpp): the value filled into a 0-d array, then where
    assert launches(lambda: x.__setitem__(m, 2.0)) == ["fill", "where"]
    v = nr.asarray(np.float32(5))
    assert launches(lambda: x.__setitem__(m, v)) == ["where"]
    assert "scatter" in launches(lambda: x.__setitem__(m, nr.ones((3, 6))))  # an array value: compaction
    i = nr.asarray(np.zeros((4, 6), np.int32))
    assert launches(lambda: i.__setitem__(m, 2)) == ["fill", "where"]  # int32: sim-only in where, on the sim
    assert _advanced._where_takes("int32", "sim") and not _advanced._where_takes("int32", "ascend")
    assert _advanced._where_takes("float16", "ascend") and _advanced._where_takes("float32", "ascend")
    t = nr.asarray(np.zeros((6, 4), np.float32)).T  # not contiguous
    assert "scatter" in launches(lambda: t.__setitem__(m, 1.0))
    expected = np.zeros((4, 6), np.float32)
    expected[[0, 2, 3]] = 1.0  # the last write, nr.ones
    np.testing.assert_array_equal(x.numpy(), expected)
    np.testing.assert_array_equal(t.numpy(), np.where(np.array([1, 0, 1, 1], bool)[:, None], np.ones((4, 6)), 0.0))


def test_large_where_under_full_checks():
    n = 1 << 20
    base = np.arange(n, dtype=np.float32) / 64  # within float16's range
    mask = (np.arange(n) % 3) == 1
    with nr.debug.sim_check_level("full"):
        x = nr.asarray(base)
        x[nr.asarray(mask)] = -1.0
        y = nr.asarray(base.astype(np.float16).reshape(1024, 1024))
        y[nr.asarray(mask.reshape(1024, 1024)[:, 0])] = 0.5
    expected = base.copy()
    expected[mask] = -1.0
    np.testing.assert_array_equal(x.numpy(), expected)
    ey = base.astype(np.float16).reshape(1024, 1024)
    ey[mask.reshape(1024, 1024)[:, 0]] = 0.5
    np.testing.assert_array_equal(y.numpy(), ey)


def test_errors_are_unchanged():
    x = nr.asarray(np.zeros(4, np.float32))
    with pytest.raises(nr.IndexingError, match="boolean index of shape"):
        x[nr.asarray(np.array([True, False]))] = 1.0
    with pytest.raises(nr.InvalidArgumentError, match="argument 'value': cannot convert str to float32"):
        x[nr.asarray(np.array([True, False, True, False]))] = "a"
    x[nr.asarray(np.array([True, False, True, False]))] = 3.0
    np.testing.assert_array_equal(x.numpy(), [3, 0, 3, 0])


@pytest.mark.parametrize("dtype", OTHER)
def test_every_dtype_matches_numpy(monkeypatch, dtype):
    np_dtype = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    rng = np.random.default_rng(3)
    raw = rng.standard_normal((6, 5)) * 40
    base = (raw + 1j * raw[::-1] if np_dtype.kind == "c" else raw).astype(np_dtype)
    mask = rng.random((6,)) < 0.5
    for value in (1, True, 2.5, -3.0, 0):
        if np_dtype.kind == "u" and value == -3.0:
            continue
        expected = base.copy()
        expected[mask] = value
        check_both_paths(monkeypatch, base, mask, value, expected)
