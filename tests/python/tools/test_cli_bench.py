"""`npurt bench`: runs bench scripts in subprocesses, collects report() rows into a
markdown table and a PNG chart, keeps exit codes meaningful."""
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

from npurt import benchmarks
from npurt.__main__ import main

REPO = pathlib.Path(__file__).resolve().parents[3]


def write(dir_, name, body):
    (dir_ / f"{name}.py").write_text(textwrap.dedent(body))


@pytest.fixture
def bench_dir(tmp_path):
    d = tmp_path / "bench"
    d.mkdir()
    write(d, "fast", """
        import os
        from npurt.benchmarks import report
        quick = os.environ.get("NPURT_BENCH_QUICK") == "1"
        report("fast", "quick" if quick else "full", 0.002, peer="numpy", peer_seconds=0.004)
        report("fast", "no peer", 0.001)
        print("fast ran")
    """)
    write(d, "broken", "raise SystemExit(3)\n")
    return d


def test_table_chart_and_exit_code(bench_dir, tmp_path, capsys):
    out = tmp_path / "results"
    rc = main(["bench", "--dir", str(bench_dir), "-o", str(out), "--quick"])
    assert rc == 1  # one script failed
    table = (out / "bench.md").read_text()
    assert "| broken | failed (exit 3) |" in table
    assert "| fast | ok |" in table
    assert "| fast | quick | 2.000 | numpy | 4.000 | 2.00x |" in table
    assert "| fast | no peer | 1.000 | - | - | - |" in table
    assert (out / "fast.log").read_text().strip() == "fast ran"
    pytest.importorskip("matplotlib")
    png = out / "bench_ratios.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_only_selects_scripts_and_unknown_names_are_usage_errors(bench_dir, tmp_path, capsys):
    out = tmp_path / "results"
    assert main(["bench", "fast", "--dir", str(bench_dir), "-o", str(out)]) == 0
    table = (out / "bench.md").read_text()
    assert "broken" not in table and "| fast | full |" in table
    assert main(["bench", "nope", "--dir", str(bench_dir), "-o", str(out)]) == 2
    assert "argument 'only'" in capsys.readouterr().err


def test_missing_bench_dir_is_a_usage_error(tmp_path, capsys):
    assert main(["bench", "--dir", str(tmp_path / "none"), "-o", str(tmp_path / "r")]) == 2
    assert "source checkout" in capsys.readouterr().err


def test_report_is_a_noop_outside_the_runner(monkeypatch, tmp_path):
    monkeypatch.delenv(benchmarks.RESULTS_ENV, raising=False)
    benchmarks.report("x", "y", 1.0)  # nothing to write to, no error
    path = tmp_path / "r.jsonl"
    monkeypatch.setenv(benchmarks.RESULTS_ENV, str(path))
    benchmarks.report("x", "y", 0.5, peer="p", peer_seconds=1.0)
    assert '"ratio": 2.0' in path.read_text()


def test_plain_progress_without_tqdm_or_rich(bench_dir, tmp_path, monkeypatch, capsys):
    import builtins

    real_import = builtins.__import__

    def no_bars(name, *args, **kwargs):
        if name.split(".")[0] in ("tqdm", "rich"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_bars)
    assert main(["bench", "fast", "--dir", str(bench_dir), "-o", str(tmp_path / "r")]) == 0
    assert "[1/1] fast: ok" in capsys.readouterr().out


@pytest.mark.skipif(not (REPO / "bench" / "graphs.py").exists(), reason="needs the source checkout's bench/")
def test_real_graphs_benchmark_quick(tmp_path):
    out = tmp_path / "results"
    r = subprocess.run([sys.executable, "-m", "npurt", "bench", "graphs", "--quick", "--dir", str(REPO / "bench"),
                        "-o", str(out)], capture_output=True, text=True, timeout=600, env=dict(os.environ))
    assert r.returncode == 0, r.stdout + r.stderr + (out / "graphs.log").read_text()
    table = (out / "bench.md").read_text()
    assert "g.replay()" in table and "nr.graphed" in table and "toy transformer" in table
