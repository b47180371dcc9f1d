"""Which built-in kernels library the Python package loads (runtime/ops/op_registry.cc).

The extension links only the shared libnpurt; libnpurt loads libnpurt_kernels.so
from its own directory on first op use, or the file $NPURT_KERNELS_LIBRARY names
(a missing file there is a clear error, not a silent fallback). Each case runs in
a fresh interpreter: the kernels load once per process.
"""
import json
import os
import shutil
import subprocess
import sys

import pytest

import npurt as nr
from npurt.info import loaded_library

# Runs an op, then reports which kernels library is mapped and the registry's errors.
PROBE = """
import json, numpy as np, npurt as nr
out = {"errors": nr.ops.registration_errors()}
try:
    out["sum"] = float((nr.asarray(np.arange(4, dtype=np.float32)) * 2).numpy().sum())
except nr.NotFoundError as e:
    out["error"] = str(e)
with open("/proc/self/maps") as f:
    out["kernels"] = sorted({l.split()[-1] for l in f if "npurt_kernels" in l})
print(json.dumps(out))
"""


def probe(kernels_library):
    env = dict(os.environ)
    env.pop("NPURT_KERNELS_LIBRARY", None)
    if kernels_library is not None:
        env["NPURT_KERNELS_LIBRARY"] = kernels_library
    r = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.splitlines()[-1]), r.stderr


@pytest.fixture(scope="module")
def default_kernels():
    nr.ops.list()  # loads the kernels in this process too
    lib = loaded_library()
    if lib is None:
        pytest.skip("npurt is not built with a shared libnpurt here")
    path = os.path.join(os.path.dirname(lib), "libnpurt_kernels.so")
    assert os.path.isfile(path), f"no kernels library next to {lib}"
    return os.path.realpath(path)


def test_default_is_next_to_libnpurt(default_kernels):
    out, _ = probe(None)
    assert out["sum"] == 12.0 and out["errors"] == []
    assert [os.path.realpath(p) for p in out["kernels"]] == [default_kernels]


def test_env_var_replaces_the_default(default_kernels, tmp_path):
    copy = tmp_path / "libnpurt_kernels_copy.so"
    shutil.copyfile(default_kernels, copy)
    out, _ = probe(str(copy))
    assert out["sum"] == 12.0 and out["errors"] == []
    assert out["kernels"] == [str(copy)]  # the copy only: the default was not loaded


def test_env_var_naming_a_missing_file_is_a_clear_error(default_kernels, tmp_path):
    missing = str(tmp_path / "no_such_kernels.so")
    out, stderr = probe(missing)
    expected = f"NPURT_KERNELS_LIBRARY='{missing}': no such file"
    assert out["kernels"] == []  # no silent fallback to the default
    assert len(out["errors"]) == 1 and expected in out["errors"][0]
    assert "unknown op" in out["error"] and expected in out["error"]
    assert expected in stderr


def test_env_var_naming_a_bad_library_is_a_clear_error(default_kernels, tmp_path):
    bad = tmp_path / "libbroken.so"
    bad.write_text("not an ELF file")
    out, _ = probe(str(bad))
    assert len(out["errors"]) == 1 and f"could not load the built-in kernels '{bad}'" in out["errors"][0]
    assert str(bad) in out["error"]


# A plugin that registers a built-in op's name. Loaded before any op ran, it must
# still be refused: libnpurt loads the built-in kernels before it stages a
# plugin's ops (else the plugin's "copy" would pass for the linked-in kernels).
CLASHING_PLUGIN = """
#include "kernel_operator.h"
#include "npurt/op_registry.h"
extern "C" __global__ __aicore__ void clash_copy_kernel(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR) {}
NPURT_REGISTER_OP("copy")
    .input("x", {npurt::DType::kFloat32}).output("y")
    .infer_same_as(0)
    .tiling([](const npurt::OpContext&, npurt::TilingResult& r) { r.num_blocks = 0; })
    .sim_kernel("clash_copy_kernel", NPURT_SIM_ENTRY(clash_copy_kernel));
"""

BUILD_FIRST = """
import sys, npurt as nr
try:
    nr.ops.build("clash_copy", sources=[sys.argv[1]])
    print("loaded")
except nr.AlreadyExistsError as e:
    print("refused:", e)
print("ops:", len(nr.ops.list()))
"""


def test_plugin_loaded_first_cannot_take_a_builtin_name(default_kernels, tmp_path):
    src = tmp_path / "clash_copy.cc"
    src.write_text(CLASHING_PLUGIN)
    env = dict(os.environ, NPURT_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("NPURT_KERNELS_LIBRARY", None)
    r = subprocess.run([sys.executable, "-c", BUILD_FIRST, str(src)], capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "refused:" in r.stdout and "op 'copy' is already registered (by builtin)" in r.stdout, r.stdout
    assert int(r.stdout.split("ops:")[1]) > 100  # every built-in op registered, the plugin's none
