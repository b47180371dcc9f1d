"""The Python SDK on the ascend backend, with the FAKE AscendCL of the C++ tests
(tests/runtime/backends/ascend/fake/fake_ascendcl.cpp; NOT CANN: nothing here
says how an NPU behaves, only that npurt's Python -> C++ -> AscendCL path is
wired right).

The fake comes from the build when it made one (Bazel: //tests:python_tests has
//tests:fake_ascendcl/full/lib64/libascendcl.so as data, found through the test's
runfiles, TEST_SRCDIR/TEST_WORKSPACE), else it is compiled here with the host C++
compiler (skipped only without a compiler or without the sources). It is selected
the documented way, by environment, in a fresh interpreter (the registry probes
AscendCL once per process): NPURT_ASCENDCL_LIBRARY=<fake libascendcl.so>,
FAKE_ACL_DEVICE_COUNT=1.
Checked against numpy, exactly (copies are bit-exact): device listing, H2D + D2H
round trips of every size class (empty, 0-d, 1, 15, 33, 1023, 2^20 + 3 bytes past
the staging limit), float16/int8/bool, non-contiguous sources, ascend <-> sim
transfers; an op with no ascend kernel binary fails naming the op and the
reason, and the runtime stays usable.
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FAKE_SRC = ROOT / "tests" / "runtime" / "backends" / "ascend" / "fake" / "fake_ascendcl.cpp"


BUILT_FAKE = pathlib.Path("tests", "fake_ascendcl", "full", "lib64", "libascendcl.so")


def built_fake(env=os.environ):
    """The fake the build made, in a Bazel test's runfiles; None elsewhere."""
    srcdir, workspace = env.get("TEST_SRCDIR"), env.get("TEST_WORKSPACE")
    if not srcdir or not workspace:
        return None
    lib = pathlib.Path(srcdir, workspace) / BUILT_FAKE
    return lib if lib.is_file() else None


def test_built_fake_is_found_in_bazel_runfiles(tmp_path):
    lib = tmp_path / "ws" / BUILT_FAKE
    assert built_fake({"TEST_SRCDIR": str(tmp_path), "TEST_WORKSPACE": "ws"}) is None  # not built: compile
    lib.parent.mkdir(parents=True)
    lib.write_bytes(b"")
    assert built_fake({"TEST_SRCDIR": str(tmp_path), "TEST_WORKSPACE": "ws"}) == lib
    assert built_fake({}) is None  # not under Bazel


@pytest.fixture(scope="module")
def fake_acl(tmp_path_factory):
    prebuilt = built_fake()
    if prebuilt is not None:
        return prebuilt
    cxx = shutil.which("c++")
    if cxx is None or not FAKE_SRC.is_file() or not (ROOT / "runtime" / "backends" / "ascend").is_dir():
        pytest.skip("no C++ compiler or no fake AscendCL sources")
    lib = tmp_path_factory.mktemp("fake_acl") / "full" / "lib64" / "libascendcl.so"
    lib.parent.mkdir(parents=True)
    r = subprocess.run([cxx, "-std=c++17", "-O1", "-shared", "-fPIC", "-pthread", f"-I{ROOT / 'runtime'}",
                        f"-I{ROOT / 'runtime' / 'include'}", str(FAKE_SRC), "-o", str(lib)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return lib


def run_on_fake(lib, body):
    """Runs body (Python source; nr, np imported) in a fresh interpreter on the fake; returns its JSON output."""
    env = dict(os.environ, NPURT_ASCENDCL_LIBRARY=str(lib), FAKE_ACL_DEVICE_COUNT="1")
    env.pop("NPURT_ASCEND_KERNEL_PATH", None)
    src = "import json, numpy as np, npurt as nr\n" + body
    r = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_ascend_device_is_listed(fake_acl):
    out = run_on_fake(fake_acl, "print(json.dumps([str(d) for d in nr.devices()]))")
    assert "ascend:0" in out and "sim:0" in out


ROUND_TRIP = """
rng = np.random.default_rng(0)
bad = []
cases = [((0,), "float32"), ((), "float32"), ((1,), "float32"), ((15,), "float32"), ((33,), "float16"),
         ((1023,), "int8"), ((7, 5), "bool"), (((1 << 18) + 1,), "float32")]
for shape, dt in cases:
    x = (rng.standard_normal(shape) * 100).astype(dt)
    for src in (x, x[::2] if x.ndim == 1 else x.T):
        a = nr.asarray(src, device="ascend:0")
        got = a.numpy()
        if str(a.device) != "ascend:0" or got.shape != src.shape or got.tobytes() != np.ascontiguousarray(src).tobytes():
            bad.append([list(shape), dt, str(a.device), int(np.sum(got != src)) if got.shape == src.shape else -1])
x = np.arange(1000, dtype=np.float32) - 100.0
dev = {str(d): d for d in nr.devices()}
s = nr.asarray(x)                                    # sim
a = s.to_device(dev["ascend:0"])                     # sim -> ascend
back = a.to_device(dev["sim:0"]).numpy()             # ascend -> sim
print(json.dumps({"bad": bad, "transfer": back.tobytes() == x.tobytes(), "dev": str(a.device)}))
"""


def test_round_trips_are_bit_exact(fake_acl):
    out = run_on_fake(fake_acl, ROUND_TRIP)
    assert out["bad"] == [], out["bad"]
    assert out["transfer"] and out["dev"] == "ascend:0"


NO_KERNEL = """
a = nr.asarray(np.ones(10, np.float32), device="ascend:0")
try:
    (a + a).numpy()
    err = None
except Exception as e:
    err = [type(e).__name__, str(e)]
again = nr.asarray(np.arange(5, dtype=np.float32), device="ascend:0").numpy().tolist()
print(json.dumps({"err": err, "again": again}))
"""


def test_op_without_an_ascend_kernel_binary_fails_clearly(fake_acl):
    out = run_on_fake(fake_acl, NO_KERNEL)
    assert out["err"] is not None, "an op ran on ascend:0 without any kernel binary"
    kind, msg = out["err"]
    assert kind == "NotFoundError"
    assert "npurt.ops.add" in msg and "ascend:0" in msg and "no kernel binary exports it" in msg, msg
    assert out["again"] == [0.0, 1.0, 2.0, 3.0, 4.0]  # the runtime stays usable
