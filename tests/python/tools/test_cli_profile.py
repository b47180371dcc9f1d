"""Tests of whole-run profiling: `python -m npurt profile`, NPURT_PROFILE, and Profile.plot."""
import json
import os
import subprocess
import sys
import textwrap

import jsonschema
import numpy as np
import pytest

import npurt as nr
from trace_schema import TRACE_SCHEMA, check_structure

SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    import npurt as nr
    x = nr.asarray(np.arange(1000, dtype=np.float32))
    assert x.numpy()[999] == 999
    if len(sys.argv) > 1 and sys.argv[1] == "fail":
        raise RuntimeError("script failed on purpose")
    if len(sys.argv) > 1:
        sys.exit(int(sys.argv[1]))
""")


def _run(args, env=None, cwd=None):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, cwd=cwd, timeout=120)


def _load_valid_trace(path):
    trace = json.loads(open(path).read())
    jsonschema.validate(trace, TRACE_SCHEMA)
    check_structure(trace)
    names = {e["name"] for e in trace["traceEvents"]}
    assert {"copy H2D", "copy D2H"} <= names, names
    return trace


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "work.py"
    path.write_text(SCRIPT)
    return path


def test_profile_subcommand_writes_trace_and_table(script, tmp_path):
    out = tmp_path / "t.json"
    r = _run(["-m", "npurt", "profile", "-o", str(out), "--table", str(script)])
    assert r.returncode == 0, r.stderr
    _load_valid_trace(out)
    assert "copy H2D" in r.stdout and "Calls" in r.stdout
    assert "trace written to" in r.stderr


def test_profile_subcommand_keeps_exit_code_and_writes_trace_on_failure(script, tmp_path):
    out = tmp_path / "t.json"
    r = _run(["-m", "npurt", "profile", "-o", str(out), str(script), "3"])
    assert r.returncode == 3
    _load_valid_trace(out)
    r = _run(["-m", "npurt", "profile", "-o", str(out), str(script), "fail"])
    assert r.returncode == 1 and "script failed on purpose" in r.stderr
    _load_valid_trace(out)
    r = _run(["-m", "npurt", "profile", str(tmp_path / "missing.py")])
    assert r.returncode == 2 and "no such file" in r.stderr


def test_npurt_profile_environment_variable(script, tmp_path):
    out = tmp_path / "env.json"
    r = _run([str(script)], env={"NPURT_PROFILE": str(out), "NPURT_PROFILE_TABLE": "1"})
    assert r.returncode == 0, r.stderr
    _load_valid_trace(out)
    assert "profile written to" in r.stderr and "copy H2D" in r.stderr


def test_plot_writes_png(tmp_path):
    pytest.importorskip("matplotlib")
    with nr.profile() as p:
        nr.asarray(np.ones(4096, np.float32)).numpy()
    path = tmp_path / "timeline.png"
    fig = p.plot(path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(fig.axes) == 2


def test_plot_without_matplotlib_says_how_to_install(monkeypatch):
    with nr.profile() as p:
        pass
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match="pip install matplotlib"):
        p.plot("never.png")


def test_profile_subcommand_runs_a_module(tmp_path):
    pkg = tmp_path / "workmod.py"
    pkg.write_text(SCRIPT)
    out = tmp_path / "m.json"
    r = _run(["-m", "npurt", "profile", "-o", str(out), "-m", "workmod", "0"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    _load_valid_trace(out)
