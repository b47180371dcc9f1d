"""bench/arrays.py: array API operators on npurt next to numpy and PyTorch CPU
(2 threads, when installed), the rows of issue 5's performance section:

  - tiny-op overhead on 16 float32: `x + y` and `x.sum()`, enqueue only (wall
    and CPU time of the calling thread per call, amortised over 50 calls);
  - large ops on --large elements (default 16 Mi) of float32 and float16:
    a + b, a * 2 + b, exp, sum, astype, a broadcast add (N, 1) + (1, M), a
    transpose copy; a * x + y and a GELU-tanh polynomial fused by nr.fuse
    next to their unfused forms; npurt time includes synchronize;
  - strided assignment on --large elements: x[::2] = 1.0 (one strided fill
    launch), x[::2] = y (one copy launch with a strided output) and
    x[1:-1] = y (one copy launch), into arrays of their own;
  - a STREAM triad a = b + s*c on both cores measured in the same run, and
    each bandwidth-bound row's GB/s as a fraction of it;
  - the chained expression sqrt(sum(a**2, axis=-1)) on 256 x 1024 float32.

Medians of --repeat runs; ratio columns are peer time / npurt time (> 1: npurt faster).

    python bench/arrays.py [--large N] [--repeat R] [--dtypes float32,float16] [--only 'sum(a)']
"""
import argparse
import os
import statistics
import time

import numpy as np

import npurt as nr
from _common import SETTLE_SECONDS, triad_two_threads

try:
    import torch
    torch.set_num_threads(2)
except ImportError:  # optional
    torch = None


def median_call(fn, number, repeat):
    """(wall us, thread CPU us) per call, medians over `repeat` runs of `number` calls."""
    walls, cpus = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.thread_time()
        for _ in range(number):
            fn()
        walls.append((time.perf_counter() - t0) / number * 1e6)
        cpus.append((time.thread_time() - c0) / number * 1e6)
    return statistics.median(walls), statistics.median(cpus)


def fmt(v):
    return f"{v:11.1f}" if v is not None else "          -"


def ratio(peer, mine):
    return f"{peer / mine:7.2f}x" if peer is not None else "       -"


def tiny(repeat):
    print(f"{'tiny op (16 x float32)':34s} {'npurt us':>11s} {'npurt CPU':>11s} {'numpy us':>11s} "
          f"{'torch us':>11s}")
    a = np.ones(16, np.float32)
    x, y = nr.asarray(a), nr.asarray(a)
    s = nr.current_stream()
    ta = torch.ones(16) if torch else None
    rows = [("x + y (enqueue)", lambda: x + y, lambda: a + a, (lambda: ta + ta) if torch else None),
            ("x.sum() (enqueue)", lambda: x.sum(), lambda: a.sum(), (lambda: ta.sum()) if torch else None)]
    for name, f_nr, f_np, f_t in rows:
        f_nr()
        s.synchronize()

        def fifty():
            for _ in range(50):
                f_nr()
            s.synchronize()  # keeps the queue short; amortised over 50 calls
        wall, cpu = median_call(fifty, 40, repeat)
        np_us = median_call(f_np, 2000, repeat)[0]
        t_us = median_call(f_t, 2000, repeat)[0] if f_t else None
        print(f"{name:34s} {fmt(wall / 50)} {fmt(cpu / 50)} {fmt(np_us)} {fmt(t_us)}")



def large_cases(n, dt, a, b, x, y):
    """(name, bytes moved, npurt fn, numpy fn, torch fn or None) for one dtype."""
    m = 4096
    col_np, row_np = a[:m].reshape(m, 1), b[: n // m].reshape(1, n // m)
    col, rowv = nr.asarray(col_np), nr.asarray(row_np)
    sq_np = a.reshape(m, n // m)
    sq = x.reshape((m, n // m))
    other = np.float32 if dt == np.float16 else np.float16
    item = np.dtype(dt).itemsize
    ta, tb = (torch.from_numpy(a), torch.from_numpy(b)) if torch else (None, None)
    tcol, trow, tsq = ((torch.from_numpy(col_np), torch.from_numpy(row_np), torch.from_numpy(sq_np))
                       if torch else (None, None, None))
    tother = {np.float16: torch.float16, np.float32: torch.float32}[other] if torch else None
    two = dt(2)
    dst_np, dst = np.zeros(n, dt), nr.asarray(np.zeros(n, dt))
    tdst = torch.zeros(n, dtype={np.float16: torch.float16, np.float32: torch.float32}[dt]) if torch else None
    step, inner = slice(None, None, 2), slice(1, -1)
    return [
        ("a + b", 3 * n * item, lambda: x + y, lambda: a + b, (lambda: ta + tb) if torch else None),
        ("a * 2 + b", 3 * n * item, lambda: x * 2.0 + y, lambda: a * two + b,
         (lambda: ta * 2 + tb) if torch else None),
        ("exp(a)", 2 * n * item, lambda: nr.exp(x), lambda: np.exp(a), (lambda: torch.exp(ta)) if torch else None),
        ("sum(a)", n * item, lambda: nr.sum(x), lambda: a.sum(), (lambda: ta.sum()) if torch else None),
        (f"astype({np.dtype(other).name})", n * (item + np.dtype(other).itemsize), lambda: nr.astype(x, getattr(nr, np.dtype(other).name)),
         lambda: a.astype(other), (lambda: ta.to(tother)) if torch else None),
        ("(4096,1) + (1,M) broadcast", n * item, lambda: col + rowv, lambda: col_np + row_np,
         (lambda: tcol + trow) if torch else None),
        ("transpose copy (4096,M).T", 2 * n * item, lambda: nr.permute_dims(sq, (1, 0)).copy(),
         lambda: np.ascontiguousarray(sq_np.T), (lambda: tsq.T.contiguous()) if torch else None),
        ("x[::2] = 1.0", n // 2 * item, lambda: dst.__setitem__(step, 1.0), lambda: dst_np.__setitem__(step, 1.0),
         (lambda: tdst.__setitem__(step, 1.0)) if torch else None),
        ("x[::2] = y", n * item, lambda: dst.__setitem__(step, y[: n // 2]),
         lambda: dst_np.__setitem__(step, b[: n // 2]), (lambda: tdst.__setitem__(step, tb[: n // 2])) if torch else None),
        ("x[1:-1] = y", 2 * (n - 2) * item, lambda: dst.__setitem__(inner, y[: n - 2]),
         lambda: dst_np.__setitem__(inner, b[: n - 2]), (lambda: tdst.__setitem__(inner, tb[: n - 2])) if torch else None),
    ]


def fused_cases(n, dt, a, b, x, y):
    """nr.fuse rows (one kernel per expression) next to the same expression unfused."""
    axpy = nr.fuse(lambda s, u, v: s * u + v)
    gelu = nr.fuse(lambda u: 0.5 * u * (1.0 + nr.tanh(0.7978845608 * (u + 0.044715 * u ** 3))))
    item, two = np.dtype(dt).itemsize, dt(2)
    ta, tb = (torch.from_numpy(a), torch.from_numpy(b)) if torch else (None, None)

    def gelu_any(m, u, tanh):
        return 0.5 * u * (1.0 + tanh(0.7978845608 * (u + 0.044715 * u * u * u)))
    return [
        ("a * x + y  nr.fuse", 3 * n * item, lambda: axpy(2.0, x, y), lambda: a * two + b,
         (lambda: ta * 2 + tb) if torch else None),
        ("gelu-tanh  unfused", 2 * n * item, lambda: gelu.__wrapped__(x), lambda: gelu_any(np, a, np.tanh),
         (lambda: gelu_any(torch, ta, torch.tanh)) if torch else None),
        ("gelu-tanh  nr.fuse", 2 * n * item, lambda: gelu(x), lambda: gelu_any(np, a, np.tanh),
         (lambda: gelu_any(torch, ta, torch.tanh)) if torch else None),
    ]


def large(n, repeat, dtypes, triad_gbs, only=None):
    print(f"\n{'large op':40s} {'npurt ms':>9s} {'numpy ms':>9s} {'torch ms':>9s} {'vs numpy':>8s} "
          f"{'vs torch':>8s} {'GB/s':>6s} {'/triad':>6s}")
    s = nr.current_stream()
    for dt in dtypes:
        a = np.random.default_rng(0).standard_normal(n).astype(dt)
        b = np.random.default_rng(1).standard_normal(n).astype(dt)
        x, y = nr.asarray(a), nr.asarray(b)
        for name, nbytes, f_nr, f_np, f_t in large_cases(n, dt, a, b, x, y) + fused_cases(n, dt, a, b, x, y):
            if only and not any(name.startswith(o) for o in only):
                continue
            def synced():
                f_nr()
                s.synchronize()
            time.sleep(SETTLE_SECONDS)  # the previous row's torch threads stop spinning (bench/_common.py)
            synced()
            t_nr = median_call(synced, 1, repeat)[0] / 1e3
            t_np = median_call(f_np, 1, repeat)[0] / 1e3
            t_t = median_call(f_t, 1, repeat)[0] / 1e3 if f_t else None
            gbs = nbytes / t_nr / 1e6
            print(f"{name + ' ' + np.dtype(dt).name:40s} {t_nr:9.2f} {t_np:9.2f} "
                  f"{(f'{t_t:9.2f}' if t_t is not None else '        -')} {ratio(t_np, t_nr)} "
                  f"{ratio(t_t, t_nr)} {gbs:6.2f} {gbs / triad_gbs:6.2f}")


def triad(n, repeat):
    a, b, c = (np.zeros(n, np.float32), np.ones(n, np.float32), np.ones(n, np.float32))
    triad_two_threads(a, b, c, np.float32(3))
    t = median_call(lambda: triad_two_threads(a, b, c, np.float32(3)), 1, repeat)[0] / 1e6
    return 3 * 4 * n / t / 1e9


def chained(repeat):
    """sqrt(sum(a**2, axis=-1)) on (256, 1024) float32: three launches on npurt, three passes on numpy."""
    a = np.random.default_rng(2).standard_normal((256, 1024)).astype(np.float32)
    x = nr.asarray(a)
    s = nr.current_stream()
    ta = torch.from_numpy(a) if torch else None

    def synced():
        nr.sqrt(nr.sum(x ** 2, axis=-1))
        s.synchronize()
    time.sleep(SETTLE_SECONDS)
    synced()
    got, want = np.asarray(nr.sqrt(nr.sum(x ** 2, axis=-1))), np.sqrt(np.sum(a.astype(np.float64) ** 2, axis=-1))
    assert np.allclose(got, want, rtol=1e-5), "chained expression disagrees with numpy"
    t_nr = median_call(synced, 20, repeat)[0]
    t_np = median_call(lambda: np.sqrt(np.sum(a ** 2, axis=-1)), 20, repeat)[0]
    t_t = median_call(lambda: torch.sqrt(torch.sum(ta ** 2, dim=-1)), 20, repeat)[0] if torch else None
    print(f"\n{'chained (256x1024 float32)':40s} {'npurt us':>9s} {'numpy us':>9s} {'torch us':>9s} "
          f"{'vs numpy':>8s} {'vs torch':>8s}")
    print(f"{'sqrt(sum(a**2, axis=-1))':40s} {t_nr:9.1f} {t_np:9.1f} "
          f"{(f'{t_t:9.1f}' if t_t is not None else '        -')} {ratio(t_np, t_nr)} {ratio(t_t, t_nr)}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--large", type=int, default=16 << 20)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--dtypes", default="float32,float16")
    p.add_argument("--sections", default="tiny,large,chained", help="comma list of tiny, large, chained")
    p.add_argument("--only", default="", help="comma list of large-row name prefixes, e.g. 'sum(a)'")
    args = p.parse_args()
    sections = set(args.sections.split(","))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; "
          f"torch {torch.__version__ if torch else 'not installed'} at 2 threads")
    if "tiny" in sections:
        tiny(args.repeat)
    if "large" in sections:
        triad_gbs = triad(args.large, args.repeat)
        print(f"\nSTREAM triad (numpy, 2 threads, float32, {args.large} elements): {triad_gbs:.2f} GB/s")
        only = [o for o in args.only.split(",") if o]
        large(args.large, args.repeat, [getattr(np, d) for d in args.dtypes.split(",")], triad_gbs, only)
    if "chained" in sections:
        chained(args.repeat)


if __name__ == "__main__":
    main()
