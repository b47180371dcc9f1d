"""The linalg kernels pass the sim's GM scalar-write DCache checks.

Every linalg kernel writes outputs by GM SetValue from several blocks; with
NPURT_SIM_DCACHE_CHECK=1 the sim faults on a 64 B line left uncleaned at block
end or scalar-written by two blocks (docs/aicore.md). The variable is read once
per process, so the ops run in a child process: a batch of 37 matrices spans
several blocks, and 4-byte-per-matrix outputs (info, sign) of neighbouring
blocks would share a line without the 16-matrix split. The LU family in UB
splits per matrix (its small outputs leave through UB (kernels/common/gm_stage.h's StagedOut)):
BATCHED checks batch sizes around the old 16-matrix unit, n 5 and 16, both
dtypes, under the check. That the variable turns the check on and a violation
faults is the gtests' part (SimDCache in tests/runtime/backends/sim/aicore/
test_dcache.cc); this file once used unique's compaction as a known violator,
which dcache13 fixed (wave 13).
"""
import os
import re
import subprocess
import sys
import textwrap

import npurt as nr

CHILD = textwrap.dedent(
    """
    import numpy as np
    import npurt as nr
    rng = np.random.default_rng(0)
    a = rng.standard_normal((37, 5, 5)).astype(np.float32)
    spd = a @ np.swapaxes(a, -1, -2) + 5 * np.eye(5, dtype=np.float32)
    x = nr.asarray(spd)
    with nr.debug.sim_check_level("full"):
        w, v = nr.linalg.eigh(x)
        np.testing.assert_allclose(np.asarray(w), np.linalg.eigvalsh(spd), rtol=1e-3, atol=1e-3)
        s = nr.linalg.svdvals(nr.asarray(a))
        np.testing.assert_allclose(np.asarray(s), np.linalg.svd(a, compute_uv=False), rtol=1e-3, atol=1e-3)
        q, r = nr.linalg.qr(nr.asarray(a))
        np.testing.assert_allclose(np.asarray(q) @ np.asarray(r), a, rtol=1e-3, atol=1e-3)
        l = nr.linalg.cholesky(x)
        np.testing.assert_allclose(np.asarray(l), np.linalg.cholesky(spd), rtol=1e-3, atol=1e-3)
        sign, logabs = nr.linalg.slogdet(nr.asarray(a))
        np.testing.assert_allclose(np.asarray(logabs), np.linalg.slogdet(a)[1], rtol=1e-3, atol=1e-3)
        b = rng.standard_normal((37, 5, 2)).astype(np.float32)
        xs = nr.linalg.solve(x, nr.asarray(b))
        np.testing.assert_allclose(np.asarray(xs), np.linalg.solve(spd, b), rtol=1e-3, atol=1e-3)
    print("ok")
    """
)


BATCHED = textwrap.dedent(
    """
    import numpy as np
    import npurt as nr
    L = nr.linalg
    rng = np.random.default_rng(1)
    for dtype in (np.float32, np.float64):
        for n in (5, 16):
            for batch in (1, 15, 16, 17, 33, 64):
                a = (rng.uniform(-1, 1, (batch, n, n)) + n * np.eye(n)).astype(dtype)
                p = (a @ np.swapaxes(a, -1, -2)).astype(dtype)
                b = rng.standard_normal((batch, n, 3)).astype(dtype)
                tol = dict(rtol=1e-3, atol=1e-3)
                with nr.debug.sim_check_level("full"):
                    np.testing.assert_allclose(np.asarray(L.det(nr.asarray(a))), np.linalg.det(a), rtol=1e-3)
                    sign, logabs = L.slogdet(nr.asarray(a))
                    np.testing.assert_array_equal(np.asarray(sign), np.linalg.slogdet(a)[0])
                    np.testing.assert_allclose(np.asarray(logabs), np.linalg.slogdet(a)[1], **tol)
                    np.testing.assert_allclose(np.asarray(L.inv(nr.asarray(a))), np.linalg.inv(a), **tol)
                    np.testing.assert_allclose(np.asarray(L.solve(nr.asarray(a), nr.asarray(b))),
                                               np.linalg.solve(a, b), **tol)
                    np.testing.assert_allclose(np.asarray(L.cholesky(nr.asarray(p))), np.linalg.cholesky(p), **tol)
                    _, piv, _, _ = nr._npurt._lu_factor(nr.asarray(a))
                    assert np.asarray(piv).shape == (batch, n)
                    assert ((np.asarray(piv) >= np.arange(n)) & (np.asarray(piv) < n)).all()
    print("ok")
    """
)


def _run_checked(code):
    env = dict(os.environ, NPURT_SIM_DCACHE_CHECK="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().endswith("ok")


def test_linalg_kernels_pass_the_dcache_check():
    _run_checked(CHILD)


def test_lu_family_batches_split_per_matrix_pass_the_dcache_check():
    _run_checked(BATCHED)


def _plan(op, *inputs, dtype="float32"):
    """(numBlocks, per_core) of the op's plan for the inputs (shapes or arrays)."""
    text = nr.ops.describe(op, *inputs, dtype=dtype)
    blocks = int(re.search(r"numBlocks: (\d+)", text).group(1))
    per_core = int(re.search(r"per_core=(\d+)", text).group(1))
    return blocks, per_core


def test_lu_family_in_ub_splits_per_matrix():
    # wave 12's DCache fix split every batch in 16-matrix units (batch 64 on 4 blocks); with the small
    # outputs staged, the UB paths take one or two matrices per block again
    assert _plan("lu_factor", (64, 16, 16)) == (32, 2)
    assert _plan("cholesky", (17, 16, 16)) == (17, 1)
    piv = nr.zeros((33, 16), dtype=nr.int32)
    assert _plan("lu_solve", (33, 16, 16), piv, (33, 16, 3)) == (33, 1)


def test_gm_paths_split_in_whole_64_byte_lines():
    # float64 past the UB works the matrix (lu_factor: and the pivots) by GM SetValue: a block's
    # outputs must start on a 64 B line. n = 200: factors 320000 B (5000 lines), pivots 800 B
    # (12.5 lines: 2 matrices); n = 158: factors 199712 B (2 matrices), pivots 632 B (8 matrices).
    assert _plan("lu_factor", (20, 200, 200), dtype="float64") == (10, 2)
    assert _plan("cholesky", (20, 200, 200), dtype="float64") == (20, 1)
    assert _plan("lu_factor", (20, 158, 158), dtype="float64") == (3, 8)
    assert _plan("cholesky", (20, 158, 158), dtype="float64") == (10, 2)
    piv = nr.zeros((20, 158), dtype=nr.int32)
    assert _plan("lu_solve", (20, 158, 158), piv, (20, 158, 5), dtype="float64") == (20, 1)  # X in UB
    assert _plan("lu_solve", (20, 158, 158), piv, (20, 158, 158), dtype="float64") == (10, 2)  # X on GM


GM_BATCHED = textwrap.dedent(
    """
    import numpy as np
    import npurt as nr
    L = nr.linalg
    rng = np.random.default_rng(2)
    for n in (158, 160):  # float64 past the UB: the scalar GM path, blocks of 8 and of 1 matrices
        a = rng.uniform(-1, 1, (9, n, n)) + n * np.eye(n)
        np.testing.assert_allclose(np.asarray(L.det(nr.asarray(a / 4))), np.linalg.det(a / 4), rtol=1e-9)
        p = a @ np.swapaxes(a, -1, -2)
        np.testing.assert_allclose(np.asarray(L.cholesky(nr.asarray(p))), np.linalg.cholesky(p), atol=1e-9)
    print("ok")
    """
)


def test_gm_path_batches_pass_the_dcache_check():
    _run_checked(GM_BATCHED)
