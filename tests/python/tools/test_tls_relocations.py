"""tests/packaging/check_tls_relocations.py: the TLS relocations of the npurt libraries this
process loaded are sound (under //tests:python_tests: the Bazel-built package, whose
gold-linked -O0 libnpurt aliased two initial-exec TLS pointers and corrupted the heap),
and the checker flags exactly the libraries whose local initial-exec variables alias."""
import ctypes
import os
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest

TOOL = pathlib.Path(__file__).resolve().parents[2] / "packaging" / "check_tls_relocations.py"

# `a` is internal and initial-exec; `local_dynamic` makes the object reach its TLS block
# through __tls_get_addr too (at -O0 that is what makes gold mis-relocate `a`). If `a`
# resolves to offset 0 of the block, writing it writes `first`.
ALIAS_PROBE = r"""
__thread long first;
static __thread long a __attribute__((tls_model("initial-exec")));
static __thread long local_dynamic;
long first_value(void) { return first; }
void set_a(long v) { a = v; local_dynamic++; }
"""


def check(*libs):
    return subprocess.run([sys.executable, str(TOOL), *map(str, libs)], capture_output=True, text=True,
                          timeout=120)


def loaded_npurt_libraries():
    libs = set()
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1] if len(line.split()) >= 6 else ""
            name = os.path.basename(path)
            if name.startswith(("_npurt", "libnpurt")) and ".so" in name:
                libs.add(path)
    return sorted(libs)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF and /proc/self/maps")
def test_loaded_npurt_libraries_have_sound_tls_relocations(nr):
    x = nr.asarray(np.arange(8, dtype=np.float32))
    np.testing.assert_array_equal(np.asarray(x + 1), np.arange(8, dtype=np.float32) + 1)  # kernels loaded
    libs = loaded_npurt_libraries()
    assert libs, "no npurt library found in /proc/self/maps"
    r = check(*libs)
    assert r.returncode == 0, r.stdout + r.stderr


def build_probe(tmp_path, linker, source=ALIAS_PROBE):
    src = tmp_path / "probe.c"
    src.write_text(source)
    lib = tmp_path / f"libprobe_{linker}.so"
    r = subprocess.run(["gcc", "-O0", "-fPIC", "-shared", f"-fuse-ld={linker}", str(src), "-o", str(lib)],
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        pytest.skip(f"gcc cannot link with {linker}: {r.stderr.strip()[-200:]}")
    return lib


def aliases(lib):
    probe = ctypes.CDLL(str(lib))
    probe.first_value.restype = ctypes.c_long
    probe.set_a(ctypes.c_long(7))
    return probe.first_value() == 7


@pytest.mark.skipif(shutil.which("gcc") is None or not sys.platform.startswith("linux"),
                    reason="needs gcc on Linux")
@pytest.mark.parametrize("linker", ["bfd", "gold"])
def test_checker_flags_exactly_the_aliasing_libraries(tmp_path, linker):
    lib = build_probe(tmp_path, linker)
    r = check(lib)
    assert r.returncode in (0, 1), r.stderr
    # The checker's verdict is what happens at run time: a bad relocation puts `a` on `first`.
    assert (r.returncode == 1) == aliases(lib), r.stdout
    if linker == "bfd":
        assert r.returncode == 0, r.stdout  # GNU ld: what runtime/shared_object.bzl selects


@pytest.mark.skipif(shutil.which("gcc") is None or not sys.platform.startswith("linux"),
                    reason="needs gcc on Linux")
@pytest.mark.parametrize("linker", ["bfd", "gold"])
def test_no_gold_rejects_exactly_the_gold_links(tmp_path, linker):
    # tools/build_checks.sh passes --no-gold for every Bazel .so: a plugin without
    # thread-locals passes the relocation rule whatever linked it, so the linker is checked.
    lib = build_probe(tmp_path, linker, source="int f(void) { return 1; }\n")
    assert check(lib).returncode == 0
    r = check("--no-gold", lib)
    if linker == "gold":
        assert r.returncode == 1 and "linked by GNU gold" in r.stdout, r.stdout
    else:
        assert r.returncode == 0, r.stdout


def test_no_gold_alone_is_a_usage_error():
    assert check("--no-gold").returncode == 2


def test_checker_rejects_a_non_elf_file(tmp_path):
    bad = tmp_path / "not_a_library.so"
    bad.write_text("text")
    r = check(bad)
    assert r.returncode == 2 and "not a little-endian ELF64 file" in r.stderr


# glibc reserves a small surplus of static TLS (1664 bytes by default: the optional_static_tls
# tunable, 512, plus the legacy reserve) for libraries dlopen'ed with initial-exec TLS. libnpurt has
# such variables (the sim's per-thread core pointer, stream windows), so Python's dlopen places its
# whole TLS block there, and whatever it takes is missing for the next library (wave 12: at 1456
# bytes, a 24-byte probe loaded after npurt failed with "cannot allocate memory in static TLS block").
# Large per-thread state lives on the heap behind a pointer instead (cube_packed_cache.cc,
# cube_prefetch.cc, aicore_launch.cc's LaunchRun).
TLS_BUDGET = 1024


def tls_block_bytes(lib):
    out = subprocess.run(["readelf", "-lW", str(lib)], capture_output=True, text=True, timeout=60).stdout
    for line in out.splitlines():
        fields = line.split()
        if fields and fields[0] == "TLS":
            return int(fields[5], 16)  # MemSiz
    return 0


@pytest.mark.skipif(shutil.which("readelf") is None or not sys.platform.startswith("linux"),
                    reason="needs readelf on Linux")
def test_npurt_libraries_leave_static_tls_for_others(nr):
    nr.asarray(np.ones(4, dtype=np.float32)) + 1  # kernels library loaded too
    sizes = {lib: tls_block_bytes(lib) for lib in loaded_npurt_libraries()}
    assert sizes and all(size <= TLS_BUDGET for size in sizes.values()), sizes
