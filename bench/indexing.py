"""bench/indexing.py: the scan and gather/scatter kernels next to numpy (and
PyTorch CPU at 2 threads when installed): cumulative_sum of 16 Mi float32,
take / boolean-mask getitem / mask setitem / nonzero on 1 Mi float32, plus
arange and tril. Medians of repeated runs (each npurt run ends with a
synchronize), ratio = numpy time / npurt time (> 1: npurt is faster).

    python bench/indexing.py [--repeat R] [--scan N] [--gather N]
"""
import argparse

import numpy as np

import npurt as nr
from _common import import_torch, median_ms

torch = import_torch(2)



def row(name, npurt_ms, numpy_ms, torch_ms):
    t = f"{torch_ms:10.2f}" if torch_ms is not None else "         -"
    r = f"{torch_ms / npurt_ms:8.2f}x" if torch_ms is not None else "       -"
    print(f"{name:40s} {npurt_ms:10.2f} {numpy_ms:10.2f} {t} {numpy_ms / npurt_ms:8.2f}x {r}")


def synced(fn):
    def run():
        fn()
        nr.synchronize()
    return run


def bench(repeat, n_scan, n_gather):
    rng = np.random.default_rng(0)
    print(f"{'op':40s} {'npurt ms':>10s} {'numpy ms':>10s} {'torch ms':>10s} {'vs numpy':>9s} {'vs torch':>8s}")
    a = rng.standard_normal(n_scan).astype(np.float32)
    x = nr.asarray(a)
    ta = torch.from_numpy(a) if torch else None
    row(f"cumulative_sum {n_scan >> 20} Mi f32", median_ms(synced(lambda: nr.cumulative_sum(x)), repeat),
        median_ms(lambda: np.cumsum(a), repeat), median_ms(lambda: torch.cumsum(ta, 0), repeat) if torch else None)
    m2 = a.reshape(-1, 1024)
    x2 = nr.asarray(m2)
    tm2 = torch.from_numpy(m2) if torch else None
    row("cumulative_sum [N/1024, 1024] axis=0", median_ms(synced(lambda: nr.cumulative_sum(x2, axis=0)), repeat),
        median_ms(lambda: np.cumsum(m2, axis=0), repeat),
        median_ms(lambda: torch.cumsum(tm2, 0), repeat) if torch else None)

    g = rng.standard_normal(n_gather).astype(np.float32)
    idx = rng.integers(0, n_gather, n_gather)
    mask = g > 0
    y, i, mk = nr.asarray(g), nr.asarray(idx), nr.asarray(mask)
    tg, ti, tmk = (torch.from_numpy(g), torch.from_numpy(idx), torch.from_numpy(mask)) if torch else (None,) * 3
    label = f"{n_gather >> 20} Mi f32"
    row(f"take {label}, {n_gather >> 20} Mi indices", median_ms(synced(lambda: nr.take(y, i)), repeat),
        median_ms(lambda: np.take(g, idx), repeat), median_ms(lambda: tg[ti], repeat) if torch else None)
    row(f"x[mask] {label}", median_ms(synced(lambda: y[mk]), repeat), median_ms(lambda: g[mask], repeat),
        median_ms(lambda: tg[tmk], repeat) if torch else None)

    def np_set():
        h = g.copy()
        h[mask] = 0.0

    def nr_set():
        z = y.copy()
        z[mk] = 0.0

    def torch_set():
        h = tg.clone()
        h[tmk] = 0.0
    row(f"copy + x[mask] = 0 {label}", median_ms(synced(nr_set), repeat), median_ms(np_set, repeat),
        median_ms(torch_set, repeat) if torch else None)
    row(f"nonzero {label}", median_ms(synced(lambda: nr.nonzero(mk)), repeat), median_ms(lambda: np.nonzero(mask),
        repeat), median_ms(lambda: torch.nonzero(tmk), repeat) if torch else None)
    row(f"arange {label}", median_ms(synced(lambda: nr.arange(n_gather)), repeat),
        median_ms(lambda: np.arange(n_gather), repeat),
        median_ms(lambda: torch.arange(n_gather), repeat) if torch else None)
    sq = g.reshape(1024, -1)
    s = nr.asarray(sq)
    tsq = torch.from_numpy(sq) if torch else None
    row("tril [1024, N/1024] f32", median_ms(synced(lambda: nr.tril(s)), repeat), median_ms(lambda: np.tril(sq), repeat),
        median_ms(lambda: torch.tril(tsq), repeat) if torch else None)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--scan", type=int, default=16 << 20)
    p.add_argument("--gather", type=int, default=1 << 20)
    args = p.parse_args()
    bench(args.repeat, args.scan, args.gather)


if __name__ == "__main__":
    main()
