"""The streamed softmax try of nr.ops.attention (kernels/attention/attention_stream.h).

A 128-wide score tile without a mask (and off the causal diagonal) runs its
optimistic softmax step band by band: load, exp, row sums and the P store per
32 rows. A tile with a mask runs the same instructions on the whole tile, so
in float32 and bfloat16 an all-true boolean mask must give the same bits:
these tests compare the two (and both against the float64 reference), over
passing and failing tries and ragged last q / kv tiles (bands of fewer rows,
padded columns). float16 is checked against the reference only: its
whole-tile path reads the previous P tile (16-bit pairs seen as floats, large
once P >= 4) in the unused lanes of the row sums, which can fail an
optimistic check that the streamed path passes; the failed try then moves
the reference, a valid choice with other rounding.
"""
import numpy as np
import pytest

import npurt as nr

from test_attention import BF16, DTYPES, F16, F32, check_forward, rand, run


def same_bits(a, b):
    return a.shape == b.shape and a.tobytes() == b.tobytes()


def assert_stream_matches_whole_tile(q, k, v, causal, scale=None):
    check_forward(q, k, v, scale=scale, causal=causal)
    if q.dtype == F16:
        return
    attrs = {"causal": causal} | ({"scale": scale} if scale else {})
    out, lse = run(q, k, v, **attrs)
    keep = np.ones((q.shape[-2], k.shape[-2]), bool)
    out_m, lse_m = run(q, k, v, keep, **attrs)
    assert same_bits(out, out_m), "out differs between the streamed and the whole-tile step"
    assert same_bits(lse, lse_m), "lse differs between the streamed and the whole-tile step"


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("sq,skv", [(256, 256), (300, 421), (140, 390)])
def test_streamed_step_matches_whole_tile(dtype, causal, sq, skv):
    rng = np.random.default_rng(sq + skv)
    q = rand(rng, (1, 3, sq, 64), dtype)
    k, v = (rand(rng, (1, 3, skv, 64), dtype) for _ in range(2))
    assert_stream_matches_whole_tile(q, k, v, causal)


@pytest.mark.parametrize("dtype", [F32, BF16], ids=str)
@pytest.mark.parametrize("pattern", ["flat", "rising", "high"])
def test_streamed_tries_that_fail_reload_the_tile(dtype, pattern):
    # Scores set per kv tile (as in test_forward_zero_reference_paths): a
    # streamed try that fails its check has stored P of some bands already
    # and spent s; the screened path reloads the raw tile and stores P again.
    scores = {"flat": [2.0, 5.0, 5.5, 5.5], "rising": [-40.0, 0.0, 3.0, 7.0], "high": [5.0, 5.0, 5.5, 5.5]}[pattern]
    q = np.zeros((1, 2, 512, 64), np.float32)
    q[..., 0] = 1.0
    k = np.zeros((1, 2, 512, 64), np.float32)
    for t, score in enumerate(scores):
        k[0, :, 128 * t:128 * (t + 1), 0] = score
    k[0, :, 128 + 7, 0] -= 1.0
    v = rand(np.random.default_rng(7), (1, 2, 512, 64), np.float32)
    assert_stream_matches_whole_tile(q.astype(dtype), k.astype(dtype), v.astype(dtype), False, scale=1.0)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_streamed_step_clean_under_full_checks(dtype):
    # The simulator's full checks (UB bounds, pipe order, GM ranges) on the
    # band-by-band loads, casts and stores: full and ragged bands and columns.
    rng = np.random.default_rng(14)
    with nr.debug.sim_check_level("full"):
        q = rand(rng, (1, 1, 300, 64), dtype)
        k, v = (rand(rng, (1, 1, 421, 64), dtype) for _ in range(2))
        check_forward(q, k, v)
        check_forward(q, k, v, causal=True)
