"""Benchmark of the transcendental elementwise functions (tanh, expm1, sinh,
cosh, log1p, and sin/atan that still run on the scalar unit) on 16 Mi float32
elements: npurt (sim device, default backend) vs numpy and PyTorch CPU, median
of --repeat runs each, same process, so the ratios are same-run ratios.

    python bench/transcendental.py [--n 16777216] [--repeat 5] [--only tanh,expm1]
    python bench/transcendental.py --npurt-from DIR   # an other npurt build (e.g. main's) for before/after
"""
import argparse
import statistics
import sys
import time


def load_npurt(path):
    if path:  # drop editable-install finders so DIR's npurt package is the one imported
        sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in type(f).__module__.lower()
                            and "editable" not in repr(f).lower()]
        sys.path.insert(0, path)
    import npurt
    return npurt


def median_ms(fn, repeat):
    fn()  # warm-up (kernel load, allocation)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=16 * 1024 * 1024)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--only", default="tanh,expm1,sinh,cosh,log1p,sin,atan")
    ap.add_argument("--npurt-from", default="")
    args = ap.parse_args()
    nr = load_npurt(args.npurt_from)
    import numpy as np
    try:
        import torch
    except ImportError:
        torch = None
    x = np.random.default_rng(0).uniform(-3, 3, args.n).astype(np.float32)
    xn = nr.asarray(x)
    xt = torch.from_numpy(x) if torch is not None else None
    print(f"# npurt {nr.__file__}  n={args.n} float32, median of {args.repeat}")
    print(f"{'fn':8} {'npurt ms':>9} {'numpy ms':>9} {'torch ms':>9} {'np/nr':>6} {'torch/nr':>8}")
    for name in args.only.split(","):
        arg = xn if name != "log1p" else nr.abs(xn)
        argn = x if name != "log1p" else np.abs(x)
        t_nr = median_ms(lambda: _run_sync(nr, name, arg), args.repeat)
        t_np = median_ms(lambda: getattr(np, name)(argn), args.repeat)
        t_th = median_ms(lambda: getattr(torch, name)(torch.from_numpy(argn)), args.repeat) if torch else float("nan")
        print(f"{name:8} {t_nr:9.1f} {t_np:9.1f} {t_th:9.1f} {t_np / t_nr:6.2f} {t_th / t_nr:8.2f}")


def _run_sync(nr, name, arg):
    y = getattr(nr, name)(arg)
    nr.synchronize()  # the device result is complete (no copy back to the host)
    return y


if __name__ == "__main__":
    main()
