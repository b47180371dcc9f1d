"""nr.linalg.diagonal / trace / outer / cross / vector_norm and the re-exported matmul /
tensordot / vecdot / matrix_transpose (sdk_python/npurt/linalg/_composed.py, __init__.py)
against numpy; tolerances in linalg_cases.py (a few roundings per element)."""
import math

import numpy as np
import pytest

import npurt as nr
from linalg_cases import dev, to_np

L = nr.linalg
RTOL = {"float64": 1e-12, "float32": 1e-5, "float16": 2e-2}


def test_namespace_and_reexports():
    assert nr.linalg is L
    for name in ("matmul", "tensordot", "vecdot", "matrix_transpose"):
        assert getattr(L, name) is getattr(nr, name)


@pytest.mark.parametrize("offset", (-3, -1, 0, 1, 2, 4, 9))
def test_diagonal_is_a_read_only_view(offset):
    a = np.arange(2 * 4 * 5.0).reshape(2, 4, 5)
    x = dev(a)
    d = L.diagonal(x, offset=offset)
    ref = np.diagonal(a, offset, -2, -1)
    assert d.shape == ref.shape
    np.testing.assert_array_equal(to_np(d), ref)
    assert nr._npurt._shares_storage(d, x) and d.read_only
    # of an empty stack: no element, no offset into the (empty) storage
    assert L.diagonal(nr.zeros((0, 4, 5)), offset=offset).shape == (0,) + ref.shape[1:]
    # of a non-contiguous view too
    np.testing.assert_array_equal(to_np(L.diagonal(x.mT[:, ::2], offset=offset)),
                                  np.diagonal(np.swapaxes(a, -1, -2)[:, ::2], offset, -2, -1))


def test_trace_dtypes_and_offsets():
    a = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    t = L.trace(dev(a))
    assert t.dtype == nr.int64  # the default integer dtype, as nr.sum
    np.testing.assert_array_equal(to_np(t), np.trace(a, axis1=-2, axis2=-1))
    np.testing.assert_array_equal(to_np(L.trace(dev(a), offset=-1, dtype=nr.float64)),
                                  np.trace(a, -1, axis1=-2, axis2=-1).astype(np.float64))
    f = np.random.default_rng(0).uniform(size=(5, 5)).astype(np.float32)
    assert L.trace(dev(f)).dtype == nr.float32
    assert math.isclose(float(L.trace(dev(f))), float(np.trace(f)), rel_tol=1e-6)
    assert float(L.trace(nr.zeros((0, 0)))) == 0.0
    assert float(L.trace(dev(f), offset=7)) == 0.0


def test_outer():
    x, y = np.arange(3, dtype=np.int16), np.linspace(-1, 1, 4)
    got = L.outer(dev(x), dev(y))
    assert got.dtype == nr.float64
    np.testing.assert_allclose(to_np(got), np.outer(x, y), rtol=1e-15)
    assert L.outer(dev(x), nr.zeros((0,))).shape == (3, 0)
    for bad in (nr.zeros((2, 2)), nr.asarray(1.0)):
        with pytest.raises(nr.InvalidArgumentError, match="npurt.linalg.outer: argument 'x2': must be 1-dimensional"):
            L.outer(dev(x), bad)


@pytest.mark.parametrize("dtype", ("float32", "float64", "int64"))
def test_cross_broadcasts(dtype):
    rng = np.random.default_rng(1)
    a = (rng.uniform(-3, 3, size=(4, 3)) * 10).astype(dtype)
    b = (rng.uniform(-3, 3, size=(2, 1, 3)) * 10).astype(dtype)
    got = to_np(L.cross(dev(a), dev(b)))
    ref = np.cross(a, b)
    assert got.shape == ref.shape == (2, 4, 3)
    np.testing.assert_allclose(got, ref, rtol=RTOL.get(dtype, 0))
    # another (negative) axis, and a non-contiguous view
    c, d = np.moveaxis(a, -1, 0), rng.uniform(size=(3, 1))
    np.testing.assert_allclose(to_np(L.cross(dev(a).mT, dev(d), axis=-2)), np.cross(c, d, axis=0),
                               rtol=1e-6)


def test_cross_errors():
    x = nr.zeros((4, 3))
    with pytest.raises(nr.InvalidArgumentError, match="'axis': must be negative"):
        L.cross(x, x, axis=1)
    with pytest.raises(nr.InvalidArgumentError, match="'x1': dimension -1 must have size 3"):
        L.cross(nr.zeros((3, 2)), x)
    with pytest.raises(nr.InvalidArgumentError, match="'x2': dimension -2 must have size 3"):
        L.cross(x.mT, x, axis=-2)
    with pytest.raises(nr.InvalidArgumentError, match="out of bounds"):
        L.cross(nr.zeros((3,)), nr.zeros((3,)), axis=-2)
    with pytest.raises(TypeError, match="bool is not a numeric dtype"):
        L.cross(nr.zeros((3,), dtype=nr.bool), x)


ORDS = (2, 1, 0, math.inf, -math.inf, 3, 0.5, -1, -2.5)


@pytest.mark.parametrize("dtype", ("float32", "float64"))
@pytest.mark.parametrize("ord", ORDS)
def test_vector_norm_orders_and_axes(ord, dtype):
    a = np.random.default_rng(2).uniform(-2, 2, size=(3, 4, 5)).astype(dtype)
    a[0, 0, 0] = 0.0
    x = dev(a)
    cases = [(None, a.reshape(-1), 0), (1, a, 1), (-1, a, -1),
             ((0, 2), np.moveaxis(a, (0, 2), (0, 1)).reshape(15, 4), 0)]
    for axis, flat, ax in cases:
        with np.errstate(divide="ignore"):  # negative ord with a zero element: the norm is 0
            ref = np.linalg.norm(flat.astype(np.float64), ord=ord, axis=ax)
        got = L.vector_norm(x, axis=axis, ord=ord)
        assert got.dtype == x.dtype
        np.testing.assert_allclose(to_np(got), ref, rtol=RTOL[dtype])
        kept = L.vector_norm(x, axis=axis, ord=ord, keepdims=True)
        axes = range(3) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
        assert kept.shape == tuple(1 if i in [v % 3 for v in axes] else n for i, n in enumerate(a.shape))


def test_vector_norm_complex_float16_and_special_values():
    z = np.array([3 + 4j, 0, 1j], dtype=np.complex64)
    n = L.vector_norm(dev(z))
    assert n.dtype == nr.float32 and math.isclose(float(n), math.sqrt(26), rel_tol=1e-6)
    h = np.array([1.0, -2.0, 2.0], dtype=np.float16)
    assert L.vector_norm(dev(h)).dtype == nr.float16 and float(L.vector_norm(dev(h))) == 3.0
    assert float(L.vector_norm(nr.zeros((0,)))) == 0.0
    # an empty reduction: inf-norm 0 as numpy's; -inf has no value (numpy raises too)
    assert to_np(L.vector_norm(nr.zeros((2, 0)), axis=1, ord=math.inf)).tolist() == [0.0, 0.0]
    assert float(L.vector_norm(nr.zeros((0, 3)), ord=math.inf)) == 0.0
    with pytest.raises(ValueError, match="zero-size reduction"):
        L.vector_norm(nr.zeros((2, 0)), axis=1, ord=-math.inf)
    assert float(L.vector_norm(dev(np.array([1.0, np.nan])))) != float(L.vector_norm(dev(np.array([1.0, 2.0]))))
    assert float(L.vector_norm(dev(np.array([1.0, -np.inf])), ord=math.inf)) == math.inf
    assert float(L.vector_norm(dev(np.array(-5.0)))) == 5.0  # 0-d: all (no) axes


def test_vector_norm_errors():
    x = nr.zeros((2, 3))
    with pytest.raises(TypeError, match="npurt.linalg.vector_norm: argument 'x': int32 is not a floating-point"):
        L.vector_norm(nr.zeros((2,), dtype=nr.int32))
    with pytest.raises(TypeError, match="'ord': expected a number"):
        L.vector_norm(x, ord="fro")
    with pytest.raises(ValueError, match="'ord': nan"):
        L.vector_norm(x, ord=math.nan)
    with pytest.raises(ValueError, match="repeated axis"):
        L.vector_norm(x, axis=(0, -2))
    with pytest.raises(IndexError):
        L.vector_norm(x, axis=2)
