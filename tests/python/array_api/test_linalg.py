"""The array API linear algebra functions (nr.matmul, `@`, tensordot, vecdot)
against float64 numpy.

Tolerance per element: fp32 accumulation of k exact products,
(k + 1) * 2^-24 * (|x1| @ |x2|), plus the rounding of the result to its dtype
(2^-24 float32, 2^-11 float16, 2^-8 bfloat16) relative to |ref|; the
reference uses the inputs already rounded to their dtype.
"""
import ml_dtypes
import numpy as np
import pytest

import npurt as nr

BF16 = np.dtype(ml_dtypes.bfloat16)
OUT_EPS = {np.dtype(np.float32): 2.0**-24, np.dtype(np.float16): 2.0**-11, BF16: 2.0**-8}


def check(y, ref, mag, k, dtype):
    y = y.numpy() if isinstance(y, nr.ndarray) else y
    assert y.shape == ref.shape, (y.shape, ref.shape)
    assert y.dtype == dtype
    tol = 1.01 * (k + 1) * 2.0**-24 * mag + OUT_EPS[np.dtype(dtype)] * np.abs(ref) + 1e-30
    err = np.abs(y.astype(np.float64) - ref)
    bad = ~(err <= tol)
    assert not bad.any(), f"{bad.sum()} off, worst {err[bad].max()}"


def ref_matmul(a, b):
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    return np.matmul(a64, b64), np.matmul(np.abs(a64), np.abs(b64))


SHAPES = [((1,), (1,)), ((15,), (15, 33)), ((33, 15), (15,)), ((1, 1), (1, 1)), ((15, 33), (33, 1023)),
          ((1023, 17), (17, 15)), ((2, 3, 15, 33), (33, 16)), ((2, 1, 15, 33), (3, 33, 4)), ((4, 17), (3, 2, 17, 5)),
          ((0, 5), (5, 3)), ((2, 0, 5), (5, 3)), ((3, 0), (0, 4))]


@pytest.mark.parametrize("sa,sb", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.float16), BF16], ids=str)
def test_matmul_shapes_and_dtypes(sa, sb, dtype):
    rng = np.random.default_rng(sum(sa) + 3 * sum(sb))
    a = rng.standard_normal(sa).astype(dtype)
    b = rng.standard_normal(sb).astype(dtype)
    ref, mag = ref_matmul(a, b)
    check(nr.matmul(nr.asarray(a), nr.asarray(b)), ref, mag, sa[-1], dtype)
    check(nr.asarray(a) @ nr.asarray(b), ref, mag, sa[-1], dtype)


def test_matmul_promotion_and_operators():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((5, 7)).astype(np.float16)
    b = rng.standard_normal((7, 3)).astype(np.float32)
    ref, mag = ref_matmul(a.astype(np.float32), b)
    check(nr.matmul(nr.asarray(a), nr.asarray(b)), ref, mag, 7, np.float32)
    x, w = nr.asarray(b.T.copy()), nr.asarray(rng.standard_normal((7, 7)).astype(np.float32))
    r = x.__rmatmul__(nr.asarray(rng.standard_normal((4, 3)).astype(np.float32)))
    assert r.shape == (4, 7)
    before = x.numpy().copy()
    x @= w
    ref2, mag2 = ref_matmul(before, w.numpy())
    check(x, ref2, mag2, 7, np.float32)
    with pytest.raises(TypeError, match="__imatmul__.*shape"):
        y = nr.asarray(np.ones((3, 7), np.float32))
        y @= nr.asarray(np.ones((7, 2), np.float32))
    assert nr.asarray(np.ones((2, 2), np.float32)).__matmul__(3) is NotImplemented


def test_matmul_non_contiguous_and_transposed_views():
    rng = np.random.default_rng(2)
    a = rng.standard_normal((40, 33)).astype(np.float32)
    b = rng.standard_normal((17, 33)).astype(np.float32)
    A, B = nr.asarray(a), nr.asarray(b)
    ref, mag = ref_matmul(a, b.T)
    check(nr.matmul(A, nr.matrix_transpose(B)), ref, mag, 33, np.float32)    # transposed view -> trans_b
    ref, mag = ref_matmul(a.T, a)
    check(nr.matmul(A.mT, A), ref, mag, 40, np.float32)                        # transposed view -> trans_a
    ref, mag = ref_matmul(a[::2, 1::3], b[1::2, ::3].T)
    check(nr.matmul(A[::2, 1::3], B[1::2, ::3].mT), ref, mag, 11, np.float32)   # strided: copied
    v = rng.standard_normal(33).astype(np.float32)
    ref, mag = ref_matmul(a, v)
    check(nr.matmul(A, nr.broadcast_to(nr.asarray(v), (33,))), ref, mag, 33, np.float32)


def test_matmul_errors_name_the_dims():
    a = nr.asarray(np.ones((4, 5), np.float32))
    with pytest.raises(ValueError, match=r"npurt.matmul: argument 'x2': contracted dimension 4 .*\(4, 3\).* 5 "):
        nr.matmul(a, nr.asarray(np.ones((4, 3), np.float32)))
    with pytest.raises(ValueError, match=r"npurt.matmul: argument 'x2': batch dims \(3,\) .*\(2,\)"):
        nr.matmul(nr.asarray(np.ones((2, 4, 5), np.float32)), nr.asarray(np.ones((3, 5, 2), np.float32)))
    with pytest.raises(ValueError, match="npurt.matmul: argument 'x1': 0-d"):
        nr.matmul(nr.asarray(np.float32(2)), a)
    with pytest.raises(TypeError, match="npurt.matmul: bool operands are not supported"):
        nr.matmul(nr.asarray(np.ones((2, 2), bool)), nr.asarray(np.ones((2, 2), bool)))
    with pytest.raises(TypeError, match="npurt.matmul: argument 'x2': expected an npurt.ndarray"):
        nr.matmul(a, np.ones((5, 2)))
    with pytest.raises(ValueError, match="npurt.matmul: argument .x2.: contracted"):
        a @ a
    # still usable
    assert (a @ nr.asarray(np.ones((5, 2), np.float32))).numpy().tolist() == [[5.0, 5.0]] * 4


@pytest.mark.parametrize("sa,sb,axes", [((3, 4, 5), (4, 5, 6), 2), ((3, 4, 5), (5, 6), 1), ((3, 4), (5, 6), 0),
                                        ((3, 4, 5), (5, 3, 2), ([0, 2], [1, 0])), ((15,), (15,), 1),
                                        ((2, 33), (33, 2), ([1], [0])), ((4, 5), (4, 5), 2)])
def test_tensordot(sa, sb, axes):
    rng = np.random.default_rng(len(sa) + len(sb))
    a = rng.standard_normal(sa).astype(np.float32)
    b = rng.standard_normal(sb).astype(np.float32)
    ref = np.tensordot(a.astype(np.float64), b.astype(np.float64), axes=axes)
    mag = np.tensordot(np.abs(a.astype(np.float64)), np.abs(b.astype(np.float64)), axes=axes)
    contracted = range(len(sa) - axes, len(sa)) if isinstance(axes, int) else axes[0]
    k = int(np.prod([sa[i] for i in contracted]))
    check(nr.tensordot(nr.asarray(a), nr.asarray(b), axes=axes), np.asarray(ref), np.asarray(mag), k, np.float32)


def test_tensordot_errors():
    a = nr.asarray(np.ones((3, 4), np.float32))
    with pytest.raises(ValueError, match="npurt.tensordot: argument 'axes': x1 axis 1 has size 4 but x2 axis 0 has size 5"):
        nr.tensordot(a, nr.asarray(np.ones((5, 2), np.float32)), axes=1)
    with pytest.raises(ValueError, match="npurt.tensordot: argument 'axes': 3 must be in"):
        nr.tensordot(a, a, axes=3)


@pytest.mark.parametrize("sa,sb,axis", [((15,), (15,), -1), ((4, 33), (33,), -1), ((2, 1, 7), (3, 7), -1),
                                        ((5, 4), (5, 4), 0), ((3, 1023), (3, 1023), 1), ((6, 2), (1, 2), -1),
                                        ((4, 1), (4, 5), -1)])
@pytest.mark.parametrize("dtype", [np.dtype(np.float32), BF16], ids=str)
def test_vecdot(sa, sb, axis, dtype):
    rng = np.random.default_rng(len(sa) * 5 + sb[-1])
    a = rng.standard_normal(sa).astype(dtype)
    b = rng.standard_normal(sb).astype(dtype)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    ref = np.sum(a64 * b64, axis=axis)
    mag = np.sum(np.abs(a64 * b64), axis=axis)
    k = np.broadcast_shapes(sa, sb)[axis]
    check(nr.vecdot(nr.asarray(a), nr.asarray(b), axis=axis), np.asarray(ref), np.asarray(mag), k, dtype)


def test_vecdot_errors():
    a = nr.asarray(np.ones((3, 4), np.float32))
    with pytest.raises(ValueError, match=r"npurt.vecdot: argument 'x2': shape \(3, 5\) cannot be broadcast with x1's \(3, 4\)"):
        nr.vecdot(a, nr.asarray(np.ones((3, 5), np.float32)))
    with pytest.raises(TypeError, match="npurt.vecdot: .*not supported"):
        nr.vecdot(nr.asarray(np.ones(3, bool)), nr.asarray(np.ones(3, bool)))
    with pytest.raises(nr.AxisError if hasattr(nr, "AxisError") else ValueError, match="npurt.vecdot"):
        nr.vecdot(a, a, axis=2)
