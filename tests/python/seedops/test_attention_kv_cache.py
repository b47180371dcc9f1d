"""The attention forward's per-head K/V tile cache in L1 (wave 5) against float64 numpy.

Non-causal blocks take a contiguous run of (head, q tile) items and keep the
L1 images of the head's K / V tiles (as many as the L1 left over holds, the
rest streamed); a slot is reused only while its head tag matches. These tests
make every head's K and V very different (a stale slot from another head, or
from an earlier launch, gives a visibly wrong output), cover fully cached,
partly cached and uncached kv tiles, odd sizes (ragged last q / kv tiles),
both layouts, masks, the backward after the forward, and the plan text.
Error bounds: test_attention.py (OUT_TOL per dtype, lse 2e-5 relative).
"""
import re

import numpy as np
import pytest

import npurt as nr
from test_attention import BF16, F16, F32, check_backward, check_forward, rand


def cached_tiles(q, k, dtype, causal=False):
    desc = nr.ops.describe("attention", q, k, k, dtype=str(np.dtype(dtype)), causal=causal)
    m = re.search(r"K tiles cached in L1 per head: (\d+), V tiles: (\d+).*kv_tiles=(\d+)", desc)
    assert m, desc
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def per_head_kv(rng, shape, dtype, offset=3.0):
    """k, v whose heads differ by scale and offset, so a slot of the wrong head is wrong."""
    heads = int(np.prod(shape[:-2]))
    f = np.arange(1, heads + 1, dtype=np.float64).reshape(shape[:-2] + (1, 1))
    k = (rng.standard_normal(shape) * (0.5 + 0.25 * f)).astype(dtype)
    v = (rng.standard_normal(shape) + offset * f).astype(dtype)
    return k, v


@pytest.mark.parametrize("dtype,qshape,kvlen,expect", [
    (F32, (2, 4, 1024, 64), 1024, "k all, v part"),   # 8 heads x 8 q tiles over the blocks, V 4 of 8 cached
    (F32, (1, 3, 1023, 64), 1023, "k all, v part"),   # ragged last q and kv tiles (127 rows / columns)
    (BF16, (1, 2, 256, 64), 4096, "k part, v none"),  # 32 kv tiles: 26 K images fit, the rest streamed
    (F32, (1, 2, 300, 64), 4096, "k part, v none"),
    (F16, (2, 300, 40), 700, "k all, v all"),         # 3-D layout, D = 40 (cube pads to 48)
    (BF16, (3, 2, 400, 33), 515, "k all, v all"),
])
def test_cached_tiles_match_reference(dtype, qshape, kvlen, expect):
    rng = np.random.default_rng(qshape[-2] + kvlen)
    kshape = qshape[:-2] + (kvlen, qshape[-1])
    kc, vc, kv_tiles = cached_tiles(qshape, kshape, dtype)
    k_want, v_want = expect.split(", ")
    assert (kc == kv_tiles) if k_want == "k all" else (0 < kc < kv_tiles), (kc, kv_tiles)
    assert {"v all": vc == kv_tiles, "v part": 0 < vc < kv_tiles, "v none": vc == 0}[v_want], (vc, kv_tiles)
    q = rand(rng, qshape, dtype)
    k, v = per_head_kv(rng, kshape, dtype)
    check_forward(q, k, v)


def test_causal_plan_has_no_cache_and_stays_exact():
    # Causal items go heads fastest (balance), so the plan reserves no cache.
    shape = (1, 3, 300, 64)
    assert cached_tiles(shape, shape, F32, causal=True)[:2] == (0, 0)
    rng = np.random.default_rng(5)
    k, v = per_head_kv(rng, shape, F32)
    check_forward(rand(rng, shape, F32), k, v, causal=True)


def test_cache_does_not_outlive_a_launch():
    # Same shapes, new K / V: the second launch must convert its own tiles.
    rng = np.random.default_rng(6)
    shape = (1, 4, 512, 64)
    q = rand(rng, shape, F32)
    k1, v1 = per_head_kv(rng, shape, F32)
    k2, v2 = (-x for x in per_head_kv(rng, shape, F32))
    check_forward(q, k1, v1)
    check_forward(q, k2, v2)
    check_forward(q, k1, v1, scale=0.3)


@pytest.mark.parametrize("mask_kind", ["bool", "float"])
def test_cached_tiles_with_broadcast_mask(mask_kind):
    rng = np.random.default_rng(7)
    shape = (2, 3, 260, 32)
    q = rand(rng, shape, BF16)
    k, v = per_head_kv(rng, shape, BF16)
    if mask_kind == "bool":
        mask = rng.random((1, 3, 260, 260)) > 0.3  # broadcast over the batch
    else:
        mask = rng.standard_normal((260, 260)).astype(np.float32)
    check_forward(q, k, v, mask=mask)


@pytest.mark.parametrize("dtype", [F32, BF16], ids=str)
def test_backward_after_cached_forward(dtype):
    # The backward reads the forward's out / lse (the forward's new plan must leave them exact).
    # (A small V offset: a large common offset in V makes dS = P (dO V^T - D) cancel,
    # beyond the bfloat16 gradient bound, with or without the cache.)
    rng = np.random.default_rng(8)
    shape = (1, 3, 300, 64)
    k, v = per_head_kv(rng, shape, dtype, offset=0.3)
    check_backward(rand(rng, shape, dtype), rand(rng, shape, dtype), k, v)
    check_backward(rand(rng, shape, dtype), rand(rng, shape, dtype), k, v, causal=True)
