"""nr.matmul / tensordot / vecdot / `@` of integer, float64 and complex operands:
the scalar-unit `matmul_generic` kernel (kernels/matmul/matmul_generic_*.cc),
against numpy. Integers must match exactly, wrap-around included (numpy's
integer matmul wraps modulo 2^bits); float64 within 1e-12 relative to the
sum of |products|; complex64 within 1e-5 of it, complex128 within 1e-12.
"""
import numpy as np
import pytest

import npurt as nr

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
RTOL = {"float64": 1e-12, "complex64": 1e-5, "complex128": 1e-12}


def draw(rng, shape, dtype):
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(max(info.min, -100), min(info.max, 100), size=shape, endpoint=True).astype(dt)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def check(actual, expected, mag=None):
    got = np.asarray(actual)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    if expected.dtype.kind in "iu":
        np.testing.assert_array_equal(got, expected)
    else:
        tol = RTOL[expected.dtype.name] * (1.0 + (mag if mag is not None else np.abs(expected)))
        assert np.all(np.abs(got - expected) <= tol), np.max(np.abs(got - expected))


SHAPES = [((3,), (3,)), ((1,), (1,)), ((4, 3), (3,)), ((3,), (3, 5)), ((2, 3), (3, 4)),
          ((15, 33), (33, 15)), ((2, 1, 3, 4), (5, 4, 2)), ((3, 2, 4), (1, 4, 3)), ((1, 1), (1, 1)),
          ((2, 0, 3), (3, 4)), ((2, 3, 0), (0, 4))]


@pytest.mark.parametrize("dtype", INTS + ["float64", "complex64", "complex128"])
@pytest.mark.parametrize("sa,sb", SHAPES, ids=str)
def test_matmul_matches_numpy(dtype, sa, sb):
    rng = np.random.default_rng(len(sa) * 7 + len(sb))
    a, b = draw(rng, sa, dtype), draw(rng, sb, dtype)
    mag = np.matmul(np.abs(a).astype(np.float64), np.abs(b).astype(np.float64)) if a.dtype.kind in "fc" else None
    check(nr.matmul(nr.asarray(a), nr.asarray(b)), np.matmul(a, b), mag)
    check(nr.asarray(a) @ nr.asarray(b), np.matmul(a, b), mag)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64", "uint64"])
def test_integer_overflow_wraps_like_numpy(dtype):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(3)
    a = rng.integers(info.min, info.max, size=(5, 7), dtype=dtype, endpoint=True)
    b = rng.integers(info.min, info.max, size=(7, 6), dtype=dtype, endpoint=True)
    with np.errstate(all="ignore"):
        check(nr.matmul(nr.asarray(a), nr.asarray(b)), np.matmul(a, b))


def test_column_tiles_and_large_k():
    # N above the 4096-column tile and K above the 4096-element a-row tile
    rng = np.random.default_rng(5)
    a, b = draw(rng, (2, 5000), "int32"), draw(rng, (5000, 3), "int32")
    check(nr.matmul(nr.asarray(a), nr.asarray(b)), a @ b)
    a, b = draw(rng, (2, 3), "int16"), draw(rng, (3, 4500), "int16")
    check(nr.matmul(nr.asarray(a), nr.asarray(b)), a @ b)


def test_non_contiguous_and_mixed_dtypes():
    rng = np.random.default_rng(7)
    a, b = draw(rng, (6, 8), "int32"), draw(rng, (8, 6), "int32")
    A, B = nr.asarray(a), nr.asarray(b)
    check(nr.matmul(A[::2, 1::2], B.mT[::2, ::2].mT), a[::2, 1::2] @ b.T[::2, ::2].T)
    check(nr.matmul(A.mT, B.mT), a.T @ b.T)
    c = draw(rng, (8, 3), "int8")
    check(nr.matmul(A, nr.asarray(c)), a @ c.astype(np.int32))  # int32 x int8 -> int32
    f = draw(rng, (8, 3), "float64")
    check(nr.matmul(nr.astype(A, nr.float64), nr.asarray(f)), a.astype(np.float64) @ f,
          np.abs(a).astype(np.float64) @ np.abs(f))


@pytest.mark.parametrize("dtype", ["int16", "uint32", "float64", "complex128"])
def test_tensordot_and_vecdot(dtype):
    rng = np.random.default_rng(11)
    a, b = draw(rng, (3, 4, 5), dtype), draw(rng, (4, 5, 2), dtype)
    mag = None if a.dtype.kind in "iu" else np.tensordot(np.abs(a), np.abs(b), axes=2).real
    check(nr.tensordot(nr.asarray(a), nr.asarray(b), axes=2), np.tensordot(a, b, axes=2), mag)
    x, y = draw(rng, (3, 1, 7), dtype), draw(rng, (4, 7), dtype)
    # the standard's vecdot conjugates x1 (np.vecdot too)
    expected = np.sum(np.conj(x) * y, axis=-1)
    mag = None if x.dtype.kind in "iu" else np.sum(np.abs(x) * np.abs(y), axis=-1)
    check(nr.vecdot(nr.asarray(x), nr.asarray(y)), expected.astype(np.result_type(x, y)), mag)


def test_errors_name_the_function_and_leave_the_runtime_usable():
    a = nr.asarray(np.ones((2, 3), np.int32))
    with pytest.raises(TypeError, match="npurt.matmul: bool operands are not supported"):
        nr.matmul(nr.asarray(np.ones((2, 3), bool)), nr.asarray(np.ones((3, 2), bool)))
    with pytest.raises(ValueError, match=r"npurt.matmul: argument 'x2': contracted dimension 2"):
        nr.matmul(a, nr.asarray(np.ones((2, 2), np.int32)))
    with pytest.raises(ValueError, match="matmul_generic.*argument 'b'.*contracted dimension"):
        nr.ops.matmul_generic(nr.asarray(np.ones((1, 2, 3), np.int32)), nr.asarray(np.ones((1, 2, 2), np.int32)))
    with pytest.raises(nr.UnsupportedDtypeError, match="matmul_generic: argument 'a': dtype float32 is not supported"):
        nr.ops.matmul_generic(nr.asarray(np.ones((1, 2, 3), np.float32)), nr.asarray(np.ones((1, 3, 2), np.float32)))
    check(nr.matmul(a, nr.asarray(np.ones((3, 2), np.int32))), np.full((2, 2), 3, np.int32))
