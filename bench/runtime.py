"""bench/runtime.py: npurt's runtime costs seen from Python, side by side with numpy.

    python bench/runtime.py [--repeat N]

Prints medians of repeated timings and the ratio npurt / numpy (lower is
better for times, higher for bandwidth). No assertions: targets from the
issue are printed next to the results for the reader.
  - allocation: np.empty vs nr.empty at 1 KiB and 1 MiB (target nr <= 1.5x np at 1 KiB)
  - copies at 64 MiB: numpy copy into an existing array (a STREAM-style copy)
    vs nr.asarray (host->device), x.numpy() (device->host), x.copy() (device->device);
    x.numpy() also against host.copy(), which like it allocates a new array
  - streams: synchronize of an idle stream, event record + synchronize,
    a 4-byte memset + synchronize (target enqueue+synchronize <= 5 us)
"""
import argparse
import statistics
import time

import numpy as np

import npurt as nr


def median_ns(fn, number, repeat):
    """Median over `repeat` blocks of the per-call time of `number` calls, in ns."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter_ns() - start) / number)
    return statistics.median(samples)


def row(label, ours, theirs, unit, target=""):
    ratio = ours / theirs if theirs else float("nan")
    print(f"{label:<44} {ours:>12.1f} {theirs:>12.1f} {unit:<6} {ratio:>7.2f}x  {target}")


def bench_allocation(repeat):
    print(f"\n{'allocation (alloc + free)':<44} {'npurt':>12} {'numpy':>12} {'unit':<6} {'ratio':>8}")
    for label, nbytes, number in (("1 KiB", 1 << 10, 20000), ("1 MiB", 1 << 20, 2000)):
        n = nbytes // 4
        ours = median_ns(lambda: nr.empty(n), number, repeat)
        theirs = median_ns(lambda: np.empty(n, np.float32), number, repeat)
        row(f"nr.empty vs np.empty, {label} float32", ours, theirs, "ns", "target <= 1.5x" if nbytes == 1024 else "")


def bench_copies(repeat):
    nbytes = 64 << 20
    host = np.random.default_rng(0).random(nbytes // 4, dtype=np.float32)
    dst = np.empty_like(host)
    x = nr.asarray(host)
    nr.synchronize()
    gbps = lambda ns: nbytes / ns  # bytes per ns == GB/s
    stream_copy = median_ns(lambda: np.copyto(dst, host), 1, repeat)

    def d2d():
        x.copy()
        nr.synchronize()

    print(f"\n{'copies, 64 MiB':<44} {'npurt':>12} {'numpy':>12} {'unit':<6} {'ratio':>8}")
    row("host->device nr.asarray vs numpy copy", gbps(median_ns(lambda: nr.asarray(host), 1, repeat)),
        gbps(stream_copy), "GB/s", "target >= 0.8x")
    d2h = gbps(median_ns(x.numpy, 1, repeat))
    row("device->host x.numpy() vs numpy copy", d2h, gbps(stream_copy), "GB/s", "target >= 0.8x")
    # x.numpy() returns a new array, so it pays numpy's first-touch page faults too:
    row("device->host x.numpy() vs host.copy() (new)", d2h, gbps(median_ns(host.copy, 1, repeat)), "GB/s")
    row("device->device x.copy() vs numpy copy", gbps(median_ns(d2d, 1, repeat)), gbps(stream_copy), "GB/s")


def bench_streams(repeat):
    s = nr.Stream()
    e = nr.Event(enable_timing=False)
    tiny = nr.empty(1, stream=s)

    def record_sync():
        e.record(s)
        e.synchronize()

    def memset_sync():
        with s:
            nr.zeros(1)
        s.synchronize()

    print(f"\n{'streams':<44} {'npurt':>12} {'numpy':>12} {'unit':<6}")
    for label, fn in (("synchronize() of an idle stream", s.synchronize),
                      ("event record + synchronize", record_sync),
                      ("nr.zeros(1) (alloc+memset) + synchronize", memset_sync)):
        ns = median_ns(fn, 2000, repeat)
        print(f"{label:<44} {ns / 1000:>12.2f} {'-':>12} {'us':<6}   target <= 5 us (enqueue + sync)")
    del tiny


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=15, help="timed blocks per measurement (median reported)")
    args = p.parse_args()
    d = nr.current_device()
    print(f"npurt {nr.__version__} on {d} ({d.profile.name}), numpy {np.__version__}; medians of {args.repeat}")
    bench_allocation(args.repeat)
    bench_copies(args.repeat)
    bench_streams(args.repeat)


if __name__ == "__main__":
    main()
