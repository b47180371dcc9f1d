"""Demo section: a model step captured as a stream graph and replayed, checked against eager."""
import time

import numpy as np

import npurt as nr

TITLE = "Stream graphs: capture once, replay many times"


def _layer(x, w, b):
    """One toy layer: h = (x @ w + b) * x + x (b broadcast over the rows)."""
    h = nr.ops.matmul(x, w) + b
    return h * x + x


def step(x, w, b):
    for _ in range(4):
        x = _layer(x, w, b)
    return x


def _median_us(fn, reps=20):
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        nr.synchronize()
        times.append(time.perf_counter() - t0)
    return sorted(times)[len(times) // 2] * 1e6


def run():
    rng = np.random.default_rng(0)
    hx = rng.uniform(-0.5, 0.5, (8, 32)).astype(np.float32)
    hw = rng.uniform(-0.1, 0.1, (32, 32)).astype(np.float32)
    hb = rng.uniform(-0.1, 0.1, 32).astype(np.float32)
    x, w, b = nr.asarray(hx), nr.asarray(hw), nr.asarray(hb)

    eager = step(x, w, b).numpy()
    graphed_step = nr.graphed(step)
    first = graphed_step(x, w, b)           # captures the step, replays it once
    g = next(iter(graphed_step.graphs.values())).graph
    ops = [n["op"] or n["name"] for n in g.nodes]
    print(f"captured {g.num_nodes} nodes: {', '.join(ops[:4])}, ... (g.to_dot() draws them)")
    np.testing.assert_allclose(first.numpy(), eager, rtol=1e-5, atol=1e-6)

    x2 = nr.asarray(hx[::-1].copy())        # new data, same signature: replayed with x2 bound
    second = graphed_step(x2, w, b)
    np.testing.assert_allclose(second.numpy(), step(x2, w, b).numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(first.numpy(), eager, rtol=1e-5, atol=1e-6)  # not overwritten
    print("graphed step == eager step (two inputs; the first result is kept)")

    x3 = nr.asarray(rng.uniform(-0.5, 0.5, (4, 32)).astype(np.float32))
    graphed_step(x3, w, b)                  # another shape: a second capture
    print(f"signatures captured: {len(graphed_step.graphs)}")

    t_eager = _median_us(lambda: step(x, w, b))
    t_graph = _median_us(lambda: graphed_step(x, w, b))
    print(f"median step time: eager {t_eager:.0f} us, graphed {t_graph:.0f} us "
          f"({t_eager / t_graph:.1f}x; simulator timings, see bench/graphs.py)")
