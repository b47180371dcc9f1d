"""Behaviours array-api-tests exercises (test_creation_functions, test_manipulation_functions)
that the differential run's draws did not reach, checked against numpy:
  * asarray(npurt array, dtype=other): a device cast (was UnimplementedError);
    copy=False with a needed conversion raises ValueError (the standard's rule for copy);
  * repeat with a repeats array of shape (1,): broadcast to (M,) as the standard says
    ("must be broadcast compatible with the shape (M,)");
  * linspace with a complex start/stop or a complex dtype (default complex dtype complex64);
  * __dlpack__(copy=True) exports a copy (was BufferError).
Tolerances: exact for casts of exactly representable values and for repeat; linspace
within 2 ulps of the part's float type (rtol 2.4e-7 float32, 4.5e-16 float64, atol the
same times the larger endpoint magnitude for values near 0).
"""
import numpy as np
import pytest

import npurt as nr

_SIZES = [0, 1, 15, 33, 1023]


@pytest.mark.parametrize("n", _SIZES)
@pytest.mark.parametrize("src,dst", [("int64", "float32"), ("float32", "int8"), ("float64", "complex128"),
                                     ("bool", "float32"), ("int8", "int64")])
def test_asarray_of_array_with_other_dtype(n, src, dst):
    host = (np.arange(n) % 7 - 3).astype(src)
    x = nr.asarray(host)
    got = nr.asarray(x, dtype=getattr(nr, dst))
    assert got.dtype == getattr(nr, dst) and got.shape == (n,)
    np.testing.assert_array_equal(np.asarray(got), host.astype(dst))
    np.testing.assert_array_equal(np.asarray(x), host)  # the source is untouched


def test_asarray_of_array_other_dtype_noncontiguous_0d_and_copy_false():
    host = np.arange(66, dtype=np.int32).reshape(2, 33)
    view = nr.asarray(host)[:, ::2]
    np.testing.assert_array_equal(np.asarray(nr.asarray(view, dtype=nr.float64)), host[:, ::2].astype(np.float64))
    zero_d = nr.asarray(nr.asarray(np.int16(-5)), dtype=nr.float32)
    assert zero_d.shape == () and float(zero_d) == -5.0
    x = nr.asarray(host)
    with pytest.raises(ValueError, match="npurt.asarray: argument 'copy'"):
        nr.asarray(x, dtype=nr.float32, copy=False)
    same = nr.asarray(x, dtype=nr.int32, copy=False)  # same dtype: no copy needed, no error
    np.testing.assert_array_equal(np.asarray(same), host)
    np.testing.assert_array_equal(np.asarray(x + 1), host + 1)  # the runtime stays usable


@pytest.mark.parametrize("shape,axis", [((15,), None), ((3, 33), 1), ((4, 5), 0), ((2, 3, 1023), 2), ((0, 3), 1)])
@pytest.mark.parametrize("count", [0, 1, 3])
def test_repeat_with_a_single_count_array(shape, axis, count):
    host = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    got = nr.repeat(nr.asarray(host), nr.asarray(np.array([count])), axis=axis)
    np.testing.assert_array_equal(np.asarray(got), np.repeat(host, np.array([count]), axis=axis))


def test_repeat_count_array_of_wrong_length_still_raises():
    with pytest.raises(ValueError, match="npurt.repeat: argument 'repeats'"):
        nr.repeat(nr.asarray(np.arange(3)), nr.asarray(np.array([1, 2])), axis=0)


@pytest.mark.parametrize("num", _SIZES)
@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("start,stop,dtype", [(0j, 1 + 1j, None), (1, 2 + 4j, "complex128"),
                                              (-3.5 - 2j, 7 + 0.25j, "complex64"), (0, 1, "complex64"),
                                              (2j, 2j, None)])
def test_complex_linspace(num, endpoint, start, stop, dtype):
    got = nr.linspace(start, stop, num, endpoint=endpoint, dtype=None if dtype is None else getattr(nr, dtype))
    want_dt = np.dtype(dtype or "complex64")
    want = np.linspace(complex(start), complex(stop), num, endpoint=endpoint).astype(want_dt)
    assert got.dtype == getattr(nr, want_dt.name) and got.shape == (num,)
    eps = 2.4e-7 if want_dt == np.complex64 else 4.5e-16
    scale = max(abs(complex(start)), abs(complex(stop)))
    np.testing.assert_allclose(np.asarray(got), want, rtol=eps, atol=eps * scale)


def test_complex_linspace_rejects_real_dtype():
    with pytest.raises(TypeError, match="npurt.linspace: argument 'dtype'"):
        nr.linspace(0j, 1, 3, dtype=nr.float32)


@pytest.mark.parametrize("n", [0, 1, 33])
def test_dlpack_copy_true_exports_an_independent_copy(n):
    # __dlpack__(copy=True): "the producer must always copy" (2024.12); numpy >= 2.1 asks for it
    # through np.from_dlpack(x, copy=True). copy=None/False keep sharing memory (sim).
    host = np.arange(2 * n, dtype=np.float32)
    x = nr.asarray(host)
    for src, want in ((x, host), (x[::2], host[::2])):  # contiguous and strided sources
        copied = np.from_dlpack(src, copy=True)
        np.testing.assert_array_equal(copied, want)
        shared = np.from_dlpack(x)
        if n:
            x[0] = -7.0
            np.asarray(x)  # waits for the write (the shared view reads memory directly)
            assert copied[0] == want[0] if copied.size else True
            assert shared[0] == -7.0
            x[0] = host[0]
    assert x.__dlpack__(copy=True, max_version=(1, 0), dl_device=x.__dlpack_device__()) is not None
