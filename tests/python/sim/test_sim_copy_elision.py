"""Copy elision in the sim (docs/backends.md "Copy elision"): GM -> UB copies from
read-only inputs are left pending and read from GM. It may change where bytes are
read, never which bytes, so every result must be bit-identical with the switch
NPURT_SIM_COPY_ELISION=0 (every copy done) and on, at check levels off, basic and
full. The child process computes a fixed set of ops (reductions, elementwise,
casts, in-place ops and out= aliasing, views, sizes 0/1/15/33/1023/large) and saves
them; the parent compares the runs bit for bit, and the elided run against numpy:
exact for add/copy/astype/in-place, |y - ref| <= 4 ulp relative for exp (float32),
and sums within 1e-5 * sum(|a|) (float32 accumulation, also of float16 inputs,
whose sums fold each tile with Axpy straight from GM).
"""
import os
import subprocess
import sys

import numpy as np
import pytest

CHILD = r"""
import sys
import numpy as np
import npurt as nr

out = {}
rng = np.random.default_rng(7)
for n in (0, 1, 15, 33, 1023, (1 << 20) + 15):
    for dt in (np.float32, np.float16):
        a = rng.standard_normal(n).astype(dt)
        b = rng.standard_normal(n).astype(dt)
        x, y = nr.asarray(a), nr.asarray(b)
        k = f"{n}/{np.dtype(dt).name}"
        out[k + "/a"] = a
        out[k + "/b"] = b
        out[k + "/sum"] = np.asarray(nr.sum(x).numpy())
        out[k + "/sum_f32"] = np.asarray(nr.sum(x, dtype=nr.float32).numpy())  # float16: Axpy from GM
        out[k + "/max"] = np.asarray(nr.max(x).numpy()) if n else np.zeros(0, dt)
        out[k + "/add"] = (x + y).numpy()
        out[k + "/mul"] = (x * 0.5).numpy()
        out[k + "/exp"] = nr.exp(x).numpy()
        out[k + "/astype"] = x.astype(nr.float32 if dt == np.float16 else nr.float16).numpy()
        z = nr.asarray(a)
        z += y                      # out aliases an input: no elision for it
        out[k + "/iadd"] = z.numpy()
        w = nr.asarray(a)
        w += w
        out[k + "/iadd_self"] = w.numpy()
        if n > 2:
            out[k + "/views"] = (x[1:] + x[:-1]).numpy()
            out[k + "/strided_sum"] = np.asarray(nr.sum(x[::2]).numpy())
m = rng.standard_normal((33, 1023)).astype(np.float32)
xm = nr.asarray(m)
out["2d/m"] = m
out["2d/sum0"] = nr.sum(xm, axis=0).numpy()
out["2d/sum1"] = nr.sum(xm, axis=1).numpy()
out["2d/mean"] = np.asarray(nr.mean(xm).numpy())
xh = nr.asarray(m.astype(np.float16))  # float16 rows and columns (both reduce modes)
out["2d/h_sum0"] = nr.sum(xh, axis=0, dtype=nr.float32).numpy()
out["2d/h_sum1"] = nr.sum(xh, axis=1, dtype=nr.float32).numpy()
out["2d/h_mean"] = np.asarray(nr.mean(xh).numpy())
np.savez(sys.argv[1], **out)
"""


def run_child(tmp_path, elision, level):
    path = tmp_path / f"e{elision}_{level}.npz"
    env = dict(os.environ, NPURT_SIM_COPY_ELISION=elision, NPURT_SIM_CHECK=level)
    p = subprocess.run([sys.executable, "-c", CHILD, str(path)], env=env, capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    return dict(np.load(path))


@pytest.mark.parametrize("level", ["off", "basic", "full"])
def test_bit_identical_with_and_without_elision(tmp_path, level):
    eager = run_child(tmp_path, "0", level)
    lazy = run_child(tmp_path, "1", level)
    assert eager.keys() == lazy.keys()
    for k in eager:
        assert eager[k].dtype == lazy[k].dtype and eager[k].shape == lazy[k].shape, k
        assert eager[k].tobytes() == lazy[k].tobytes(), f"{k} differs with elision at {level}"
    check_against_numpy(lazy)


def check_against_numpy(r):
    for key in [k for k in r if k.endswith("/a") and not k.startswith("2d")]:
        k = key[:-2]
        a, b = r[k + "/a"], r[k + "/b"]
        dt = a.dtype.type
        np.testing.assert_array_equal(r[k + "/add"], a + b)
        np.testing.assert_array_equal(r[k + "/iadd"], a + b)
        np.testing.assert_array_equal(r[k + "/iadd_self"], a + a)
        np.testing.assert_array_equal(r[k + "/mul"], a * dt(0.5))
        other = np.float32 if dt == np.float16 else np.float16
        np.testing.assert_array_equal(r[k + "/astype"], a.astype(other))
        if a.size > 2:
            np.testing.assert_array_equal(r[k + "/views"], a[1:] + a[:-1])
        if dt == np.float32:
            ref = np.exp(a.astype(np.float64))
            assert np.all(np.abs(r[k + "/exp"] - ref) <= 2.0**-21 * ref)
            s = float(r[k + "/sum"])
            assert abs(s - a.astype(np.float64).sum()) <= 1e-5 * (np.abs(a).sum() + 1)
            if a.size:
                assert float(r[k + "/max"]) == a.max()
        # float32 accumulation of exact float16 inputs: the float32 sum's bound
        s = float(r[k + "/sum_f32"])
        assert abs(s - a.astype(np.float64).sum()) <= 1e-5 * (np.abs(a.astype(np.float64)).sum() + 1), k
    m = r["2d/m"].astype(np.float64)
    np.testing.assert_allclose(r["2d/sum0"], m.sum(axis=0), rtol=0, atol=1e-4 * np.abs(m).sum(axis=0).max())
    np.testing.assert_allclose(r["2d/sum1"], m.sum(axis=1), rtol=0, atol=1e-4 * np.abs(m).sum(axis=1).max())
    assert abs(float(r["2d/mean"]) - m.mean()) <= 1e-5
    h = r["2d/m"].astype(np.float16).astype(np.float64)
    np.testing.assert_allclose(r["2d/h_sum0"], h.sum(axis=0), rtol=0, atol=1e-4 * np.abs(h).sum(axis=0).max())
    np.testing.assert_allclose(r["2d/h_sum1"], h.sum(axis=1), rtol=0, atol=1e-4 * np.abs(h).sum(axis=1).max())
    assert abs(float(r["2d/h_mean"]) - h.mean()) <= 2.0**-10 * np.abs(h).mean()  # rounded to float16 once
