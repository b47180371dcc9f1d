"""Transformer kernels of the seed-ops issue vs numpy and PyTorch CPU (if installed).

Prints the median of N runs for each implementation and the ratio npurt / peer
(> 1 means npurt is faster). Only the ops that exist are measured: `matmul`
(fp32, fp16, bf16) and `attention` (the rows of ATTENTION_ROWS, against
torch.nn.functional.scaled_dot_product_attention); layer_norm / softmax are
not built yet.

    python bench/transformer.py [--repeat 5] [--sizes 1024,2048] [--only matmul|attention]
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


# attention rows: (q/k/v shape, dtype, causal); the seed shapes of issue 6.
ATTENTION_ROWS = [
    ((2, 512, 64), np.float32, False),
    ((2, 512, 64), ml_dtypes.bfloat16, False),
    ((2, 16, 1024, 64), np.float32, False),
    ((2, 16, 1024, 64), ml_dtypes.bfloat16, False),
    ((2, 16, 1024, 64), np.float32, True),
]


def bench_attention(shape, dtype, causal, repeat):
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal(shape).astype(dtype) for _ in range(3))
    xs = [nr.asarray(a) for a in (q, k, v)]
    nr.synchronize()
    base = nr.memory.stat("allocated_bytes.all.current")
    nr.memory.reset_peak_stats()
    rows = {"npurt": median_time(lambda: nr.ops.attention(*xs, causal=causal)[0].numpy(), repeat)}
    peak = nr.memory.stat("allocated_bytes.all.peak") - base
    if torch is not None:
        tdt = torch.float32 if np.dtype(dtype) == np.float32 else torch.bfloat16
        # 3-D inputs go to PyTorch as [B, 1, S, D]: its 3-D path is ~8x slower here (math fallback).
        tq, tk, tv = (torch.from_numpy(a.astype(np.float32)).to(tdt) for a in (q, k, v))
        if len(shape) == 3:
            tq, tk, tv = tq[:, None], tk[:, None], tv[:, None]
        sdpa = torch.nn.functional.scaled_dot_product_attention
        rows["torch"] = median_time(lambda: sdpa(tq, tk, tv, is_causal=causal), repeat)
    s = shape[-2]
    heads = int(np.prod(shape[:-2]))
    flops = 4.0 * heads * s * s * shape[-1] * (0.5 if causal else 1.0)
    name = f"attention {list(shape)} {np.dtype(dtype).name}{' causal' if causal else ''}"
    for k_, t in rows.items():
        ratio = "" if k_ == "npurt" else f"  npurt/{k_} speed ratio {t / rows['npurt']:.2f}x"
        print(f"{name:40s} {k_:6s} {t * 1e3:9.2f} ms  {flops / t / 1e9:7.1f} GFLOP/s{ratio}")
    sxs = heads * s * s * 4
    print(f"{name:40s} peak GM beyond inputs {peak / 2**20:.1f} MiB (16 MiB of it the profile's fixed system "
          f"workspace) vs S x S float32 scores {sxs / 2**20:.1f} MiB")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--sizes", default="1024")
    p.add_argument("--only", choices=["matmul", "attention"], default=None)
    args = p.parse_args()
    threads = os.cpu_count()
    if torch is not None:
        torch.set_num_threads(threads)
    print(f"host threads: {threads}; torch: {torch.__version__ if torch else 'not installed'}")
    for n in (int(s) for s in args.sizes.split(",")) if args.only in (None, "matmul") else ():
        for dt in (np.float32, np.float16, ml_dtypes.bfloat16):
            bench_matmul(n, dt, args.repeat)
    for shape, dt, causal in ATTENTION_ROWS if args.only in (None, "attention") else ():
        bench_attention(shape, dt, causal, args.repeat)


if __name__ == "__main__":
    main()
