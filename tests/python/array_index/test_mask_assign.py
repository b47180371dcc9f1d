"""x[mask] = v from C++ (sdk_python/bindings/mask_assign.cpp, wave 12): the same
launches as the Python layer (_advanced.py: one `where` for one value; else
mask_count, cumsum, one read of the count, mask_positions, scatter) without the
interpreter, against numpy and the Python path bit for bit; values whose shape
does not match the true count fall back and raise numpy's ValueError."""
import numpy as np
import pytest

import npurt as nr
from npurt import _npurt

ndarray = _npurt.ndarray
DTYPES = ["bool", "int8", "uint16", "int32", "int64", "uint64", "float16", "float32", "float64", "complex64",
          "complex128"]


def launches(fn):
    with nr.profiler.profile() as p:
        fn()
        nr.synchronize()
    return [a.name for a in p.result.activities]


def data(dtype, shape, seed):
    r = np.random.default_rng(seed)
    return (r.integers(0, 50, size=shape) % 7).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,mshape", [((9,), (9,)), ((5, 4), (5,)), ((3, 4, 2), (3, 4)), ((2, 3), (2, 3))])
def test_array_values_match_numpy_and_the_python_path(monkeypatch, dtype, shape, mshape):
    base = data(dtype, shape, 1)
    mask = np.random.default_rng(2).random(mshape) < 0.5
    vals = data(dtype, (int(mask.sum()),) + shape[len(mshape):], 3)
    expected = base.copy()
    expected[mask] = vals
    py = nr.asarray(base)
    ndarray._py___setitem__(py, nr.asarray(mask), nr.asarray(vals))
    monkeypatch.setattr(ndarray, "_py___setitem__", None)  # the C++ path alone must answer
    x = nr.asarray(base)
    x[nr.asarray(mask)] = nr.asarray(vals)
    x[nr.asarray(mask)] = nr.asarray(vals)  # twice: the tiling cache and pool reuse
    np.testing.assert_array_equal(x.numpy(), expected)
    np.testing.assert_array_equal(py.numpy(), expected)


@pytest.mark.parametrize("dtype", DTYPES)
def test_one_element_values_and_scalars(monkeypatch, dtype):
    monkeypatch.setattr(ndarray, "_py___setitem__", None)
    base = data(dtype, (6, 3), 4)
    mask = np.array([True, False, True, True, False, True])
    one = data(dtype, (1, 1), 5)
    expected = base.copy()
    expected[mask] = one
    x = nr.asarray(base)
    x[nr.asarray(mask)] = nr.asarray(one)  # (1, 1) broadcasts to (count, 3)
    np.testing.assert_array_equal(x.numpy(), expected)
    expected[mask[:, None] & np.array([True, False, True])] = 1
    x[nr.asarray(mask[:, None] & np.array([True, False, True]))] = 1
    np.testing.assert_array_equal(x.numpy(), expected)


def test_launches():
    x = nr.zeros((8, 2), dtype=nr.float32)
    m = nr.asarray(np.arange(8) % 3 == 0)
    v = nr.ones((3, 2), dtype=nr.float32)
    assert launches(lambda: x.__setitem__(m, v)) == ["mask_count", "cumsum", "copy D2H", "mask_positions",
                                                     "scatter"]
    one = nr.ones((1,), dtype=nr.float32)
    assert launches(lambda: x.__setitem__(m, one)) == ["where"]


def test_wrong_counts_raise_like_numpy_and_leave_the_array():
    base = np.arange(6, dtype=np.float32)
    mask = np.array([True, False, True, False, False, False])
    with pytest.raises(ValueError):
        base.copy()[mask] = np.ones(3, np.float32)
    x = nr.asarray(base)
    for bad in (nr.ones((3,), dtype=nr.float32), nr.ones((2, 2), dtype=nr.float32), nr.ones((1, 1), dtype=nr.float32)):
        with pytest.raises(ValueError):
            x[nr.asarray(mask)] = bad
    np.testing.assert_array_equal(x.numpy(), base)
    x[nr.asarray(np.zeros(6, bool))] = nr.ones((0,), dtype=nr.float32)  # no true element, no value
    np.testing.assert_array_equal(x.numpy(), base)


def test_declined_cases_take_the_python_path():
    base = np.arange(12, dtype=np.float32).reshape(4, 3)
    mask = np.array([True, False, False, True])
    x = nr.asarray(base)
    expected = base.copy()
    expected[mask] = expected[0]
    x[nr.asarray(mask)] = x[0]  # values in x's storage
    expected[mask] = np.array([7, 8, 9], np.float32)
    x[nr.asarray(mask)] = np.array([7, 8, 9], np.float32)  # a numpy value
    np.testing.assert_array_equal(x.numpy(), expected)
    t = nr.asarray(base.T.copy()).T  # not contiguous
    t[nr.asarray(mask)] = nr.ones((2, 3), dtype=nr.float32)
    np.testing.assert_array_equal(t.numpy(), np.where(mask[:, None], 1.0, base))
