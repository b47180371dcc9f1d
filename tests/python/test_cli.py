"""python -m npurt info / demo run end to end in a subprocess."""
import os
import subprocess
import sys


def run(*args):
    return run_env({}, *args)


def run_env(extra, *args):
    env = dict(os.environ, **extra)
    return subprocess.run([sys.executable, "-m", "npurt", *args], capture_output=True, text=True, env=env,
                          timeout=300)


def test_info():
    r = run("info")
    assert r.returncode == 0, r.stderr
    assert "backends:" in r.stdout and "sim" in r.stdout and "Ascend910B3" in r.stdout
    assert "ascend" in r.stdout  # listed with its state (and reason when unavailable)
    assert "(C API 0." in r.stdout and "libnpurt" in r.stdout
    simd = [line for line in r.stdout.splitlines() if line.startswith("simulated AI core SIMD:")]
    assert simd and simd[0].split()[4] in ("generic", "avx2", "avx512"), r.stdout
    forced = run_env({"NPURT_SIM_ISA": "generic"}, "info")
    assert "simulated AI core SIMD: generic" in forced.stdout and "settings: NPURT_SIM_ISA=generic" in forced.stdout


def test_demo_runs_every_section():
    listed = run("demo", "--list")
    assert listed.returncode == 0 and len(listed.stdout.splitlines()) >= 4
    r = run("demo")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "all sections passed" in r.stdout and "OutOfMemoryError" in r.stdout
    assert "graphed step == eager step" in r.stdout  # the graphs section (s60)


def test_demo_rejects_unknown_section():
    assert run("demo", "no-such-section").returncode == 2
