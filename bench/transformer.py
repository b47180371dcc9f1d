"""Transformer kernels of the seed-ops issue vs numpy and PyTorch CPU (if installed).

Table-driven: every entry of CASES builds its inputs once and returns the
implementations to time side by side ({"npurt": fn, "numpy": fn, "torch": fn}),
plus the bytes it must move and the flops it does. Each row prints the median
of N runs, GB/s and GFLOP/s, and the speed ratio peer / npurt (> 1 means npurt
is faster). A STREAM triad (a = b + s * c, PyTorch at the same thread count, or
numpy in two passes without it) measured in the same run gives the machine's
streaming bandwidth; memory-bound rows also print their time relative to
streaming their bytes at that bandwidth.

npurt times include `nr.synchronize()` (the op runs on the simulated device
streams); inputs are already on the device, as the peers' are in host memory.

    python bench/transformer.py [--repeat 5] [--only layer_norm,softmax] [--sizes 1024,2048]
"""
import argparse
import os

import ml_dtypes
import numpy as np

import npurt as nr
from _common import median_time

try:
    import torch
except ImportError:  # bench only: PyTorch is optional
    torch = None

BF16 = np.dtype(ml_dtypes.bfloat16)



def torch_tensor(a):
    tdt = {np.dtype(np.float32): torch.float32, np.dtype(np.float16): torch.float16, BF16: torch.bfloat16}
    return torch.from_numpy(a.astype(np.float32)).to(tdt[a.dtype])


def synced(fn):
    def run():
        fn()
        nr.synchronize()
    return run


# ---- cases: name -> (implementations, bytes, flops, memory_bound) ---------------------


def case_matmul(n, dtype):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(dtype)
    b = rng.standard_normal((n, n)).astype(dtype)
    xa, xb = nr.asarray(a), nr.asarray(b)
    impl = {"npurt": lambda: nr.ops.matmul(xa, xb).numpy()}
    if np.dtype(dtype) == np.float32:
        impl["numpy"] = lambda: a @ b
    if torch is not None:
        ta, tb = torch_tensor(a), torch_tensor(b)
        impl["torch"] = lambda: ta @ tb
    return impl, 3 * n * n * a.itemsize, 2.0 * n**3, False


def case_layer_norm(shape, dtype):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(shape).astype(dtype)
    g = rng.standard_normal(shape[-1]).astype(dtype)
    b = rng.standard_normal(shape[-1]).astype(dtype)
    xn, gn, bn = nr.asarray(x), nr.asarray(g), nr.asarray(b)
    impl = {"npurt": synced(lambda: nr.ops.layer_norm(xn, gn, bn))}
    if np.dtype(dtype) == np.float32:
        def numpy_ln():
            mean = x.mean(-1, keepdims=True)
            c = x - mean
            return c / np.sqrt((c * c).mean(-1, keepdims=True) + 1e-5) * g + b
        impl["numpy"] = numpy_ln
    if torch is not None:
        tx, tg, tb = torch_tensor(x), torch_tensor(g), torch_tensor(b)
        impl["torch"] = lambda: torch.nn.functional.layer_norm(tx, (shape[-1],), tg, tb)
    return impl, 2 * x.nbytes, 8.0 * x.size, True


def case_rms_norm(shape, dtype):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(shape).astype(dtype)
    g = rng.standard_normal(shape[-1]).astype(dtype)
    xn, gn = nr.asarray(x), nr.asarray(g)
    impl = {"npurt": synced(lambda: nr.ops.rms_norm(xn, gn))}
    if np.dtype(dtype) == np.float32:
        impl["numpy"] = lambda: x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-6) * g
    if torch is not None and hasattr(torch.nn.functional, "rms_norm"):
        tx, tg = torch_tensor(x), torch_tensor(g)
        impl["torch"] = lambda: torch.nn.functional.rms_norm(tx, (shape[-1],), tg, 1e-6)
    return impl, 2 * x.nbytes, 4.0 * x.size, True


def case_softmax(shape, dtype, axis=-1):
    x = np.random.default_rng(2).standard_normal(shape).astype(dtype)
    xn = nr.asarray(x)
    impl = {"npurt": synced(lambda: nr.ops.softmax(xn, axis=axis))}
    if np.dtype(dtype) == np.float32:
        def numpy_softmax():
            e = np.exp(x - x.max(axis, keepdims=True))
            return e / e.sum(axis, keepdims=True)
        impl["numpy"] = numpy_softmax
    if torch is not None:
        tx = torch_tensor(x)
        impl["torch"] = lambda: torch.softmax(tx, axis)
    return impl, 2 * x.nbytes, 5.0 * x.size, True


def case_attention(shape, dtype, causal):
    """Fused attention vs torch SDPA; prints the peak GM use next to the S x S scores it avoids."""
    rng = np.random.default_rng(4)
    q, k, v = (rng.standard_normal(shape).astype(dtype) for _ in range(3))
    xs = [nr.asarray(a) for a in (q, k, v)]
    nr.synchronize()
    base = nr.memory.stat("allocated_bytes.all.current")
    nr.memory.reset_peak_stats()
    synced(lambda: nr.ops.attention(*xs, causal=causal))()
    peak = nr.memory.stat("allocated_bytes.all.peak") - base
    heads, s, d = int(np.prod(shape[:-2])), shape[-2], shape[-1]
    print(f"attention {list(shape)} {np.dtype(dtype).name}: peak GM beyond the inputs {peak / 2**20:.1f} MiB "
          f"(16 MiB of it the profile's fixed system workspace) vs the S x S float32 scores "
          f"{heads * s * s * 4 / 2**20:.1f} MiB")
    impl = {"npurt": synced(lambda: nr.ops.attention(*xs, causal=causal))}
    if torch is not None:
        tq, tk, tv = (torch_tensor(a) for a in (q, k, v))
        if len(shape) == 3:  # PyTorch's 3-D SDPA path is ~8x slower here (math fallback): give it [B, 1, S, D]
            tq, tk, tv = tq[:, None], tk[:, None], tv[:, None]
        sdpa = torch.nn.functional.scaled_dot_product_attention
        impl["torch"] = lambda: sdpa(tq, tk, tv, is_causal=causal)
    flops = 4.0 * heads * s * s * d * (0.5 if causal else 1.0)
    return impl, 4 * q.nbytes, flops, False


def _np_silu(x):
    return x / (1.0 + np.exp(-x))


def _np_gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))


# Activation rows: (label, npurt call, numpy call or None, torch call or None), on 16 Mi elements.
ELEMENTWISE_ROWS = [
    ("gelu", lambda x: nr.ops.gelu(x), None, lambda t: torch.nn.functional.gelu(t)),
    ("gelu tanh", lambda x: nr.ops.gelu(x, approximate="tanh"), _np_gelu_tanh,
     lambda t: torch.nn.functional.gelu(t, approximate="tanh")),
    ("silu", lambda x: nr.ops.silu(x), _np_silu, lambda t: torch.nn.functional.silu(t)),
]


def case_activation(row, n, dtype):
    _, fn, np_fn, torch_fn = row
    x = np.random.default_rng(1).standard_normal(n).astype(dtype)
    dev = nr.asarray(x)
    impl = {"npurt": synced(lambda: fn(dev))}
    if np_fn is not None and np.dtype(dtype) == np.float32:
        impl["numpy"] = lambda: np_fn(x)
    if torch is not None and torch_fn is not None:
        t = torch_tensor(x)
        impl["torch"] = lambda: torch_fn(t)
    return impl, 2 * x.nbytes, 20.0 * x.size, True


def cases(sizes):
    """(group, label, builder) in printing order; builders run lazily."""
    out = []
    for n in sizes:
        for dt in (np.float32, np.float16, BF16):
            out.append(("matmul", f"matmul {n}^3 {np.dtype(dt).name}", lambda n=n, dt=dt: case_matmul(n, dt)))
    for dt in (np.float32, np.float16):
        out.append(("layer_norm", f"layer_norm [32, 256, 1024] {np.dtype(dt).name}",
                    lambda dt=dt: case_layer_norm((32, 256, 1024), dt)))
    for dt in (np.float32, np.float16):
        out.append(("rms_norm", f"rms_norm [32, 256, 1024] {np.dtype(dt).name}",
                    lambda dt=dt: case_rms_norm((32, 256, 1024), dt)))
    for shape in ((4096, 1024), (32, 8, 512, 512)):
        out.append(("softmax", f"softmax {list(shape)} float32", lambda shape=shape: case_softmax(shape, np.float32)))
    out.append(("softmax", "softmax [32, 8, 512, 512] float32 axis=1",  # the column plan
                lambda: case_softmax((32, 8, 512, 512), np.float32, axis=1)))
    for shape, dt, causal in (((2, 512, 64), np.float32, False), ((2, 512, 64), BF16, False),
                              ((2, 16, 1024, 64), np.float32, False), ((2, 16, 1024, 64), BF16, False),
                              ((2, 16, 1024, 64), np.float32, True)):
        label = f"attention {list(shape)} {np.dtype(dt).name}{' causal' if causal else ''}"
        out.append(("attention", label, lambda shape=shape, dt=dt, causal=causal: case_attention(shape, dt, causal)))
    for row in ELEMENTWISE_ROWS:
        for dt in (np.float32, np.float16, BF16):
            out.append((row[0].split()[0], f"{row[0]} 16 Mi {np.dtype(dt).name}",
                        lambda row=row, dt=dt: case_activation(row, 1 << 24, dt)))
    return out


def stream_triad_gbps(repeat, n=1 << 25):
    """STREAM triad a = b + s * c over n float32 (3 arrays counted, as STREAM does)."""
    b = np.random.default_rng(3).standard_normal(n).astype(np.float32)
    c = np.ones(n, np.float32)
    a = np.empty_like(b)
    if torch is not None:
        ta, tb, tc = torch.from_numpy(a), torch.from_numpy(b), torch.from_numpy(c)
        t = median_time(lambda: torch.add(tb, tc, alpha=3.0, out=ta), repeat)
        how = "torch.add(out=)"
    else:
        def two_pass():
            np.multiply(c, 3.0, out=a)
            np.add(a, b, out=a)
        t = median_time(two_pass, repeat)
        how = "numpy, 2 passes"
    return 3 * 4 * n / t / 1e9, how


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--sizes", default="1024", help="matmul sizes")
    p.add_argument("--only", default="", help="comma-separated groups: matmul,layer_norm,rms_norm,softmax,attention,gelu,silu")
    args = p.parse_args()
    threads = os.cpu_count()
    if torch is not None:
        torch.set_num_threads(threads)
    print(f"host threads: {threads}; torch: {torch.__version__ if torch else 'not installed'}; "
          f"load average: {os.getloadavg()[0]:.1f}")
    bw, how = stream_triad_gbps(args.repeat)
    print(f"STREAM triad: {bw:.1f} GB/s ({how})")
    only = {s for s in args.only.split(",") if s}
    for group, label, build in cases(int(s) for s in args.sizes.split(",")):
        if only and group not in only:
            continue
        if group not in nr.ops.list():  # a branch without that op yet
            print(f"{label:40s} skipped: no op '{group}' in this build")
            continue
        impl, nbytes, flops, memory_bound = build()
        cpu = {}
        times = {}
        for k, fn in impl.items():
            c = []
            times[k] = median_time(fn, args.repeat, c)
            cpu[k] = c[0]
        base = times["npurt"]
        for k, t in times.items():
            extra = f"  {nbytes / t / 1e9:6.1f} GB/s {flops / t / 1e9:7.1f} GFLOP/s  cpu {cpu[k] * 1e3:8.2f} ms"
            if k == "npurt" and memory_bound:
                extra += f"  {t / (nbytes / (bw * 1e9)):.2f}x the STREAM time of its bytes"
            if k != "npurt":
                extra += f"  speed ratio {k}/npurt {t / base:.2f}x (cpu {cpu[k] / cpu['npurt']:.2f}x)"
            print(f"{label:40s} {k:6s} {t * 1e3:9.2f} ms{extra}")


if __name__ == "__main__":
    main()
