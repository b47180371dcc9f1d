"""Blocks of a split reduction's first launch (the reduce ops' `lanes`
attribute, kernels/reduction/reduce_op.cc group_blocks and
reduce_tiling.h ReduceBlockUnits, and the sim rule `split_lanes` in
runtime/ops/array_ops.cc).

The split cuts a long reduction into one range per vector core; on an NPU each
range is its own block. On the sim the ranges are grouped for the pool's
lanes: `lanes` one-range blocks, 2 * lanes blocks sharing the middle ranges,
`lanes` one-range blocks. The same ranges are folded the same way, so every
partial, and the result, is the same bits as with one block per range. These
tests check both halves: the grouping happens (profiled block counts, per
thread count), and it changes no bit (any `lanes` value against 0, for every
kind and both modes, with the output buffer poisoned first).
"""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import npurt as nr
from npurt import _npurt


def plan(xa, axis):
    """(outer, len, inner, part_len, parts) of the C++ split rule."""
    axes = None if axis is None else tuple(np.atleast_1d(axis).tolist())
    return _npurt._array_reduce_plan(xa, axes)


def data(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "i":
        return rng.integers(-1000, 1000, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def poison(like):
    """Leaves a sentinel-filled buffer of like's size in the pool for the next
    output, so a unit that no block computed cannot pass with stale bytes."""
    fill = -77 if like.dtype.kind == "i" else np.nan
    junk = nr.asarray(np.full(like.shape, fill, like.dtype))
    junk.numpy()
    del junk


def grouped_blocks(units, lanes):
    """group_blocks' block count (the uniform layout's when it declines)."""
    if lanes == 0 or units <= 5 * lanes:
        return min(units, 40)
    run = units - 2 * lanes
    per = -(-run // (2 * lanes))
    return lanes + -(-run // per) + lanes


CASES = [  # (shape, kernel axis, part_len): rows (kInner) and columns (kOuter)
    ((1 << 20,), 0, 26240),          # 40 ranges of a whole array, the last shorter
    ((3, 1 << 18), 1, 20032),        # 3 rows x 14 ranges
    ((1 << 18, 3), 0, 20032),        # kOuter: columns cut along the reduced axis
    ((2, 100003, 5), 1, 8192),       # outer, len and inner, an odd extent
]


@pytest.mark.parametrize("op", ["reduce_sum", "reduce_max", "reduce_mean", "reduce_prod", "reduce_min"])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.float64])
@pytest.mark.parametrize("shape,axis,part_len", CASES)
def test_lanes_group_ranges_without_changing_a_bit(op, dtype, shape, axis, part_len):
    if op == "reduce_mean" and dtype == np.int32:
        pytest.skip("reduce_mean takes float inputs")
    x = data(shape, dtype, 7)
    if op == "reduce_prod":  # keep products finite and away from 0
        x = (1 + np.abs(x.astype(np.float64)) % 1 / 64).astype(dtype) if dtype != np.int32 else (x % 3 + 1)
    xa = nr.asarray(x)
    call = getattr(nr.ops, op)
    ref = call(xa, axis=[axis], part_len=part_len).numpy()
    parts = ref.shape[1]
    assert parts > 2
    for lanes in (1, 2, 3, 5, parts // 5, parts // 5 + 1, parts + 7):
        poison(ref)
        got = call(xa, axis=[axis], part_len=part_len, lanes=lanes).numpy()
        assert got.dtype == ref.dtype and got.shape == ref.shape
        assert got.tobytes() == ref.tobytes(), (op, dtype, shape, lanes)


@pytest.mark.parametrize("lanes,expected", [(0, 40), (1, 4), (2, 8), (3, 12), (4, 16), (7, 27), (8, 40)])
def test_lanes_group_the_launch(lanes, expected):
    # 40 ranges: lanes lead blocks + 2 * lanes run blocks + lanes tail blocks;
    # 8 lanes would leave 5 ranges per lane or fewer: one block per range.
    assert grouped_blocks(40, lanes) == expected
    xa = nr.asarray(data((1 << 20,), np.float32, 3))
    with nr.profile() as p:
        nr.ops.reduce_sum(xa, axis=[0], part_len=26240, lanes=lanes).numpy()
    launched = [len(a.blocks) for a in p.activities if a.blocks]
    assert launched == [expected]


def test_negative_lanes_is_refused():
    xa = nr.asarray(np.ones(1 << 16, np.float32))
    with pytest.raises(nr.InvalidArgumentError, match=r"npurt\.ops\.reduce_sum: argument 'lanes': must be >= 0"):
        nr.ops.reduce_sum(xa, axis=[0], part_len=4096, lanes=-1)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_whole_array_sum_is_the_one_block_per_range_result(dtype):
    # nr.sum on the sim groups the ranges; the two launches with one block per
    # range (the NPU's layout) give the same bits.
    x = data((1 << 21,), dtype, 11)
    xa = nr.asarray(x)
    _, _, _, part_len, parts = plan(xa, None)
    assert parts > 2
    partials = nr.ops.reduce_sum(xa, axis=[0], part_len=int(part_len), lanes=0)
    ref = nr.ops.reduce_sum(partials, axis=[1], dtype="" if dtype == np.float32 else "float16").numpy()
    got = np.asarray(nr.sum(xa))
    assert got.dtype == dtype and got.tobytes() == ref.reshape(()).tobytes()
    for fn, ref_fn in ((nr.max, np.max), (nr.min, np.min)):
        assert np.asarray(fn(xa)).tobytes() == np.asarray(ref_fn(x)).tobytes()


_CHILD = textwrap.dedent("""
    import json
    import numpy as np, npurt as nr
    from npurt import _npurt
    xa = nr.asarray(np.ones(1 << 21, np.float32))
    parts = _npurt._array_reduce_plan(xa, None)[4]
    with nr.profile() as p:
        s = float(nr.sum(xa))
    print(json.dumps([int(parts), [len(a.blocks) for a in p.activities if a.blocks], s]))
""")


@pytest.mark.parametrize("threads", [1, 3])
def test_sim_split_groups_ranges_for_the_pool_lanes(threads):
    env = dict(os.environ, NPURT_NUM_THREADS=str(threads))
    out = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    parts, launched, total = json.loads(out.stdout.strip().splitlines()[-1])
    assert launched == [grouped_blocks(parts, threads), 1]  # the split's ranges grouped, then the fold
    assert launched[0] < parts
    assert total == float(1 << 21)


_THREADS_CHILD = textwrap.dedent("""
    import hashlib, json
    import numpy as np, npurt as nr
    rng = np.random.default_rng(5)
    out = {}
    forms = [((1 << 20,), None), ((3, 1 << 18), 1), ((1 << 18, 3), 0), ((2, 100003, 5), 1), ((4, 1 << 16, 2), (0, 1))]
    for dt in ("float32", "float16", "int32", "bool", "float64"):
        for shape, axis in forms:
            if dt == "bool":
                x = rng.random(shape) < 0.999
            elif dt == "int32":
                x = rng.integers(-1000, 1000, shape).astype(dt)
            else:
                x = rng.standard_normal(shape).astype(dt)
            xa = nr.asarray(x)
            for fn in ("sum", "mean", "max", "min", "prod", "any", "all"):
                r = np.asarray(getattr(nr, fn)(xa, axis=axis))
                out[f"{dt}/{shape}/{axis}/{fn}"] = hashlib.sha1(r.tobytes()).hexdigest()
    print(json.dumps(out))
""")


def test_results_do_not_depend_on_the_thread_count():
    # split_lanes reads the pool's lane count, a host property: every reduce
    # kind, dtype and axis form the split serves must give the same bits for
    # NPURT_NUM_THREADS = 1, 2, 3 and 5 (grouped, declined and odd layouts).
    digests = []
    for threads in (1, 2, 3, 5):
        env = dict(os.environ, NPURT_NUM_THREADS=str(threads))
        out = subprocess.run([sys.executable, "-c", _THREADS_CHILD], env=env, capture_output=True, text=True,
                             timeout=600)
        assert out.returncode == 0, out.stderr
        digests.append(json.loads(out.stdout.strip().splitlines()[-1]))
    assert len(digests[0]) == 5 * 5 * 7
    for threads, d in zip((2, 3, 5), digests[1:]):
        assert d == digests[0], (threads, [k for k in d if d[k] != digests[0][k]])


def test_describe_shows_the_grouped_layout():
    # The plan summary names the grouped blocks (lanes lead + run x per_core +
    # tail) so numBlocks and per_core add up; the uniform layout keeps per_core.
    grouped = nr.ops.describe("reduce_sum", (1 << 20,), axis=[0], part_len=26240, lanes=2)
    assert "numBlocks: 8 " in grouped
    assert "per_core=" not in grouped
    assert "blocks=2 lead + 4 run x 9 + 2 tail" in grouped  # 2 + 36 + 2 = 40 units
    uniform = nr.ops.describe("reduce_sum", (1 << 20,), axis=[0], part_len=26240)
    assert "numBlocks: 40 " in uniform and "per_core=1 " in uniform and "lead" not in uniform
