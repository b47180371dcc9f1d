"""nr.ops.matmul (cube unit) against a float64 numpy reference.

Bound per element: fp32 accumulation of k products gives |err| <= k * 2^-24 * (|a| @ |b|)
(the reference uses the inputs already rounded to the dtype), plus the final
rounding to the output dtype: 2^-24 (float32), 2^-11 (float16), 2^-8 (bfloat16)
relative to |ref|.
"""
import ml_dtypes
import numpy as np
import pytest

import npurt as nr

BF16 = np.dtype(ml_dtypes.bfloat16)
OUT_EPS = {np.dtype(np.float32): 2.0**-24, np.dtype(np.float16): 2.0**-11, BF16: 2.0**-8}
DTYPES = [np.dtype(np.float32), np.dtype(np.float16), BF16]


def check(y, a, b, trans_b=False):
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    if trans_b:
        b64 = np.swapaxes(b64, -1, -2)
    ref = a64 @ b64
    mag = np.abs(a64) @ np.abs(b64)
    k = a.shape[-1]
    tol = 1.01 * k * 2.0**-24 * mag + OUT_EPS[y.dtype] * np.abs(ref) + 1e-30
    err = np.abs(y.astype(np.float64) - ref)
    assert y.shape == ref.shape
    bad = ~(err <= tol)
    assert not bad.any(), f"{bad.sum()} elements off, worst {err[bad].max()} (tol {tol[bad].min()})"


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("trans_b", [False, True])
@pytest.mark.parametrize("m,k,n", [(1, 1, 1), (1, 63, 1), (15, 64, 65), (33, 65, 17),
                                   (129, 300, 257), (64, 1024, 48)])
def test_matmul_2d(dtype, trans_b, m, k, n):
    rng = np.random.default_rng(m * 1000 + k + n)
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.standard_normal((n, k) if trans_b else (k, n)).astype(dtype)
    y = nr.ops.matmul(nr.asarray(a), nr.asarray(b), trans_b=trans_b).numpy()
    assert y.dtype == dtype
    check(y, a, b, trans_b)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_matmul_batched_and_broadcast_b(dtype):
    rng = np.random.default_rng(7)
    a = rng.standard_normal((2, 3, 40, 70)).astype(dtype)
    b = rng.standard_normal((2, 3, 70, 20)).astype(dtype)
    check(nr.ops.matmul(nr.asarray(a), nr.asarray(b)).numpy(), a, b)
    b2 = rng.standard_normal((70, 20)).astype(dtype)
    check(nr.ops.matmul(nr.asarray(a), nr.asarray(b2)).numpy(), a, b2)
    bt = rng.standard_normal((2, 3, 20, 70)).astype(dtype)
    check(nr.ops.matmul(nr.asarray(a), nr.asarray(bt), trans_b=True).numpy(), a, bt, True)


def test_matmul_nan_inf_propagate():
    a = np.ones((3, 5), np.float32)
    b = np.ones((5, 4), np.float32)
    a[0, 2] = np.nan
    a[1, 1] = np.inf
    y = nr.ops.matmul(nr.asarray(a), nr.asarray(b)).numpy()
    assert np.isnan(y[0]).all() and np.isposinf(y[1]).all()
    np.testing.assert_array_equal(y[2], np.full(4, 5.0, np.float32))


def test_matmul_empty_output():
    y = nr.ops.matmul(nr.asarray(np.ones((0, 4), np.float32)), nr.asarray(np.ones((4, 3), np.float32)))
    assert y.shape == (0, 3)


def test_matmul_errors():
    f = nr.asarray(np.ones((4, 5), np.float32))
    with pytest.raises(nr.InvalidArgumentError, match="matmul.*'b'.*contracted dimension 4"):
        nr.ops.matmul(f, nr.asarray(np.ones((4, 3), np.float32)))
    with pytest.raises(nr.UnsupportedDtypeError, match="matmul.*'b'.*dtype"):
        nr.ops.matmul(f, nr.asarray(np.ones((5, 3), np.float16)))
    with pytest.raises(nr.InvalidArgumentError, match="matmul.*'b'.*batch dims"):
        nr.ops.matmul(nr.asarray(np.ones((2, 4, 5), np.float32)), nr.asarray(np.ones((3, 5, 2), np.float32)))
    with pytest.raises(nr.InvalidArgumentError, match="matmul"):
        nr.ops.matmul(nr.asarray(np.ones((4, 5), np.int32)), nr.asarray(np.ones((5, 2), np.int32)))
    with pytest.raises(nr.InvalidArgumentError, match="matmul.*'b'.*contracted dimension 4"):
        nr.ops.matmul(nr.asarray(np.ones(5, np.float32)), nr.asarray(np.ones((4, 2), np.float32)))
    with pytest.raises(nr.InvalidArgumentError, match="matmul.*'bias'.*length N = 3"):
        nr.ops.matmul(f, nr.asarray(np.ones((5, 3), np.float32)), nr.asarray(np.ones(4, np.float32)))
    with pytest.raises(nr.UnsupportedDtypeError, match="matmul.*'bias'.*float32 or a's dtype"):
        nr.ops.matmul(f, nr.asarray(np.ones((5, 3), np.float32)), nr.asarray(np.ones(3, np.float16)))
    with pytest.raises(nr.UnsupportedDtypeError, match="matmul.*'dtype'.*int8"):
        nr.ops.matmul(f, nr.asarray(np.ones((5, 3), np.float32)), dtype="int8")
    with pytest.raises(nr.InvalidArgumentError, match="matmul.*K = 0"):
        nr.ops.matmul(nr.asarray(np.ones((4, 0), np.float32)), nr.asarray(np.ones((0, 3), np.float32)))
    # the runtime stays usable after the errors
    check(nr.ops.matmul(f, nr.asarray(np.ones((5, 3), np.float32))).numpy(), np.ones((4, 5), np.float32),
          np.ones((5, 3), np.float32))


def test_matmul_describe_shows_plan():
    text = nr.ops.describe("matmul", (1024, 1024), (1024, 1024))
    # 1024^3 float32 on the 910B profile: 256x128 tiles (32 tiles in 2 rounds over the cube cores
    # moves fewer GM bytes than 64 tiles of 128x128 in 4 rounds; matmul_plan.cc's cost model; of
    # the two equal-cost shapes, the one with fewer transposing loads: b [K, N] is transposed
    # into L0B, so b gets the short side), one block per tile (each is 256x128x1024 MACs >= 2^24:
    # the same 2 rounds, and a free core / sim thread takes the next tile).
    assert "tile=256x128" in text and "kStep=64" in text and "blocks=32 " in text
    # A and B are copied into L1 128 K-values (2 steps, 512 B of each of a's GM rows) at a time:
    # the longest run the plan grows a chunk to (matmul_plan.cc, kChunkRunBytes).
    assert "kL1=128/128" in text
    text_t = nr.ops.describe("matmul", (1024, 1024), (1024, 1024), trans_b=True)
    assert "tile=128x256" in text_t  # b stored [N, K]: no transposed load, a gets the short side
    text_2k = nr.ops.describe("matmul", (2048, 2048), (2048, 2048))
    assert "tiles=128 " in text_2k and "blocks=128 " in text_2k  # 7 rounds either way, 1 tile per block
    text_k256 = nr.ops.describe("matmul", (2048, 256), (256, 2048))
    assert "tiles=128 " in text_k256 and "blocks=19 " in text_k256  # small tiles: 19 blocks of 6-7
    small = nr.ops.describe("matmul", (33, 65), (65, 17))
    assert "tile=48x32" in small


def _op(x, trans):
    return np.swapaxes(x, -1, -2) if trans and x.ndim >= 2 else x


def check_general(y, a, b, ta=False, tb=False, bias=None, out_dtype=None):
    a64, b64 = _op(a.astype(np.float64), ta), _op(b.astype(np.float64), tb)
    ref = np.matmul(a64, b64)
    mag = np.matmul(np.abs(a64), np.abs(b64))
    if bias is not None:
        ref = ref + bias.astype(np.float64)
        mag = mag + np.abs(bias.astype(np.float64))
    k = a64.shape[-1]
    out = np.dtype(out_dtype) if out_dtype is not None else y.dtype
    tol = 1.01 * (k + 1) * 2.0**-24 * mag + OUT_EPS[out] * np.abs(ref) + 1e-30
    assert y.shape == ref.shape, (y.shape, ref.shape)
    err = np.abs(y.astype(np.float64) - ref)
    bad = ~(err <= tol)
    assert not bad.any(), f"{bad.sum()} elements off, worst {err[bad].max()}"


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("ta,tb", [(True, False), (True, True), (False, True)])
@pytest.mark.parametrize("m,k,n", [(1, 1, 1), (15, 33, 17), (33, 65, 1), (130, 300, 40)])
def test_matmul_transposes(dtype, ta, tb, m, k, n):
    rng = np.random.default_rng(m + 7 * k + 31 * n)
    a = rng.standard_normal((k, m) if ta else (m, k)).astype(dtype)
    b = rng.standard_normal((n, k) if tb else (k, n)).astype(dtype)
    y = nr.ops.matmul(nr.asarray(a), nr.asarray(b), trans_a=ta, trans_b=tb).numpy()
    check_general(y, a, b, ta, tb)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("bias_f32", [True, False])
def test_matmul_bias(dtype, bias_f32):
    rng = np.random.default_rng(3)
    a = rng.standard_normal((2, 37, 70)).astype(dtype)
    b = rng.standard_normal((70, 150)).astype(dtype)
    bias = rng.standard_normal(150).astype(np.float32 if bias_f32 else dtype)
    y = nr.ops.matmul(nr.asarray(a), nr.asarray(b), nr.asarray(bias)).numpy()
    check_general(y, a, b, bias=bias)


@pytest.mark.parametrize("dtype", [np.dtype(np.float16), BF16], ids=str)
def test_matmul_output_dtype_float32(dtype):
    rng = np.random.default_rng(4)
    a = rng.standard_normal((33, 64)).astype(dtype)
    b = rng.standard_normal((64, 17)).astype(dtype)
    y = nr.ops.matmul(nr.asarray(a), nr.asarray(b), dtype="float32").numpy()
    assert y.dtype == np.float32
    check_general(y, a, b)
    y16 = nr.ops.matmul(nr.asarray(a.astype(np.float32)), nr.asarray(b.astype(np.float32)), dtype="float16").numpy()
    assert y16.dtype == np.float16
    check_general(y16, a.astype(np.float32), b.astype(np.float32))


@pytest.mark.parametrize("sa,sb", [((2, 1, 5, 7), (3, 7, 4)), ((5, 7), (2, 3, 7, 4)), ((4, 1, 1, 5, 7), (1, 3, 1, 7, 2)),
                                   ((7,), (2, 7, 3)), ((2, 5, 7), (7,)), ((7,), (7,))])
def test_matmul_broadcast_and_vectors(sa, sb):
    rng = np.random.default_rng(len(sa) * 10 + len(sb))
    a = rng.standard_normal(sa).astype(np.float32)
    b = rng.standard_normal(sb).astype(np.float32)
    y = nr.ops.matmul(nr.asarray(a), nr.asarray(b)).numpy()
    check_general(y, a, b)


def test_matmul_large_and_full_check_level():
    rng = np.random.default_rng(5)
    a = rng.standard_normal((1023, 257)).astype(np.float32)
    b = rng.standard_normal((257, 1023)).astype(np.float32)
    check_general(nr.ops.matmul(nr.asarray(a), nr.asarray(b)).numpy(), a, b)
    a2 = rng.standard_normal((3, 40, 33)).astype(BF16)
    b2 = rng.standard_normal((17, 33)).astype(BF16)
    bias = rng.standard_normal(17).astype(np.float32)
    with nr.debug.sim_check_level("full"):
        y = nr.ops.matmul(nr.asarray(a2), nr.asarray(b2), nr.asarray(bias), trans_b=True).numpy()
        g = nr.ops.matmul_backward(nr.asarray(rng.standard_normal((3, 40, 17)).astype(BF16)), nr.asarray(a2),
                                   nr.asarray(b2), trans_b=True)
        [x.numpy() for x in g]
    check_general(y, a2, b2, tb=True, bias=bias)


def _grads_ref(dy, a, b, ta, tb):
    """float64 analytic gradients of sum(dy * (op(a) @ op(b))), summed over broadcast dims."""
    a64, b64, dy64 = (x.astype(np.float64) for x in (a, b, dy))
    A, B = _op(a64, ta), _op(b64, tb)
    A2 = A[None, :] if A.ndim == 1 else A
    B2 = B[:, None] if B.ndim == 1 else B
    D = np.matmul(A2, B2)
    dy2 = dy64.reshape(D.shape)
    dA = np.matmul(dy2, np.swapaxes(B2, -1, -2))
    dB = np.matmul(np.swapaxes(A2, -1, -2), dy2)

    def reduce_to(g, shape2, shape):
        while g.ndim > len(shape2):
            g = g.sum(axis=0)
        for i, s in enumerate(shape2):
            if s == 1 and g.shape[i] != 1:
                g = g.sum(axis=i, keepdims=True)
        return g.reshape(shape)
    da = reduce_to(dA, A2.shape, A.shape)
    db = reduce_to(dB, B2.shape, B.shape)
    return _op(da, ta), _op(db, tb)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("sa,sb", [((15, 33), (33, 17)), ((2, 3, 16, 20), (20, 9)), ((3, 1, 5, 7), (2, 7, 4))])
def test_matmul_backward_against_reference(dtype, ta, tb, sa, sb):
    rng = np.random.default_rng(len(sa) + 10 * ta + 20 * tb)
    a = rng.standard_normal(sa).astype(dtype)
    b = rng.standard_normal(sb).astype(dtype)
    if ta:
        a = np.ascontiguousarray(np.swapaxes(a, -1, -2))
    if tb:
        b = np.ascontiguousarray(np.swapaxes(b, -1, -2))
    y_shape = np.matmul(_op(a.astype(np.float32), ta), _op(b.astype(np.float32), tb)).shape
    dy = rng.standard_normal(y_shape).astype(dtype)
    da, db = nr.ops.matmul_backward(nr.asarray(dy), nr.asarray(a), nr.asarray(b), trans_a=ta, trans_b=tb)
    da, db = da.numpy(), db.numpy()
    ra, rb = _grads_ref(dy, a, b, ta, tb)
    assert da.shape == a.shape and db.shape == b.shape and da.dtype == dtype
    for got, ref, contracted in ((da, ra, y_shape[-1] * (dy.size // np.prod(y_shape[-2:]))),
                                 (db, rb, dy.size // y_shape[-1])):
        tol = (contracted + 1) * 2.0**-24 * np.abs(ref).max() * 8 + OUT_EPS[np.dtype(dtype)] * np.abs(ref) + 1e-30
        assert np.all(np.abs(got.astype(np.float64) - ref) <= tol)


def test_matmul_backward_finite_differences():
    """d/da of L = sum(dy * matmul(a, b)) by central differences of the forward kernel."""
    rng = np.random.default_rng(11)
    a = rng.standard_normal((2, 6, 5)).astype(np.float32)
    b = rng.standard_normal((5, 4)).astype(np.float32)
    dy = rng.standard_normal((2, 6, 4)).astype(np.float32)
    da, db = (g.numpy() for g in nr.ops.matmul_backward(nr.asarray(dy), nr.asarray(a), nr.asarray(b)))

    def loss(a_, b_):
        return float(np.sum(dy.astype(np.float64) * nr.ops.matmul(nr.asarray(a_), nr.asarray(b_)).numpy()))
    h = 1e-2
    for idx in [(0, 0, 0), (1, 5, 4), (0, 3, 2)]:
        ap, am = a.copy(), a.copy()
        ap[idx] += h
        am[idx] -= h
        fd = (loss(ap, b) - loss(am, b)) / (2 * h)
        assert abs(fd - da[idx]) <= 1e-3 * (1 + abs(fd)), (idx, fd, da[idx])
    for idx in [(0, 0), (4, 3), (2, 1)]:
        bp, bm = b.copy(), b.copy()
        bp[idx] += h
        bm[idx] -= h
        fd = (loss(a, bp) - loss(a, bm)) / (2 * h)
        assert abs(fd - db[idx]) <= 1e-3 * (1 + abs(fd)), (idx, fd, db[idx])


def test_matmul_backward_errors():
    a = nr.asarray(np.ones((4, 5), np.float32))
    b = nr.asarray(np.ones((5, 3), np.float32))
    with pytest.raises(nr.InvalidArgumentError, match="matmul_backward.*'dy'.*shape"):
        nr.ops.matmul_backward(nr.asarray(np.ones((4, 4), np.float32)), a, b)
    with pytest.raises(nr.UnsupportedDtypeError, match="matmul_backward.*'dy'.*dtype"):
        nr.ops.matmul_backward(nr.asarray(np.ones((4, 3), np.float16)), a, b)
    da, db = nr.ops.matmul_backward(nr.asarray(np.ones((4, 3), np.float32)), a, b)
    np.testing.assert_array_equal(da.numpy(), np.full((4, 5), 3.0, np.float32))
    np.testing.assert_array_equal(db.numpy(), np.full((5, 3), 4.0, np.float32))
