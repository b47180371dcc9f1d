"""npurt.linalg._spectral (qr, eigh, eigvalsh, svd, svdvals) against numpy.linalg in float64.

Eigen/singular vectors are not unique (signs, order within repeated values), so
the tests compare invariants: the reconstruction A = Q R = V diag(w) V^T =
U diag(S) Vh, orthonormality, R upper triangular, and the values against
numpy's. Tolerance: TOL[dtype] * max(1, n) * max(1, ||A||) (Householder and
Jacobi are backward stable: errors grow like n eps ||A||); float32 uses
eps32 * 30, float64 eps64 * 30. Both the UB and the GM work area are tested
(gm_work=True through npurt.ops).
"""
import numpy as np
import pytest

import npurt as nr
from npurt.linalg import _spectral as L

TOL = {"float32": 30 * np.finfo(np.float32).eps, "float64": 30 * np.finfo(np.float64).eps}
DTYPES = ["float32", "float64"]
SQUARE = [1, 2, 3, 15, 33]
RECT = [(4, 3), (3, 4), (15, 7), (7, 15), (33, 5), (1, 6), (6, 1)]


def _rng(seed=0):
    return np.random.default_rng(seed)


def _tol(dtype, a):
    n = max(a.shape[-2:]) if a.size else 1
    scale = max(1.0, float(np.abs(a).max())) if a.size else 1.0
    return TOL[dtype] * max(1, n) * scale


def _np(x):
    return np.asarray(x)


def _mT(a):
    return np.swapaxes(a, -1, -2)


def _assert_orthonormal_columns(q, tol):
    k = q.shape[-1]
    np.testing.assert_allclose(_mT(q) @ q, np.broadcast_to(np.eye(k), q.shape[:-2] + (k, k)), atol=tol)


def _symmetric_from_lower(a):
    low = np.tril(a)
    return low + _mT(np.tril(a, -1))


# ---- qr -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(n, n) for n in SQUARE] + RECT + [(2, 3, 5, 5), (2, 3, 6, 4)])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr_reconstructs_with_orthonormal_q(dtype, shape, mode):
    a = _rng().standard_normal(shape).astype(dtype)
    q, r = (_np(z) for z in L.qr(nr.asarray(a), mode=mode))
    ref_q, ref_r = np.linalg.qr(a.astype(np.float64), mode=mode)
    assert q.shape == ref_q.shape and r.shape == ref_r.shape and q.dtype == a.dtype
    tol = _tol(dtype, a)
    np.testing.assert_allclose(q @ r, a, atol=tol)
    _assert_orthonormal_columns(q, tol)
    assert not np.tril(r, -1).any()  # exact zeros below the diagonal
    np.testing.assert_allclose(np.abs(np.diagonal(r, axis1=-2, axis2=-1)),
                               np.abs(np.diagonal(ref_r, axis1=-2, axis2=-1)), atol=tol)


@pytest.mark.parametrize("shape", [(5, 4), (4, 6), (2, 7, 7)])
def test_qr_gm_work_area_matches_ub(shape):
    x = nr.asarray(_rng(2).standard_normal(shape))
    for complete in (False, True):
        ub = [_np(z) for z in nr.ops.linalg_qr(x, complete=complete)]
        gm = [_np(z) for z in nr.ops.linalg_qr(x, complete=complete, gm_work=True)]
        for u, g in zip(ub, gm):
            np.testing.assert_array_equal(u, g)  # same arithmetic, only the storage differs


def test_qr_rank_deficient_and_zero_columns():
    a = np.zeros((5, 3))
    a[:, 1] = np.arange(5.0)
    q, r = (_np(z) for z in L.qr(nr.asarray(a)))
    np.testing.assert_allclose(q @ r, a, atol=1e-13)
    _assert_orthonormal_columns(q, 1e-13)


@pytest.mark.parametrize("shape", [(0, 0), (0, 3), (3, 0), (2, 0, 4)])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr_empty(shape, mode):
    a = np.zeros(shape)
    q, r = (_np(z) for z in L.qr(nr.asarray(a), mode=mode))
    ref_q, ref_r = np.linalg.qr(a, mode=mode)
    assert q.shape == ref_q.shape and r.shape == ref_r.shape
    np.testing.assert_allclose(q, ref_q)  # the identity for complete [m, 0]


def test_qr_large_matrix_takes_the_gm_path():
    a = _rng(3).standard_normal((150, 100))  # work: 2 * 150 * 100 + 100 doubles, more than the UB
    assert "(GM workspace)" in nr.ops.describe("linalg_qr", (150, 100), dtype="float64")
    assert "(UB)" in nr.ops.describe("linalg_qr", (100, 100), dtype="float32")
    q, r = (_np(z) for z in L.qr(nr.asarray(a)))
    np.testing.assert_allclose(q @ r, a, atol=_tol("float64", a))
    _assert_orthonormal_columns(q, _tol("float64", a))


# ---- eigh / eigvalsh ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(n, n) for n in SQUARE] + [(2, 3, 4, 4)])
def test_eigh_reconstructs_from_the_lower_triangle(dtype, shape):
    a = _rng(4).standard_normal(shape).astype(dtype)
    a = a + np.triu(np.full(shape[-2:], 1e3, dtype))  # garbage above the diagonal: never read
    w, v = (_np(z) for z in L.eigh(nr.asarray(a)))
    s = _symmetric_from_lower(a.astype(np.float64))
    tol = _tol(dtype, s)
    np.testing.assert_allclose(w, np.linalg.eigvalsh(s), atol=tol)
    assert (np.diff(w, axis=-1) >= 0).all()
    np.testing.assert_allclose((v * w[..., None, :]) @ _mT(v), s, atol=tol)
    _assert_orthonormal_columns(v, tol)
    np.testing.assert_allclose(_np(L.eigvalsh(nr.asarray(a))), w, atol=tol)


def test_eigh_repeated_eigenvalues_and_diagonal_input():
    for a in (np.eye(6), np.diag([3.0, -1.0, 3.0, 0.0, -1.0]), np.ones((5, 5))):
        w, v = (_np(z) for z in L.eigh(nr.asarray(a)))
        np.testing.assert_allclose(w, np.linalg.eigvalsh(a), atol=1e-13)
        np.testing.assert_allclose((v * w[None, :]) @ v.T, a, atol=1e-13)
        _assert_orthonormal_columns(v, 1e-13)


def test_eigh_gm_work_area_matches_ub():
    x = nr.asarray(_symmetric_from_lower(_rng(5).standard_normal((2, 9, 9))))
    ub = [_np(z) for z in nr.ops.linalg_eigh(x)]
    gm = [_np(z) for z in nr.ops.linalg_eigh(x, gm_work=True)]
    for u, g in zip(ub, gm):
        np.testing.assert_array_equal(u, g)


def test_eigh_large_matrix():
    a = _symmetric_from_lower(_rng(6).standard_normal((100, 100)))
    w, v = (_np(z) for z in L.eigh(nr.asarray(a)))
    tol = _tol("float64", a)
    np.testing.assert_allclose(w, np.linalg.eigvalsh(a), atol=tol)
    np.testing.assert_allclose((v * w[None, :]) @ v.T, a, atol=tol)


# ---- svd / svdvals --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(n, n) for n in SQUARE] + RECT + [(2, 3, 5, 4), (2, 3, 3, 6)])
@pytest.mark.parametrize("full", [False, True])
def test_svd_reconstructs(dtype, shape, full):
    a = _rng(7).standard_normal(shape).astype(dtype)
    u, s, vh = (_np(z) for z in L.svd(nr.asarray(a), full_matrices=full))
    ref_u, ref_s, ref_vh = np.linalg.svd(a.astype(np.float64), full_matrices=full)
    assert (u.shape, s.shape, vh.shape) == (ref_u.shape, ref_s.shape, ref_vh.shape)
    tol = _tol(dtype, a)
    np.testing.assert_allclose(s, ref_s, atol=tol)
    assert (np.diff(s, axis=-1) <= 0).all()
    k = s.shape[-1]
    np.testing.assert_allclose((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, atol=tol)
    _assert_orthonormal_columns(u, tol)
    _assert_orthonormal_columns(_mT(vh), tol)
    np.testing.assert_allclose(_np(L.svdvals(nr.asarray(a))), s, atol=tol)


@pytest.mark.parametrize("full", [False, True])
def test_svd_rank_deficient_completes_orthonormal_vectors(full):
    rng = _rng(8)
    a = rng.standard_normal((7, 2)) @ rng.standard_normal((2, 5))  # rank 2
    for m in (a, a.T, np.zeros((4, 3)), np.ones((3, 3))):
        u, s, vh = (_np(z) for z in L.svd(nr.asarray(m), full_matrices=full))
        tol = _tol("float64", m)
        np.testing.assert_allclose(s, np.linalg.svd(m, compute_uv=False), atol=tol)
        k = s.shape[-1]
        np.testing.assert_allclose((u[:, :k] * s) @ vh[:k], m, atol=tol)
        _assert_orthonormal_columns(u, tol)
        _assert_orthonormal_columns(vh.T, tol)


def test_svd_gm_work_area_matches_ub():
    x = nr.asarray(_rng(9).standard_normal((2, 6, 4)))
    for full in (False, True):
        ub = [_np(z) for z in nr.ops.linalg_svd(x, full_matrices=full)]
        gm = [_np(z) for z in nr.ops.linalg_svd(x, full_matrices=full, gm_work=True)]
        for u, g in zip(ub, gm):
            np.testing.assert_array_equal(u, g)


def test_svd_large_and_wide():
    a = _rng(10).standard_normal((100, 100))
    u, s, vh = (_np(z) for z in L.svd(nr.asarray(a), full_matrices=False))
    tol = _tol("float64", a)
    np.testing.assert_allclose(s, np.linalg.svd(a, compute_uv=False), atol=tol)
    np.testing.assert_allclose((u * s) @ vh, a, atol=tol)


@pytest.mark.parametrize("shape", [(0, 0), (0, 3), (3, 0), (2, 0, 2)])
@pytest.mark.parametrize("full", [False, True])
def test_svd_empty(shape, full):
    a = np.zeros(shape)
    u, s, vh = (_np(z) for z in L.svd(nr.asarray(a), full_matrices=full))
    ref = np.linalg.svd(a, full_matrices=full)
    assert (u.shape, s.shape, vh.shape) == tuple(r.shape for r in ref)
    np.testing.assert_allclose(u, ref[0])
    np.testing.assert_allclose(vh, ref[2])


# ---- robustness -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_input_is_reported_without_hanging(bad):
    # numpy's policy (test_nonfinite.py has it per function): eigvalsh raises for NaN/inf in the lower
    # triangle, svdvals for NaN; an inf alone gives NaN singular values. The finite matrix is unaffected.
    a = np.arange(9.0).reshape(3, 3)
    a[2, 0] = bad
    batch = np.stack([a, np.eye(3)])
    if np.isnan(bad):
        with pytest.raises(L.LinAlgError, match="npurt.linalg.svdvals: argument 'x': SVD did not converge"):
            L.svdvals(nr.asarray(batch))
    else:
        s = _np(L.svdvals(nr.asarray(batch)))
        assert np.isnan(s[0]).all()
        np.testing.assert_allclose(s[1], np.ones(3))
    with pytest.raises(L.LinAlgError, match="npurt.linalg.eigvalsh: argument 'x': Eigenvalues did not converge"):
        L.eigvalsh(nr.asarray(batch))
    w, _, info = (_np(z) for z in nr.ops.linalg_eigh(nr.asarray(batch)))
    assert np.isnan(w[0]).all() and info[0] == -2
    np.testing.assert_allclose(w[1], np.ones(3))
    q, r = (_np(z) for z in L.qr(nr.asarray(a)))
    assert not np.isfinite(r).all()


def test_non_contiguous_inputs():
    base = _rng(11).standard_normal((6, 8))
    view = nr.asarray(base)[::2, 1::2]  # strided view [3, 4]
    tview = nr.asarray(base).mT  # transposed view [8, 6]
    np.testing.assert_allclose(_np(L.svdvals(view)), np.linalg.svd(base[::2, 1::2], compute_uv=False), atol=1e-13)
    np.testing.assert_allclose(_np(L.svdvals(tview)), np.linalg.svd(base.T, compute_uv=False), atol=1e-13)
    q, r = (_np(z) for z in L.qr(tview))
    np.testing.assert_allclose(q @ r, base.T, atol=1e-13)


def test_sweep_cap_reports_non_convergence():
    x = nr.asarray(_symmetric_from_lower(_rng(12).standard_normal((2, 8, 8))))
    _, _, info = nr.ops.linalg_eigh(x, max_sweeps=1)
    assert (_np(info) == -1).all()
    with pytest.raises(nr.InvalidArgumentError, match=r"npurt.linalg.eigh: argument 'x': the iteration .* not converge"):
        L._check_converged("npurt.linalg.eigh", info)
    *_, info = nr.ops.linalg_svd(x, max_sweeps=1)
    assert (_np(info) == -1).all()
    *_, info = nr.ops.linalg_svd(x)
    assert (_np(info) >= 1).all()
    L._check_converged("npurt.linalg.svd", info)  # converged: no error
    with pytest.raises(nr.InvalidArgumentError, match="max_sweeps"):
        nr.ops.linalg_svd(x, max_sweeps=-1)


@pytest.mark.parametrize("fn", [L.qr, L.eigh, L.eigvalsh, L.svd, L.svdvals])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "int32", "int64", "bool", "complex64"])
def test_refused_dtypes_name_the_function(fn, dtype):
    x = nr.zeros((3, 3), dtype=getattr(nr, dtype))
    with pytest.raises(nr.UnsupportedDtypeError, match=rf"npurt.linalg.{fn.__name__}: argument 'x': {dtype}"):
        fn(x)
    np.testing.assert_allclose(_np(L.svdvals(nr.asarray(np.eye(2)))), [1.0, 1.0])  # runtime still usable


@pytest.mark.parametrize("fn", [L.qr, L.eigh, L.eigvalsh, L.svd, L.svdvals])
def test_bad_arguments(fn):
    with pytest.raises(nr.InvalidArgumentError, match="at least 2 dimensions"):
        fn(nr.zeros((3,)))
    with pytest.raises(nr.ArgumentTypeError, match="expected an npurt.ndarray"):
        fn([[1.0]])
    if fn in (L.eigh, L.eigvalsh):
        with pytest.raises(nr.InvalidArgumentError, match="square"):
            fn(nr.zeros((2, 3)))


def test_bad_keywords():
    with pytest.raises(nr.InvalidArgumentError, match="npurt.linalg.qr: argument 'mode'"):
        L.qr(nr.zeros((2, 2)), mode="r")
    with pytest.raises(nr.ArgumentTypeError, match="npurt.linalg.svd: argument 'full_matrices'"):
        L.svd(nr.zeros((2, 2)), full_matrices="yes")


@pytest.mark.parametrize("dtype,scale", [("float32", 1e30), ("float32", 1e-30), ("float32", 1e-42),
                                         ("float64", 1e300), ("float64", 1e-300)])
def test_huge_and_tiny_entries_are_scaled_not_overflowed(dtype, scale):
    # Squares of such entries overflow / underflow the dtype: the kernels scale each matrix by a power of two
    base = _rng(13).standard_normal((5, 4))
    a = (base * scale).astype(dtype)
    a64 = a.astype(np.float64)
    rel = 100 * np.finfo(dtype).eps if scale > 1e-40 else 1e-2  # 1e-42: float32 subnormals (few bits)
    s = _np(L.svdvals(nr.asarray(a))).astype(np.float64)
    np.testing.assert_allclose(s, np.linalg.svd(a64, compute_uv=False), rtol=rel, atol=0)
    q, r = (_np(z).astype(np.float64) for z in L.qr(nr.asarray(a)))
    np.testing.assert_allclose(q @ r, a64, atol=rel * np.abs(a64).max())
    sym = np.tril(a[:4]) + np.tril(a[:4], -1).T
    w = _np(L.eigvalsh(nr.asarray(sym))).astype(np.float64)
    np.testing.assert_allclose(w, np.linalg.eigvalsh(sym.astype(np.float64)), atol=rel * np.abs(a64).max())


def test_scaling_by_a_power_of_two_is_exact():
    # The kernels' power-of-two scaling commutes with every rounding: 2^k A gives 2^k times the values.
    a = _rng(14).standard_normal((6, 5))
    s = _np(L.svdvals(nr.asarray(a)))
    np.testing.assert_array_equal(_np(L.svdvals(nr.asarray(a * 2.0**40))), s * 2.0**40)
    r = _np(L.qr(nr.asarray(a)).R)
    np.testing.assert_array_equal(_np(L.qr(nr.asarray(a * 2.0**-40)).R), r * 2.0**-40)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(100, 20), (20, 100), (2, 3, 9, 4), (2, 3, 4, 9), (8, 4), (4, 8), (40, 1), (1, 40)])
def test_reduced_svd_of_long_matrices_goes_through_qr(dtype, shape):
    # M >= 2N (or N >= 2M): Jacobi runs on R of A = Q R (of A^T); same invariants as the direct kernel.
    a = _rng(15).standard_normal(shape).astype(dtype)
    u, s, vh = (_np(z) for z in L.svd(nr.asarray(a), full_matrices=False))
    direct_s = _np(nr.ops.linalg_svd(nr.asarray(a), vectors=False)[1])
    tol = _tol(dtype, a)
    np.testing.assert_allclose(s, np.linalg.svd(a.astype(np.float64), compute_uv=False), atol=tol)
    np.testing.assert_allclose(s, direct_s, atol=tol)
    np.testing.assert_allclose((u * s[..., None, :]) @ vh, a, atol=tol)
    _assert_orthonormal_columns(u, tol)
    _assert_orthonormal_columns(_mT(vh), tol)
    np.testing.assert_allclose(_np(L.svdvals(nr.asarray(a))), s, atol=tol)


def test_ill_conditioned_hilbert_matrix():
    n = 10  # condition ~1.6e13
    h = 1.0 / (np.arange(n)[:, None] + np.arange(n)[None, :] + 1.0)
    s = _np(L.svdvals(nr.asarray(h)))
    np.testing.assert_allclose(s, np.linalg.svd(h, compute_uv=False), atol=_tol("float64", h))
    w, v = (_np(z) for z in L.eigh(nr.asarray(h)))
    np.testing.assert_allclose(w, np.linalg.eigvalsh(h), atol=_tol("float64", h))
    np.testing.assert_allclose((v * w) @ v.T, h, atol=_tol("float64", h))
    q, r = (_np(z) for z in L.qr(nr.asarray(h)))
    np.testing.assert_allclose(q @ r, h, atol=_tol("float64", h))
    assert int(_np(L.matrix_rank(nr.asarray(h)))) == np.linalg.matrix_rank(h)


@pytest.mark.parametrize("method", ["ql", "jacobi"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (3, 3), (15, 15), (33, 33), (2, 3, 6, 6)])
def test_eigh_both_methods(method, dtype, shape):
    # linalg_eigh runs tridiagonalization + QL by default (what eigh uses), cyclic Jacobi on request.
    a = _rng(16).standard_normal(shape).astype(dtype)
    s = _symmetric_from_lower(a.astype(np.float64))
    x = nr.asarray(a)
    w, v, info = (_np(z) for z in nr.ops.linalg_eigh(x, method=method))
    tol = _tol(dtype, s)
    assert (info >= 1).all()
    np.testing.assert_allclose(w, np.linalg.eigvalsh(s), atol=tol)
    np.testing.assert_allclose((v * w[..., None, :]) @ _mT(v), s, atol=tol)
    _assert_orthonormal_columns(v, tol)
    w_only, v_none, _ = (_np(z) for z in nr.ops.linalg_eigh(x, method=method, vectors=False))
    assert v_none.size == 0
    np.testing.assert_array_equal(w_only, w) if method == "ql" else np.testing.assert_allclose(w_only, w, atol=tol)
    gm = [_np(z) for z in nr.ops.linalg_eigh(x, method=method, gm_work=True)]
    np.testing.assert_array_equal(gm[0], w)
    np.testing.assert_array_equal(gm[1], v)


def test_eigh_method_and_cap_errors():
    x = nr.asarray(_symmetric_from_lower(_rng(17).standard_normal((8, 8))))
    assert int(_np(nr.ops.linalg_eigh(x, method="jacobi", max_sweeps=1)[2])) == -1
    with pytest.raises(nr.InvalidArgumentError, match="argument 'method'"):
        nr.ops.linalg_eigh(x, method="qr")
