"""The kernels fixed for the sim's DCache checks pass them (checked with
NPURT_SIM_DCACHE_CHECK=1 set explicitly).

A 64 B GM line left uncleaned at block end, or scalar-written by two blocks,
is a fault (docs/aicore.md). The setting is read once per process, so each
case runs in a child process with the variable set, over inputs spanning
several blocks (the linalg kernels' cases are tests/python/linalg/test_linalg_dcache.py):
- unique: unique_compact (integer, float64) and vunique_values / vunique_runs
  (float32, float16) stage their outputs in UB and copy them out
  (kernels/common/gm_stage.h), at basic and full;
- scatter (x[idx] = v): with several blocks, runs it cannot copy straight from
  the value tile are staged; one block of one-element runs writes by SetValue
  and cleans once. Every element width (1, 2, 4, 8, 16-byte units), rows that
  are not 32-byte multiples, sorted runs, one broadcast value (several
  blocks), repeated indices (one block, the last write wins); basic and full.
- swiglu_backward: dx's two halves are rows of the elementwise row scatter
  (kernels/elementwise/ew_kernel.h); half rows that are not 32-byte multiples
  start unaligned in the output tile and are moved to an aligned UB offset
  before their DataCopyPad (float32, float16, bfloat16; basic and full).
The unique, scatter and swiglu children fail on wave 12's kernels with the check on.
That the variable turns the check on and it faults is the gtests' part
(SimDCache in tests/runtime/backends/sim/aicore/test_dcache.cc).
"""
import os
import subprocess
import sys
import textwrap

import pytest

UNIQUE = textwrap.dedent(
    """
    import numpy as np
    import npurt as nr
    rng = np.random.default_rng(3)
    cases = [rng.integers(-300, 300, 20011).astype(np.int32),
             rng.integers(0, 5, 9000).astype(np.int64),
             np.where(rng.random(12000) < 0.01, np.nan, rng.integers(0, 50, 12000)).astype(np.float64),
             rng.integers(0, 700, 30001).astype(np.float32),
             rng.integers(0, 40, 10000).astype(np.float16)]
    for level in ("basic", "full"):
        with nr.debug.sim_check_level(level):
            for a in cases:
                r = nr.unique_all(nr.asarray(a))
                values, index, inverse, counts = np.unique(a, return_index=True, return_inverse=True,
                                                           return_counts=True, equal_nan=False)
                np.testing.assert_array_equal(np.asarray(r.values), values)
                np.testing.assert_array_equal(np.asarray(r.indices), index)
                np.testing.assert_array_equal(np.asarray(r.inverse_indices).ravel(), inverse.ravel())
                np.testing.assert_array_equal(np.asarray(r.counts), counts)
                np.testing.assert_array_equal(np.asarray(nr.unique_values(nr.asarray(a))), values)
    print("ok")
    """
)

SCATTER = textwrap.dedent(
    """
    import numpy as np
    import npurt as nr
    rng = np.random.default_rng(5)
    def check(shape, dtype, idx, value):
        base = (rng.standard_normal(shape) * 50).astype(dtype)
        x, ref = nr.asarray(base), base.copy()
        v = value if np.isscalar(value) else nr.asarray(value)
        x[nr.asarray(idx)] = v
        ref[idx] = value
        np.testing.assert_array_equal(np.asarray(x), ref)
    for level in ("basic", "full"):
        with nr.debug.sim_check_level(level):
            for dt in (np.int8, np.float16, np.float32, np.float64, np.complex128):
                idx = rng.permutation(50000)[:20000]
                check((50000,), dt, idx, (rng.standard_normal(20000) * 50).astype(dt))
            idx = rng.permutation(6000)[:2500]
            check((6000, 7), np.float32, idx, rng.standard_normal((2500, 7)).astype(np.float32))
            check((6000, 7), np.int16, idx, np.int16(9))
            check((50000,), np.float32, np.sort(rng.permutation(50000)[:30000]),
                  rng.standard_normal(30000).astype(np.float32))
            check((50000,), np.float32, rng.permutation(50000)[:20000], np.float32(2.5))
            dup = rng.integers(0, 300, 5000)
            vals = rng.standard_normal(5000).astype(np.float32)
            base = np.zeros(300, np.float32)
            x = nr.asarray(base)
            x[nr.asarray(dup)] = nr.asarray(vals)
            base[dup] = vals
            np.testing.assert_array_equal(np.asarray(x), base)
    print("ok")
    """
)

SWIGLU = textwrap.dedent(
    """
    import numpy as np
    import npurt as nr
    rng = np.random.default_rng(7)
    def ref(dy, x):
        a, b = np.split(x.astype(np.float64), 2, axis=-1)
        s = 1 / (1 + np.exp(-a))
        return np.concatenate([dy * b * s * (1 + a * (1 - s)), dy * a * s], axis=-1)
    for level in ("basic", "full"):
        with nr.debug.sim_check_level(level):
            for (m, h), dt, tol in [((300, 1027), "float32", 1e-5), ((97, 13), "float32", 1e-5),
                                    ((200, 333), "float16", 4e-3), ((64, 999), "bfloat16", 3e-2)]:
                x = rng.standard_normal((m, 2 * h)).astype(np.float32)
                dy = rng.standard_normal((m, h)).astype(np.float32)
                xd, dyd = nr.asarray(x).astype(getattr(nr, dt)), nr.asarray(dy).astype(getattr(nr, dt))
                got = np.asarray(nr.ops.swiglu_backward(dyd, xd).astype(nr.float32))
                want = ref(np.asarray(dyd.astype(nr.float32)).astype(np.float64),
                           np.asarray(xd.astype(nr.float32)))
                np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    print("ok")
    """
)


@pytest.mark.parametrize("child", [UNIQUE, SCATTER, SWIGLU], ids=["unique", "scatter", "swiglu"])
def test_kernels_pass_the_dcache_check(child):
    env = dict(os.environ, NPURT_SIM_DCACHE_CHECK="1")
    out = subprocess.run([sys.executable, "-c", child], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().endswith("ok")
