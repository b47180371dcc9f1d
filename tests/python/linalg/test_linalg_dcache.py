"""The linalg kernels pass the sim's GM scalar-write DCache checks.

Every linalg kernel writes outputs by GM SetValue from several blocks; with
NPURT_SIM_DCACHE_CHECK=1 the sim faults on a 64 B line left uncleaned at block
end or scalar-written by two blocks (docs/aicore.md). The variable is read once
per process, so the ops run in a child process: a batch of 37 matrices spans
several blocks, and 4-byte-per-matrix outputs (info, sign) of neighbouring
blocks would share a line without the 16-matrix split.
"""
import os
import subprocess
import sys
import textwrap

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


def test_linalg_kernels_pass_the_dcache_check():
    env = dict(os.environ, NPURT_SIM_DCACHE_CHECK="1")
    out = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().endswith("ok")


def test_the_check_is_live_in_the_child():
    # A kernel known to write GM by SetValue without cleaning (unique's compaction,
    # docs/aicore.md) must fault under the variable: the test above cannot pass vacuously.
    code = "import numpy as np, npurt as nr; nr.unique_values(nr.asarray(np.arange(300) % 7))"
    env = dict(os.environ, NPURT_SIM_DCACHE_CHECK="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode != 0
    assert "ErrorDCache" in out.stderr
