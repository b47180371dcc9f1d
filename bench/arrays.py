"""bench/arrays.py: array API operators on npurt next to numpy (and PyTorch
CPU when installed): tiny-op overhead (16 x float32, enqueue only) and large
elementwise ops (medians of repeated runs, ratios against numpy).

    python bench/arrays.py [--large N] [--repeat R]
"""
import argparse
import statistics
import time

import numpy as np

import npurt as nr

try:
    import torch
    torch.set_num_threads(2)
except ImportError:  # optional
    torch = None


def median_us(fn, number, repeat):
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - t0) / number * 1e6)
    return statistics.median(runs)


def row(name, npurt_us, numpy_us, torch_us):
    t = f"{torch_us:10.2f}" if torch_us is not None else "         -"
    print(f"{name:34s} {npurt_us:10.2f} {numpy_us:10.2f} {t} {numpy_us / npurt_us:8.2f}x")


def tiny(repeat):
    a = np.ones(16, np.float32)
    x, y = nr.asarray(a), nr.asarray(a)
    s = nr.current_stream()
    n = 2000
    x + y
    s.synchronize()

    def enqueue_only():
        for _ in range(50):
            x + y
        s.synchronize()  # keeps the queue short; its cost is amortised over 50 calls
    us = median_us(enqueue_only, n // 50, repeat) / 50
    ta = torch.ones(16) if torch else None
    row("x + y, 16 x f32 (enqueue)", us, median_us(lambda: a + a, n, repeat),
        median_us(lambda: ta + ta, n, repeat) if torch else None)


def large(n, repeat):
    a = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    b = np.random.default_rng(1).standard_normal(n).astype(np.float32)
    x, y = nr.asarray(a), nr.asarray(b)
    s = nr.current_stream()
    ta, tb = (torch.from_numpy(a), torch.from_numpy(b)) if torch else (None, None)
    col = a.reshape(-1, 1)[: 4096]
    rowv = b[: n // 4096]
    xc, xr = nr.asarray(col), nr.asarray(rowv)
    cases = [
        ("a + b", lambda: x + y, lambda: a + b, (lambda: ta + tb) if torch else None),
        ("a * 2 + b", lambda: x * 2.0 + y, lambda: a * np.float32(2) + b, (lambda: ta * 2 + tb) if torch else None),
        ("exp(a)", lambda: nr.exp(x), lambda: np.exp(a), (lambda: torch.exp(ta)) if torch else None),
        ("(4096,1) + (1,M) broadcast", lambda: xc + xr, lambda: col + rowv,
         (lambda: torch.from_numpy(col) + torch.from_numpy(rowv)) if torch else None),
    ]
    for name, f_nr, f_np, f_t in cases:
        def synced():
            f_nr()
            s.synchronize()
        row(f"{name} ({n})", median_us(synced, 3, repeat), median_us(f_np, 3, repeat),
            median_us(f_t, 3, repeat) if f_t else None)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--large", type=int, default=1 << 22)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    print(f"{'case':34s} {'npurt us':>10s} {'numpy us':>10s} {'torch us':>10s} {'vs numpy':>9s}")
    tiny(args.repeat)
    large(args.large, args.repeat)


if __name__ == "__main__":
    main()
