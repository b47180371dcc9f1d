"""The host fast paths of the simulated cube (AVX-512 data moves: Nd2Nz,
transposing LoadData, Fixpipe casts, AMX B packing; 128x256 / 256x128 tiles)
against the scalar reference paths, through nr.ops.matmul.

The host ISA is chosen once per process, so each ISA runs in its own child
process (NPURT_SIM_ISA=generic: scalar moves and the portable micro-kernel;
avx512: vector moves, no AMX; unset: everything the host has) at check levels
off and full, over odd shapes (1, 15, 17, 33, 63, 65, tails not a multiple of
16), outputs of 4 MiB and more (Fixpipe's streaming stores), trans_a / trans_b, bias (float32 and input dtype), batch broadcast and
output-dtype casts. The float path is specified bit-identical across ISAs
(in-order fma per cell, exact moves and casts), so generic and avx512 must
agree bit for bit; every run, AMX included, must also meet the float64
reference bound of test_matmul.py.
"""
import os
import subprocess
import sys

import ml_dtypes
import numpy as np
import pytest

from test_matmul import check_general

BF16 = np.dtype(ml_dtypes.bfloat16)

CHILD = r"""
import sys
import zlib
import ml_dtypes
import numpy as np
import npurt as nr

BF16 = np.dtype(ml_dtypes.bfloat16)
out = {}
def case(name, m, k, n, dt, ta=False, tb=False, bias=None, batch_a=(), batch_b=(), out_dtype=""):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    a = rng.standard_normal(batch_a + ((k, m) if ta else (m, k))).astype(dt)
    b = rng.standard_normal(batch_b + ((n, k) if tb else (k, n))).astype(dt)
    args = [nr.asarray(a), nr.asarray(b)]
    bv = None
    if bias is not None:
        bv = rng.standard_normal(n).astype(bias)
        args.append(nr.asarray(bv))
    for level in ("off", "full"):
        with nr.debug.sim_check_level(level):
            y = nr.ops.matmul(*args, trans_a=ta, trans_b=tb, dtype=out_dtype).numpy()
        out[name + "/" + level] = y.view(np.uint16) if y.dtype.itemsize == 2 else y.view(np.uint32)
    out[name + "/a"], out[name + "/b"] = a.astype(np.float32), b.astype(np.float32)
    out[name + "/flags"] = np.array([ta, tb])
    out[name + "/dtype"] = np.array(y.dtype.name)
    if bv is not None:
        out[name + "/bias"] = bv.astype(np.float32)

for dt in (np.float32, np.float16, BF16):
    d = np.dtype(dt).name
    for (m, k, n) in [(1, 1, 1), (15, 17, 33), (17, 33, 15), (63, 65, 1), (65, 63, 129), (33, 300, 257)]:
        for ta in (False, True):
            for tb in (False, True):
                case(f"{d}_{m}_{k}_{n}_{int(ta)}{int(tb)}", m, k, n, dt, ta, tb)
    case(f"{d}_bias32", 37, 70, 150, dt, bias=np.float32)
    case(f"{d}_biasin", 65, 33, 17, dt, tb=True, bias=dt)
    case(f"{d}_bcast", 33, 65, 17, dt, batch_a=(2, 1), batch_b=(3,))
    # 128x256 tiles with trans_b (b [N, K] needs no transposed load), 256x128 without; N tail
    case(f"{d}_wide", 1024, 24, 2050, dt, tb=(d != "float32"))
    if d != "float32":
        case(f"{d}_wide_b", 1024, 24, 2050, dt)  # 2-byte 256x128 tiles (transposing B loads)
    case(f"{d}_tall", 2050, 16, 1024, dt, ta=True)
    if d == "float32":
        # >= 4 MiB float outputs: Fixpipe streams whole aligned rows (2048 wide) or,
        # with a row pitch that is not a multiple of 64 B (2050 wide), stores plainly;
        # 1024 x 1024 is exactly the 4 MiB threshold.
        case(f"{d}_bigout", 2048, 16, 2048, dt)
        case(f"{d}_bigout_odd", 2050, 16, 2050, dt)
        case(f"{d}_midout", 1024, 16, 1024, dt)
    if d != "float32":
        case(f"{d}_out32", 63, 65, 33, dt, out_dtype="float32")
    else:
        case(f"{d}_out16", 63, 65, 33, dt, out_dtype="float16")
        case(f"{d}_outbf16", 63, 65, 33, dt, out_dtype="bfloat16")
print(nr.ops.describe("matmul", (1024, 24), (24, 2050)))
print(nr.ops.describe("matmul", (1024, 24), (2050, 24), trans_b=True))
np.savez(sys.argv[1], **out)
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("isa")
    res = {}
    for isa in ("generic", "avx512", "default"):
        env = dict(os.environ)
        env.pop("NPURT_SIM_ISA", None)
        if isa != "default":
            env["NPURT_SIM_ISA"] = isa
        path = tmp / f"{isa}.npz"
        p = subprocess.run([sys.executable, "-c", CHILD, str(path)], env=env, capture_output=True, text=True,
                           timeout=900)
        assert p.returncode == 0, p.stderr[-3000:]
        res[isa] = (dict(np.load(path)), p.stdout)
    return res


def _cases(data):
    return sorted({k.rsplit("/", 1)[0] for k in data})


def test_plan_uses_wide_tiles(runs):
    # Equal-cost shapes go to the fewer transposing loads (matmul_plan.cc): b [K, N] is
    # transposed into L0B, so it gets the short side; b [N, K] (trans_b) is not.
    plain, trans_b = runs["default"][1].split("matmul(")[1:3]
    assert "tile=256x128" in plain and "tile=128x256" in trans_b


@pytest.mark.parametrize("level", ["off", "full"])
def test_vector_moves_bit_identical_to_scalar(runs, level):
    gen, vec = runs["generic"][0], runs["avx512"][0]
    for name in _cases(gen):
        key = f"{name}/{level}"
        assert gen[key].dtype == vec[key].dtype and gen[key].shape == vec[key].shape, name
        diff = np.flatnonzero(gen[key] != vec[key])
        assert diff.size == 0, f"{key}: {diff.size} elements differ (first at {diff[0]})"


def _decode(data, name, level):
    dt = np.dtype(BF16) if str(data[name + "/dtype"]) == "bfloat16" else np.dtype(str(data[name + "/dtype"]))
    return data[f"{name}/{level}"].view(dt)


@pytest.mark.parametrize("isa", ["generic", "avx512", "default"])
@pytest.mark.parametrize("level", ["off", "full"])
def test_every_isa_meets_the_reference_bound(runs, isa, level):
    data = runs[isa][0]
    for name in _cases(data):
        ta, tb = (bool(f) for f in data[name + "/flags"])
        y = _decode(data, name, level)
        check_general(y, data[name + "/a"], data[name + "/b"], ta, tb, bias=data.get(name + "/bias"),
                      out_dtype=y.dtype)
