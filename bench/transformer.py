"""Transformer kernels of the seed-ops issue vs numpy and PyTorch CPU (if installed).

Prints the median of N runs for each implementation and the ratio npurt / peer
(> 1 means npurt is faster). Only the ops that exist are measured: `matmul`
(fp32, fp16, bf16) and the elementwise rows of ELEMENTWISE_ROWS (gelu, silu on
--elements elements; npurt time includes synchronize).

    python bench/transformer.py [--repeat 5] [--sizes 1024,2048]
"""
import argparse
import os
import statistics
import time

import ml_dtypes
import numpy as np

import npurt as nr

try:
    import torch
except ImportError:  # bench only: PyTorch is optional
    torch = None


def median_time(fn, repeat):
    fn()  # warm-up (tiling cache, pool, page faults)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def bench_matmul(n, dtype, repeat):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(dtype)
    b = rng.standard_normal((n, n)).astype(dtype)
    xa, xb = nr.asarray(a), nr.asarray(b)
    rows = {"npurt": median_time(lambda: nr.ops.matmul(xa, xb).numpy(), repeat)}
    if dtype == np.float32:
        rows["numpy"] = median_time(lambda: a @ b, repeat)
    if torch is not None:
        tdt = {np.dtype(np.float32): torch.float32, np.dtype(np.float16): torch.float16,
               np.dtype(ml_dtypes.bfloat16): torch.bfloat16}[np.dtype(dtype)]
        ta = torch.from_numpy(a.astype(np.float32)).to(tdt)
        tb = torch.from_numpy(b.astype(np.float32)).to(tdt)
        rows["torch"] = median_time(lambda: ta @ tb, repeat)
    flops = 2.0 * n ** 3
    name = np.dtype(dtype).name
    for k, t in rows.items():
        ratio = "" if k == "npurt" else f"  npurt/{k} speed ratio {t / rows['npurt']:.2f}x"
        print(f"matmul {n}^3 {name:9s} {k:6s} {t * 1e3:9.2f} ms  {flops / t / 1e9:7.1f} GFLOP/s{ratio}")


def _np_silu(x):
    return x / (1.0 + np.exp(-x))


def _np_gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))


# One row per elementwise op: (label, npurt call, numpy call or None, torch call or None).
# Elementwise rows run on N elements of each dtype; add rows here.
ELEMENTWISE_ROWS = [
    ("gelu", lambda x: nr.ops.gelu(x), None, lambda t: torch.nn.functional.gelu(t)),
    ("gelu tanh", lambda x: nr.ops.gelu(x, approximate="tanh"), _np_gelu_tanh,
     lambda t: torch.nn.functional.gelu(t, approximate="tanh")),
    ("silu", lambda x: nr.ops.silu(x), _np_silu, lambda t: torch.nn.functional.silu(t)),
]


def bench_elementwise(label, fn, np_fn, torch_fn, n, dtype, repeat):
    x = np.random.default_rng(1).standard_normal(n).astype(dtype)
    dev = nr.asarray(x)

    def run_npurt():
        fn(dev)
        nr.synchronize()
    rows = {"npurt": median_time(run_npurt, repeat)}
    if np_fn is not None and np.dtype(dtype) == np.float32:
        rows["numpy"] = median_time(lambda: np_fn(x), repeat)
    if torch is not None and torch_fn is not None:
        t = torch.from_numpy(x.astype(np.float32)).to(
            {np.dtype(np.float32): torch.float32, np.dtype(np.float16): torch.float16,
             np.dtype(ml_dtypes.bfloat16): torch.bfloat16}[np.dtype(dtype)])
        rows["torch"] = median_time(lambda: torch_fn(t), repeat)
    gbs = 2.0 * n * np.dtype(dtype).itemsize / 1e9
    for k, t in rows.items():
        ratio = "" if k == "npurt" else f"  npurt/{k} speed ratio {t / rows['npurt']:.2f}x"
        print(f"{label:10s} {n >> 20} Mi {np.dtype(dtype).name:9s} {k:6s} {t * 1e3:9.2f} ms  "
              f"{gbs / t:6.2f} GB/s{ratio}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--sizes", default="1024")
    p.add_argument("--elements", type=int, default=16 << 20, help="size of the elementwise rows")
    p.add_argument("--only", default="", help="comma-separated row families: matmul,elementwise")
    args = p.parse_args()
    threads = os.cpu_count()
    if torch is not None:
        torch.set_num_threads(threads)
    print(f"host threads: {threads}; torch: {torch.__version__ if torch else 'not installed'}")
    only = set(filter(None, args.only.split(",")))
    if not only or "matmul" in only:
        for n in (int(s) for s in args.sizes.split(",")):
            for dt in (np.float32, np.float16, ml_dtypes.bfloat16):
                bench_matmul(n, dt, args.repeat)
    if not only or "elementwise" in only:
        for label, fn, np_fn, torch_fn in ELEMENTWISE_ROWS:
            for dt in (np.float32, np.float16, ml_dtypes.bfloat16):
                bench_elementwise(label, fn, np_fn, torch_fn, args.elements, dt, args.repeat)


if __name__ == "__main__":
    main()
