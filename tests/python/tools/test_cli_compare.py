"""Tests of `npurt compare` (exit codes and output) on .npy, .npz and raw files.

Most cases call the subcommand's main() in-process (fast); one runs the real
`python -m npurt compare` entry point to check the wiring and exit code.
"""
import json
import subprocess
import sys

import ml_dtypes
import numpy as np
import pytest

from npurt import cli_compare


@pytest.fixture
def files(tmp_path):
    golden = np.linspace(-1, 1, 15, dtype=np.float32).reshape(3, 5)
    close = golden + np.float32(5e-7)
    far = golden.copy()
    far[2, 4] += 0.5
    paths = {}
    for name, arr in (("golden", golden), ("close", close), ("far", far)):
        paths[name] = tmp_path / f"{name}.npy"
        np.save(paths[name], arr)
        paths[name + "_raw"] = tmp_path / f"{name}.bin"
        arr.tofile(paths[name + "_raw"])
    return tmp_path, paths, golden


def run(*argv):
    return cli_compare.main(["compare", *map(str, argv)])


def test_npy_pass_and_fail_exit_codes(files, capsys):
    _, p, _ = files
    assert run(p["golden"], p["close"], "--rtol", "1e-4", "--atol", "1e-6") == 0
    assert "PASS float32[3, 5]" in capsys.readouterr().out
    assert run(p["golden"], p["far"], "--rtol", "1e-4", "--atol", "1e-6") == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "mismatches: 1 / 15" in out and "[2, 4]" in out


def test_raw_binary_with_dtype_and_shape(files, capsys):
    _, p, _ = files
    assert run(p["golden_raw"], p["far_raw"], "--dtype", "float32", "--shape", "3,5") == 1
    assert "[2, 4]" in capsys.readouterr().out
    assert run(p["golden_raw"], p["close_raw"], "--dtype", "float32", "--rtol", "1e-4") == 0
    # A raw side takes dtype and shape from the .npy side.
    assert run(p["golden"], p["close_raw"], "--rtol", "1e-4") == 0
    assert run(p["golden_raw"], p["far"]) == 1


def test_raw_bfloat16(tmp_path, capsys):
    g = np.array([1.0, 2.0, 3.0], ml_dtypes.bfloat16)
    r = np.array([1.0, 2.0, 3.03125], ml_dtypes.bfloat16)  # 3.03125 is 2 bf16 ULP above 3.0
    g.tofile(tmp_path / "g.bin")
    r.tofile(tmp_path / "r.bin")
    assert run(tmp_path / "g.bin", tmp_path / "r.bin", "--dtype", "bfloat16", "--rtol", "0",
               "--atol", "0") == 1
    assert "max ULP distance: 2" in capsys.readouterr().out


def test_npz_per_key_reports_and_missing_key(tmp_path, capsys):
    a, b = np.ones(4, np.float32), np.arange(3, dtype=np.int32)
    np.savez(tmp_path / "g.npz", a=a, b=b)
    np.savez(tmp_path / "ok.npz", a=a, b=b)
    np.savez(tmp_path / "bad.npz", a=a, b=b + 1, c=a)
    assert run(tmp_path / "g.npz", tmp_path / "ok.npz") == 0
    out = capsys.readouterr().out
    assert "a: PASS" in out and "b: PASS" in out
    assert run(tmp_path / "g.npz", tmp_path / "bad.npz", "--json") == 1
    rep = json.loads(capsys.readouterr().out)
    assert rep["a"]["passed"] and not rep["b"]["passed"] and rep["b"]["mismatches"] == 3
    assert "missing from the golden" in rep["c"]["error"]


def test_shape_mismatch_is_a_failure_with_clear_message(files, tmp_path, capsys):
    _, p, golden = files
    np.save(tmp_path / "t.npy", golden.T)
    assert run(p["golden"], tmp_path / "t.npy") == 1
    assert "shape (5, 3) does not match the shape of 'desired' (3, 5)" in capsys.readouterr().out


def test_usage_errors_exit_2(files, tmp_path, capsys):
    _, p, _ = files
    assert run(p["golden"], tmp_path / "missing.npy") == 2
    assert "no such file" in capsys.readouterr().err
    assert run(p["golden_raw"], p["far_raw"]) == 2  # raw on both sides, no --dtype
    assert "give --dtype" in capsys.readouterr().err
    assert run(p["golden_raw"], p["far_raw"], "--dtype", "float32", "--shape", "4,4") == 2
    assert "do not fill shape (4, 4)" in capsys.readouterr().err
    assert run(p["golden_raw"], p["far_raw"], "--dtype", "floaty") == 2
    assert "unknown dtype 'floaty'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        run(p["golden"])  # argparse: missing positional
    assert e.value.code == 2


def test_python_m_npurt_compare_entry_point(files):
    _, p, _ = files
    ok = subprocess.run([sys.executable, "-m", "npurt", "compare", str(p["golden"]),
                         str(p["close"]), "--rtol", "1e-4", "--atol", "1e-6"],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    bad = subprocess.run([sys.executable, "-m", "npurt", "compare", str(p["golden"]),
                          str(p["far"])], capture_output=True, text=True)
    assert bad.returncode == 1 and "FAIL" in bad.stdout
