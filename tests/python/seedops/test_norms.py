"""layer_norm / rms_norm and their backward kernels against float64 numpy references.

Error bounds (the reference is computed in float64 from the dtype-rounded inputs
and, for backward, from the same saved mean/rstd the kernel gets):
  - internal float32 error: K(D) = 2^-24 * (64 + D / 16) relative to the scale of the
    terms summed (ReduceSum adds 64-lane tree partials sequentially, so the bound grows
    with D / 64);
  - output rounding: u = 0 (float32), 2^-11 (float16), 2^-8 (bfloat16) relative to
    |ref|, plus 2^-24 absolute for float16 subnormals.
  y:      |y - ref| <= u |ref| + K(D) (|xhat| |gamma| + |mean| rstd |gamma| + |beta| + 1)
          (the float32 mean's error, <= K(D) |mean|, shifts xhat by that times rstd)
  mean:   |mean - ref| <= K(D) mean(|x|);   rstd: |rstd - ref| <= 4 K(D) rstd + dm^2 rstd^3 / 2
          (dm = mean - ref of layer_norm, 0 for rms_norm: the centred squares carry dm^2)
  dx:     |dx - ref| <= u |ref| + 4 K(D) rstd (|g| + mean|g| + |xhat| mean|g xhat|)
  dgamma: |dg - ref| <= u |ref| + 2^-24 (64 + rows) sum|dy xhat|   (dbeta alike with |dy|)
"""
import numpy as np
import pytest

import npurt as nr

from seedop_tolerance import ATOL, BF16, DTYPES, F16, F32, U_OUT, assert_within, k_int


def ln_ref(x, gamma, beta, eps, rms=False):
    x64 = x.astype(np.float64)
    mean = np.zeros(x.shape[:-1]) if rms else x64.mean(-1)
    var = (x64**2).mean(-1) if rms else x64.var(-1)
    rstd = 1.0 / np.sqrt(var + eps)
    xhat = (x64 - mean[..., None]) * rstd[..., None]
    g = np.ones(x.shape[-1]) if gamma is None else gamma.astype(np.float64)
    b = np.zeros(x.shape[-1]) if beta is None else beta.astype(np.float64)
    return xhat * g + b, mean, rstd, xhat, g, b


def run_forward(x, gamma, beta, eps, rms, **kw):
    args = [nr.asarray(x), None if gamma is None else nr.asarray(gamma)]
    if rms:
        y, rstd = nr.ops.rms_norm(*args, eps=eps, **kw)
        return y.numpy(), None, rstd.numpy()
    y, mean, rstd = nr.ops.layer_norm(*args, None if beta is None else nr.asarray(beta), eps=eps, **kw)
    return y.numpy(), mean.numpy(), rstd.numpy()


def check_forward(x, gamma, beta, eps=1e-5, rms=False, out_dtype=None, **kw):
    y, mean, rstd = run_forward(x, gamma, beta, eps, rms, **kw)
    ref, mref, rref, xhat, g, b = ln_ref(x, gamma, beta, eps, rms)
    dt = out_dtype or x.dtype
    assert y.dtype == dt and y.shape == x.shape
    assert rstd.dtype == F32 and rstd.shape == x.shape[:-1]
    d = x.shape[-1]
    shift = (np.abs(mref) * rref)[..., None] * np.abs(g)
    tol = U_OUT[dt] * np.abs(ref) + k_int(d) * (np.abs(xhat) * np.abs(g) + shift + np.abs(b) + 1) + ATOL[dt]
    assert_within(y, ref, tol, "y")
    # The kernel centres with its float32 mean: that mean's error dm (<= K(D) mean|x|)
    # adds dm^2 to the variance, visible only on (near-)constant rows far from 0.
    dm = 0.0 if rms else mean.astype(np.float64) - mref
    assert_within(rstd, rref, 4 * k_int(d) * rref + 0.5 * dm**2 * rref**3, "rstd")
    if not rms:
        assert mean.dtype == F32 and mean.shape == x.shape[:-1]
        assert_within(mean, mref, k_int(d) * np.abs(x.astype(np.float64)).mean(-1) + 1e-37, "mean")


SHAPES = [(17,), (1, 1), (4, 63), (3, 64), (5, 65), (7, 1023), (6, 1024), (3, 4096), (2, 100000), (1000, 33), (2, 3, 15)]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_layer_norm_forward(dtype, shape):
    rng = np.random.default_rng(sum(shape))
    x = (rng.standard_normal(shape) * 3 + 1).astype(dtype)
    g = rng.standard_normal(shape[-1]).astype(dtype)
    b = rng.standard_normal(shape[-1]).astype(dtype)
    check_forward(x, g, b)
    check_forward(x, None, None)
    check_forward(x, g, None)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_rms_norm_forward(dtype, shape):
    rng = np.random.default_rng(sum(shape) + 1)
    x = rng.standard_normal(shape).astype(dtype)
    g = rng.standard_normal(shape[-1]).astype(dtype)
    check_forward(x, g, None, eps=1e-6, rms=True)
    check_forward(x, None, None, eps=1e-6, rms=True)


@pytest.mark.parametrize("dtype", [F16, BF16], ids=str)
def test_float32_outputs_on_request(dtype):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((9, 200)).astype(dtype)
    g = rng.standard_normal(200).astype(dtype)
    check_forward(x, g, None, out_dtype=F32, dtype="float32")
    check_forward(x, g, None, eps=1e-6, rms=True, out_dtype=F32, dtype="float32")


def test_many_rows_and_seed_shape():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((32, 256, 1024)).astype(np.float16)
    g = rng.standard_normal(1024).astype(np.float16)
    b = rng.standard_normal(1024).astype(np.float16)
    check_forward(x, g, b)


@pytest.mark.parametrize("dtype", [F32, F16], ids=str)
@pytest.mark.parametrize("rms", [False, True], ids=["layer", "rms"])
def test_each_row_keeps_its_own_statistics(dtype, rms):
    """The forward kernel reads a whole tile's row sums back at once (one slot
    per row): rows with very different scales and offsets, over several tiles
    per core and a partial last tile, must each get their own mean/rstd."""
    rng = np.random.default_rng(7)
    rows, d = 1001, 1024  # 910B3: 39 cores x 26 rows (tail 13), tiles of 11 (f32) or 14 (f16) rows: partial last tiles
    scale = 2.0 ** rng.integers(-6, 7, rows)
    offset = rng.standard_normal(rows) * 50
    x = (rng.standard_normal((rows, d)) * scale[:, None] + offset[:, None]).astype(dtype)
    g = rng.standard_normal(d).astype(dtype)
    b = rng.standard_normal(d).astype(dtype)
    check_forward(x, g, None if rms else b, eps=1e-6 if rms else 1e-5, rms=rms)


@pytest.mark.parametrize("dtype,out", [(F16, ""), (BF16, ""), (F32, ""), (F16, "float32")], ids=str)
@pytest.mark.parametrize("d", [1024, 1023, 33])
@pytest.mark.parametrize("rms", [False, True], ids=["layer", "rms"])
def test_rows_do_not_depend_on_their_tile_position(dtype, out, d, rms):
    """The forward kernel works a pair of rows at a time (rows 2k and 2k + 1 of
    a tile, the last row of an odd tile alone): float16/bfloat16 rows are cast
    two per call into the first two rows of the float tile, and the pair's rstd
    comes from one Rsqrt over two lanes (one for a row alone). Every row must
    come out with the bits it gets when it is computed on its own (a one-row
    input: a tile of one row), whether it was the first or second of a pair,
    or alone, for each staging: fp16/bf16 in and out, float32, and float16 in
    with float32 out (the float rows are then y's own)."""
    rng = np.random.default_rng(d)
    rows = 1001  # several tiles per core, partial (odd and even) last tiles
    x = (rng.standard_normal((rows, d)) * 2.0 ** rng.integers(-4, 5, (rows, 1)) + 3).astype(dtype)
    g = rng.standard_normal(d).astype(dtype)
    b = None if rms else rng.standard_normal(d).astype(dtype)
    eps = 1e-6 if rms else 1e-5
    y, mean, rstd = run_forward(x, g, b, eps, rms, dtype=out)
    bits = np.uint32 if y.dtype == F32 else np.uint16
    for i in [0, 1, 2, 13, 14, 25, 26, 27, rows - 2, rows - 1]:
        yi, mi, ri = run_forward(x[i : i + 1], g, b, eps, rms, dtype=out)
        np.testing.assert_array_equal(yi[0].view(bits), y[i].view(bits), err_msg=f"row {i}")
        np.testing.assert_array_equal(ri, rstd[i : i + 1])
        if not rms:
            np.testing.assert_array_equal(mi, mean[i : i + 1])


def test_large_mean_offset_keeps_variance_accurate():
    # A one-pass E[x^2] - E[x]^2 would lose every digit here; the centred sums do not.
    rng = np.random.default_rng(5)
    x = (1e4 + rng.standard_normal((8, 4096))).astype(np.float32)
    check_forward(x, None, None)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("d", [1, 15, 33, 1023, 1024])
def test_offset_and_near_constant_rows_stay_within_the_bound(dtype, d):
    """Rows whose |mean| is 0 to 1000 times their std, near-constant rows (one
    element a few ulp off) and constant rows, mixed in one tile, in every dtype
    and at odd widths: the documented bound holds for each. A one-pass variance
    (E[x^2] - mean^2) must fall back to the centred sum on the large-offset
    rows to pass ("Layer_norm float16 seven-call row (wave 10)" in
    docs/performance.md)."""
    rng = np.random.default_rng(d)
    ratios = [0.0, 0.5, 1.0, 2.0, 30.0, 1000.0]  # |mean| / std
    rows = []
    for r in ratios:
        noise = rng.standard_normal(d)
        rows.append(r * (1 + np.abs(noise).mean()) + noise)
    for c in [3.0, -7.5, 250.0]:
        near = np.full(d, c)
        near[rng.integers(0, d)] = c * (1 + 2.0**-6)  # a few float16/bfloat16 ulp off the rest
        rows += [near, np.full(d, c)]
    x = np.stack(rows * 3).astype(dtype)  # several tiles' worth of each kind
    g = rng.standard_normal(d).astype(dtype)
    b = rng.standard_normal(d).astype(dtype)
    check_forward(x, g, b)


def test_eps_handling():
    x = np.zeros((3, 16), np.float32)
    x[1] = 5.0  # constant rows: var = 0, rstd = 1/sqrt(eps)
    for eps in (1e-5, 0.5):
        _, mean, rstd = run_forward(x, None, None, eps, False)
        np.testing.assert_allclose(rstd, np.full(3, 1 / np.sqrt(eps)), rtol=1e-6)
        np.testing.assert_allclose(mean, [0, 5, 0])
    y, _, rstd = run_forward(x, None, None, 0.0, False)
    assert np.isinf(rstd).all() and np.isnan(y).all()  # 0 * inf, as in float64 numpy
    with pytest.raises(nr.InvalidArgumentError, match="layer_norm.*'eps'"):
        nr.ops.layer_norm(nr.asarray(x), eps=-1.0)
    with pytest.raises(nr.InvalidArgumentError, match="rms_norm.*'eps'"):
        nr.ops.rms_norm(nr.asarray(x), eps=float("nan"))


@pytest.mark.parametrize("dtype", [F32, F16], ids=str)
@pytest.mark.parametrize("d", [64, 1023, 100000])
def test_nan_inf_stay_in_their_row(dtype, d):
    """Rows 0-1 and 2-3 are pairs of a tile (their means are read back
    together, float16 rows are cast together): a NaN or inf row must not leak
    into its pair partner."""
    x = np.random.default_rng(6).standard_normal((4, d)).astype(dtype)
    x[1, 3], x[2, d // 2] = np.nan, np.inf
    for rms in (False, True):
        y, _, rstd = run_forward(x, None, None, 1e-5, rms)
        assert np.isnan(y[1]).all() and np.isnan(y[2]).all() if not rms else np.isnan(y[1, 3])
        assert np.isfinite(y[[0, 3]]).all() and np.isfinite(rstd[[0, 3]]).all()


def test_empty_and_views():
    for shape in [(0, 64), (4, 0), (0,)]:
        x = np.zeros(shape, np.float32)
        y, mean, rstd = nr.ops.layer_norm(nr.asarray(x))
        assert y.shape == shape and mean.shape == shape[:-1] and rstd.shape == shape[:-1]
    rng = np.random.default_rng(7)
    base = rng.standard_normal((6, 130)).astype(np.float32)
    view = nr.asarray(base)[::2, 1::2]  # non-contiguous: the dispatcher copies on the device
    y, _, _ = nr.ops.layer_norm(view)
    ref = ln_ref(base[::2, 1::2], None, None, 1e-5)[0]
    assert_within(y.numpy(), ref, 2e-6 * (np.abs(ref) + 1), "view")
    row = nr.broadcast_to(nr.asarray(base[0]), (5, 130))  # broadcast (zero-stride) view
    y, _ = nr.ops.rms_norm(row)
    ref = ln_ref(np.broadcast_to(base[0], (5, 130)), None, None, 1e-6, rms=True)[0]
    assert_within(y.numpy(), ref, 2e-6 * (np.abs(ref) + 1), "broadcast")


def test_errors_name_op_and_argument_and_runtime_stays_usable():
    x = nr.asarray(np.ones((4, 8), np.float32))
    with pytest.raises(nr.InvalidArgumentError, match="layer_norm.*'gamma'.*shape"):
        nr.ops.layer_norm(x, nr.asarray(np.ones(7, np.float32)))
    with pytest.raises(nr.InvalidArgumentError, match="layer_norm.*'beta'.*dtype"):
        nr.ops.layer_norm(x, None, nr.asarray(np.ones(8, np.float16)))
    with pytest.raises(nr.InvalidArgumentError, match="rms_norm.*'x'"):
        nr.ops.rms_norm(nr.asarray(np.ones((4, 8), np.int32)))
    with pytest.raises(nr.InvalidArgumentError, match="layer_norm.*'x'.*rank"):
        nr.ops.layer_norm(nr.asarray(np.float32(1.0)))
    with pytest.raises(nr.InvalidArgumentError, match="layer_norm.*'dtype'"):
        nr.ops.layer_norm(x, dtype="int8")
    with pytest.raises(nr.InvalidArgumentError, match="layer_norm_backward.*'rstd'"):
        nr.ops.layer_norm_backward(x, x, nr.asarray(np.ones(4, np.float32)), nr.asarray(np.ones(3, np.float32)))
    with pytest.raises(nr.InvalidArgumentError, match="rms_norm.*Ascend310P3"):
        nr.ops.describe("rms_norm", (4, 8), profile="310P3")
    check_forward(np.arange(32, dtype=np.float32).reshape(4, 8), None, None)  # still usable


def test_describe_shows_the_plans():
    text = nr.ops.describe("layer_norm", (32, 256, 1024), (1024,), (1024,), dtype="float16")
    assert "single pass per row" in text and "blocks=40" in text and "depth=2" in text
    text = nr.ops.describe("rms_norm", (4, 100000))
    assert "multi-pass" in text and "chunks=" in text
    text = nr.ops.describe("layer_norm_backward", (64, 512), (64, 512), (64,), (64,), (512,))
    assert "dx:" in text and "split=cols" in text


# ---- backward -------------------------------------------------------------------------


def backward_ref(dy, x, mean, rstd, gamma, rms):
    d64, x64 = dy.astype(np.float64), x.astype(np.float64)
    m = np.zeros(x.shape[:-1]) if rms else mean.astype(np.float64)
    r = rstd.astype(np.float64)
    xhat = (x64 - m[..., None]) * r[..., None]
    gm = np.ones(x.shape[-1]) if gamma is None else gamma.astype(np.float64)
    g = d64 * gm
    mg = np.zeros(x.shape[:-1]) if rms else g.mean(-1)
    mgx = (g * xhat).mean(-1)
    dx = r[..., None] * (g - mg[..., None] - xhat * mgx[..., None])
    scale = r[..., None] * (np.abs(g) + np.abs(g).mean(-1, keepdims=True) + np.abs(xhat) * np.abs(g * xhat).mean(-1, keepdims=True))
    red = tuple(range(x.ndim - 1))
    return dx, scale, (d64 * xhat).sum(red), np.abs(d64 * xhat).sum(red), d64.sum(red), np.abs(d64).sum(red)


def check_backward(x, gamma, dy, rms, **kw):
    y, mean, rstd = run_forward(x, gamma, None, 1e-5, rms)
    nx, ndy, nrs = nr.asarray(x), nr.asarray(dy), nr.asarray(rstd)
    ng = None if gamma is None else nr.asarray(gamma)
    if rms:
        dx, dg = nr.ops.rms_norm_backward(ndy, nx, nrs, ng, **kw)
        db = None
    else:
        dx, dg, db = nr.ops.layer_norm_backward(ndy, nx, nr.asarray(mean), nrs, ng, **kw)
    ref, scale, gref, gmag, bref, bmag = backward_ref(dy, x, mean, rstd, gamma, rms)
    dt = np.dtype(kw.get("dtype") or x.dtype)
    assert dx.numpy().dtype == dt
    rows, d = x.size // max(x.shape[-1], 1), x.shape[-1]
    assert dx.shape == x.shape and dg.shape == (d,)
    assert_within(dx.numpy(), ref, U_OUT[dt] * np.abs(ref) + 4 * k_int(d) * scale + ATOL[dt], "dx")
    assert_within(dg.numpy(), gref, U_OUT[dt] * np.abs(gref) + 2.0**-24 * (64 + rows) * gmag + ATOL[dt], "dgamma")
    if db is not None:
        assert db.shape == (d,)
        assert_within(db.numpy(), bref, U_OUT[dt] * np.abs(bref) + 2.0**-24 * (64 + rows) * bmag + ATOL[dt], "dbeta")


@pytest.mark.parametrize("rms", [False, True], ids=["layer", "rms"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(1, 1), (5, 63), (4, 64), (3, 65), (33, 1024), (2, 4096), (2, 100000), (600, 33)],
                         ids=str)
def test_backward_vs_analytic(rms, dtype, shape):
    rng = np.random.default_rng(sum(shape) + rms)
    x = (rng.standard_normal(shape) + 0.5).astype(dtype)
    dy = rng.standard_normal(shape).astype(dtype)
    g = rng.standard_normal(shape[-1]).astype(dtype)
    check_backward(x, g, dy, rms)
    check_backward(x, None, dy, rms)


def test_backward_float32_outputs_and_empty():
    rng = np.random.default_rng(8)
    x = rng.standard_normal((7, 40)).astype(BF16)
    check_backward(x, rng.standard_normal(40).astype(BF16), rng.standard_normal((7, 40)).astype(BF16), False,
                   dtype="float32")
    z = nr.asarray(np.zeros((0, 5), np.float32))
    dx, dg, db = nr.ops.layer_norm_backward(z, z, nr.asarray(np.zeros(0, np.float32)), nr.asarray(np.zeros(0, np.float32)))
    assert dx.shape == (0, 5)
    np.testing.assert_array_equal(dg.numpy(), np.zeros(5, np.float32))
    np.testing.assert_array_equal(db.numpy(), np.zeros(5, np.float32))


def numeric_grads(f, args, h=1e-6):
    """Central differences of the scalar f over every element of every array in args (float64)."""
    grads = []
    for a in args:
        g = np.zeros_like(a)
        for i in np.ndindex(a.shape):
            old = a[i]
            a[i] = old + h
            up = f(*args)
            a[i] = old - h
            down = f(*args)
            a[i] = old
            g[i] = (up - down) / (2 * h)
        grads.append(g)
    return grads


@pytest.mark.parametrize("rms", [False, True], ids=["layer", "rms"])
def test_backward_by_finite_differences(rms):
    """The float64 analytic reference equals central differences of the float64 forward,
    and the kernel's float32 gradients match that reference; a second check takes the
    differences of the kernel's own float32 forward (coarse step, loose bound)."""
    rng = np.random.default_rng(9)
    x, gamma, beta = rng.standard_normal((3, 7)), rng.standard_normal(7), rng.standard_normal(7)
    w = rng.standard_normal((3, 7))  # loss = sum(w * y): dy = w
    loss = lambda x_, g_, b_: float((w * ln_ref(x_, g_, None if rms else b_, 1e-5, rms)[0]).sum())
    gx, gg, gb = numeric_grads(loss, [x, gamma, beta])
    _, mean, rstd, _, _, _ = ln_ref(x, gamma, beta, 1e-5, rms)
    dx, _, dgam, _, dbet, _ = backward_ref(w, x, mean, rstd, gamma, rms)
    np.testing.assert_allclose(dx, gx, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(dgam, gg, rtol=1e-6, atol=1e-7)
    if not rms:
        np.testing.assert_allclose(dbet, gb, rtol=1e-6, atol=1e-7)
    x32, g32, w32 = x.astype(np.float32), gamma.astype(np.float32), w.astype(np.float32)
    check_backward(x32, g32, w32, rms)

    def kernel_loss(x_):
        y = run_forward(x_.astype(np.float32), g32, None, 1e-5, rms)[0]
        return float((w * y.astype(np.float64)).sum())

    (gx32,) = numeric_grads(kernel_loss, [x.astype(np.float32).astype(np.float64)], h=1e-2)
    args = [nr.asarray(w32), nr.asarray(x32)]
    y, mean32, rstd32 = run_forward(x32, g32, None, 1e-5, rms)
    if rms:
        kdx = nr.ops.rms_norm_backward(*args, nr.asarray(rstd32), nr.asarray(g32))[0].numpy()
    else:
        kdx = nr.ops.layer_norm_backward(*args, nr.asarray(mean32), nr.asarray(rstd32), nr.asarray(g32))[0].numpy()
    np.testing.assert_allclose(kdx, gx32, rtol=2e-2, atol=2e-2)


def test_clean_under_full_checks():
    rng = np.random.default_rng(10)
    with nr.debug.sim_check_level("full"):
        for shape, dt in [((37, 65), F16), ((6, 1024), F32), ((2, 70000), BF16), ((3, 15), F32)]:
            x = rng.standard_normal(shape).astype(dt)
            g = rng.standard_normal(shape[-1]).astype(dt)
            check_forward(x, g, g)
            check_forward(x, g, None, eps=1e-6, rms=True)
            check_backward(x, g, rng.standard_normal(shape).astype(dt), False)
            check_backward(x, None, rng.standard_normal(shape).astype(dt), True)
