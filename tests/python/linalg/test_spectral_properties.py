"""Property tests (hypothesis) of npurt.linalg._spectral: for random stacks of small matrices of
any shape (side 0..9, up to 2 batch axes, float32/float64, entries in [-1e3, 1e3] with repeats and
zeros allowed), qr, eigh and svd satisfy their invariants (reconstruction, orthonormality,
ordering) within 50 eps * n * max(1, ||A||_max), whatever path (direct Jacobi, through QR, UB or GM
work area) the shape takes."""
import numpy as np
import pytest

import npurt as nr
from npurt.linalg import _spectral as L

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

SETTINGS = settings(max_examples=40, deadline=None)
ELEMENTS = st.floats(-1e3, 1e3, allow_nan=False, width=32) | st.sampled_from([0.0, 1.0, -1.0])


@st.composite
def stacks(draw, square=False):
    dtype = draw(st.sampled_from(["float32", "float64"]))
    batch = draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=1, max_side=2))
    m = draw(st.integers(0, 9))
    n = m if square else draw(st.integers(0, 9))
    return draw(hnp.arrays(dtype, batch + (m, n), elements=ELEMENTS))


def _tol(a):
    n = max(a.shape[-2:]) if a.size else 1
    return 50 * np.finfo(a.dtype).eps * max(1, n) * max(1.0, float(np.abs(a).max()) if a.size else 1.0)


def _eye_like(k, batch):
    return np.broadcast_to(np.eye(k), batch + (k, k))


@SETTINGS
@given(stacks(), st.sampled_from(["reduced", "complete"]))
def test_qr_properties(a, mode):
    q, r = (np.asarray(z) for z in L.qr(nr.asarray(a), mode=mode))
    tol = _tol(a)
    np.testing.assert_allclose(q @ r, a, atol=tol)
    np.testing.assert_allclose(np.swapaxes(q, -1, -2) @ q, _eye_like(q.shape[-1], a.shape[:-2]), atol=tol)
    assert not np.tril(r, -1).any()


@SETTINGS
@given(stacks(square=True))
def test_eigh_properties(a):
    s = np.tril(a) + np.swapaxes(np.tril(a, -1), -1, -2)
    w, v = (np.asarray(z) for z in L.eigh(nr.asarray(a)))
    tol = _tol(a)
    assert (np.diff(w, axis=-1) >= 0).all()
    np.testing.assert_allclose((v * w[..., None, :]) @ np.swapaxes(v, -1, -2), s, atol=tol)
    np.testing.assert_allclose(np.swapaxes(v, -1, -2) @ v, _eye_like(v.shape[-1], a.shape[:-2]), atol=tol)


@SETTINGS
@given(stacks(), st.booleans())
def test_svd_properties(a, full):
    u, s, vh = (np.asarray(z) for z in L.svd(nr.asarray(a), full_matrices=full))
    tol = _tol(a)
    k = s.shape[-1]
    assert (np.diff(s, axis=-1) <= 0).all() and (s >= 0).all()
    np.testing.assert_allclose((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, atol=tol)
    np.testing.assert_allclose(np.swapaxes(u, -1, -2) @ u, _eye_like(u.shape[-1], a.shape[:-2]), atol=tol)
    np.testing.assert_allclose(vh @ np.swapaxes(vh, -1, -2), _eye_like(vh.shape[-2], a.shape[:-2]), atol=tol)
    np.testing.assert_allclose(s, np.linalg.svd(a.astype(np.float64), compute_uv=False), atol=tol)
