"""Bad input raises a clear exception (function, argument, reason) of the
right class, and the runtime stays usable afterwards."""
import numpy as np
import pytest


def still_usable(nr):
    """A round trip after an error: the pool and streams were not harmed."""
    host = np.arange(100, dtype=np.float32)
    assert np.array_equal(nr.asarray(host).numpy(), host)
    nr.synchronize()


def check(nr, exc_type, call, *fragments):
    with pytest.raises(exc_type) as info:
        call()
    message = str(info.value)
    for f in fragments:
        assert f in message, f"{f!r} not in {message!r}"
    still_usable(nr)
    return info.value


def test_exception_hierarchy(nr):
    assert issubclass(nr.InvalidArgumentError, nr.NpurtError)
    assert issubclass(nr.InvalidArgumentError, ValueError)
    assert issubclass(nr.OutOfMemoryError, MemoryError)
    for cls in (nr.OutOfMemoryError, nr.KernelFault, nr.NotFoundError, nr.UnavailableError, nr.CaptureError):
        assert issubclass(cls, nr.NpurtError) and issubclass(cls, RuntimeError)
    assert nr.NpurtError.__module__ == "npurt"


@pytest.mark.parametrize("host", [np.array(["a", "b"]), np.array([object(), 1]), np.array([b"x"]),
                                  np.array(["2020-01-01"], dtype="datetime64[D]")],
                         ids=["str", "object", "bytes", "datetime"])
def test_unsupported_numpy_dtype(nr, host):
    # a dtype refusal since wave 11: UnsupportedDtypeError, still an InvalidArgumentError
    e = check(nr, nr.UnsupportedDtypeError, lambda: nr.asarray(host), "npurt.asarray", "unsupported dtype")
    assert isinstance(e, nr.InvalidArgumentError) and isinstance(e, TypeError)
    assert e.code == "UNSUPPORTED_DTYPE"


@pytest.mark.parametrize("obj", [[[1, 2], [3]], [1, [2, 3]], [[1.0], [2.0, 3.0]]])
def test_ragged_lists(nr, obj):
    check(nr, nr.InvalidArgumentError, lambda: nr.asarray(obj), "npurt.asarray", "argument 'obj'")


def test_elements_without_dtype(nr):
    check(nr, nr.InvalidArgumentError, lambda: nr.asarray([object()]), "npurt.asarray", "argument 'obj'")


@pytest.mark.parametrize("fn", ["empty", "zeros"])
@pytest.mark.parametrize("shape", [-1, (2, -3), [4, 0, -1]])
def test_negative_sizes(nr, fn, shape):
    check(nr, ValueError, lambda: getattr(nr, fn)(shape), f"npurt.{fn}", "argument 'shape'", "negative")


@pytest.mark.parametrize("shape", [2.5, "3", (2, None), object()])
def test_non_integer_shapes(nr, shape):
    check(nr, nr.InvalidArgumentError, lambda: nr.empty(shape), "npurt.empty", "argument 'shape'")


def test_numpy_integer_shapes_are_accepted(nr):
    assert nr.empty((np.int64(2), np.uint8(3))).shape == (2, 3)
    assert nr.zeros(np.int32(4)).shape == (4,)


@pytest.mark.parametrize("dtype", ["float128", "nope", object, str, "S5", np.dtype(">f4")])
def test_bad_dtypes(nr, dtype):
    check(nr, nr.InvalidArgumentError, lambda: nr.empty(3, dtype), "npurt.empty", "argument 'dtype'")
    check(nr, TypeError, lambda: nr.empty(3, dtype), "npurt.empty", "argument 'dtype'")  # numpy's class too
    check(nr, nr.InvalidArgumentError, lambda: nr.asarray([1, 2], dtype), "npurt.asarray", "dtype")


def test_closed_stream(nr):
    s = nr.Stream()
    x = nr.asarray(np.arange(4.0), stream=s)
    s.close()
    assert s.closed
    check(nr, nr.InvalidArgumentError, lambda: nr.empty(3, stream=s), "npurt.empty", "argument 'stream'", "closed")
    check(nr, nr.InvalidArgumentError, lambda: nr.asarray([1], stream=s), "npurt.asarray", "closed")
    check(nr, nr.InvalidArgumentError, s.synchronize, "closed")

    def enter():
        with s:
            pass

    check(nr, nr.InvalidArgumentError, enter, "closed")
    assert np.array_equal(x.numpy(), np.arange(4.0))  # an array of a closed stream stays readable


def test_stream_of_another_device(nr, second_device):
    s1 = nr.Stream(second_device)
    check(nr, nr.InvalidArgumentError, lambda: nr.empty(3, device="sim:0", stream=s1),
          "npurt.empty", "argument 'stream'", "sim:1", "sim:0")
    check(nr, nr.InvalidArgumentError, lambda: nr.zeros(3, device=nr.Device("sim:0"), stream=s1), "sim:1")
    assert nr.empty(3, stream=s1).device == second_device


def test_wrong_argument_types(nr):
    check(nr, nr.InvalidArgumentError, lambda: nr.empty(3, stream="s"), "npurt.empty", "argument 'stream'")
    check(nr, nr.InvalidArgumentError, lambda: nr.Stream().wait_event(3), "argument 'event'")
    check(nr, nr.InvalidArgumentError, lambda: nr.empty(3, device=1.5), "argument 'device'")


def test_unknown_devices(nr):
    check(nr, nr.NotFoundError, lambda: nr.empty(3, device="sim:9"), "npurt.empty", "argument 'device'", "sim:9")
    check(nr, nr.InvalidArgumentError, lambda: nr.Device("tpu:0"), "npurt.Device", "tpu:0")
    check(nr, nr.NotFoundError, lambda: nr.Stream(7), "npurt.Stream")


def test_array_protocol_refuses_copy_false(nr):
    x = nr.zeros(2)
    check(nr, ValueError, lambda: x.__array__(copy=False), "copy")
    assert np.asarray(x).dtype == np.float32


def test_len_of_0d(nr):
    with pytest.raises(TypeError):
        len(nr.asarray(1.0))
    assert len(nr.zeros((3, 2))) == 3


def test_no_direct_construction(nr):
    with pytest.raises(TypeError):
        nr.ndarray()
