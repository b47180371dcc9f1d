"""nr.ops.attention / attention_backward (fused flash attention) against float64 numpy.

Reference: SDPA in float64 from the inputs already rounded to their dtype. A
row whose every key is masked is defined as out = 0, lse = -inf, gradients 0
(npurt's choice, documented in docs/kernels.md; PyTorch's math path gives NaN).

Error bounds (per element, checked here; derivation in docs/kernels.md):
    out:  |out - ref| <= OUT_TOL[dtype] * (max|v| of the head + |ref|)
          float32 1e-5, float16 1.5e-3 (~3u), bfloat16 1.2e-2 (~3u) (P is rounded to the input type
          before the cube's P @ V; out is rounded once)
    lse:  |lse - ref| <= 2e-5 * (1 + |ref|) for every dtype (scores and sums are fp32)
    grads: |g - ref| <= GRAD_TOL[dtype] * max|ref of that tensor| (+ the same for float32)
"""
import ml_dtypes
import numpy as np
import pytest

import npurt as nr

BF16 = np.dtype(ml_dtypes.bfloat16)
F32, F16 = np.dtype(np.float32), np.dtype(np.float16)
DTYPES = [F32, F16, BF16]
OUT_TOL = {F32: 1e-5, F16: 1.5e-3, BF16: 1.2e-2}
GRAD_TOL = {F32: 2e-5, F16: 4e-3, BF16: 3e-2}


# ---- float64 reference ------------------------------------------------------------

def ref_scores(q, k, scale, causal, mask):
    q64, k64 = q.astype(np.float64), k.astype(np.float64)
    s = q64 @ np.swapaxes(k64, -1, -2) * scale
    if mask is not None:
        s = np.where(mask, s, -np.inf) if mask.dtype == bool else s + mask.astype(np.float64)
    if causal:
        sq, skv = s.shape[-2:]
        s = np.where(np.tril(np.ones((sq, skv), bool)), s, -np.inf)
    return s


def ref_probs(s):
    m = s.max(-1, keepdims=True)
    dead = np.isneginf(m)
    e = np.exp(s - np.where(dead, 0.0, m))
    l = e.sum(-1, keepdims=True)
    p = np.where(l > 0, e / np.where(l > 0, l, 1.0), 0.0)
    with np.errstate(divide="ignore"):
        lse = (np.where(dead, -np.inf, m) + np.log(l))[..., 0]
    return p, lse


def ref_attention(q, k, v, scale=None, causal=False, mask=None):
    scale = 1.0 / np.sqrt(q.shape[-1]) if not scale else scale
    p, lse = ref_probs(ref_scores(q, k, scale, causal, mask))
    return p @ v.astype(np.float64), lse, p


def ref_backward(dout, q, k, v, scale=None, causal=False, mask=None):
    scale = 1.0 / np.sqrt(q.shape[-1]) if not scale else scale
    out, _, p = ref_attention(q, k, v, scale, causal, mask)
    do, q64, k64, v64 = (x.astype(np.float64) for x in (dout, q, k, v))
    dv = np.swapaxes(p, -1, -2) @ do
    ds = p * (do @ np.swapaxes(v64, -1, -2) - (do * out).sum(-1, keepdims=True))
    return ds @ k64 * scale, np.swapaxes(ds, -1, -2) @ q64 * scale, dv


# ---- helpers ----------------------------------------------------------------------

def rand(rng, shape, dtype):
    return rng.standard_normal(shape).astype(dtype)


def run(q, k, v, mask=None, **attrs):
    m = None if mask is None else nr.asarray(mask)
    out, lse = nr.ops.attention(nr.asarray(q), nr.asarray(k), nr.asarray(v), m, **attrs)
    return out.numpy(), lse.numpy()


def check_forward(q, k, v, mask=None, scale=None, causal=False):
    attrs = {"causal": causal} | ({"scale": scale} if scale else {})
    out, lse = run(q, k, v, mask, **attrs)
    ref, ref_lse, p = ref_attention(q, k, v, scale, causal, mask)
    assert out.dtype == q.dtype and out.shape == q.shape
    assert lse.dtype == F32 and lse.shape == q.shape[:-1]
    vmax = np.abs(v.astype(np.float64)).max(axis=-2, keepdims=True).max(axis=-1, keepdims=True)
    tol = OUT_TOL[q.dtype] * vmax + OUT_TOL[q.dtype] * np.abs(ref) + 1e-30
    err = np.abs(out.astype(np.float64) - ref)
    assert not (err > tol).any(), f"out: worst {err.max():.3g} (tol {tol.min():.3g})"
    same_inf = np.isneginf(lse) == np.isneginf(ref_lse)
    assert same_inf.all(), "lse -inf rows differ"
    fin = np.isfinite(ref_lse)
    lerr = np.abs(lse[fin] - ref_lse[fin])
    assert not (lerr > 2e-5 * (1 + np.abs(ref_lse[fin]))).any(), f"lse: worst {lerr.max():.3g}"
    return out, lse


# ---- forward ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("qshape,kvlen", [
    ((1, 1, 1), 1), ((2, 5, 8), 5), ((2, 130, 63), 130), ((1, 200, 64), 200), ((1, 77, 65), 77),
    ((2, 2, 129, 128), 129), ((1, 3, 17, 32), 300), ((1, 2, 300, 16), 17), ((2, 1, 40), 1),
])
@pytest.mark.parametrize("causal", [False, True])
def test_forward_shapes(dtype, qshape, kvlen, causal):
    rng = np.random.default_rng(sum(qshape) + kvlen)
    kshape = qshape[:-2] + (kvlen, qshape[-1])
    check_forward(rand(rng, qshape, dtype), rand(rng, kshape, dtype), rand(rng, kshape, dtype), causal=causal)


# The row sums of a P tile (attention_row_sums.h) take one whole-tile path per
# tile width: 16/32/64 (one WholeReduceSum), 128 (halves + Add, split at 64
# rows); these lengths give last q tiles of 1, 15, 33, 63, 64, 65 and 127 rows.
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("qshape,kvlen", [
    ((1, 33, 64), 33), ((1, 15, 64), 1023), ((1, 1023, 64), 1023), ((2, 1, 193, 64), 129),
    ((1, 1, 192, 64), 256), ((1, 1, 129, 32), 33), ((1, 63, 16), 63),
])
@pytest.mark.parametrize("causal", [False, True])
def test_forward_row_sum_paths(dtype, qshape, kvlen, causal):
    rng = np.random.default_rng(sum(qshape) * 3 + kvlen)
    kshape = qshape[:-2] + (kvlen, qshape[-1])
    q, k, v = rand(rng, qshape, dtype), rand(rng, kshape, dtype), rand(rng, kshape, dtype)
    check_forward(q * 2, k, v, causal=causal)  # scores up to ~40: row sums far from 1


def test_forward_many_heads_use_several_blocks():
    rng = np.random.default_rng(3)
    q, k, v = (rand(rng, (4, 12, 70, 16), F32) for _ in range(3))
    plan = nr.ops.describe("attention", q.shape, k.shape, v.shape)
    assert "blocks=20" in plan  # 4 * 12 * 1 items over the 20 cube cores of the 910B profile
    check_forward(q, k, v)
    check_forward(q, k, v, causal=True)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("causal", [False, True])
def test_forward_lazy_rescale_reference_moves(dtype, causal):
    # Keys grow along the sequence, so row maxima keep rising from kv tile to kv
    # tile (the softmax reference must move mid-item and flush the P V partial
    # kept in L0C); an additive bias of +12 on a few (row, key block) pairs
    # makes single rows jump while the others stay put.
    rng = np.random.default_rng(21)
    q = rand(rng, (1, 2, 300, 64), dtype)
    k = (rng.standard_normal((1, 2, 700, 64)) * np.linspace(0.5, 4.0, 700)[:, None]).astype(dtype)
    v = rand(rng, (1, 2, 700, 64), dtype)
    mask = np.zeros((300, 700), np.float32)
    mask[5:9, 400:420] = 12.0
    mask[250:260, 130:140] = -30.0
    check_forward(q, k, v, scale=0.5, causal=causal)
    check_forward(q, k, v, mask=mask, causal=causal)


def test_forward_lazy_rescale_reference_stays():
    # Falling scores: after the first kv tile no row max passes the reference,
    # so P V accumulates in L0C over every kv tile and is flushed once.
    rng = np.random.default_rng(22)
    q, v = rand(rng, (2, 260, 32), F32), rand(rng, (2, 600, 32), F32)
    k = (rng.standard_normal((2, 600, 32)) * np.linspace(3.0, 0.2, 600)[:, None]).astype(F32)
    check_forward(q, k, v, scale=1.0)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_forward_optimistic_step_falls_back(dtype):
    # Later kv tiles first try exp under the unchanged references and check
    # the row sums (<= 2980 < e^8) afterwards. Here tile 0 sets the reference
    # to 10 (one key per row), tiles 1-2 put every key at 17: no row moves
    # (17 - 10 <= 8), but each row sums 128 e^7, so the try fails and the
    # tile is redone on the screened path, and the tile after a failed try
    # skips its try; tile 3 holds keys at 30, which move the reference, and
    # tile 4 is back at 17 under the new reference (tried and kept).
    rng = np.random.default_rng(31)
    q = np.zeros((1, 128, 16), np.float32)
    q[..., 0] = 1.0
    k = np.zeros((1, 640, 16), np.float32)
    k[0, 5, 0] = 10.0
    k[0, 128:384, 0] = 17.0
    k[0, 384:512, 0] = 30.0
    k[0, 512:, 0] = rng.uniform(12.0, 17.0, 128)
    v = rand(rng, (1, 640, 16), np.float32)
    check_forward(q.astype(dtype), k.astype(dtype), v.astype(dtype), scale=1.0)
    check_forward(q.astype(dtype), k.astype(dtype), v.astype(dtype), scale=1.0, causal=True)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("causal", [False, True])
def test_forward_zero_reference_paths(dtype, causal):
    # A shared softmax reference may be 0 when every row max lies in
    # [-spread, 6] (no subtraction pass before exp); an item's first tile
    # tries 0 and checks its row sums in [tile e^-spread, 2980] afterwards.
    # Flat: tile 0 at 2 passes that check (128 e^2), tile 1 at 5 fails the
    # optimistic check under 0 (128 e^5 > 2980) and the item moves to the
    # tile max instead (tiles 2-3 at 5.5 then pass under 5). High: tile 0 at
    # 5 fails the first check and the item keeps its tile max (5). Rising:
    # tile 0 at -40 fails the first check (below -spread), tile 1 at 0 moves
    # the reference to 0 (l and the accumulator scale by e^-40), tile 2 at 3
    # passes the check under 0, tile 3 at 7 fails it (128 e^7) and moves the
    # reference to 7. Low: tile 0 at -6 passes the first check in float32 and
    # bfloat16 but fails it in float16 (128 e^-6 < 128 e^-4), tile 1 at 2.
    # Six heads of four q tiles: more items than blocks, so some blocks run
    # an item after a failed first try (it skips its try, the next tries again).
    q = np.zeros((1, 6, 512, 16), np.float32)
    q[..., 0] = 1.0
    rng = np.random.default_rng(33)
    v = rand(rng, (1, 6, 512, 16), np.float32)
    tiles = {"flat": [2.0, 5.0, 5.5, 5.5], "high": [5.0, 5.0, 5.5, 5.5],
             "rising": [-40.0, 0.0, 3.0, 7.0], "low": [-6.0, 2.0, 2.0, 2.0]}
    for scores in tiles.values():
        k = np.zeros((1, 6, 512, 16), np.float32)
        for t, score in enumerate(scores):
            k[0, :, 128 * t:128 * (t + 1), 0] = score
        k[0, :, 128 + 7, 0] -= 1.0  # tile 1's rows are not all equal
        k[0, ::2, 3, 0] += 1.0      # nor are the heads
        check_forward(q.astype(dtype), k.astype(dtype), v.astype(dtype), scale=1.0, causal=causal)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_forward_large_scores_keep_the_optimistic_check_exact(dtype):
    # Scores near 2000 (an additive mask on every key, exact: the products are
    # small integers): the screened first tile leaves score-sized values in
    # scratch lanes that the optimistic check also reads. They are zeroed
    # before the next try, and a stale one could only send a tile down the
    # screened path, never skip a needed move: the result is the same.
    rng = np.random.default_rng(32)
    q = np.zeros((1, 2, 200, 16), np.float32)
    q[..., 0] = 1.0
    k = np.zeros((1, 2, 400, 16), np.float32)
    k[..., 0] = rng.integers(-4, 5, (1, 2, 400))
    v = rand(rng, (1, 2, 400, 16), np.float32)
    mask = np.full((200, 400), 2000.0, np.float32)
    check_forward(q.astype(dtype), k.astype(dtype), v.astype(dtype), mask=mask, scale=1.0)


@pytest.mark.parametrize("dtype,d,scale,plan", [
    (F32, 64, None, "Q resident in L0A and pre-scaled"),    # float: scale folded into Q
    (F32, 64, 0.3, "Q resident in L0A and pre-scaled"),
    (BF16, 64, None, "Q resident in L0A and pre-scaled"),   # 1/8: a power of two, exact in bf16
    (BF16, 80, None, "Q resident in L0A, a contiguous"),      # 1/sqrt(80) would round Q: scaled per tile
    (F16, 64, 0.3, "Q resident in L0A, a contiguous"),
    (F32, 256, None, "(bh, q tile) items, a contiguous"),     # D > the cube K step: Q reloaded per tile
])
def test_forward_plan_variants(dtype, d, scale, plan):
    rng = np.random.default_rng(d)
    q, k, v = (rand(rng, (1, 2, 150, d), dtype) for _ in range(3))
    attrs = {} if scale is None else {"scale": scale}
    desc = nr.ops.describe("attention", q.shape, k.shape, v.shape, dtype=str(dtype), **attrs)
    assert plan in desc, desc
    check_forward(q, k, v, scale=scale)
    check_forward(q, k, v, scale=scale, causal=True)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("spread", [2.0, 4.0, 12.0, 60.0])
@pytest.mark.parametrize("causal", [False, True])
def test_forward_row_maxima_spread(dtype, spread, causal):
    # Query rows scaled so the row maxima of one q tile spread over ~`spread`
    # score units. Small spreads let the rows share one softmax reference (one
    # whole-tile subtraction); float16 above 4 and every dtype above 30 keep
    # per-row references. The result must not depend on which path ran.
    rng = np.random.default_rng(23)
    q = (rng.standard_normal((1, 2, 200, 64)) * np.linspace(0.0, spread / 2.5, 200)[:, None]).astype(dtype)
    k, v = rand(rng, (1, 2, 300, 64), dtype), rand(rng, (1, 2, 300, 64), dtype)
    check_forward(q, k, v, causal=causal)


@pytest.mark.parametrize("d", [1, 63, 64, 65, 128, 256])
def test_forward_head_dims(d):
    rng = np.random.default_rng(d)
    q, k, v = (rand(rng, (1, 2, 90, d), F32) for _ in range(3))
    check_forward(q, k, v)


@pytest.mark.parametrize("scale", [0.125, 1.0, -0.5, 3.0])
def test_forward_scale(scale):
    rng = np.random.default_rng(5)
    q, k, v = (rand(rng, (2, 70, 32), F32) for _ in range(3))
    check_forward(q, k, v, scale=scale)
    check_forward(q, k, v, scale=scale, causal=True)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("mshape", [(50, 70), (2, 1, 50, 70), (1, 70), (50, 1), (2, 3, 50, 70), (3, 1, 1)])
def test_forward_bool_mask(dtype, mshape):
    rng = np.random.default_rng(len(mshape) * 10 + mshape[-1])
    q = rand(rng, (2, 3, 50, 24), dtype)
    k, v = rand(rng, (2, 3, 70, 24), dtype), rand(rng, (2, 3, 70, 24), dtype)
    mask = rng.random(mshape) > 0.4
    check_forward(q, k, v, mask=mask)
    check_forward(q, k, v, mask=mask, causal=True)


@pytest.mark.parametrize("mdtype", [F32, F16, BF16], ids=str)
@pytest.mark.parametrize("mshape", [(40, 90), (2, 40, 90), (1, 90), (40, 1)])
def test_forward_additive_mask(mdtype, mshape):
    rng = np.random.default_rng(11)
    q, k, v = rand(rng, (2, 40, 16), F32), rand(rng, (2, 90, 16), F32), rand(rng, (2, 90, 16), F32)
    mask = (rng.standard_normal(mshape) * 2).astype(mdtype)
    mask[..., 0] = -np.inf  # -inf entries work like a False in a bool mask
    check_forward(q, k, v, mask=mask)


def test_forward_scalar_masks():
    rng = np.random.default_rng(6)
    q, k, v = (rand(rng, (2, 30, 8), F32) for _ in range(3))
    check_forward(q, k, v, mask=np.array(0.5, F32))
    check_forward(q, k, v, mask=np.array(True))
    out, lse = run(q, k, v, np.array(False))
    assert (out == 0).all() and np.isneginf(lse).all()


def test_forward_fully_masked_rows_give_zeros():
    rng = np.random.default_rng(2)
    q, k, v = (rand(rng, (1, 2, 20, 8), F32) for _ in range(3))
    mask = rng.random((20, 20)) > 0.5
    mask[3] = False
    mask[17] = False
    out, lse = check_forward(q, k, v, mask=mask)
    assert (out[:, :, [3, 17]] == 0).all() and np.isneginf(lse[:, :, [3, 17]]).all()
    add = np.where(mask, 0.0, -np.inf).astype(F32)
    out2, lse2 = run(q, k, v, add)
    np.testing.assert_array_equal(out2[:, :, 3], 0)
    assert np.isneginf(lse2[:, :, 17]).all()


def test_forward_nan_inf_propagate():
    rng = np.random.default_rng(9)
    q, k, v = (rand(rng, (1, 40, 8), F32) for _ in range(3))
    q[0, 5, 2] = np.nan
    out, lse = run(q, k, v)
    assert np.isnan(out[0, 5]).all() and np.isnan(lse[0, 5])
    rows = [i for i in range(40) if i != 5]
    assert np.isfinite(out[0, rows]).all()
    k2 = k.copy()
    k2[0, 7, 0] = np.inf  # score +inf (q[i, 0] > 0): inf - inf in the softmax gives NaN; -inf: key dropped
    out, _ = run(q, k2, v)
    pos = q[0, :, 0] > 0
    pos[5] = False
    assert pos.any() and (~pos).sum() > 1
    assert np.isnan(out[0, pos]).all()
    keep = ~pos
    keep[5] = False
    ref, _, _ = ref_attention(q[:, keep], k2, v)
    np.testing.assert_allclose(out[0, keep], ref[0], atol=1e-5)
    mask = np.ones((40, 40), bool)
    mask[:, 7] = False  # a masked inf key does no harm
    out, _ = run(q, k2, v, mask)
    assert np.isfinite(out[0, rows]).all()
    v2 = v.copy()
    v2[0, 3, 1] = np.nan
    out, _ = run(q, k, v2)
    assert np.isnan(out[0, rows, 1]).all() and np.isfinite(out[0, rows][:, [0, 2, 3]]).all()


def test_forward_seed_example_fp16():
    rng = np.random.default_rng(0)
    q, k, v = (rand(rng, (2, 512, 64), F16) for _ in range(3))
    check_forward(q, k, v, scale=0.125)


def attention_scratch_bytes(shape):
    """Peak pool bytes of one attention call beyond its inputs and outputs."""
    rng = np.random.default_rng(4)
    xs = [nr.asarray(rand(rng, shape, F32)) for _ in range(3)]
    nr.synchronize()
    base = nr.memory.stat("allocated_bytes.all.current")
    nr.memory.reset_peak_stats()
    out, lse = nr.ops.attention(*xs)
    out.numpy()
    return nr.memory.stat("allocated_bytes.all.peak") - base - out.nbytes - lse.nbytes


def test_peak_memory_far_below_scores_matrix():
    scratch = attention_scratch_bytes((1, 4, 2560, 16))
    scores = 4 * 2560 * 2560 * 4  # the S x S float32 matrices of the four heads
    # The 910B profile reserves a fixed 16 MiB system workspace with any op workspace;
    # the kernel's own scratch is a few tiles per core and does not grow with S.
    own = scratch - (16 << 20)
    assert 0 < own < scores / 8, (own, scores)
    assert attention_scratch_bytes((1, 4, 1280, 16)) == scratch  # both use every cube core


# ---- backward ---------------------------------------------------------------------

def run_backward(dout, q, k, v, mask=None, **attrs):
    xs = [nr.asarray(x) for x in (q, k, v)]
    m = None if mask is None else nr.asarray(mask)
    out, lse = nr.ops.attention(*xs, m, **attrs)
    grads = nr.ops.attention_backward(nr.asarray(dout), *xs, out, lse, m, **attrs)
    return [g.numpy() for g in grads]


def check_backward(dout, q, k, v, mask=None, scale=None, causal=False):
    attrs = {"causal": causal} | ({"scale": scale} if scale else {})
    got = run_backward(dout, q, k, v, mask, **attrs)
    want = ref_backward(dout, q, k, v, scale, causal, mask)
    for name, g, r, x in zip(("dq", "dk", "dv"), got, want, (q, k, v)):
        assert g.dtype == x.dtype and g.shape == x.shape
        tol = GRAD_TOL[q.dtype] * (np.abs(r).max() + 1e-30)
        err = np.abs(g.astype(np.float64) - r)
        assert not (err > tol).any(), f"{name}: worst {err.max():.3g} (tol {tol:.3g})"


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("qshape,kvlen,causal", [
    ((1, 1, 1), 1, False), ((2, 5, 8), 5, True), ((2, 130, 63), 130, False), ((1, 2, 100, 64), 100, True),
    ((1, 2, 40, 65), 150, False), ((1, 2, 150, 16), 40, True), ((1, 1, 70, 128), 70, True),
    ((1, 1, 40, 256), 40, False),
])
def test_backward_vs_analytic(dtype, qshape, kvlen, causal):
    rng = np.random.default_rng(sum(qshape) * 7 + kvlen)
    kshape = qshape[:-2] + (kvlen, qshape[-1])
    q, k, v = rand(rng, qshape, dtype), rand(rng, kshape, dtype), rand(rng, kshape, dtype)
    check_backward(rand(rng, qshape, dtype), q, k, v, causal=causal)


@pytest.mark.parametrize("mask_kind", ["bool", "bool_bcast_q", "additive", "additive_bcast_k"])
def test_backward_masks(mask_kind):
    rng = np.random.default_rng(21)
    q, k, v = rand(rng, (2, 2, 45, 16), F32), rand(rng, (2, 2, 70, 16), F32), rand(rng, (2, 2, 70, 16), F32)
    mask = {"bool": rng.random((2, 1, 45, 70)) > 0.3, "bool_bcast_q": rng.random((1, 70)) > 0.3,
            "additive": rng.standard_normal((45, 70)).astype(F32),
            "additive_bcast_k": rng.standard_normal((2, 2, 45, 1)).astype(F32)}[mask_kind]
    if mask.dtype == bool and mask.ndim == 4:
        mask[0, 0, 9] = False  # a fully masked row: zero gradient
    check_backward(rand(rng, q.shape, F32), q, k, v, mask=mask)
    check_backward(rand(rng, q.shape, F32), q, k, v, mask=mask, scale=0.3, causal=True)


def test_backward_finite_differences():
    """Directional derivatives of L = sum(out * w) by central differences on tiny fp32 shapes."""
    rng = np.random.default_rng(8)
    q, k, v = rand(rng, (1, 2, 5, 4), F32), rand(rng, (1, 2, 7, 4), F32), rand(rng, (1, 2, 7, 4), F32)
    w = rand(rng, q.shape, F32)
    mask = rng.random((5, 7)) > 0.2

    def loss(qq, kk, vv):
        out, _ = run(qq, kk, vv, mask, causal=True)
        return float((out.astype(np.float64) * w).sum())

    grads = run_backward(w, q, k, v, mask, causal=True)
    eps = 1e-2
    for i, (x, g) in enumerate(zip((q, k, v), grads)):
        for _ in range(3):
            d = rand(rng, x.shape, F32)
            plus, minus = [a.copy() for a in (q, k, v)], [a.copy() for a in (q, k, v)]
            plus[i] = (x + eps * d).astype(F32)
            minus[i] = (x - eps * d).astype(F32)
            fd = (loss(*plus) - loss(*minus)) / (2 * eps)
            an = float((g.astype(np.float64) * d).sum())
            assert abs(fd - an) <= 2e-3 * (1 + abs(an)), (i, fd, an)


# ---- checks of the simulated core ---------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_clean_under_full_checks(dtype):
    rng = np.random.default_rng(12)
    q, k, v = rand(rng, (1, 2, 70, 65), dtype), rand(rng, (1, 2, 40, 65), dtype), rand(rng, (1, 2, 40, 65), dtype)
    mask = rng.random((2, 70, 40)) > 0.3
    with nr.debug.sim_check_level("full"):
        check_forward(q, k, v, causal=True)
        check_forward(q, k, v, mask=mask[None])
        check_backward(rand(rng, q.shape, dtype), q, k, v, mask=mask[None], causal=True)
        # several kv tiles per item: the P V partial stays in L0C between them
        kl = (rng.standard_normal((1, 1, 300, 32)) * np.linspace(0.5, 3.0, 300)[:, None]).astype(dtype)
        check_forward(rand(rng, (1, 1, 150, 32), dtype), kl, rand(rng, (1, 1, 300, 32), dtype), causal=True)
        # Q resident and pre-scaled (scale 1/8), causal keep-bits on a full 128 tile and a ragged one
        check_forward(*(rand(rng, (1, 1, 140, 64), dtype) for _ in range(3)), causal=True)
        # float32 D = 128: Q does not fit one K step and is reloaded per step
        check_forward(*(rand(rng, (1, 1, 140, 128), dtype) for _ in range(3)))


# ---- errors -----------------------------------------------------------------------

def test_errors_and_runtime_stays_usable():
    f = lambda *s: nr.asarray(np.ones(s, np.float32))  # noqa: E731
    with pytest.raises(nr.InvalidArgumentError, match=r"attention.*'k'.*head dim D = 8 does not match q's D = 16"):
        nr.ops.attention(f(2, 4, 16), f(2, 4, 8), f(2, 4, 8))
    with pytest.raises(nr.InvalidArgumentError, match=r"attention.*'v'.*sequence length 5 does not match k's 4"):
        nr.ops.attention(f(2, 4, 16), f(2, 4, 16), f(2, 5, 16))
    with pytest.raises(nr.InvalidArgumentError, match=r"attention.*'attn_mask'.*not broadcastable to \[2, 4, 6\]"):
        nr.ops.attention(f(2, 4, 16), f(2, 6, 16), f(2, 6, 16), f(4, 5))
    with pytest.raises(nr.InvalidArgumentError, match=r"attention.*'attn_mask'.*not broadcastable"):
        nr.ops.attention(f(2, 4, 16), f(2, 6, 16), f(2, 6, 16), f(1, 2, 4, 6))
    with pytest.raises(nr.InvalidArgumentError, match=r"attention.*'q'.*exceeds the supported maximum 256"):
        nr.ops.attention(f(1, 2, 300), f(1, 2, 300), f(1, 2, 300))
    with pytest.raises(nr.UnsupportedDtypeError, match=r"attention.*'k'.*dtype must match"):
        nr.ops.attention(f(2, 4, 16), nr.asarray(np.ones((2, 4, 16), np.float16)), f(2, 4, 16))
    with pytest.raises(nr.InvalidArgumentError, match=r"attention.*'q'"):
        nr.ops.attention(nr.asarray(np.ones((2, 4, 16), np.int32)), f(2, 4, 16), f(2, 4, 16))
    with pytest.raises(nr.InvalidArgumentError, match=r"attention.*'attn_mask'"):
        nr.ops.attention(f(2, 4, 16), f(2, 4, 16), f(2, 4, 16), nr.asarray(np.ones((4, 4), np.int32)))
    with pytest.raises(nr.InvalidArgumentError, match=r"attention.*'q'.*rank 5"):
        nr.ops.attention(f(1, 2, 2, 4, 16), f(1, 2, 2, 4, 16), f(1, 2, 2, 4, 16))
    with pytest.raises(nr.InvalidArgumentError, match=r"attention_backward.*'lse'.*shape"):
        nr.ops.attention_backward(f(2, 4, 16), f(2, 4, 16), f(2, 4, 16), f(2, 4, 16), f(2, 4, 16), f(2, 5))
    with pytest.raises(nr.InvalidArgumentError, match=r"attention_backward.*'dout'.*shape"):
        nr.ops.attention_backward(f(2, 3, 16), f(2, 4, 16), f(2, 4, 16), f(2, 4, 16), f(2, 4, 16), f(2, 4))
    with pytest.raises(nr.InvalidArgumentError, match=r"attention.*'k'.*Skv = 0"):
        nr.ops.attention(f(2, 3, 8), f(2, 0, 8), f(2, 0, 8))
    with pytest.raises(nr.InvalidArgumentError, match=r"attention.*'q'.*D = 0"):
        nr.ops.attention(f(2, 3, 0), f(2, 4, 0), f(2, 4, 0))
    rng = np.random.default_rng(1)
    q, k, v = (rand(rng, (2, 9, 16), F32) for _ in range(3))
    check_forward(q, k, v)  # the runtime is still usable


def test_empty_inputs():
    f = lambda *s: nr.asarray(np.ones(s, np.float32))  # noqa: E731
    out, lse = nr.ops.attention(f(2, 0, 8), f(2, 5, 8), f(2, 5, 8))
    assert out.shape == (2, 0, 8) and lse.shape == (2, 0)
    out, lse = nr.ops.attention(f(0, 3, 8), f(0, 5, 8), f(0, 5, 8))
    assert out.shape == (0, 3, 8) and lse.shape == (0, 3)
    dq, dk, dv = nr.ops.attention_backward(f(2, 0, 8), f(2, 0, 8), f(2, 5, 8), f(2, 5, 8), f(2, 0, 8), f(2, 0))
    assert dq.shape == (2, 0, 8)
    np.testing.assert_array_equal(dk.numpy(), 0)  # no queries: no gradient
    np.testing.assert_array_equal(dv.numpy(), 0)
