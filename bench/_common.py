"""bench/_common.py: timing helpers shared by the benchmark scripts (not a
benchmark itself: `npurt bench` skips files starting with "_").

Every script times peers side by side in one process and reports medians,
because this machine is shared and noisy: a single run means little, a
median of several and a ratio within one run do.
"""
import statistics
import threading
import time

import numpy as np


def import_torch(threads=2):
    """PyTorch CPU pinned to `threads` intra-op threads, or None when not installed."""
    try:
        import torch
    except ImportError:  # benches only: PyTorch is an optional peer
        return None
    torch.set_num_threads(threads)
    return torch


# Idle time before each implementation is timed. Peers timed in the same
# process leave worker threads spinning after their last call (PyTorch's
# libgomp threads burned 1.2-3.5 ms of CPU in the 2-50 ms after a
# torch.softmax, measured 2026-11-30): on a 2-CPU host that takes one core
# from whatever is timed next, e.g. npurt right after the previous case's torch.
SETTLE_SECONDS = 0.05


def median_time(fn, repeat, cpu=None, warmup=True, settle=SETTLE_SECONDS):
    """Median wall seconds of fn() over `repeat` runs after a settle pause (the
    previous peer's spinning threads go idle) and one warm-up (tiling caches,
    pool, page faults). With a list `cpu`, also appends the median process CPU
    seconds (all threads): the fairer figure on a loaded machine."""
    if settle:
        time.sleep(settle)
    if warmup:
        fn()
    times, cpus = [], []
    for _ in range(repeat):
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    if cpu is not None:
        cpu.append(statistics.median(cpus))
    return statistics.median(times)


def median_ms(fn, repeat):
    """median_time in milliseconds."""
    return median_time(fn, repeat) * 1e3


def triad_two_threads(a, b, c, s, chunk=1 << 18):
    """STREAM triad a = b + s*c, one half per thread, through a cache-resident
    temporary: the memory bandwidth a bandwidth-bound op is measured against."""
    half = a.size // 2

    def part(lo, hi):
        tmp = np.empty(chunk, dtype=a.dtype)
        for i in range(lo, hi, chunk):
            j = min(hi, i + chunk)
            t = tmp[: j - i]
            np.multiply(c[i:j], s, out=t)
            np.add(b[i:j], t, out=a[i:j])

    helper = threading.Thread(target=part, args=(half, a.size))
    helper.start()
    part(0, half)
    helper.join()
