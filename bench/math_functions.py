"""bench/math_functions.py: every elementwise math function of the array API
standard on npurt (sim) vs numpy and PyTorch (2 threads), side by side in one
process, on large float32 / float16 arrays.

Why: issue 5 wants numpy-style code to run on nr.ndarray "with at most an
import changed"; a function that is many times slower than numpy breaks that
even when the fused form of the same code is fast. Each row is a median of
--repeat runs (npurt synchronised on its stream); ratios > 1 mean npurt is
faster. Inputs are drawn inside each function's domain so no peer pays for
NaN/inf handling the others skip.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import import_torch, median_time  # noqa: E402

import npurt as nr  # noqa: E402
from npurt.benchmarks import QUICK_ENV, report  # noqa: E402

torch = import_torch(2)

# name -> (input low, input high); binary functions take (a, b) from the same range.
UNARY = {
    "abs": (-4, 4), "acos": (-1, 1), "acosh": (1, 5), "asin": (-1, 1), "asinh": (-4, 4),
    "atan": (-4, 4), "atanh": (-0.9, 0.9), "ceil": (-4, 4), "cos": (-4, 4), "cosh": (-3, 3),
    "exp": (-4, 4), "expm1": (-2, 2), "floor": (-4, 4), "log": (0.01, 10), "log1p": (-0.5, 4),
    "log2": (0.01, 10), "log10": (0.01, 10), "negative": (-4, 4), "round": (-4, 4),
    "sign": (-4, 4), "sin": (-4, 4), "sinh": (-3, 3), "sqrt": (0, 10), "square": (-4, 4),
    "tan": (-1.4, 1.4), "tanh": (-4, 4), "trunc": (-4, 4), "reciprocal": (0.5, 4),
    "isfinite": (-4, 4), "isnan": (-4, 4), "isinf": (-4, 4), "signbit": (-4, 4),
    "logical_not": (-4, 4),
}
BINARY = {
    "atan2": (-4, 4), "copysign": (-4, 4), "divide": (0.5, 4), "floor_divide": (0.5, 4),
    "hypot": (-4, 4), "logaddexp": (-4, 4), "maximum": (-4, 4), "minimum": (-4, 4),
    "nextafter": (-4, 4), "pow": (0.1, 3), "remainder": (0.5, 4),
}
# numpy / torch spellings that differ from the standard's.
NP_NAME = {"acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh", "atan": "arctan",
           "atanh": "arctanh", "atan2": "arctan2", "pow": "power"}
TORCH_NAME = {"negative": "neg", "round": "round", "isfinite": "isfinite", "logical_not": "logical_not",
              "divide": "div", "remainder": "remainder", "reciprocal": "reciprocal"}
TORCH_DT = {np.float32: "float32", np.float16: "float16"}


def cases(n, dt):
    """(name, npurt fn, numpy fn, torch fn or None) for every function at one dtype."""
    rng = np.random.default_rng(0)
    out = []
    for name, (lo, hi) in list(UNARY.items()) + list(BINARY.items()):
        a = rng.uniform(lo, hi, n).astype(dt)
        b = rng.uniform(lo, hi, n).astype(dt) if name in BINARY else None
        if name == "pow":
            b = rng.uniform(-2, 2, n).astype(dt)
        x, y = nr.asarray(a), (nr.asarray(b) if b is not None else None)
        f_nr, f_np = getattr(nr, name), getattr(np, NP_NAME.get(name, name))
        f_t = getattr(torch, TORCH_NAME.get(name, name), None) if torch else None
        ta, tb = (torch.from_numpy(a), torch.from_numpy(b) if b is not None else None) if torch else (None, None)
        if b is None:
            out.append((name, lambda f=f_nr, x=x: f(x), lambda f=f_np, a=a: f(a),
                        (lambda f=f_t, t=ta: f(t)) if f_t else None))
        else:
            out.append((name, lambda f=f_nr, x=x, y=y: f(x, y), lambda f=f_np, a=a, b=b: f(a, b),
                        (lambda f=f_t, t=ta, u=tb: f(t, u)) if f_t else None))
    a = rng.uniform(0.1, 3, n).astype(dt)
    x, ta = nr.asarray(a), (torch.from_numpy(a) if torch else None)
    for e in (2, 3, -1, 0.5):
        out.append((f"x ** {e}", lambda x=x, e=e: x ** e, lambda a=a, e=e: a ** e,
                    (lambda t=ta, e=e: t ** e) if torch else None))
    return out


def agrees(name, dn, got, want):
    """A timing of a wrong result means nothing: loose check against numpy (the tests hold the tolerances)."""
    got = got.numpy()
    tol = 1e-2 if dn == "float16" else 1e-4
    with np.errstate(all="ignore"):
        ok = np.allclose(got.astype(np.float64), np.asarray(want).astype(np.float64), rtol=tol, atol=tol,
                         equal_nan=True)
    if not ok:
        raise SystemExit(f"math_functions: {name} {dn} disagrees with numpy")


def ratio(peer, mine):
    return f"{peer / mine:7.2f}x" if peer else "       -"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=16 << 20)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--dtypes", default="float32,float16")
    p.add_argument("--only", default="", help="comma list of function names (e.g. 'tanh,x ** 3')")
    p.add_argument("--quick", action="store_true", help=f"64 Ki elements, 1 repeat (also {QUICK_ENV}=1)")
    args = p.parse_args()
    if args.quick or os.environ.get(QUICK_ENV) == "1":
        args.n, args.repeat = 1 << 16, 1
    only = [o for o in args.only.split(",") if o]
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; n={args.n}; "
          f"torch {torch.__version__ if torch else 'not installed'} at 2 threads; medians of {args.repeat}")
    print(f"{'function':22s} {'npurt ms':>9s} {'numpy ms':>9s} {'torch ms':>9s} {'vs numpy':>8s} {'vs torch':>8s}")
    s = nr.current_stream()
    for dn in args.dtypes.split(","):
        dt = getattr(np, dn)
        for name, f_nr, f_np, f_t in cases(args.n, dt):
            if only and name not in only:
                continue

            try:
                agrees(name, dn, f_nr(), f_np())
            except nr.InvalidArgumentError as e:  # e.g. nextafter has no float16 kernel: say so, go on
                print(f"{name + ' ' + dn:22s} not supported: {e}", flush=True)
                continue

            def synced(f=f_nr):
                f()
                s.synchronize()
            t_nr = median_time(synced, args.repeat) * 1e3
            t_np = median_time(f_np, args.repeat) * 1e3
            t_t = median_time(f_t, args.repeat) * 1e3 if f_t else None
            tt = f"{t_t:9.2f}" if t_t is not None else "        -"
            print(f"{name + ' ' + dn:22s} {t_nr:9.2f} {t_np:9.2f} {tt} {ratio(t_np, t_nr)} "
                  f"{ratio(t_t, t_nr)}", flush=True)
            report("math_functions", f"{name} {dn}", t_nr / 1e3, peer="numpy", peer_seconds=t_np / 1e3)


if __name__ == "__main__":
    main()
