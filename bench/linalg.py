"""bench/linalg.py: nr.linalg's det, inv, solve and cholesky (the LU and
Cholesky kernels of kernels/linalg/) next to numpy and PyTorch CPU (2
threads, when installed): medians of repeated runs (each npurt run ends with
a host copy of its result, which waits for the device), in wall time and in
process CPU time (all threads; the steadier figure on a loaded machine).
Ratios: numpy / npurt (> 1: npurt is faster).

    python bench/linalg.py [--sizes 200,256] [--batch 64x16] [--repeat R] [--check off|basic|full]

Rows: each function on one n x n matrix of each size (n = 200: float32 works
in UB, row updates on the vector unit; n = 256: float32 LU streams its first
steps' rows through UB and finishes in UB, solves go in column blocks through
UB, cholesky is scalar in GM; float64 past n = 156 is scalar in GM)
and on a batch of small matrices (split over the cores), in float32 and
float64. Matrices are random in [-1, 1] plus n on the diagonal
(well conditioned); cholesky gets A A^T. The sim runs the kernels on the
host CPU: the figures say nothing about NPU speed.
"""
import argparse
import os

import numpy as np

from _common import import_torch, median_time

torch = import_torch(2)


def timed(fn, rep):
    cpu = []
    wall = median_time(fn, rep, cpu=cpu)
    return wall * 1e3, cpu[0] * 1e3


def cases(nr, shape, dtype):
    """(name, npurt, numpy, torch or None) for one shape and dtype."""
    n = shape[-1]
    a = (np.random.default_rng(0).uniform(-1, 1, shape) + n * np.eye(n)).astype(dtype)
    p = (a @ np.swapaxes(a, -1, -2)).astype(dtype)
    b = np.ascontiguousarray(a[..., :1])
    x, xp, xb = nr.asarray(a), nr.asarray(p), nr.asarray(b)
    L = nr.linalg
    rows = [("det", lambda: L.det(x).numpy(), lambda: np.linalg.det(a)),
            ("inv", lambda: L.inv(x).numpy(), lambda: np.linalg.inv(a)),
            ("solve (1 column)", lambda: L.solve(x, xb).numpy(), lambda: np.linalg.solve(a, b)),
            ("cholesky", lambda: L.cholesky(xp).numpy(), lambda: np.linalg.cholesky(p))]
    peers = {}
    if torch is not None:
        ta, tp, tb = torch.from_numpy(a), torch.from_numpy(p), torch.from_numpy(b)
        peers = {"det": lambda: torch.linalg.det(ta), "inv": lambda: torch.linalg.inv(ta),
                 "solve (1 column)": lambda: torch.linalg.solve(ta, tb), "cholesky": lambda: torch.linalg.cholesky(tp)}
    return [(name, f, g, peers.get(name)) for name, f, g in rows]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="200,256", help="comma-separated n of the single-matrix rows")
    ap.add_argument("--batch", default="64x16", help="COUNTxN: a batch of COUNT matrices of N x N")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--check", default="", help="NPURT_SIM_CHECK for this run (off|basic|full)")
    opts = ap.parse_args()
    if opts.check:
        os.environ["NPURT_SIM_CHECK"] = opts.check
    import npurt as nr
    count, small = (int(v) for v in opts.batch.split("x"))
    print(f"{'op':34s} {'npurt ms':>9s} {'numpy ms':>9s} {'torch ms':>9s} {'vs numpy':>9s} "
          f"{'npurt cpu':>9s} {'numpy cpu':>9s} {'cpu ratio':>9s}")
    sizes = [int(v) for v in opts.sizes.split(",") if v]
    for shape in [(n, n) for n in sizes] + [(count, small, small)]:
        for dtype in ("float32", "float64"):
            for name, f, g, h in cases(nr, shape, dtype):
                (w, c), (nw, nc) = timed(f, opts.repeat), timed(g, opts.repeat)
                t = f"{timed(h, opts.repeat)[0]:9.3f}" if h is not None else "        -"
                label = f"{name} {'x'.join(map(str, shape))} {dtype}"
                print(f"{label:34s} {w:9.3f} {nw:9.3f} {t} {nw / w:8.3f}x {c:9.3f} {nc:9.3f} {nc / c:8.3f}x",
                      flush=True)


if __name__ == "__main__":
    main()
