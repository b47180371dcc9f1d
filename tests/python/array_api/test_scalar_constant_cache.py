"""The one cache of 0-d scalar constants (sdk_python/bindings/scalar_constants.cpp),
shared by the operator fast path (x + 2) and the array-API functions (nr.add(x, 2),
_convert.constant): keys, bound, thread safety and the fill attributes."""
import concurrent.futures

import numpy as np
import pytest

import npurt as nr
from npurt import _npurt
from npurt.array_api import _convert


@pytest.fixture(autouse=True)
def empty_cache():
    _npurt._clear_scalar_constants()
    yield
    _npurt._clear_scalar_constants()


def test_operator_and_function_share_one_entry():
    x = nr.asarray(np.arange(4, dtype=np.float32))
    a = x + 2
    assert _npurt._scalar_constant_count() == 1
    b = nr.add(x, 2)
    c = 2 + x
    assert _npurt._scalar_constant_count() == 1
    for r in (a, b, c):
        np.testing.assert_array_equal(r.numpy(), np.arange(4, dtype=np.float32) + 2)
    x * 2.5
    nr.multiply(x, 2.5)
    assert _npurt._scalar_constant_count() == 2


def test_keys_keep_signed_zeros_kinds_and_dtypes_apart():
    f32 = nr.float32
    pos, neg = _convert.constant(0.0, f32, "t"), _convert.constant(-0.0, f32, "t")
    assert np.signbit(neg.numpy()) and not np.signbit(pos.numpy())
    x = nr.asarray(np.ones(2, np.float32))
    np.testing.assert_array_equal((x / -0.0).numpy(), np.full(2, -np.inf, np.float32))
    one = [_convert.constant(v, f32, "t") for v in (True, 1, 1.0)]
    assert _npurt._scalar_constant_count() == 5  # 0.0, -0.0, True, 1, 1.0
    assert all(c.numpy() == 1.0 for c in one)
    assert _convert.constant(1, nr.int32, "t").dtype == nr.int32
    assert _convert.constant(complex(1, -0.0), nr.complex64, "t").numpy() == complex(1, -0.0)
    assert np.signbit(_convert.constant(complex(1, -0.0), nr.complex64, "t").numpy().imag)
    assert _convert.constant(1, f32, "t") is not _convert.constant(1, nr.float64, "t")


def test_same_key_same_values_as_fill():
    for value, dt in [(2 ** 63 + 5, nr.uint64), (-(2 ** 63), nr.int64), (2 ** 53 + 1, nr.int64), (0.1, nr.float16),
                      (2 ** 70, nr.float32), (1e300, nr.float32), (float("nan"), nr.bfloat16), (3 - 4j, nr.complex128),
                      (True, nr.int8), (255, nr.uint8)]:
        c = _convert.constant(value, dt, "t")
        expected = nr.full((), value, dtype=dt) if not isinstance(value, complex) else None
        if expected is not None:
            assert c.numpy().tobytes() == expected.numpy().tobytes(), (value, dt)
        assert c.shape == () and c.dtype == dt
    assert _convert.constant(3 - 4j, nr.complex128, "t").numpy() == 3 - 4j


@pytest.mark.parametrize("value,dt", [(300, "int8"), (-1, "uint32"), (2 ** 64, "uint64"), (2 ** 63, "int64"),
                                      (2 ** 100, "int16"), (-(2 ** 63) - 1, "int64")])
def test_ints_out_of_range_raise(value, dt):
    with pytest.raises(OverflowError, match=f"npurt.add: Python int {value} is out of range for {dt}"):
        nr.add(nr.asarray(np.zeros(2, dt)), value)
    assert _npurt._scalar_constant_count() == 0


def test_bad_values_and_huge_floats():
    with pytest.raises(TypeError, match="t: expected a Python bool, int, float or complex scalar, got str"):
        _convert.constant("1", nr.float32, "t")
    with pytest.raises(OverflowError):  # float(10**400), as the Python path's fill_attrs raised
        _convert.constant(10 ** 400, nr.float64, "t")


def test_the_cache_is_bounded():
    for i in range(1100):
        _convert.constant(float(i), nr.float32, "t")
        assert _npurt._scalar_constant_count() <= 1024
    assert _convert.constant(1099.0, nr.float32, "t").numpy() == 1099.0


def test_threads_share_the_cache_safely():
    x = nr.asarray(np.arange(8, dtype=np.float32))

    def work(seed):  # the wrong results of one thread (exceptions propagate through map)
        rng = np.random.default_rng(seed)
        wrong = []
        for v in rng.integers(0, 1500, 300):
            r = (x + float(v)).numpy() if v % 2 else nr.add(x, int(v)).numpy()
            if not np.array_equal(r, np.arange(8, dtype=np.float32) + np.float32(v)):
                wrong.append((seed, int(v)))
        return wrong

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        assert sum(pool.map(work, range(4)), []) == []
    assert _npurt._scalar_constant_count() <= 1024
