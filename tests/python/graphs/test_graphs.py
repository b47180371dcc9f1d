"""nr.Graph / nr.graphed: capture, replay, rebinding, capture rules, graph memory.

Reference: numpy on the host. add/mul on float32 are exact for these small
integer-valued inputs, so results are compared exactly.
"""
import json
import warnings

import numpy as np
import pytest

import npurt as nr


def arr(values):
    return nr.asarray(np.asarray(values, dtype=np.float32))


def test_capture_records_and_replay_reexecutes():
    x = arr([1, 2, 3])
    acc = arr([0, 0, 0])
    g = nr.Graph()
    with g.capture():
        nr.ops.add(acc, x, out=acc)
    np.testing.assert_array_equal(acc.numpy(), [0, 0, 0])  # capture ran nothing
    for _ in range(4):
        g.replay()
    np.testing.assert_array_equal(acc.numpy(), [4, 8, 12])
    assert g.replay_count == 4


def test_chain_matches_numpy_and_static_buffers():
    rng = np.random.default_rng(0)
    h = rng.integers(-4, 5, size=1023).astype(np.float32)
    x = nr.asarray(h)
    g = nr.Graph()
    with g.capture():
        y = x
        for i in range(10):
            y = nr.ops.add(y, x) if i % 2 else nr.ops.mul(y, x)
    ref = h.copy()
    for i in range(10):
        ref = ref + h if i % 2 else ref * h
    g.replay()
    np.testing.assert_array_equal(y.numpy(), ref)
    assert [n["name"] for n in g.nodes][:2] == ["npurt_mul_kernel", "npurt_add_kernel"]


def test_rebinding_by_array_and_name():
    x, c = arr([1, 2, 3]), arr([10, 20, 30])
    g = nr.Graph()
    with g.capture(inputs={"x": x}):
        y = nr.ops.add(x, c)
    x2, y2 = arr([5, 6, 7]), arr([0, 0, 0])
    g.replay(inputs={"x": x2, y: y2})
    np.testing.assert_array_equal(y2.numpy(), [15, 26, 37])
    g.replay()
    np.testing.assert_array_equal(y.numpy(), [11, 22, 33])
    with pytest.raises(ValueError, match="shape and dtype must match"):
        g.replay(inputs={x: arr([1, 2, 3, 4])})
    with pytest.raises(ValueError, match="shape and dtype must match"):
        g.replay(inputs={x: nr.zeros((3,), nr.float16)})
    with pytest.raises(nr.CaptureError, match="unknown binding"):
        g.replay(inputs={"nope": x2})


def test_illegal_host_read_raises_and_records_nothing():
    x = arr([1, 2])
    g = nr.Graph()
    with pytest.raises(nr.CaptureError, match="107027"):
        with g.capture():
            y = nr.ops.add(x, x)
            y.numpy()
    assert not nr.is_capturing()
    np.testing.assert_array_equal(nr.ops.add(x, x).numpy(), [2, 4])  # runtime usable
    with pytest.raises(nr.CaptureError, match="not been captured"):
        g.replay()


def test_sync_of_capturing_stream_and_default_stream_capture():
    s = nr.Stream()
    g = nr.Graph()
    with g.capture(stream=s):
        with pytest.raises(nr.CaptureError, match="107027"):
            s.synchronize()
        nr.ops.add(arr_on := nr.zeros((2,), nr.float32), arr_on)
    assert g.num_nodes >= 1
    with pytest.raises(nr.CaptureError, match="107031"):
        with nr.Graph().capture(stream=nr.default_stream()):
            pass


def test_fork_join_two_streams():
    x = arr([1, 2, 3, 4])
    side = nr.Stream()
    g = nr.Graph()
    with g.capture() as gg:
        main = nr.current_stream()
        side.wait_event(main.record_event())
        sq = nr.ops.mul(x, x, stream=side)
        tw = nr.ops.add(x, x)
        main.wait_event(side.record_event())
        y = nr.ops.add(tw, sq)
    assert gg is g
    lanes = {n["lane"] for n in g.nodes}
    assert lanes == {0, 1}
    g.replay()
    np.testing.assert_array_equal(y.numpy(), [3, 8, 15, 24])
    dot = g.to_dot()
    assert "cluster_lane1" in dot and "->" in dot
    doc = json.loads(g.to_json())
    assert len(doc["nodes"]) == 3 and doc["nodes"][2]["deps"] == [1, 0]


def test_graph_pool_memory_shown_and_released():
    key = "graph_pool_bytes.current"
    before = nr.memory.stats()[key]
    x = arr(np.ones(4096))
    g = nr.Graph()
    with g.capture():
        t = nr.ops.add(x, x)
        y = nr.ops.mul(t, x)
    del t
    assert nr.memory.stats()[key] > before
    g.replay()
    p = y.numpy()
    np.testing.assert_array_equal(p, 2 * np.ones(4096))
    del g, y
    nr.synchronize()
    assert nr.memory.stats()[key] == before


def test_graphed_one_capture_per_signature():
    calls = []

    @nr.graphed
    def f(a, b):
        calls.append(a.shape)
        return nr.ops.add(nr.ops.mul(a, b), a)

    for n in (3, 5, 3, 5, 3):
        a = arr(np.arange(n))
        b = arr(np.full(n, 2))
        np.testing.assert_array_equal(f(a, b).numpy(), np.arange(n) * 3)
    assert calls == [(3,), (5,)]  # traced once per shape
    assert len(f.graphs) == 2
    r1, r2 = f(arr([1, 1, 1]), arr([1, 1, 1])), f(arr([2, 2, 2]), arr([1, 1, 1]))
    np.testing.assert_array_equal(r1.numpy(), [2, 2, 2])  # outputs are fresh arrays
    np.testing.assert_array_equal(r2.numpy(), [4, 4, 4])


def test_graphed_falls_back_to_eager_with_one_warning():
    @nr.graphed
    def f(a):
        y = nr.ops.add(a, a)
        return nr.asarray(y.numpy() + 1)  # host read: uncapturable

    with pytest.warns(RuntimeWarning, match="running eagerly"):
        np.testing.assert_array_equal(f(arr([1, 2])).numpy(), [3, 5])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(f(arr([2, 3])).numpy(), [5, 7])
        np.testing.assert_array_equal(f(arr([2, 3, 4])).numpy(), [5, 7, 9])


def test_capture_modes_and_exchange():
    assert nr.exchange_thread_capture_mode("relaxed") == "global"
    assert nr.exchange_thread_capture_mode("global") == "relaxed"
    with pytest.raises(ValueError, match="mode"):
        nr.exchange_thread_capture_mode("bogus")
    other = nr.Stream()
    g = nr.Graph()
    with g.capture(mode="relaxed"):
        other.synchronize()  # allowed in relaxed mode
        nr.ops.add(arr([1]), arr([1]))
    g2 = nr.Graph()
    with g2.capture(mode="global"):
        with pytest.raises(nr.CaptureError, match="107041"):
            other.synchronize()
