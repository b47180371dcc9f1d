"""bench/compare_where.py: comparisons, where, float predicates and rounding
on npurt next to numpy and PyTorch CPU (2 threads, when installed), on
--large elements (default 16 Mi) of float32 and float16: x == -inf and x < y
(bool out), where(c, x, y), isnan / isinf / isfinite, floor / round.
npurt time includes synchronize; medians of --repeat runs; the ratio
columns are peer time / npurt time (> 1: npurt faster).

    python bench/compare_where.py [--large N] [--repeat R] [--dtypes float32,float16]
"""
import argparse
import os

import numpy as np

import npurt as nr
from _common import import_torch, median_ms

torch = import_torch(2)


def cases(xn, yn, cn):
    """(name, npurt fn of (x, y, c), numpy fn, torch fn or None) rows."""
    ninf = float("-inf")
    return [
        ("x == -inf", lambda x, y, c: x == ninf, lambda: xn == ninf, lambda t: t[0] == ninf),
        ("x < y", lambda x, y, c: x < y, lambda: xn < yn, lambda t: t[0] < t[1]),
        ("where(c, x, y)", lambda x, y, c: nr.where(c, x, y), lambda: np.where(cn, xn, yn),
         lambda t: torch.where(t[2], t[0], t[1])),
        ("isnan(x)", lambda x, y, c: nr.isnan(x), lambda: np.isnan(xn), lambda t: torch.isnan(t[0])),
        ("isinf(x)", lambda x, y, c: nr.isinf(x), lambda: np.isinf(xn), lambda t: torch.isinf(t[0])),
        ("isfinite(x)", lambda x, y, c: nr.isfinite(x), lambda: np.isfinite(xn), lambda t: torch.isfinite(t[0])),
        ("floor(x)", lambda x, y, c: nr.floor(x), lambda: np.floor(xn), lambda t: torch.floor(t[0])),
        ("round(x)", lambda x, y, c: nr.round(x), lambda: np.round(xn), lambda t: torch.round(t[0])),
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--large", type=int, default=1 << (20 if os.environ.get("NPURT_BENCH_QUICK") else 24))
    ap.add_argument("--repeat", type=int, default=3 if os.environ.get("NPURT_BENCH_QUICK") else 7)
    ap.add_argument("--dtypes", default="float32,float16")
    args = ap.parse_args()
    print(f"# {args.large} elements, medians of {args.repeat}, loadavg {os.getloadavg()[0]:.2f}")
    print(f"{'op':18s} {'dtype':8s} {'npurt ms':>9s} {'numpy ms':>9s} {'torch ms':>9s} {'np/nr':>6s} {'t/nr':>6s}")
    g = np.random.default_rng(0)
    s = nr.current_stream()
    for dt in args.dtypes.split(","):
        xn = (g.standard_normal(args.large) * 4).astype(dt)
        yn = (g.standard_normal(args.large) * 4).astype(dt)
        cn = xn > yn
        x, y, c = nr.asarray(xn), nr.asarray(yn), nr.asarray(cn)
        tt = (torch.from_numpy(xn), torch.from_numpy(yn), torch.from_numpy(cn)) if torch else None
        for name, f_nr, f_np, f_t in cases(xn, yn, cn):
            def run():
                f_nr(x, y, c)
                s.synchronize()
            t_nr = median_ms(run, args.repeat)
            t_np = median_ms(f_np, args.repeat)
            t_t = median_ms(lambda: f_t(tt), args.repeat) if tt else None
            ts = f"{t_t:9.1f}" if t_t else "        -"
            rt = f"{t_t / t_nr:6.2f}" if t_t else "     -"
            print(f"{name:18s} {dt:8s} {t_nr:9.1f} {t_np:9.1f} {ts} {t_np / t_nr:6.2f} {rt}", flush=True)


if __name__ == "__main__":
    main()
