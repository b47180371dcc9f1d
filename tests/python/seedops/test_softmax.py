"""softmax / log_softmax and their backward kernels against float64 numpy references.

Error bounds (reference in float64 from the dtype-rounded inputs; float32 inside the
kernels; K(D) = 2^-24 * (64 + D / 16) covers the 64-lane tree + sequential ReduceSum,
Exp's 2 ulp and the x - max rounding; u = 0 / 2^-11 / 2^-8 output rounding for
float32 / float16 / bfloat16, plus ATOL, one subnormal spacing of the output dtype):
  softmax:      |y - ref| <= (u + K(D) (1 + |x - max|)) |ref|
  log_softmax:  |y - ref| <= u |ref| + K(D) (|x - max| + |ln s| + 1)
  softmax_backward:     |dx - ref| <= u |ref| + 4 K(D) y (|dy| + sum|dy y|)
  log_softmax_backward: |dx - ref| <= u |ref| + 4 K(D) (|dy| + exp(y) sum|dy|)
"""
import numpy as np
import pytest

import npurt as nr

from seedop_tolerance import ATOL, BF16, DTYPES, F16, F32, U_OUT, assert_within, k_int


def ref_softmax(x):
    x64 = x.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        shifted = x64 - x64.max(-1, keepdims=True)
        e = np.exp(shifted)
        s = e.sum(-1, keepdims=True)
        return e / s, shifted - np.log(s), shifted, np.log(s)


def check(x, log, out_dtype=None, **kw):
    op = nr.ops.log_softmax if log else nr.ops.softmax
    y = op(nr.asarray(x), **kw).numpy()
    dt = out_dtype or x.dtype
    assert y.dtype == dt and y.shape == x.shape
    sm, lsm, shifted, lns = ref_softmax(x)
    d = x.shape[-1] if x.ndim else 1
    np.seterr(invalid="ignore")  # inf * 0 in the bounds of -inf entries (exact matches are accepted first)
    if log:
        tol = U_OUT[dt] * np.abs(lsm) + k_int(d) * (np.abs(shifted) + np.abs(lns) + 1) + ATOL[dt]
        assert_within(y, lsm, tol, "log_softmax")
    else:
        tol = (U_OUT[dt] + k_int(d) * (1 + np.abs(shifted))) * sm + ATOL[dt]
        assert_within(y, sm, tol, "softmax")
    return y


# (203, 1024) and (9, 5000): many 16 KiB forward tiles with a partial last one, and one-row tiles.
SHAPES = [(17,), (1, 1), (4, 63), (3, 64), (5, 65), (7, 1023), (6, 1024), (3, 4096), (2, 100000), (2000, 15), (2, 3, 33),
          (203, 1024), (9, 5000)]


@pytest.mark.parametrize("log", [False, True], ids=["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_forward(log, dtype, shape):
    rng = np.random.default_rng(sum(shape) + log)
    x = (rng.standard_normal(shape) * 4).astype(dtype)
    check(x, log)


def adversarial_rows(d, seed):
    """Rows aimed at the unshifted softmax path's edges (kDirectSumMin / kDirectSumMax):
    equal rows whose sum d exp(v) lies just under / at / just over 1 and just under /
    just over 2^120, all -inf but one entry, subnormal exp(x) next to a max near 0 or
    everywhere (s < 1), large exps (s near the top), -0.0 entries and an all -0.0 row."""
    rng = np.random.default_rng(seed)
    top = 120 * np.log(2) - np.log(d)
    rows = [np.full(d, v, np.float32) for v in (-np.log(d) - 1e-6, -np.log(d), -np.log(d) + 1e-6, top - 1e-5, top + 1e-5)]
    for at, v in ((d // 2, 5.0), (d - 1, -100.0)):
        rows.append(np.full(d, -np.inf, np.float32))
        rows[-1][at] = v
    rows.append(rng.uniform(-200, -80, d).astype(np.float32))
    rows[-1][0] = 0.1
    rows.append(rng.uniform(-200, -80, d).astype(np.float32))
    rows.append(rng.uniform(40, 80, d).astype(np.float32))
    rows.append((rng.standard_normal(d) * 4).astype(np.float32))
    rows[-1][0] = -0.0
    rows.append(np.full(d, -0.0, np.float32))
    return np.stack(rows)


# Row lengths: one element, ragged (15, 33, 1023), whole 32-byte tiles (4096), one-row
# tiles (5000) and the online multi-chunk plan (100000, which never takes the unshifted path).
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("d", [1, 15, 33, 1023, 4096, 5000, 100000])
def test_adversarial_rows_keep_the_bound(d, dtype):
    """The bound holds on both sides of the sum test, with ATOL one subnormal spacing
    of the output dtype (float32: 2^-149; subnormal outputs measured within 0.9 of it
    beyond the relative term); special values match numpy; log_softmax on the same rows."""
    x = adversarial_rows(d, d).astype(dtype)
    for log in (False, True):
        y = check(x, log).astype(np.float32)
        assert np.isfinite(y[7:]).all() and (np.isfinite(y) if not log else np.isfinite(y[:5])).all()
        assert (y[5, np.arange(d) != d // 2] == (-np.inf if log else 0)).all()
        if not log and dtype == F32:
            assert (y[[5, 6], [d // 2, d - 1]] == 1).all()  # the lone finite entry


@pytest.mark.parametrize("dtype", [F32, F16], ids=str)
def test_adversarial_rows_clean_under_full_checks(dtype):
    with nr.debug.sim_check_level("full"):
        for d in (15, 1024, 5000):
            x = adversarial_rows(d, d + 1).astype(dtype)
            check(x, False)
            check(x, True)


@pytest.mark.parametrize("log", [False, True], ids=["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", [F16, BF16], ids=str)
def test_float32_output_on_request(log, dtype):
    x = (np.random.default_rng(1).standard_normal((5, 300)) * 4).astype(dtype)
    check(x, log, out_dtype=F32, dtype="float32")


@pytest.mark.parametrize("d", [8, 100000])
def test_special_values_match_numpy(d):
    """-inf entries get 0 / -inf, a row of -inf or any NaN / +inf gives NaN (as numpy);
    a long row whose first chunks are all -inf still normalizes over the rest."""
    x = np.random.default_rng(2).standard_normal((6, d)).astype(np.float32)
    x[0, : d // 2] = -np.inf
    x[1, :] = -np.inf
    x[2, 1] = np.nan
    x[3, 0] = np.inf
    x[4, 2] = 80.0  # large, but finite after subtracting the max
    for log in (False, True):
        y = check(x, log)
        assert np.isnan(y[1:4]).all()
        assert np.isfinite(y[[4, 5]]).all()
        assert (y[0, : d // 2] == (-np.inf if log else 0)).all()


def test_large_magnitudes_do_not_overflow():
    x = np.array([[1e4, 1e4 - 1, -1e4], [-1e38, 2e38, 0]], np.float32)  # x - max stays finite
    check(x, False)
    check(x, True)


@pytest.mark.parametrize("d", [8, 1024])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_rows_around_the_unshifted_exp_condition(d, dtype):
    """softmax rows try exp(x) / sum exp(x) without the max pass and keep it when the sum s
    lies in [1, 2^120] (kDirectSumMin / kDirectSumMax in softmax_kernel.cc); rows outside
    (s < 1, s > 2^120, overflow to +inf, -inf, NaN) take the shifted path. Both stay within
    the bound and match numpy's special values (log_softmax, always shifted, on the same rows)."""
    rng = np.random.default_rng(d)
    x = rng.standard_normal((18, d)).astype(np.float32)
    x[0] -= x[0].max()  # max exactly 0: direct
    x[1] -= x[1].max() + np.float32(1e-6)  # max just below 0, s > 1: direct
    x[2] = x[2] * 4 + (64 - (x[2] * 4).max())  # max 64: direct, sum ~ d * 6e27
    x[3] = x[2] + np.float32(2 ** -17)  # max 64 + 2^-17: direct
    x[4, :] = 64.0  # every exp(x) at its largest
    x[5] = rng.uniform(-120, 0.5, d).astype(np.float32)  # subnormal exp(x) entries next to the max
    x[5, 0] = 0.5
    x[6, : d // 2] = -np.inf  # -inf entries, finite max >= 0
    x[6, -1] = 3.0
    x[7, :] = -np.inf  # all -inf: NaN
    x[8, 1] = np.nan
    x[9, 0] = np.inf
    big = 3e4 if dtype == F16 else 1e30  # log_softmax of -big stays finite in float16
    x[10, 0], x[10, 1] = big, -big  # huge: exp overflows, shifted
    x[11] = rng.uniform(-1e-30, 1e-30, d).astype(np.float32)  # max a tiny positive or negative number
    x[12] = x[12] * 4 + 16  # rows of both kinds in one tile
    x[13] = x[12] - 40
    x[14, :] = -np.log(d) - 0.25  # s = e^-0.25 < 1: shifted, exactly 1 / d
    x[15, :] = -1.0  # max < 0, s = d / e >= 1: direct
    x[16, :] = 80.0  # s = d e^80: above 2^120 (shifted) for d = 1024, below (direct) for d = 8
    x[17, :] = 90.0  # exp(90) = +inf in float32: shifted, exactly 1 / d
    x = x.astype(dtype)
    for log in (False, True):
        y = check(x, log).astype(np.float32)
        assert np.isnan(y[7:10]).all() and np.isfinite(y[[0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 16, 17]]).all()
        assert (y[6, : d // 2] == (-np.inf if log else 0)).all()
        if log or dtype != F32:
            continue
        assert np.abs(y[[4, 15, 16]] - 1 / d).max() <= 2 ** -22 / d
        # the shifted rows: x - max = 0 exactly, so exp = 1, s = d and y = 1 / d to the bit
        shifted = [14, 17] + ([16] if d == 1024 else [])
        assert (y[shifted] == np.float32(1 / d)).all()


def test_axis_attribute():
    x = np.random.default_rng(3).standard_normal((4, 6, 1)).astype(np.float32)
    # an axis followed only by size-1 dims: still contiguous rows
    sm, lsm = ref_softmax(x[..., 0])[:2]
    np.testing.assert_allclose(nr.ops.softmax(nr.asarray(x), axis=1).numpy()[..., 0], sm, rtol=1e-5, atol=1e-8)
    np.testing.assert_allclose(nr.ops.log_softmax(nr.asarray(x), axis=-2).numpy()[..., 0], lsm, rtol=1e-5, atol=1e-6)
    y = nr.asarray(np.random.default_rng(4).standard_normal((4, 6)).astype(np.float32))
    with pytest.raises(nr.InvalidArgumentError, match="log_softmax.*'axis'.*out of bounds"):
        nr.ops.log_softmax(y, axis=2)
    # the backward kernels keep the last axis only, naming the workaround
    with pytest.raises(nr.InvalidArgumentError, match="softmax_backward.*'axis'.*last axis.*moveaxis"):
        nr.ops.softmax_backward(y, y, axis=0)
    with pytest.raises(nr.InvalidArgumentError, match="log_softmax_backward.*'axis'.*last axis"):
        nr.ops.log_softmax_backward(y, y, axis=-2)
    np.testing.assert_allclose(nr.ops.softmax(y, axis=0).numpy(), ref_softmax(y.numpy().T)[0].T, rtol=1e-5, atol=1e-7)


def check_axis(x, axis, log, **kw):
    """softmax over a non-last axis (the column plan) against the last-axis reference of the moved array."""
    op = nr.ops.log_softmax if log else nr.ops.softmax
    y = op(nr.asarray(x), axis=axis, **kw).numpy()
    dt = np.dtype(kw.get("dtype") or x.dtype)
    assert y.dtype == dt and y.shape == x.shape
    moved = np.moveaxis(x, axis, -1)
    sm, lsm, shifted, lns = ref_softmax(moved)
    d = x.shape[axis]
    got = np.moveaxis(y, axis, -1)
    np.seterr(invalid="ignore")
    if log:
        tol = U_OUT[dt] * np.abs(lsm) + k_int(d) * (np.abs(shifted) + np.abs(lns) + 1) + ATOL[dt]
        assert_within(got, lsm, tol, f"log_softmax axis={axis}")
    else:
        tol = (U_OUT[dt] + k_int(d) * (1 + np.abs(shifted))) * sm + ATOL[dt]
        assert_within(got, sm, tol, f"softmax axis={axis}")


AXIS_CASES = [((4, 6), 0), ((3, 5, 7), 0), ((3, 5, 7), 1), ((3, 5, 7), -2), ((2, 33, 15), 1), ((1, 1023, 3), 1),
              ((2, 8, 16, 64), 1), ((15, 1, 9), 1), ((1, 4100, 5), 1), ((65, 2, 2, 2), 0)]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape,axis", AXIS_CASES, ids=[f"{s}-{a}" for s, a in AXIS_CASES])
@pytest.mark.parametrize("log", [False, True], ids=["softmax", "log_softmax"])
def test_any_axis(shape, axis, log, dtype):
    x = (np.random.default_rng(sum(shape) + axis).standard_normal(shape) * 4).astype(dtype)
    check_axis(x, axis, log)


@pytest.mark.parametrize("log", [False, True], ids=["softmax", "log_softmax"])
def test_any_axis_float32_output_views_and_specials(log):
    x = np.random.default_rng(7).standard_normal((6, 40, 9)).astype(np.float16)
    check_axis(x, 1, log, dtype="float32")
    base = np.random.default_rng(8).standard_normal((9, 12, 30)).astype(np.float32)
    view = nr.asarray(base)[::2, 1:, ::-3]  # the runtime makes it contiguous on the device
    y = (nr.ops.log_softmax if log else nr.ops.softmax)(view, axis=0).numpy()
    ref = ref_softmax(np.moveaxis(base[::2, 1:, ::-3], 0, -1))[1 if log else 0]
    np.testing.assert_allclose(np.moveaxis(y, 0, -1), ref, rtol=1e-5, atol=1e-6)
    s = np.random.default_rng(9).standard_normal((5, 6)).astype(np.float32)
    s[:, 0] = np.nan, 1, 2, 3, 4          # a NaN in the column: the column is NaN
    s[:, 1] = -np.inf                     # only -inf: NaN (as numpy)
    s[:, 2] = np.inf, 0, 1, 2, 3          # +inf: NaN
    s[:, 3] = [-np.inf, 0, 1, 2, 3]       # -inf entries give 0 (-inf for log_softmax)
    s[:, 4] = [1e4, 1e4 - 1, -1e4, 0, 5]  # x - max stays finite
    check_axis(s, 0, log)


def test_any_axis_clean_under_full_checks_and_described():
    x = np.random.default_rng(10).standard_normal((3, 70, 33)).astype(np.float32)
    big = np.random.default_rng(11).standard_normal((4200, 3)).astype(np.float16)  # three passes per chunk
    with nr.debug.sim_check_level("full"):
        check_axis(x, 1, False)
        check_axis(x.astype(BF16), 0, True)
        check_axis(big, 0, False)
    text = nr.ops.describe("softmax", nr.asarray(x), axis=1)
    assert "column plan" in text and "one load per chunk" in text, text
    assert "three passes" in nr.ops.describe("softmax", nr.asarray(big), axis=0)


def test_empty_views_and_errors():
    for shape in [(0, 8), (3, 0), (0,)]:
        assert nr.ops.softmax(nr.asarray(np.zeros(shape, np.float32))).shape == shape
    base = np.random.default_rng(5).standard_normal((8, 70)).astype(np.float32)
    view = nr.asarray(base)[1::3, ::-2]
    np.testing.assert_allclose(nr.ops.softmax(view).numpy(), ref_softmax(base[1::3, ::-2])[0], rtol=1e-5, atol=1e-8)
    bc = nr.broadcast_to(nr.asarray(base[0]), (3, 70))
    np.testing.assert_allclose(nr.ops.log_softmax(bc).numpy(), ref_softmax(np.broadcast_to(base[0], (3, 70)))[1],
                               rtol=1e-5, atol=1e-5)
    with pytest.raises(nr.InvalidArgumentError, match="softmax.*'x'.*rank"):
        nr.ops.softmax(nr.asarray(np.float32(2.0)))
    with pytest.raises(nr.UnsupportedDtypeError, match="softmax.*'x'"):
        nr.ops.softmax(nr.asarray(np.ones((2, 3), np.int32)))
    with pytest.raises(nr.InvalidArgumentError, match="softmax_backward.*'y'.*shape"):
        nr.ops.softmax_backward(nr.asarray(base), nr.asarray(base[:, :5].copy()))
    with pytest.raises(nr.InvalidArgumentError, match="log_softmax_backward.*'y'.*dtype"):
        nr.ops.log_softmax_backward(nr.asarray(base), nr.asarray(base.astype(np.float16)))
    check(base, False)  # the runtime is still usable


def test_describe_shows_the_plan():
    text = nr.ops.describe("softmax", (4096, 1024))
    assert "rows in UB" in text and "blocks=40" in text and "depth=2" in text
    # Forward tiles hold at most 16 KiB of output rows (kForwardTileBytes), one row when longer.
    assert "tile=4x1024 " in text
    assert "tile=8x1024 " in nr.ops.describe("log_softmax", (4096, 1024), dtype="float16")
    assert "tile=1x5000 " in nr.ops.describe("softmax", (4096, 5000))
    assert "tile=2x2048 " in nr.ops.describe("softmax", (4096, 2048))
    text = nr.ops.describe("log_softmax", (4, 100000), dtype="float16")
    assert "online softmax" in text and "multi-pass" in text


# ---- backward --------------------------------------------------------------------------


def check_backward(dy, y, log, **kw):
    op = nr.ops.log_softmax_backward if log else nr.ops.softmax_backward
    dx = op(nr.asarray(dy), nr.asarray(y), **kw).numpy()
    dt = np.dtype(kw.get("dtype") or dy.dtype)
    assert dx.dtype == dt and dx.shape == dy.shape
    d64, y64 = dy.astype(np.float64), y.astype(np.float64)
    d = dy.shape[-1]
    if log:
        ref = d64 - np.exp(y64) * d64.sum(-1, keepdims=True)
        scale = np.abs(d64) + np.exp(y64) * np.abs(d64).sum(-1, keepdims=True)
    else:
        ref = y64 * (d64 - (d64 * y64).sum(-1, keepdims=True))
        scale = np.abs(y64) * (np.abs(d64) + np.abs(d64 * y64).sum(-1, keepdims=True))
    assert_within(dx, ref, U_OUT[dt] * np.abs(ref) + 4 * k_int(d) * scale + ATOL[dt], "dx")


@pytest.mark.parametrize("log", [False, True], ids=["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(1, 1), (4, 63), (3, 64), (5, 65), (9, 1024), (2, 4096), (2, 100000), (700, 33)],
                         ids=str)
def test_backward_vs_analytic(log, dtype, shape):
    rng = np.random.default_rng(sum(shape) + 7 * log)
    x = (rng.standard_normal(shape) * 2).astype(dtype)
    y = (nr.ops.log_softmax if log else nr.ops.softmax)(nr.asarray(x)).numpy()
    check_backward(rng.standard_normal(shape).astype(dtype), y, log)


def test_backward_float32_output():
    rng = np.random.default_rng(8)
    x = rng.standard_normal((6, 90)).astype(BF16)
    y = nr.ops.softmax(nr.asarray(x)).numpy()
    check_backward(rng.standard_normal((6, 90)).astype(BF16), y, False, dtype="float32")


@pytest.mark.parametrize("log", [False, True], ids=["softmax", "log_softmax"])
def test_backward_by_finite_differences(log):
    """Central differences of the float64 forward give the analytic gradient the
    reference uses; the kernel's float32 dx matches it within the float32 bound."""
    rng = np.random.default_rng(9)
    x, w = rng.standard_normal((3, 9)), rng.standard_normal((3, 9))
    f = lambda x_: float((w * ref_softmax(x_)[1 if log else 0]).sum())
    h, num = 1e-6, np.zeros_like(x)
    for i in np.ndindex(x.shape):
        xp, xm = x.copy(), x.copy()
        xp[i] += h
        xm[i] -= h
        num[i] = (f(xp) - f(xm)) / (2 * h)
    y64 = ref_softmax(x)[1 if log else 0]
    ana = w - np.exp(y64) * w.sum(-1, keepdims=True) if log else y64 * (w - (w * y64).sum(-1, keepdims=True))
    np.testing.assert_allclose(ana, num, rtol=1e-6, atol=1e-8)
    y32 = (nr.ops.log_softmax if log else nr.ops.softmax)(nr.asarray(x.astype(np.float32))).numpy()
    dx = (nr.ops.log_softmax_backward if log else nr.ops.softmax_backward)(
        nr.asarray(w.astype(np.float32)), nr.asarray(y32)).numpy()
    np.testing.assert_allclose(dx, num, rtol=1e-4, atol=1e-5)


def test_clean_under_full_checks():
    rng = np.random.default_rng(10)
    with nr.debug.sim_check_level("full"):
        for shape, dt in [((37, 65), F16), ((6, 1024), F32), ((2, 70000), BF16), ((3, 15), F32)]:
            x = (rng.standard_normal(shape) * 3).astype(dt)
            for log in (False, True):
                y = check(x, log)
                check_backward(rng.standard_normal(shape).astype(dt), y, log)



# Rows that are whole, contiguous and 32-byte multiples load with one DataCopy
# per tile, which the simulator may leave pending and read from GM (copy
# elision); other shapes keep DataCopyPad. Where bytes are read must never
# change which bytes: results with elision on and off are compared bit for bit
# (dense tiles of every dtype, several tiles per core, a partial last tile, the
# column plan over a non-last axis, and non-dense rows as a control).
ELISION_CHILD = r"""
import sys
import numpy as np
import npurt as nr

rng = np.random.default_rng(11)
out = {}
for i, (shape, axis) in enumerate([((300, 1024), -1), ((37, 256), -1), ((5, 16), -1), ((4, 33), -1),
                                   ((6, 40, 64), 1)]):
    x = (rng.standard_normal(shape) * 4).astype(np.float32)
    out[f"{i}/x"] = x
    for dt in ("float32", "float16", "bfloat16"):
        xn = nr.asarray(x).astype(getattr(nr, dt))
        for name in ("softmax", "log_softmax"):
            out[f"{i}/{dt}/{name}"] = getattr(nr.ops, name)(xn, axis=axis).astype(nr.float32).numpy()
np.savez(sys.argv[1], **out)
"""


def test_dense_tiles_bit_identical_with_and_without_copy_elision(tmp_path):
    import os
    import subprocess
    import sys

    runs = []
    for elision in ("0", "1"):
        path = tmp_path / f"e{elision}.npz"
        env = dict(os.environ, NPURT_SIM_COPY_ELISION=elision)
        p = subprocess.run([sys.executable, "-c", ELISION_CHILD, str(path)], env=env, capture_output=True,
                           text=True, timeout=600)
        assert p.returncode == 0, p.stderr[-3000:]
        runs.append(dict(np.load(path)))
    eager, lazy = runs
    assert eager.keys() == lazy.keys() and len(eager) == 5 * 7
    for k in eager:
        assert eager[k].tobytes() == lazy[k].tobytes(), f"{k} differs with copy elision"
    x = lazy["0/x"]  # and the elided run is right, not merely repeatable
    sm, lsm, shifted, lns = ref_softmax(x)
    assert_within(lazy["0/float32/softmax"], sm, k_int(1024) * (1 + np.abs(shifted)) * sm, "softmax")
    assert_within(lazy["0/float32/log_softmax"], lsm, k_int(1024) * (np.abs(shifted) + np.abs(lns) + 1),
                  "log_softmax")
