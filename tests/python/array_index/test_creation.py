"""arange, linspace, eye, tril, triu, meshgrid against numpy.

Integer results and masked copies are exact; float values are computed in
double by the kernel and rounded once, so they match numpy's float64 result
rounded to the dtype within one ulp of the dtype (rtol 2^-23 float32,
2^-10 float16).
"""
import numpy as np
import pytest

import npurt as nr

RTOL = {"float32": 2.0 ** -23, "float16": 2.0 ** -10, "float64": 1e-15}


@pytest.mark.parametrize("args,kwargs", [
    ((5,), {}), ((0,), {}), ((-3,), {}), ((2, 17), {}), ((17, 2, -3), {}), ((1, 1034, 7), {}),
    ((3, 3), {}), ((-5, 5, 2), {"dtype": nr.int32}), ((0, 200, 3), {"dtype": nr.uint8}),
    ((10,), {"dtype": nr.float32}), ((2 ** 40, 2 ** 40 + 9, 3), {}),
])
def test_arange_integers_are_exact(args, kwargs):
    y = nr.arange(*args, **kwargs)
    np_kwargs = {"dtype": np.dtype(str(kwargs["dtype"]))} if "dtype" in kwargs else {"dtype": np.int64}
    ref = np.arange(*args, **np_kwargs)
    assert str(y.dtype) == str(ref.dtype)
    assert y.shape == ref.shape
    np.testing.assert_array_equal(y.numpy(), ref)


@pytest.mark.parametrize("args", [(0.0, 1.0, 0.1), (1, 2, 0.25), (-1.5, 3.7, 0.33), (5.0, -5.0, -0.7), (0.5,),
                                  (1.0, 1.0, 0.5), (0, 1023 * 0.01, 0.01), (3, 0.0, 1)])
@pytest.mark.parametrize("dtype", [None, "float32", "float16", "float64"])
def test_arange_floats_follow_the_length_rule(args, dtype):
    y = nr.arange(*args, dtype=None if dtype is None else getattr(nr, dtype))
    start, stop, step = (0, args[0], 1) if len(args) == 1 else (args + (1,))[:3]
    n = max(0, int(np.ceil((stop - start) / step)))
    assert y.shape == (n,)
    assert str(y.dtype) == (dtype or "float32")
    ref = (start + np.arange(n, dtype=np.float64) * step).astype(str(y.dtype))
    np.testing.assert_allclose(y.numpy().astype(np.float64), ref.astype(np.float64), rtol=RTOL[str(y.dtype)],
                               atol=RTOL[str(y.dtype)] * abs(step))


@pytest.mark.parametrize("bad,err,msg", [
    ((0, 5, 0), ValueError, "argument 'step': must not be zero"),
    ((0, float("inf")), ValueError, "no finite length"),
    ((0, 300), OverflowError, "out of range for int8"),
    (("a",), TypeError, "argument 'start'"),
])
def test_arange_errors(bad, err, msg):
    kwargs = {"dtype": nr.int8} if err is OverflowError else {}
    with pytest.raises(err, match="npurt.arange") as e:
        nr.arange(*bad, **kwargs)
    assert msg in str(e.value)
    assert nr.arange(3).tolist() == [0, 1, 2]  # still usable


@pytest.mark.parametrize("start,stop,num", [(0, 1, 5), (-3.5, 7.25, 1), (2, 2, 7), (0, 1, 0), (1e3, -1e3, 1023),
                                            (0, 10, 33)])
@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "float16", "float64"])
def test_linspace_matches_numpy(start, stop, num, endpoint, dtype):
    y = nr.linspace(start, stop, num, endpoint=endpoint, dtype=getattr(nr, dtype))
    ref = np.linspace(start, stop, num, endpoint=endpoint, dtype=np.float64)
    assert y.shape == ref.shape and str(y.dtype) == dtype
    scale = max(abs(start), abs(stop), 1)
    np.testing.assert_allclose(y.numpy().astype(np.float64), ref, rtol=RTOL[dtype], atol=RTOL[dtype] * scale)
    if endpoint and num > 1:
        assert y.numpy()[-1] == np.array(stop, dtype=dtype)  # exactly stop


def test_linspace_integer_dtype_floors_like_numpy():
    np.testing.assert_array_equal(nr.linspace(-3, 4, 9, dtype=nr.int32).numpy(),
                                  np.linspace(-3, 4, 9, dtype=np.int32))


def test_numpy_scalars_are_accepted():
    np.testing.assert_array_equal(nr.arange(np.int64(2), np.int32(9), np.int8(3)).numpy(), np.arange(2, 9, 3))
    np.testing.assert_allclose(nr.linspace(np.float32(0), np.float64(1), np.int64(3)).numpy(), [0, 0.5, 1])
    assert nr.eye(np.int64(2)).shape == (2, 2)


def test_linspace_errors():
    with pytest.raises(ValueError, match="npurt.linspace: argument 'num': must be >= 0"):
        nr.linspace(0, 1, -1)
    with pytest.raises(TypeError, match="npurt.linspace: argument 'num'"):
        nr.linspace(0, 1, 2.5)


@pytest.mark.parametrize("n,m,k", [(0, None, 0), (1, None, 0), (3, None, 0), (4, 6, 1), (6, 4, -2), (5, 5, 7),
                                   (15, 33, -14), (33, 1, 0), (300, 17, 3)])
@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "float16", "complex128", "int8"])
def test_eye_matches_numpy(n, m, k, dtype):
    y = nr.eye(n, m, k=k, dtype=getattr(nr, dtype))
    ref = np.eye(n, m, k=k, dtype=dtype)
    assert str(y.dtype) == dtype
    np.testing.assert_array_equal(y.numpy(), ref)


def test_eye_default_dtype_and_errors():
    assert str(nr.eye(2).dtype) == "float32"
    with pytest.raises(ValueError, match="npurt.eye: argument 'n_rows': must be >= 0"):
        nr.eye(-1)
    with pytest.raises(TypeError, match="npurt.eye: argument 'k'"):
        nr.eye(2, k=0.5)


@pytest.mark.parametrize("shape", [(3, 3), (4, 7), (7, 4), (2, 3, 15, 33), (0, 4), (4, 0), (1, 1), (5, 1023),
                                   (2, 0, 3)])
@pytest.mark.parametrize("k", [0, 1, -2, 40, -40])
@pytest.mark.parametrize("fn", ["tril", "triu"])
def test_tril_triu_match_numpy(shape, k, fn):
    host = (np.arange(int(np.prod(shape))) + 1).astype(np.float32).reshape(shape)
    y = getattr(nr, fn)(nr.asarray(host), k=k)
    np.testing.assert_array_equal(y.numpy(), getattr(np, fn)(host, k=k))


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float16", "bfloat16", "complex64",
                                   "complex128"])
def test_tril_triu_every_dtype(dtype):
    import ml_dtypes
    dt = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    host = (np.arange(2 * 5 * 6) % 7 + 1).astype(dt).reshape(2, 5, 6)
    x = nr.asarray(host)
    np.testing.assert_array_equal(nr.tril(x, k=1).numpy(), np.tril(host, k=1))
    np.testing.assert_array_equal(nr.triu(x, k=-1).numpy(), np.triu(host, k=-1))


def test_tril_of_a_non_contiguous_view():
    host = np.arange(8 * 9, dtype=np.int32).reshape(8, 9)
    x = nr.asarray(host)
    np.testing.assert_array_equal(nr.tril(x.mT[::2]).numpy(), np.tril(host.T[::2]))
    np.testing.assert_array_equal(nr.triu(x[:, ::-3], k=1).numpy(), np.triu(host[:, ::-3], k=1))


def test_tril_errors():
    with pytest.raises(ValueError, match="npurt.tril: argument 'x': needs at least 2 dimensions"):
        nr.tril(nr.asarray(np.zeros(3, np.float32)))
    with pytest.raises(TypeError, match="npurt.triu: argument 'x'"):
        nr.triu(np.zeros((2, 2)))


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sizes", [(3,), (3, 4), (2, 1, 5), (0, 3), (4, 3, 2, 1)])
def test_meshgrid_matches_numpy(indexing, sizes):
    hosts = [np.arange(n, dtype=np.float32) * (i + 1) for i, n in enumerate(sizes)]
    ys = nr.meshgrid(*[nr.asarray(h) for h in hosts], indexing=indexing)
    refs = np.meshgrid(*hosts, indexing=indexing)
    assert isinstance(ys, list) and len(ys) == len(refs)  # 2024.12: List[array]
    for y, r in zip(ys, refs):
        assert y.is_contiguous
        np.testing.assert_array_equal(y.numpy(), r)


def test_meshgrid_promotes_and_checks():
    a, b = nr.asarray(np.arange(3, dtype=np.int32)), nr.asarray(np.arange(2, dtype=np.float32))
    ys = nr.meshgrid(a, b)
    assert all(y.dtype == nr.result_type(a, b) for y in ys)
    assert nr.meshgrid() == []
    with pytest.raises(ValueError, match="npurt.meshgrid: argument 'arrays\\[0\\]': must be 1-D"):
        nr.meshgrid(nr.asarray(np.zeros((2, 2), np.float32)))
    with pytest.raises(ValueError, match="npurt.meshgrid: argument 'indexing'"):
        nr.meshgrid(a, indexing="ji")
