"""matmul on the simulated cube (nr.matmul) vs numpy/OpenBLAS and PyTorch CPU,
in one run, at the same thread count (PyTorch set to 2 threads; the sim's
compute pool uses the host's hardware threads).

Prints the median of --repeat runs per implementation, GFLOP/s, the ratio
peer time / npurt time (> 1: npurt faster), and the machine's measured peak:
the best in-cache GEMM rate of PyTorch (512^3, fp32 and bf16) per CPU-second,
the closest thing to an FMA peak a Python script can measure here. CPU time
(all threads of the process) is printed next to wall time because the
shared machine is loaded: wall time includes waiting for a core.

    python bench/matmul.py [--repeat 5] [--sizes 1024,2048] [--dtypes float32,bfloat16,float16]
"""
import argparse
import os

import ml_dtypes
import numpy as np

import npurt as nr
from _common import median_time

try:
    import torch
    torch.set_num_threads(2)
except ImportError:  # bench only: PyTorch is optional
    torch = None

DTYPES = {"float32": np.dtype(np.float32), "float16": np.dtype(np.float16), "bfloat16": np.dtype(ml_dtypes.bfloat16)}



def torch_tensor(x, dtype):
    tdt = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}[dtype.name]
    return torch.from_numpy(x.astype(np.float32)).to(tdt)


def peaks(repeat):
    """GFLOP per CPU-second of an in-cache 512^3 GEMM per dtype (PyTorch, best of 3 medians):
    the machine reference. CPU time, not wall time, because the shared machine is loaded."""
    out = {}
    if torch is None:
        return out
    for name in ("float32", "bfloat16"):
        a = torch_tensor(np.random.default_rng(0).standard_normal((512, 512)), DTYPES[name])
        best = 0.0
        for _ in range(3):
            cpu = []
            median_time(lambda: a @ a, repeat, cpu)
            best = max(best, 2 * 512**3 / cpu[0] / 1e9)
        out[name] = best
    return out


def bench(n, dtype, repeat):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(dtype)
    b = rng.standard_normal((n, n)).astype(dtype)
    xa, xb = nr.asarray(a), nr.asarray(b)

    def run_npurt():
        y = nr.matmul(xa, xb)
        y.stream.synchronize()
    rows = {"npurt": (median_time(run_npurt, repeat, cpu := []), cpu)}
    if dtype == np.float32:
        rows["numpy"] = (median_time(lambda: a @ b, repeat, cpu := []), cpu)
    if torch is not None:
        ta, tb = torch_tensor(a, dtype), torch_tensor(b, dtype)
        rows["torch"] = (median_time(lambda: ta @ tb, repeat, cpu := []), cpu)
    return {k: (t, c[0]) for k, (t, c) in rows.items()}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--sizes", default="1024,2048")
    p.add_argument("--dtypes", default="float32,bfloat16,float16")
    args = p.parse_args()
    pk = peaks(args.repeat)
    results = [(n, name, bench(n, DTYPES[name], args.repeat))
               for n in (int(s) for s in args.sizes.split(",")) for name in args.dtypes.split(",")]
    # The machine reference per dtype: the best GFLOP per CPU-second any peer reached here
    # (in-cache 512^3 or the measured sizes), i.e. what this host's BLAS gets from a core.
    for n, name, rows in results:
        for impl, (t, c) in rows.items():
            if impl != "npurt":
                pk[name] = max(pk.get(name, 0.0), 2.0 * n**3 / c / 1e9)
    # The shared machine's load decides how far wall time strays from CPU time: print it with the results.
    print("load average (1, 5, 15 min): " + ", ".join(f"{x:.1f}" for x in os.getloadavg()) +
          f"; host threads {os.cpu_count()}")
    print("machine reference (best peer GEMM rate per CPU-second): " +
          ", ".join(f"{k} {v:.1f} GFLOP/s" for k, v in pk.items()))
    print(f"{'op':22s} {'impl':6s} {'median':>10s} {'GFLOP/s':>8s} {'CPU ms':>8s}  ratios (peer / npurt: wall, CPU)")
    for n, name, rows in results:
        flops = 2.0 * n**3
        tn, cn = rows["npurt"]
        for impl, (t, c) in rows.items():
            ratio = "" if impl == "npurt" else f"{t / tn:.2f}x wall, {c / cn:.2f}x CPU"
            peak = pk.get(name)
            frac = f" ({flops / c / 1e9 / peak:.0%} of ref per CPU-s)" if peak and impl == "npurt" else ""
            print(f"matmul {n}^3 {name:9s} {impl:6s} {t * 1e3:8.1f} ms {flops / t / 1e9:8.1f} {c * 1e3:8.1f}  "
                  f"{ratio}{frac}")


if __name__ == "__main__":
    main()
