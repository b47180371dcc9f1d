"""Stream graphs: eager vs g.replay() vs nr.graphed, on two workloads.

    python bench/graphs.py [--ops 100] [--n 1024] [--layers 12] [--reps 30] [--quick]

1. "100 ops": alternating mul/add on float32[n] (issue 7: replay >= 10x eager).
2. "toy step": a 12-layer pre-norm transformer block step on small shapes
   (tokens 16, width 64, one attention head, MLP 4x; issue 7: >= 3x). It uses the
   registered layer_norm / softmax / gelu ops when nr.ops.list() has them (and
   they accept the call below), else composes them from elementwise, reduction
   and matmul ops; the run prints which.

Each variant is timed end to end (enqueue + synchronize), median over --reps;
"host" times only the enqueue (what graphs remove). Replay host cost per node =
median host time of g.replay() / nodes. Ratios are eager / variant, measured in
the same run. Results also go to npurt.benchmarks.report (the `npurt bench`
table). NPURT_BENCH_QUICK=1 (or --quick) shrinks the run for tests.
"""
import argparse
import os
import statistics
import time

import numpy as np

import npurt as nr
from npurt.benchmarks import report

F32 = np.float32


# ---- workload 1: a chain of small elementwise ops ----------------------------------------
def chain(x, c, ops):
    y = x
    for i in range(ops):
        y = nr.ops.add(y, c) if i % 2 else nr.ops.mul(y, c)
    return y


# ---- workload 2: a toy transformer step -----------------------------------------------------
class Blocks:
    """The block's building ops: registered ones when usable, else composed."""

    def __init__(self, consts):
        self.c = consts
        self.used = []
        have = set(nr.ops.list())
        x = nr.asarray(np.ones((2, 8), F32))
        g, b = nr.asarray(np.ones(8, F32)), nr.asarray(np.zeros(8, F32))
        # layer_norm returns (y, mean, rstd): the block needs y
        self.layer_norm = self._pick("layer_norm", have, lambda: nr.ops.layer_norm(x, g, b)[0],
                                     lambda h, g, b: nr.ops.layer_norm(h, g, b)[0], self._layer_norm)
        self.softmax = self._pick("softmax", have, lambda: nr.ops.softmax(x),
                                  lambda s: nr.ops.softmax(s), self._softmax)
        self.gelu = self._pick("gelu", have, lambda: nr.ops.gelu(x), lambda h: nr.ops.gelu(h), self._gelu)

    def _pick(self, name, have, probe, registered, composed):
        if name in have:
            try:
                probe().numpy()
                self.used.append(f"{name}: registered op")
                return registered
            except Exception as e:  # another signature than this script assumes
                self.used.append(f"{name}: composed (registered op rejected the call: {type(e).__name__})")
                return composed
        self.used.append(f"{name}: composed")
        return composed

    # Composed versions; the operators broadcast (nr.ops.add etc. take equal shapes).
    def _layer_norm(self, h, g, b):
        xc = h - nr.ops.reduce_mean(h, axis=[-1], keepdims=True)
        var = nr.ops.reduce_mean(xc * xc, axis=[-1], keepdims=True)
        return xc / nr.ops.sqrt(var + self.c["eps"]) * g + b

    def _softmax(self, s):
        e = nr.ops.exp(s - nr.ops.reduce_max(s, axis=[-1], keepdims=True))
        return e / nr.ops.reduce_sum(e, axis=[-1], keepdims=True)

    def _gelu(self, h):  # tanh approximation
        inner = (h + self.c["k1"] * h * h * h) * self.c["k0"]
        return h * self.c["half"] * (nr.ops.tanh(inner) + self.c["one"])


def make_layer_weights(rng, d):
    def w(*shape):
        return nr.asarray((rng.standard_normal(shape) * (0.5 / np.sqrt(shape[0]))).astype(F32))
    return {"g1": nr.asarray(np.ones(d, F32)), "b1": nr.asarray(np.zeros(d, F32)),
            "wq": w(d, d), "wk_t": w(d, d), "wv": w(d, d), "wo": w(d, d),
            "g2": nr.asarray(np.ones(d, F32)), "b2": nr.asarray(np.zeros(d, F32)),
            "w1": w(d, 4 * d), "w2": w(4 * d, d)}


def toy_step(x, layers, blocks, consts):
    """x: [tokens, d]. Pre-norm block: x += attn(ln1(x)); x += mlp(ln2(x)), one
    head; scores = q @ k^T with k^T a transposed view made contiguous (a copy)."""
    for p in layers:
        h = blocks.layer_norm(x, p["g1"], p["b1"])
        q = nr.ops.matmul(h, p["wq"]) * consts["scale"]
        k = nr.ops.matmul(h, p["wk_t"])
        v = nr.ops.matmul(h, p["wv"])
        att = blocks.softmax(nr.ops.matmul(q, nr.ops.copy(k.T)))
        x = nr.ops.add(x, nr.ops.matmul(nr.ops.matmul(att, v), p["wo"]))
        h = blocks.layer_norm(x, p["g2"], p["b2"])
        x = nr.ops.add(x, nr.ops.matmul(blocks.gelu(nr.ops.matmul(h, p["w1"])), p["w2"]))
    return x


# ---- timing --------------------------------------------------------------------------------
def timed(fn, reps, sync):
    total, host = [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        t1 = time.perf_counter()
        sync()
        total.append(time.perf_counter() - t0)
        host.append(t1 - t0)
    return statistics.median(total), statistics.median(host)


def compare(title, fn, args, reps, check_tol):
    """Times eager, replay and graphed for fn(*args); returns rows and the graph's node count."""
    sync = nr.current_stream().synchronize
    for _ in range(2):  # warm up tiling caches and the pool
        fn(*args)
    sync()
    want = fn(*args).numpy()
    eager = timed(lambda: fn(*args), reps, sync)

    g = nr.Graph()
    with g.capture():
        yg = fn(*args)
    g.replay()
    sync()
    np.testing.assert_allclose(yg.numpy(), want, rtol=check_tol, atol=check_tol)
    replay = timed(g.replay, reps, sync)

    f = nr.graphed(fn)
    f(*args)
    sync()
    np.testing.assert_allclose(f(*args).numpy(), want, rtol=check_tol, atol=check_tol)
    graphed = timed(lambda: f(*args), reps, sync)

    rows = [("eager", *eager), ("g.replay()", *replay), ("nr.graphed", *graphed)]
    print(f"\n{title}: graph of {g.num_nodes} nodes, median of {reps} runs")
    print(f"{'variant':<12}{'total us':>11}{'host us':>10}{'x eager (total)':>17}{'x eager (host)':>16}")
    for name, t, h in rows:
        print(f"{name:<12}{t * 1e6:>11.1f}{h * 1e6:>10.1f}{eager[0] / t:>17.2f}{eager[1] / h:>16.1f}")
    print(f"replay host cost per node: {replay[1] / g.num_nodes * 1e6:.3f} us (target <= 0.3 us)")
    for name, t, _ in rows[1:]:
        report("graphs", f"{title}: {name}", t, peer="eager", peer_seconds=eager[0])
    return rows, g.num_nodes


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ops", type=int, default=100)
    p.add_argument("--n", type=int, default=1024)
    p.add_argument("--layers", type=int, default=12)
    p.add_argument("--tokens", type=int, default=16)
    p.add_argument("--width", type=int, default=64)
    p.add_argument("--reps", type=int, default=30)
    p.add_argument("--quick", action="store_true", help="a small run (also NPURT_BENCH_QUICK=1)")
    a = p.parse_args()
    if a.quick or os.environ.get("NPURT_BENCH_QUICK") == "1":
        a.ops, a.layers, a.reps = 20, 2, 5

    rng = np.random.default_rng(0)
    x = nr.asarray(rng.uniform(0.9, 1.1, a.n).astype(F32))
    c = nr.asarray(rng.uniform(0.99, 1.01, a.n).astype(F32))
    compare(f"{a.ops} elementwise ops on float32[{a.n}]", lambda x, c: chain(x, c, a.ops), (x, c), a.reps, 0)

    consts = {k: nr.asarray(np.array([v], F32)) for k, v in
              {"eps": 1e-5, "k0": 0.7978845608, "k1": 0.044715, "half": 0.5, "one": 1.0,
               "scale": 1.0 / np.sqrt(a.width)}.items()}
    blocks = Blocks(consts)
    layers = [make_layer_weights(rng, a.width) for _ in range(a.layers)]
    xt = nr.asarray(rng.standard_normal((a.tokens, a.width)).astype(F32))
    print("\nblock ops: " + "; ".join(blocks.used))
    compare(f"{a.layers}-layer toy transformer step [{a.tokens}x{a.width}]",
            lambda x: toy_step(x, layers, blocks, consts), (xt,), a.reps, 1e-4)


if __name__ == "__main__":
    main()
