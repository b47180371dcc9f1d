"""`python -m npurt new-op NAME` writes a skeleton whose own test builds and passes."""
import os
import subprocess
import sys


def test_new_op_generates_a_passing_test(tmp_path):
    env = dict(os.environ, NPURT_CACHE_DIR=str(tmp_path / "cache"))
    out = tmp_path / "scaled_add"
    r = subprocess.run([sys.executable, "-m", "npurt", "new-op", "scaled_add", "-o", str(out)],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert (out / "scaled_add_kernel.cc").is_file() and (out / "CMakeLists.txt").is_file()
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(out)],
                       capture_output=True, text=True, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "11 passed" in r.stdout
    again = subprocess.run([sys.executable, "-m", "npurt", "new-op", "scaled_add", "-o", str(out)],
                           capture_output=True, text=True, env=env)
    assert again.returncode == 2 and "exists" in again.stderr
