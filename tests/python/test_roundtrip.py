"""Host -> device -> host round trips: every dtype, special values, 0-d, empty,
non-contiguous and foreign-layout numpy inputs, Python scalars and lists.
Reference: the numpy input itself, compared bit for bit."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from dtype_cases import ALL_DTYPES, numpy_dtype, same_bits, special_values


@pytest.mark.parametrize("name", ALL_DTYPES)
def test_special_values_round_trip_bit_exact(nr, name):
    host = special_values(name)
    x = nr.asarray(host)
    assert x.dtype == getattr(nr, name) and x.shape == host.shape
    assert same_bits(x.numpy(), host)
    assert same_bits(np.asarray(x), host)


@pytest.mark.parametrize("name", ALL_DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (3, 0), (0, 4, 5), (1,), (15,), (33, 1), (1023,), (4, 5, 6)])
def test_shapes_round_trip(nr, name, shape):
    dt = numpy_dtype(name)
    n = int(np.prod(shape))
    raw = np.random.default_rng(n).integers(0, 256, size=n * dt.itemsize, dtype=np.uint8)
    host = raw.view(dt).reshape(shape) if n else np.empty(shape, dt)
    x = nr.asarray(host)
    assert x.shape == shape and x.ndim == len(shape) and x.size == n and x.nbytes == n * dt.itemsize
    back = x.numpy()
    assert back.flags.c_contiguous and same_bits(back, host)


def test_zero_d_from_numpy_scalar_keeps_dtype(nr):
    x = nr.asarray(np.float64(2.5))
    assert x.shape == () and x.dtype == nr.float64 and x.numpy()[()] == 2.5


LAYOUTS = {
    "step": lambda a: a[::2],
    "column": lambda a: a[:, 1],
    "transpose": lambda a: a.T,
    "negative-steps": lambda a: a[::-1, ::-3],
    "fortran": np.asfortranarray,
    "broadcast": lambda a: np.broadcast_to(a[:1], (5,) + a.shape[1:]),  # stride 0, read-only
    "big-endian": lambda a: a.astype(a.dtype.newbyteorder(">")),  # swapped on the host
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("name", ["float32", "int16", "bfloat16", "complex128", "bool"])
def test_non_contiguous_and_foreign_layouts(nr, name, layout):
    if layout == "big-endian" and name in ("bfloat16", "bool"):
        pytest.skip("no big-endian variant of this dtype")
    dt = numpy_dtype(name)
    host = LAYOUTS[layout](np.arange(6 * 7).reshape(6, 7).astype(dt))
    x = nr.asarray(host)
    assert x.dtype == nr.dtype(name)
    assert x.shape == host.shape and x.strides == np.ascontiguousarray(host, dtype=dt).strides
    back = x.numpy()
    assert back.dtype == dt and back.flags.c_contiguous and np.array_equal(back, host)


def test_host_buffer_reusable_after_asarray(nr):
    host = np.arange(1000, dtype=np.int32)
    x = nr.asarray(host)
    host[:] = -1  # the device copy must not see this
    assert np.array_equal(x.numpy(), np.arange(1000, dtype=np.int32))


def test_numpy_result_is_independent_host_copy(nr):
    x = nr.asarray(np.ones(8, np.float32))
    a = x.numpy()
    a[:] = 5
    assert np.array_equal(x.numpy(), np.ones(8, np.float32))


@pytest.mark.parametrize(
    "obj, dtype, expected",
    [
        (3, "int64", 3),
        (2.5, "float32", 2.5),  # Python floats default to float32 (the NPU's float)
        (True, "bool", True),
        (1 + 2j, "complex64", 1 + 2j),
        ([[1, 2], [3, 4]], "int64", [[1, 2], [3, 4]]),
        ([[1.5, 2], [3, 4]], "float32", [[1.5, 2], [3, 4]]),
        ([], "float32", []),
    ],
)
def test_python_scalars_and_lists(nr, obj, dtype, expected):
    x = nr.asarray(obj)
    assert x.dtype == getattr(nr, dtype)
    assert np.array_equal(x.numpy(), np.asarray(expected, dtype=numpy_dtype(dtype)))


@pytest.mark.parametrize("dtype", [None, "float16", np.float16, "bf16"])
def test_dtype_argument_casts_host_data(nr, dtype):
    host = np.array([0.1, 1.5, -2.0, 65504.0], dtype=np.float64)
    x = nr.asarray(host, dtype)
    want = host if dtype is None else host.astype(nr.dtype(dtype).dtype)
    assert x.dtype == (nr.float64 if dtype is None else nr.dtype(dtype))
    assert same_bits(x.numpy(), want)


@pytest.mark.parametrize("name", ["float32", "uint8", "bfloat16", "int64"])
def test_zeros_are_zero_and_empty_has_shape(nr, name):
    z = nr.zeros((3, 5), name)
    assert z.dtype == nr.dtype(name) and z.shape == (3, 5)
    assert not np.any(z.numpy().view(np.uint8))
    e = nr.empty((2, 0, 4), name)
    assert e.shape == (2, 0, 4) and e.numpy().shape == (2, 0, 4)


_hyp_dtypes = st.sampled_from([d for d in ALL_DTYPES if d != "bfloat16"])


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_property_round_trip(data):
    import npurt as nr

    dt = np.dtype(data.draw(_hyp_dtypes))
    host = data.draw(hnp.arrays(dt, hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=6)))
    if data.draw(st.booleans()) and host.ndim:
        host = host[..., ::-1]
    assert same_bits(nr.asarray(host).numpy(), host)


def test_large_array_256_mib(nr):
    n = 256 << 20
    host = np.arange(n // 8, dtype=np.int64)
    host[::4096] = -host[::4096]
    x = nr.asarray(host)
    assert x.nbytes == n
    back = x.numpy()
    assert np.array_equal(back, host)
    y = x.copy()
    del x, back
    assert np.array_equal(y.numpy()[-100:], host[-100:]) and y.numpy()[4096] == -4096
