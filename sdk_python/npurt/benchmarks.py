"""``npurt bench``: runs the project's benchmark scripts and summarises them.

The scripts are ``bench/*.py`` of a source checkout (they are not in the
wheel: they need peers such as numpy or PyTorch and take minutes). Each runs
in its own process; a script reports structured results with

    from npurt.benchmarks import report
    report("graphs", "100 ops: g.replay()", seconds, peer="eager", peer_seconds=t_eager)

which appends one JSON line to ``$NPURT_BENCH_RESULTS`` when set (and does
nothing otherwise, so scripts still run on their own). The runner collects
those lines into a markdown table (``bench.md``) and a bar chart of the
speed ratios to the peers (``bench_ratios.png``, needs matplotlib), keeps each
script's output (``<name>.log``) and shows a progress bar (tqdm or rich when
installed, plain lines otherwise). ``--quick`` sets ``NPURT_BENCH_QUICK=1``,
which scripts honour with a small run.
"""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import time

RESULTS_ENV = "NPURT_BENCH_RESULTS"
QUICK_ENV = "NPURT_BENCH_QUICK"


def report(bench, case, seconds, *, peer=None, peer_seconds=None):
    """Records one result of a benchmark script (no-op outside ``npurt bench``).
    ratio = peer_seconds / seconds (> 1: npurt's variant is faster)."""
    path = os.environ.get(RESULTS_ENV)
    if not path:
        return
    row = {"bench": str(bench), "case": str(case), "seconds": float(seconds)}
    if peer is not None and peer_seconds is not None:
        row.update(peer=str(peer), peer_seconds=float(peer_seconds), ratio=float(peer_seconds) / float(seconds))
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(row) + "\n")


def find_bench_dir(explicit=None):
    """The bench/ directory: --dir, else ./bench, else the checkout this package lives in."""
    candidates = [pathlib.Path(explicit)] if explicit else [
        pathlib.Path.cwd() / "bench", pathlib.Path(__file__).resolve().parents[2] / "bench"]
    for c in candidates:
        if c.is_dir() and any(c.glob("*.py")):
            return c
    return None


class _Progress:
    """tqdm, else rich, else one plain line per step."""

    def __init__(self, total, out):
        self.out, self.bar, self.rich = out, None, None
        try:
            from tqdm import tqdm
            self.bar = tqdm(total=total, file=out, unit="script")
            return
        except ImportError:
            pass
        try:
            from rich.progress import Progress
            self.rich = Progress(transient=False)
            self.rich.start()
            self.task = self.rich.add_task("benchmarks", total=total)
        except ImportError:
            self.total, self.done = total, 0

    def step(self, name, status):
        if self.bar is not None:
            self.bar.set_postfix_str(f"{name}: {status}")
            self.bar.update(1)
        elif self.rich is not None:
            self.rich.update(self.task, advance=1, description=f"{name}: {status}")
        else:
            self.done += 1
            print(f"[{self.done}/{self.total}] {name}: {status}", file=self.out, flush=True)

    def close(self):
        if self.bar is not None:
            self.bar.close()
        elif self.rich is not None:
            self.rich.stop()


def run_script(script, out_dir, quick, timeout):
    """Runs one script; returns (status, seconds, rows)."""
    results = out_dir / f"{script.stem}.jsonl"
    results.unlink(missing_ok=True)
    env = dict(os.environ, **{RESULTS_ENV: str(results)})
    if quick:
        env[QUICK_ENV] = "1"
    start = time.perf_counter()
    with open(out_dir / f"{script.stem}.log", "w", encoding="utf-8") as log:
        try:
            rc = subprocess.run([sys.executable, str(script)], stdout=log, stderr=subprocess.STDOUT, env=env,
                                cwd=script.parent.parent, timeout=timeout).returncode
            status = "ok" if rc == 0 else f"failed (exit {rc})"
        except subprocess.TimeoutExpired:
            status = f"timed out after {timeout:g} s"
    rows = []
    if results.exists():
        rows = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines() if line.strip()]
    return status, time.perf_counter() - start, rows


def markdown(summary, rows):
    lines = ["| script | status | seconds | results |", "|---|---|---|---|"]
    for name, status, secs, n in summary:
        lines.append(f"| {name} | {status} | {secs:.1f} | {n} |")
    lines += ["", "| bench | case | time (ms) | peer | peer time (ms) | ratio (peer / npurt) |",
              "|---|---|---|---|---|---|"]
    for r in rows:
        peer = r.get("peer", "-")
        pt = f"{r['peer_seconds'] * 1e3:.3f}" if "peer_seconds" in r else "-"
        ratio = f"{r['ratio']:.2f}x" if "ratio" in r else "-"
        lines.append(f"| {r['bench']} | {r['case']} | {r['seconds'] * 1e3:.3f} | {peer} | {pt} | {ratio} |")
    return "\n".join(lines) + "\n"


def chart(rows, path):
    """Horizontal bars of the ratios; returns False when matplotlib is missing or nothing has a ratio."""
    rated = [r for r in rows if "ratio" in r]
    if not rated:
        return False
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    labels = [f"{r['bench']}: {r['case']} (vs {r['peer']})" for r in rated]
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(rated) + 1.2))
    ax.barh(range(len(rated)), [r["ratio"] for r in rated], color="#4c72b0")
    ax.axvline(1.0, color="k", lw=0.8)
    ax.set_yticks(range(len(rated)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("speed ratio to the peer (> 1: npurt faster)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def main(args, out=None):
    out = out if out is not None else sys.stdout  # resolved per call (capture, redirection)
    bench_dir = find_bench_dir(args.dir)
    if bench_dir is None:
        print("npurt bench: no bench/ directory with scripts found (the benchmarks are part of the source "
              "checkout, not the wheel): run it from the checkout or pass --dir path/to/bench", file=sys.stderr)
        return 2
    scripts = sorted(p for p in bench_dir.glob("*.py") if not p.name.startswith("_"))  # _*.py: shared helpers
    if args.only:
        names = set(args.only)
        unknown = names - {s.stem for s in scripts}
        if unknown:
            print(f"npurt bench: argument 'only': no script {sorted(unknown)} in {bench_dir} "
                  f"(have {[s.stem for s in scripts]})", file=sys.stderr)
            return 2
        scripts = [s for s in scripts if s.stem in names]
    out_dir = pathlib.Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    progress = _Progress(len(scripts), out)
    summary, rows = [], []
    for s in scripts:
        status, secs, got = run_script(s, out_dir, args.quick, args.timeout)
        summary.append((s.stem, status, secs, len(got)))
        rows += got
        progress.step(s.stem, status)
    progress.close()
    table = markdown(summary, rows)
    (out_dir / "bench.md").write_text(table, encoding="utf-8")
    print(table, file=out)
    png = out_dir / "bench_ratios.png"
    if chart(rows, png):
        print(f"chart: {png}", file=out)
    else:
        print("chart: not written (needs matplotlib and at least one result with a peer)", file=out)
    print(f"table: {out_dir / 'bench.md'}; script output: {out_dir}/<script>.log", file=out)
    return 0 if all(st == "ok" for _, st, _, _ in summary) else 1


def add_parser(subparsers):
    p = subparsers.add_parser("bench", help="run the benchmark scripts (bench/*.py of a source checkout); "
                                            "markdown table + PNG chart of ratios to peers")
    p.add_argument("only", nargs="*", metavar="SCRIPT", help="run only these scripts (names without .py)")
    p.add_argument("--dir", help="the bench/ directory (default: ./bench or the checkout of this package)")
    p.add_argument("-o", "--out", default="bench-results", help="output directory (default: bench-results)")
    p.add_argument("--quick", action="store_true", help="small runs (sets NPURT_BENCH_QUICK=1 for the scripts)")
    p.add_argument("--timeout", type=float, default=1800.0, help="seconds per script (default 1800)")
    p.set_defaults(func=main)
