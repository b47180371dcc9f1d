"""tests/packaging/check_library_copies.py: the installed Python package (the editable
install, or the Bazel package under //tests:python_tests) holds each shared library once, the
runtime the loader mapped is the package's npurt/lib/libnpurt.so (so replacing that file
replaces the runtime), and the checker catches versioned copies and missing libraries."""
import os
import pathlib
import shutil
import subprocess
import sys
import zipfile

import numpy as np
import pytest

TOOL = pathlib.Path(__file__).resolve().parents[2] / "packaging" / "check_library_copies.py"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF and /proc/self/maps")


def check(*args):
    return subprocess.run([sys.executable, str(TOOL), *map(str, args)], capture_output=True, text=True,
                          timeout=120)


def package_lib(nr):
    # Not resolved: Bazel's runfiles are symlinks into bazel-out, a layout that is fine.
    return pathlib.Path(os.path.dirname(nr._npurt.__file__)) / "lib"


def mapped(name):
    with open("/proc/self/maps") as maps:
        return sorted({line.split()[-1] for line in maps if line.rstrip().endswith("/" + name)})


def test_installed_package_holds_each_library_once(nr):
    lib = package_lib(nr)
    r = check(lib, nr._npurt.__file__)
    assert r.returncode == 0, r.stdout + r.stderr
    assert sorted(p.name for p in lib.glob("libnpurt*.so*")) == ["libnpurt.so", "libnpurt_kernels.so"]


def test_the_loader_maps_the_package_libnpurt_so(nr):
    x = nr.asarray(np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(np.asarray(x * 2), np.arange(4, dtype=np.float32) * 2)  # kernels loaded
    for name in ("libnpurt.so", "libnpurt_kernels.so"):
        paths = mapped(name)
        assert len(paths) == 1, (name, paths)
        assert os.path.samefile(paths[0], package_lib(nr) / name), (name, paths)


def test_checker_flags_versioned_copies_but_not_symlinks(nr, tmp_path):
    src = package_lib(nr) / "libnpurt.so"
    copied, linked = tmp_path / "copied", tmp_path / "linked"
    for d in (copied, linked):
        d.mkdir()
        shutil.copy(src, d / "libnpurt.so")
    shutil.copy(src, copied / "libnpurt.so.0")  # what a wheel made of CMake's symlink
    (linked / "libnpurt.so.0").symlink_to("libnpurt.so")
    r = check(copied)
    assert r.returncode == 1 and "libnpurt.so = libnpurt.so.0 are separate files" in r.stdout, r.stdout
    r = check(linked)
    assert r.returncode == 0, r.stdout + r.stderr


def test_checker_flags_a_missing_runtime(nr, tmp_path):
    shutil.copy(package_lib(nr) / "libnpurt_kernels.so", tmp_path)
    r = check(tmp_path, nr._npurt.__file__)
    assert r.returncode == 1, r.stdout
    assert "libnpurt_kernels.so needs libnpurt.so, which is not in" in r.stdout
    assert "_npurt" in r.stdout  # the extension needs it too


def test_checker_reads_a_wheel(nr, tmp_path):
    lib = package_lib(nr)
    good, bad = tmp_path / "good-0-py3-none-any.whl", tmp_path / "bad-0-py3-none-any.whl"
    with zipfile.ZipFile(good, "w") as z:
        z.write(nr._npurt.__file__, "npurt/" + os.path.basename(nr._npurt.__file__))
        for name in ("libnpurt.so", "libnpurt_kernels.so"):
            z.write(lib / name, "npurt/lib/" + name)
    shutil.copy(good, bad)
    with zipfile.ZipFile(bad, "a") as z:
        z.write(lib / "libnpurt.so", "npurt/lib/libnpurt.so.0")
    r = check(good)
    assert r.returncode == 0, r.stdout + r.stderr
    r = check(bad)
    assert r.returncode == 1 and "libnpurt.so = libnpurt.so.0 are separate files" in r.stdout, r.stdout


def test_checker_usage_errors(tmp_path):
    assert check().returncode == 2
    assert check(tmp_path / "missing").returncode == 2
    (tmp_path / "libbroken.so").write_text("text")
    r = check(tmp_path)
    assert r.returncode == 2 and "not a little-endian ELF64 file" in r.stderr
    (tmp_path / "empty.whl").write_bytes(b"")
    r = check(tmp_path / "empty.whl")
    assert r.returncode == 2, r.stdout
