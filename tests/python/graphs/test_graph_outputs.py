"""Rebinding graph outputs (also when the graph pool reused a temporary's
address for them), nr.graphed results that later calls never overwrite, and
graph replays in the profiler (inside graphs and across threads)."""
import threading

import numpy as np

import npurt as nr


def arr(values):
    return nr.asarray(np.asarray(values, dtype=np.float32))


def test_rebinding_an_output_placed_at_a_freed_temporarys_address():
    x = arr(np.arange(4096) % 7)
    x1 = arr(np.arange(1024) % 5)
    g = nr.Graph()
    with g.capture():
        t = nr.ops.add(x, x)          # 16 KiB temporary
        u = nr.ops.mul(t, x)
        del t                         # freed inside the capture
        y = nr.ops.add(x1, x1)        # 4 KiB, best fit: the temporary's block
    y2 = nr.zeros((1024,), nr.float32)
    g.replay(inputs={y: y2})          # before: the temporary's 16 KiB write went into y2
    nr.synchronize()
    hx, hx1 = np.arange(4096) % 7, np.arange(1024) % 5
    np.testing.assert_array_equal(y2.numpy(), 2 * hx1)
    np.testing.assert_array_equal(u.numpy(), 2 * hx * hx)
    g.replay()                        # the captured output gets the result too
    np.testing.assert_array_equal(y.numpy(), 2 * hx1)


def test_graphed_results_survive_later_calls_with_temporaries():
    def step(x, w):
        h = nr.ops.matmul(x, w) + x   # temporaries the pool reuses for the output
        return h * x + x

    rng = np.random.default_rng(1)
    hw = rng.uniform(-1, 1, (16, 16)).astype(np.float32)
    w = nr.asarray(hw)
    f = nr.graphed(step)
    inputs = [rng.uniform(-1, 1, (4, 16)).astype(np.float32) for _ in range(3)]
    results = [f(nr.asarray(h), w) for h in inputs]
    for h, r in zip(inputs, results):  # read after all calls: none was overwritten
        want = ((h @ hw + h) * h + h)
        np.testing.assert_allclose(r.numpy(), want, rtol=1e-5, atol=1e-5)
    assert len(f.graphs) == 1
    assert len({id(r) for r in results}) == 3


def test_graphed_returning_an_input_returns_the_calls_input():
    f = nr.graphed(lambda x, y: (nr.ops.add(x, y), x))
    a, b = arr([1, 2]), arr([3, 4])
    f(a, b)
    c = arr([5, 6])
    s, same = f(c, b)
    assert same is c
    np.testing.assert_array_equal(s.numpy(), [8, 10])


def test_replays_in_the_profiler_with_op_names_and_lane_tracks(tmp_path):
    x = arr([1, 2, 3])
    g = nr.Graph()
    with g.capture():
        y = nr.ops.add(nr.ops.mul(x, x), x)
    assert [(n["op"], n["kind"]) for n in g.nodes] == [("mul", "launch"), ("add", "launch")]
    with nr.profile() as p:
        g.replay()
        g.replay()
        nr.synchronize()
    np.testing.assert_array_equal(y.numpy(), [2, 6, 12])
    replays = [a for a in p.activities if a.name == "graph replay"]
    kernels = [a for a in p.activities if a.kind == "kernel"]
    assert len(replays) == 2 and all(a.executed for a in replays)
    assert sorted(a.name for a in kernels) == ["add", "add", "mul", "mul"]
    assert all("lane 0" in a.stream_name for a in kernels)
    assert {a.stream for a in kernels}.isdisjoint({a.stream for a in replays})
    for k in kernels:
        assert any(r.start_ns <= k.start_ns and k.end_ns <= r.end_ns for r in replays)
    assert "graph replay" in p.table()
    trace = p.chrome_trace_json()
    assert "graph replay" in trace and "lane 0" in trace


def test_graph_replays_profiled_from_two_threads():
    errors, outs = [], {}

    def worker(k):
        try:
            s = nr.Stream()
            with s:
                x = arr([k, k])
                g = nr.Graph()
                with g.capture(mode="thread_local"):
                    y = nr.ops.add(x, x)
                for _ in range(3):
                    g.replay()
                outs[k] = y.numpy()
        except Exception as e:  # surfaced below
            errors.append(e)

    with nr.profile() as p:
        threads = [threading.Thread(target=worker, args=(k,)) for k in (1, 2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not errors, errors
    assert outs[1].tolist() == [2, 2] and outs[2].tolist() == [4, 4]
    assert sum(a.name == "graph replay" for a in p.activities) == 6
    assert sum(a.name == "add" for a in p.activities) == 6


def test_graphed_strided_output_is_copied_and_kept():
    f = nr.graphed(lambda x: nr.ops.add(x, x).T)  # a transposed view of a captured array
    a = nr.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    r1 = f(a)
    r2 = f(nr.asarray(np.ones((2, 3), np.float32)))
    np.testing.assert_array_equal(r1.numpy(), (2 * np.arange(6).reshape(2, 3)).T)
    np.testing.assert_array_equal(r2.numpy(), np.full((3, 2), 2.0))
