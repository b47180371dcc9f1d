"""tools/test.sh keeps its contract: each runner's closing line is counted (serial and
pytest-xdist output alike), the run ends with the summary and the "total:" line, and a
failed step makes the exit status non-zero.

The parsers live in tools/test_lib.sh (sourced by tools/test.sh); these tests source it in
bash and feed it logs. The end-to-end cases run tools/test.sh with every slow step skipped.
The sanitizer builds' debug prefix map is checked where it matters: a -g compile made in
one clone is a ccache hit in a clone at another path.
"""
import os
import pathlib
import shutil
import subprocess
import sys
import textwrap

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
LIB = ROOT / "tools" / "test_lib.sh"
TEST_SH = ROOT / "tools" / "test.sh"

pytestmark = [
    pytest.mark.skipif(not (LIB.is_file() and TEST_SH.is_file()), reason="needs the source tree's tools/"),
    pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash"),
]

SERIAL_LOG = """\
........................................................................ [ 99%]
...............s                                                         [100%]
=========================== short test summary info ============================
SKIPPED [1] tests/python/test_roundtrip.py:55: no big-endian variant of this dtype
================= 8743 passed, 4 skipped, 20 xfailed in 314.20s (0:05:14) =================
"""

# pytest-xdist: worker start-up lines, a crashed worker, then the same closing line format.
XDIST_LOG = """\
bringing up nodes...
..........F..................................................... [ 50%]
[gw1] node down: Not properly terminated
F
replacing crashed worker gw1
........................................................................ [100%]
=================================== FAILURES ===================================
_____________________________ test_a[2 passed] _________________________________
E   assert '3 failed' == 'x'
=========================== short test summary info ============================
FAILED tests/python/test_x.py::test_a - assert '3 failed' == 'x'
FAILED tests/python/test_x.py::test_b
=========== 2 failed, 8741 passed, 4 skipped, 1 error in 190.02s (0:03:10) ===========
"""


def bash(script, env=None):
    """Runs SCRIPT in bash with tools/test_lib.sh sourced; returns stdout lines."""
    proc = subprocess.run(["bash", "-c", f'source "{LIB}"\n{script}'], capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


def counts_of(tmp_path, log, parser="pytest_counts"):
    path = tmp_path / "step.log"
    path.write_text(log)
    return bash(f'{parser} "{path}" LABEL || echo "no line"\n'
                'echo "$TOTAL_PASSED $TOTAL_FAILED"\nprintf "%s\\n" "${SUMMARY_LINES[@]}"')


def test_serial_pytest_closing_line_is_counted(tmp_path):
    out = counts_of(tmp_path, SERIAL_LOG)
    assert out[0] == "8743 0"
    assert out[1] == "LABEL: 8743 passed, 4 skipped, 20 xfailed in 314.20s (0:05:14)"


def test_xdist_closing_line_counts_failures_and_errors(tmp_path):
    # Only the last closing line counts, not a test name or message quoting counts.
    out = counts_of(tmp_path, XDIST_LOG)
    assert out[0] == "8741 3"
    assert out[1].startswith("LABEL: 2 failed, 8741 passed, 4 skipped, 1 error in")


def test_log_without_closing_line_adds_nothing(tmp_path):
    out = counts_of(tmp_path, "bringing up nodes...\nSegmentation fault\n")
    assert out[:2] == ["no line", "0 0"]


def test_ctest_and_plain_lines(tmp_path):
    assert counts_of(tmp_path, "100% tests passed out of 42\n", "ctest_counts")[0] == "42 0"
    assert counts_of(tmp_path, "95% tests passed, 2 tests failed out of 40\n", "ctest_counts")[0] == "38 2"
    out = counts_of(tmp_path, "build checks: 6 passed, 1 failed, 0 skipped\n", "plain_counts")
    assert out[0] == "6 1"


@pytest.mark.parametrize("workers, want", [("2", ["-n", "2", "--dist", "loadgroup"]), ("1", []), ("x", [])])
def test_pytest_parallel_arguments(workers, want):
    pytest.importorskip("xdist")
    env = dict(os.environ, PYTEST_WORKERS=workers)
    assert bash(f'pytest_parallel "{sys.executable}"', env=env) == want


def test_pytest_parallel_falls_back_to_serial_without_xdist(tmp_path):
    fake = tmp_path / "python"  # an interpreter whose "import xdist" fails
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    proc = subprocess.run(["bash", "-c", f'source "{LIB}"; PYTEST_WORKERS=2 pytest_parallel "{fake}"'],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout == ""
    assert "pytest-xdist is not installed" in proc.stderr


def run_test_sh(logs, skip, **env):
    # NPURT_TEST_LOGS: not the real build/test-logs, which a running tools/test.sh is writing.
    return subprocess.run(["bash", str(TEST_SH)], capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env=dict(os.environ, NPURT_TEST_SKIP=skip, NPURT_TEST_LOGS=str(logs), **env),
                          stdin=subprocess.DEVNULL)


def test_all_steps_skipped_ends_with_summary_and_total(tmp_path):
    proc = run_test_sh(tmp_path, "deps cpp python simfull tsan asan extra")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert "===== summary =====" in lines
    assert "python: skipped (NPURT_TEST_SKIP)" in lines
    assert lines[-1] == "total: 0 passed, 0 failed"


def test_a_failed_step_fails_the_run(tmp_path):
    # PYTHON=false: the python step's install fails without a pytest line, which counts as one failure.
    proc = run_test_sh(tmp_path, "deps cpp simfull tsan asan extra", PYTHON="false")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert any(line.startswith("python: FAILED with exit") for line in lines), textwrap.shorten(proc.stdout, 400)
    assert lines[-1] == "total: 0 passed, 1 failed"
    assert (tmp_path / "python.log").is_file()


def _ccache_g_compile(checkout, cache, statslog, with_map):
    """Compiles checkout/src/x.cc with -g through ccache from checkout/build, as the sanitizer steps do."""
    flags = bash(f'debug_prefix_map "{checkout}"') if with_map else []
    env = dict(os.environ, CCACHE_DIR=str(cache), CCACHE_BASEDIR=str(checkout), CCACHE_STATSLOG=str(statslog))
    env.pop("CCACHE_NOHASHDIR", None)
    env.pop("CCACHE_HASHDIR", None)
    subprocess.run(["ccache", "g++", "-g", "-O1", *flags, "-c", "../src/x.cc", "-o", "x.o"],
                   cwd=checkout / "build", env=env, check=True, timeout=120)


@pytest.mark.skipif(shutil.which("ccache") is None or shutil.which("g++") is None, reason="needs ccache and g++")
@pytest.mark.parametrize("with_map, want", [(True, "direct_cache_hit"), (False, "cache_miss")])
def test_debug_builds_hit_ccache_from_another_clone_path(tmp_path, with_map, want):
    # Two clones at different paths; the second compile hits only with the prefix map
    # (the control without it shows ccache keyed the -g compile on the directory).
    for clone in ("clone-a", "clone-b"):
        (tmp_path / clone / "src").mkdir(parents=True)
        (tmp_path / clone / "build").mkdir()
        source = "#include <vector>\nint f() { return std::vector<int>(3).size(); }\n"
        (tmp_path / clone / "src" / "x.cc").write_text(source)
    cache = tmp_path / "ccache"
    _ccache_g_compile(tmp_path / "clone-a", cache, tmp_path / "a.log", with_map)
    _ccache_g_compile(tmp_path / "clone-b", cache, tmp_path / "b.log", with_map)
    assert want in (tmp_path / "b.log").read_text().split()


def _python_compilers():
    import sysconfig
    return [(sysconfig.get_config_var(v) or "").split(" ")[0] or default for v, default in (("CC", "cc"), ("CXX", "c++"))]


def test_build_compilers_are_python_s_unless_the_environment_names_them():
    env = {k: v for k, v in os.environ.items() if k not in ("CC", "CXX")}
    cc, cxx = _python_compilers()
    assert bash(f'build_compilers "{sys.executable}"', env=env) == [f"{cc} {cxx}"]
    assert bash(f'build_compilers "{sys.executable}"', env=dict(env, CC="my-cc", CXX="my-c++")) == ["my-cc my-c++"]


def _ccache_compile(tmp_path, compiler, statslog):
    env = dict(os.environ, CCACHE_DIR=str(tmp_path / "ccache"), CCACHE_BASEDIR=str(tmp_path),
               CCACHE_STATSLOG=str(statslog))
    subprocess.run(["ccache", compiler, "-O2", "-c", "x.cc", "-o", f"x-{statslog.stem}.o"],
                   cwd=tmp_path, env=env, check=True, timeout=120)


@pytest.mark.skipif(shutil.which("ccache") is None, reason="needs ccache")
@pytest.mark.parametrize("same_name, want", [(True, "direct_cache_hit"), (False, "cache_miss")])
def test_one_compiler_name_lets_the_cpp_and_python_builds_share_ccache(tmp_path, same_name, want):
    # The python step compiles with build_compilers' CXX (scikit-build-core's choice); the
    # cpp step gets the same name from tools/test.sh's export. The control compiles the
    # second time under another name of a C++ compiler (c++ or g++): ccache misses.
    cxx = _python_compilers()[1]
    other = "c++" if cxx != "c++" else "g++"
    if shutil.which(cxx) is None or shutil.which(other) is None:
        pytest.skip(f"needs {cxx} and {other}")
    (tmp_path / "x.cc").write_text("#include <vector>\nint f() { return std::vector<int>(3).size(); }\n")
    _ccache_compile(tmp_path, cxx, tmp_path / "a.log")
    _ccache_compile(tmp_path, cxx if same_name else other, tmp_path / "b.log")
    assert want in (tmp_path / "b.log").read_text().split()


def test_test_sh_names_its_build_compilers(tmp_path):
    everything = "deps cpp python simfull tsan asan extra"
    proc = run_test_sh(tmp_path, everything, CC="my-cc", CXX="my-c++")
    assert "build compilers: CC=my-cc CXX=my-c++" in proc.stdout.splitlines(), proc.stdout[:400]
