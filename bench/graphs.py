"""Stream graphs: eager vs g.replay() vs nr.graphed for 100 small elementwise ops.

    python bench/graphs.py [--ops 100] [--n 1024] [--reps 50]

Each variant runs the same sequence (alternating mul/add on float32[n]) and is
timed end to end (enqueue + synchronize) with the median over --reps runs.
"host" columns time only the enqueue part (what graphs remove); replay host
cost per node = median(g.replay() call) / nodes. Ratios are eager / variant.
"""
import argparse
import statistics
import time

import numpy as np

import npurt as nr


def step(x, c, ops):
    y = x
    for i in range(ops):
        y = nr.ops.add(y, c) if i % 2 else nr.ops.mul(y, c)
    return y


def timed(fn, reps, sync):
    total, host = [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        t1 = time.perf_counter()
        sync()
        t2 = time.perf_counter()
        host.append(t1 - t0)
        total.append(t2 - t0)
    return statistics.median(total), statistics.median(host), out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ops", type=int, default=100)
    p.add_argument("--n", type=int, default=1024)
    p.add_argument("--reps", type=int, default=50)
    a = p.parse_args()

    rng = np.random.default_rng(0)
    hx = rng.uniform(0.9, 1.1, a.n).astype(np.float32)
    hc = rng.uniform(0.99, 1.01, a.n).astype(np.float32)
    x, c = nr.asarray(hx), nr.asarray(hc)
    s = nr.current_stream()
    sync = s.synchronize

    for _ in range(3):  # warm up tiling caches and the pool
        step(x, c, a.ops)
    sync()
    eager_t, eager_h, ye = timed(lambda: step(x, c, a.ops), a.reps, sync)

    g = nr.Graph()
    with g.capture():
        yg = step(x, c, a.ops)
    g.replay()
    sync()
    replay_t, replay_h, _ = timed(g.replay, a.reps, sync)
    np.testing.assert_allclose(yg.numpy(), ye.numpy(), rtol=0, atol=0)

    f = nr.graphed(lambda x, c: step(x, c, a.ops))
    f(x, c)
    sync()
    graphed_t, graphed_h, yf = timed(lambda: f(x, c), a.reps, sync)
    np.testing.assert_allclose(yf.numpy(), ye.numpy(), rtol=0, atol=0)

    nodes = g.num_nodes
    print(f"{a.ops} elementwise ops on float32[{a.n}], median of {a.reps} runs, graph: {nodes} nodes")
    print(f"{'variant':<10}{'total us':>12}{'host us':>12}{'x eager (total)':>18}{'x eager (host)':>17}")
    for name, t, h in (("eager", eager_t, eager_h), ("replay", replay_t, replay_h), ("graphed", graphed_t, graphed_h)):
        print(f"{name:<10}{t * 1e6:>12.1f}{h * 1e6:>12.1f}{eager_t / t:>18.2f}{eager_h / h:>17.1f}")
    print(f"replay host cost per node: {replay_h / nodes * 1e6:.3f} us (target <= 0.3 us)")


if __name__ == "__main__":
    main()
